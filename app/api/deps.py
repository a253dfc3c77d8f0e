"""What handlers share: the per-app services and the bearer token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.bus import Bus
from app.limits import Bucket, Counter, Refusals, Window
from app.rooms.bots import BotRunner
from app.rooms.hub import Hub
from app.rooms.service import RoomService
from app.settings import Settings


class Limits:
    """This worker's rate limits (see Settings and app/README.md, "Security and limits")."""

    def __init__(self, settings: Settings) -> None:
        self.rooms = Bucket(settings.rooms_burst, settings.rooms_per_minute, "new rooms")
        self.chat = Window(settings.chat_client_burst, settings.chat_window_seconds, "chat lines")
        self.refused = Refusals(
            Window(settings.refused_burst, settings.refused_window_seconds, "refused actions"),
            Window(
                settings.refused_client_burst, settings.refused_window_seconds, "refused actions"
            ),
        )
        self.sockets = Counter(settings.sockets_per_client, "sockets")


def client_key(request: Request) -> str:
    """The client's address (uvicorn puts the proxy's X-Forwarded-For here when it trusts
    the proxy: ``--forwarded-allow-ips``)."""
    return request.client.host if request.client is not None else "unknown"


@dataclass(slots=True)
class Services:
    settings: Settings
    bus: Bus
    service: RoomService
    hub: Hub
    bots: BotRunner
    limits: Limits


def services(request: Request) -> Services:
    coven: Services = request.app.state.coven
    return coven


_bearer = HTTPBearer(auto_error=False, description="the seat token from create/join")


def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


ServicesDep = Annotated[Services, Depends(services)]
ClientDep = Annotated[str, Depends(client_key)]
TokenDep = Annotated[str | None, Depends(bearer_token)]

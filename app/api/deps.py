"""What handlers share: the per-app services and the bearer token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.bus import Bus
from app.rooms.bots import BotRunner
from app.rooms.hub import Hub
from app.rooms.service import RoomService
from app.settings import Settings


@dataclass(slots=True)
class Services:
    settings: Settings
    bus: Bus
    service: RoomService
    hub: Hub
    bots: BotRunner


def services(request: Request) -> Services:
    coven: Services = request.app.state.coven
    return coven


_bearer = HTTPBearer(auto_error=False, description="the seat token from create/join")


def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    return credentials.credentials if credentials is not None else None


ServicesDep = Annotated[Services, Depends(services)]
TokenDep = Annotated[str | None, Depends(bearer_token)]

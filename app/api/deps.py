"""What handlers share: the per-app services and the bearer token."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.bus import Bus
from app.limits import Counter, Counts, Refusals, Window, deployment_key
from app.rooms.bots import BotRunner
from app.rooms.hub import Hub
from app.rooms.rematch import Rematches
from app.rooms.service import RoomService
from app.settings import Settings

# Rooms an address may create without refill (COVEN_ROOMS_PER_MINUTE=0): the burst per day.
NO_REFILL_SECONDS = 24 * 3600.0


class Limits:
    """The rate limits (see Settings and app/README.md, "Security and limits"): counted in
    Redis for every worker when COVEN_REDIS_URL is set, else in this worker's memory; the
    open sockets in this worker."""

    def __init__(self, settings: Settings) -> None:
        counts = self.counts = Counts(
            settings.redis_url, deployment_key(settings.database_url, settings.database_schema)
        )
        # "A burst, then n per minute": at most the burst in any window it takes to earn it.
        rooms_seconds = (
            60.0 * settings.rooms_burst / settings.rooms_per_minute
            if settings.rooms_per_minute > 0
            else NO_REFILL_SECONDS
        )
        self.rooms = Window(counts, "rooms", settings.rooms_burst, rooms_seconds, "new rooms")
        # Chat per seat (every socket of it), and per address for spectators only: players
        # behind one address (a household, a NAT) never share a chat allowance.
        chat_seconds = settings.chat_window_seconds
        self.chat = Window(counts, "chat", settings.chat_seat_burst, chat_seconds, "chat lines")
        self.spectator_chat = Window(
            counts, "chat-spectators", settings.chat_client_burst, chat_seconds, "chat lines"
        )
        refused = settings.refused_window_seconds
        self.refused = Refusals(
            Window(counts, "refused-seat", settings.refused_burst, refused, "refused actions"),
            Window(
                counts, "refused-client", settings.refused_client_burst, refused, "refused actions"
            ),
        )
        self.sockets = Counter(settings.sockets_per_client, "sockets")

    async def close(self) -> None:
        await self.counts.close()


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
    rematches: Rematches


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

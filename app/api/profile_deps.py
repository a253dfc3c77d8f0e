"""What handlers use to know the profile this browser holds (by its cookie)."""

from __future__ import annotations

import logging
from typing import Annotated

from fastapi import Depends, Request

from app.api import profile_cookie
from app.api.deps import ServicesDep, client_key
from app.limits import Window
from app.profiles.records import Holder, SeatToken
from app.profiles.service import ProfileService

log = logging.getLogger(__name__)

# Requests anyone may send that write a row (a profile, a challenge, a browser key) or test a
# device-link code: at most this many per client address in this many seconds, across workers.
SIGN_IN_BURST = 30
SIGN_IN_SECONDS = 60.0


def profiles(request: Request) -> ProfileService:
    service: ProfileService = request.app.state.profiles
    return service


ProfilesDep = Annotated[ProfileService, Depends(profiles)]


async def holder_or_none(request: Request, service: ProfilesDep) -> Holder | None:
    return await service.holder(profile_cookie.secret_of(request))


async def holder(request: Request, service: ProfilesDep) -> Holder:
    """The browser's profile, or 401 ``no_profile``."""
    return await service.require(profile_cookie.secret_of(request))


HolderDep = Annotated[Holder, Depends(holder)]
MaybeHolderDep = Annotated[Holder | None, Depends(holder_or_none)]


class SeatKeeper:
    """Gives a seat just taken (create, join) to the profile this browser holds, if any; the
    room layer stays as it is."""

    def __init__(self, service: ProfileService, held: Holder | None) -> None:
        self.service = service
        self.held = held

    async def __call__(self, room: str, token: str) -> None:
        if self.held is None:
            return
        try:
            await self.service.claim(self.held, [SeatToken(room, token)])
        except Exception:
            # The seat is taken and its token must reach the player: a failed attach leaves a
            # guest seat, which the end screen claims again.
            log.exception("could not give a new seat to its profile")


def seat_keeper(service: ProfilesDep, held: MaybeHolderDep) -> SeatKeeper:
    return SeatKeeper(service, held)


KeepSeatDep = Annotated[SeatKeeper, Depends(seat_keeper)]


async def sign_in_limit(request: Request, coven: ServicesDep) -> None:
    """``rate_limited`` (429) past ``SIGN_IN_BURST`` such requests a minute from one address:
    nobody fills the tables with challenges or guesses device-link codes at speed."""
    window: Window | None = getattr(request.app.state, "sign_in_window", None)
    if window is None:
        window = Window(
            coven.limits.counts, "sign-in", SIGN_IN_BURST, SIGN_IN_SECONDS, "sign-in requests"
        )
        request.app.state.sign_in_window = window
    await window.take(client_key(request))


SignInLimit = Depends(sign_in_limit)

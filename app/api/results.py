"""History and ratings routes: a profile's page data and older matches, a game's leaderboard,
two profiles' head-to-head record, and one room's results for its end screen. Thin handlers
over ``app.results``; who asks is the profile this browser's cookie holds, if any."""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request

from app.api.profile_deps import MaybeHolderDep, holder_or_none, profiles
from app.errors import CovenError
from app.messages import ErrorBody
from app.results import messages
from app.results.queries import MAX_PAGE, PAGE
from app.results.service import Results
from app.results.visibility import Viewer
from app.text import valid_room_code

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (404, 409, 422)
}

router = APIRouter(responses=ERRORS, tags=["history"])


def results(request: Request) -> Results:
    service: Results = request.app.state.results
    return service


ResultsDep = Annotated[Results, Depends(results)]


def viewer(service: ResultsDep, held: MaybeHolderDep) -> Viewer:
    return service.viewer(held.profile.id if held is not None else None)


async def page_status(
    request: Request, *, profile: str | None = None, game: str | None = None
) -> int:
    """The status of the page that shows this profile or this game's leaderboard to this
    browser: 404 where its API would answer 404 (app/pages.py)."""
    service = results(request)
    if game is not None:
        return 200 if service.shows_leaderboard(game) else 404
    held = await holder_or_none(request, profiles(request))
    who = service.viewer(held.profile.id if held is not None else None)
    return 200 if profile is not None and await service.shows_profile(profile, who) else 404


ViewerDep = Annotated[Viewer, Depends(viewer)]


def parse_before(raw: str | None) -> tuple[float, int] | None:
    """``next`` of a history page (``<finished_at>_<n>``) back into where the page starts."""
    if raw is None:
        return None
    when, _, number = raw.partition("_")
    try:
        at, match = float(when), int(number)
    except ValueError:
        raise CovenError("bad_cursor", "before= takes the 'next' of a history page") from None
    if not math.isfinite(at):
        raise CovenError("bad_cursor", "before= takes the 'next' of a history page")
    return at, match


@router.get("/api/profiles/{public_id}", response_model=messages.ProfilePage)
async def profile_page(public_id: str, service: ResultsDep, who: ViewerDep) -> messages.ProfilePage:
    """A profile's page: ratings, per-game figures and the newest matches. A private profile
    (or any, with COVEN_PUBLIC_PROFILES=0) answers its owner only: others get 404."""
    return await service.profile_page(public_id, who)


@router.get("/api/profiles/{public_id}/matches", response_model=messages.History)
async def profile_matches(
    public_id: str,
    service: ResultsDep,
    who: ViewerDep,
    before: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
) -> messages.History:
    """Older matches, newest first: pass the previous page's ``next`` as ``before``."""
    return await service.history(public_id, who, parse_before(before), limit)


@router.get("/api/profiles/{public_id}/versus/{other}", response_model=messages.Versus)
async def versus(
    public_id: str, other: str, service: ResultsDep, who: ViewerDep
) -> messages.Versus:
    """Every finished match both profiles sat in, per game: wins of each, draws."""
    return await service.versus(public_id, other, who)


@router.get("/api/leaderboard/{game_id}", response_model=messages.Leaderboard)
async def leaderboard(game_id: str, service: ResultsDep) -> messages.Leaderboard:
    """Listed profiles rated in this game, best first (off with COVEN_PUBLIC_PROFILES=0)."""
    return await service.leaderboard(game_id)


@router.get("/api/rooms/{code}/results", response_model=messages.RoomResults)
async def room_results(code: str, service: ResultsDep, who: ViewerDep) -> messages.RoomResults:
    """The match's places, scores and the game's figures per seat, once recorded (a moment
    after the end: ``recorded`` false until then)."""
    if not valid_room_code(code):
        raise CovenError("room_not_found", f"no room {code!r}")
    return await service.room_results(code, who)

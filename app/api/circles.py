"""Circle routes and the home page's tables: thin handlers over ``app.circles`` and
``app.home``.

An invite code travels only in request bodies (it lives in the link's fragment, ``/c#<code>``),
and a browser's seat tokens likewise (``POST /api/me/tables``): neither is ever in a URL.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from app.api.deps import ServicesDep
from app.api.profile_deps import HolderDep, MaybeHolderDep
from app.circles import messages as m
from app.circles.invites import invite_url
from app.circles.records import Circle, OpenTable
from app.circles.service import CirclePage, Circles
from app.circles.store import CircleStore
from app.home.tables import HomeTables, TableInProgress
from app.messages import ErrorBody
from app.pages import qr_svg
from app.profiles.records import Profile
from app.profiles.service import ProfileService
from app.rooms.keys import hash_token
from app.text import valid_room_code

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 410, 413, 422)
}

router = APIRouter(responses=ERRORS, tags=["circles"])


class CircleServices:
    """The circle use cases and the home page's tables, on the profiles' database sessions
    (one SQLite write lock for both)."""

    def __init__(self, profiles: ProfileService) -> None:
        db = profiles.store.db
        self.circles = Circles(CircleStore(db, profiles.rooms))
        self.home = HomeTables(db, profiles.rooms)


def circle_services(request: Request) -> CircleServices:
    # Made on first use from the profiles' service the app already starts: nothing of its own
    # to start or close, so the app factory only serves the routes.
    state = request.app.state
    services: CircleServices | None = getattr(state, "circles", None)
    if services is None:
        services = state.circles = CircleServices(state.profiles)
    return services


CirclesDep = Annotated[CircleServices, Depends(circle_services)]


def _base(request: Request, coven: ServicesDep) -> str:
    """Where friends reach this server: COVEN_PUBLIC_URL, else the address this browser used."""
    return coven.settings.public_url or f"{request.url.scheme}://{request.url.netloc}"


BaseDep = Annotated[str, Depends(_base)]


def _invite(base: str, code: str, invite_id: int | None) -> m.InviteLink:
    url = invite_url(base, code)
    return m.InviteLink(url=url, code=code, invite_id=invite_id, svg=qr_svg(url))


def _info(circle: Circle, members: int, you: Profile) -> m.CircleInfo:
    return m.CircleInfo(
        public_id=circle.public_id,
        name=circle.name,
        created_at=circle.created_at,
        members=members,
        keeper=circle.keeper_id == you.id,
        invite_id=circle.invite_id,
    )


def table_info(table: OpenTable) -> m.TableInfo:
    return m.TableInfo(
        code=table.code,
        game=table.game_id,
        name=table.name,
        status=table.status,
        seat_count=table.seat_count,
        seats=[m.TableSeatInfo(seat=s.seat, name=s.name, bot=s.bot) for s in table.seats],
        created_at=table.created_at,
    )


def _detail(page: CirclePage, you: Profile) -> m.CircleDetail:
    circle = page.circle
    member_ids = {x.profile_id for x in page.members}
    boards: dict[str, list[m.StandingInfo]] = {}
    for s in page.standings:
        board = boards.setdefault(s.game_id, [])
        board.append(
            m.StandingInfo(
                rank=len(board) + 1,
                public_id=s.public_id,
                name=s.name,
                listed=s.listed,
                ordinal=s.ordinal,
                mu=s.mu,
                sigma=s.sigma,
                matches=s.matches,
                you=s.profile_id == you.id,
            )
        )
    return m.CircleDetail(
        circle=_info(circle, len(page.members), you),
        members=[
            m.MemberInfo(
                public_id=x.public_id,
                name=x.name,
                listed=x.listed,
                joined_at=x.joined_at,
                keeper=x.profile_id == circle.keeper_id,
                you=x.profile_id == you.id,
            )
            for x in page.members
        ],
        leaderboards=[m.Leaderboard(game=g, standings=b) for g, b in sorted(boards.items())],
        matches=[
            m.PlayedMatchInfo(
                room=match.room_code,
                game=match.game_id,
                finished_at=match.finished_at,
                seats=[
                    m.PlayedSeatInfo(
                        seat=p.seat,
                        name=p.name,
                        place=p.place,
                        score=p.score,
                        bot=p.bot_level,
                        former=p.former,
                        # A private profile's id leads nowhere for others: not given.
                        public_id=p.public_id if p.listed or p.profile_id == you.id else None,
                        member=p.profile_id in member_ids,
                    )
                    for p in match.seats
                ],
            )
            for match in page.matches
        ],
        tables=[table_info(t) for t in page.tables],
    )


# -- circles ------------------------------------------------------------------------------------


@router.post("/api/circles", response_model=m.CircleCreated, status_code=201)
async def create_circle(
    body: m.NewCircle, held: HolderDep, services: CirclesDep, base: BaseDep
) -> m.CircleCreated:
    """A new circle you keep, and its invite link (shown now; only its hash is stored)."""
    circle, code = await services.circles.create(held.profile, body.name)
    return m.CircleCreated(
        circle=_info(circle, 1, held.profile), invite=_invite(base, code, circle.invite_id)
    )


@router.get("/api/circles", response_model=list[m.MyCircle])
async def my_circles(held: HolderDep, services: CirclesDep) -> list[m.MyCircle]:
    """Your circles, each with its tables not finished."""
    return [
        m.MyCircle(
            circle=_info(c.circle, c.members, held.profile),
            tables=[table_info(t) for t in c.tables],
        )
        for c in await services.circles.mine(held.profile)
    ]


@router.get("/api/circles/{public_id}", response_model=m.CircleDetail)
async def circle_page(public_id: str, held: HolderDep, services: CirclesDep) -> m.CircleDetail:
    """A circle, for its members: members, leaderboard per game, recent matches, open tables."""
    return _detail(await services.circles.page(held.profile, public_id), held.profile)


@router.patch("/api/circles/{public_id}", response_model=m.CircleInfo)
async def rename_circle(
    public_id: str, body: m.RenameCircle, held: HolderDep, services: CirclesDep
) -> m.CircleInfo:
    circle = await services.circles.rename(held.profile, public_id, body.name)
    return _info(circle, await services.circles.store.member_count(circle.id), held.profile)


@router.post("/api/circles/{public_id}/invite", response_model=m.InviteLink, status_code=201)
async def renew_invite(
    public_id: str, held: HolderDep, services: CirclesDep, base: BaseDep
) -> m.InviteLink:
    """A new invite link (the keeper); the old one answers ``circle_invite_revoked`` from now."""
    circle, code = await services.circles.renew_invite(held.profile, public_id)
    return _invite(base, code, circle.invite_id)


@router.post("/api/circles/{public_id}/invite/show", response_model=m.InviteLink)
async def show_invite(
    public_id: str, body: m.InviteCode, held: HolderDep, services: CirclesDep, base: BaseDep
) -> m.InviteLink:
    """The link (and its QR code) again, for a member whose browser kept its code, while it
    is the circle's current one."""
    circle = await services.circles.held_invite(held.profile, public_id, body.code)
    return _invite(base, body.code, circle.invite_id)


@router.post("/api/circles/{public_id}/leave", status_code=204)
async def leave_circle(public_id: str, held: HolderDep, services: CirclesDep) -> Response:
    await services.circles.leave(held.profile, public_id)
    return Response(status_code=204)


@router.delete("/api/circles/{public_id}/members/{member}", status_code=204)
async def remove_member(
    public_id: str, member: str, held: HolderDep, services: CirclesDep
) -> Response:
    """The keeper takes a member out of the circle."""
    await services.circles.remove(held.profile, public_id, member)
    return Response(status_code=204)


# -- invite links -------------------------------------------------------------------------------


@router.post("/api/circle-invite", response_model=m.Invitation)
async def look_at_invite(
    body: m.InviteCode, maybe: MaybeHolderDep, services: CirclesDep
) -> m.Invitation:
    """What an invite link opens (its circle's name and size), before joining."""
    profile = maybe.profile if maybe is not None else None
    seen = await services.circles.invitation(body.code, profile)
    return m.Invitation(
        name=seen.circle.name,
        members=seen.members,
        member=seen.member,
        public_id=seen.circle.public_id if seen.member else None,
    )


@router.post("/api/circle-invite/join", response_model=m.CircleInfo)
async def join_circle(body: m.InviteCode, held: HolderDep, services: CirclesDep) -> m.CircleInfo:
    """Join the circle an invite link opens (a member already: nothing changes)."""
    circle = await services.circles.join(held.profile, body.code)
    return _info(circle, await services.circles.store.member_count(circle.id), held.profile)


# -- the home page ------------------------------------------------------------------------------


@router.post("/api/me/tables", response_model=m.MyTables, tags=["home"])
async def my_tables(
    body: m.MyTablesQuery, maybe: MaybeHolderDep, services: CirclesDep, coven: ServicesDep
) -> m.MyTables:
    """The tables not finished where your profile or this browser holds a seat (the browser's
    seat tokens come in the body, never in a URL), yours to play first; with the server's
    clock, so a page counts the turn clocks down in the server's time."""
    by_hash = {hash_token(s.token): s.room for s in body.seats if valid_room_code(s.room)}
    profile_id = maybe.profile.id if maybe is not None else None
    now = coven.service.clock.now()
    tables = await services.home.in_progress(profile_id, by_hash, now=now)
    return m.MyTables(now=now, tables=[_in_progress(t) for t in tables])


def _in_progress(t: TableInProgress) -> m.TableInProgressInfo:
    return m.TableInProgressInfo(
        table=table_info(t.table),
        seat=t.seat,
        to_move=list(t.to_move),
        your_turn=t.your_turn,
        circle=(
            m.CircleMarkInfo(public_id=t.circle.public_id, name=t.circle.name)
            if t.circle is not None
            else None
        ),
        turn_seconds=t.turn_seconds,
        pace=t.pace,
        due=t.due,
        seat_due=list(t.seat_due),
        last_move_at=t.last_move_at,
    )

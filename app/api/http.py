"""The HTTP API (DESIGN.md, "Server"): lobby, seats, start, state, actions, log."""

from __future__ import annotations

import asyncio
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from app import wire
from app.api.circles import CirclesDep
from app.api.deps import ClientDep, ServicesDep, TokenDep
from app.api.profile_deps import KeepSeatDep, MaybeHolderDep
from app.clock import pace_of
from app.errors import CovenError
from app.fairness.public import fairness
from app.messages import (
    ActionAck,
    AddBot,
    BotSeat,
    Contribute,
    CreateRoom,
    ErrorBody,
    GameInfo,
    Health,
    JoinRoom,
    MatchLog,
    MoveSeat,
    ReplaySteps,
    ReplayTimeline,
    RoomInfo,
    RoomWithSeat,
    SeatInfo,
    StateMessage,
    SubmitAction,
)
from app.replay import replays
from app.rooms.hub import Hub
from app.rooms.match_log import LogPage
from app.rooms.service import RoomService
from app.store.repository import RoomRecord
from app.text import valid_room_code
from engine import registry

ERRORS: dict[int | str, dict[str, object]] = {
    code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422, 429)
}

router = APIRouter(responses=ERRORS)


def room_code(code: str) -> str:
    """Room codes are URL-safe base64; anything else is no room (and never reaches the
    database, which may refuse some characters with an error)."""
    if not valid_room_code(code):
        raise CovenError("room_not_found", "no such room")
    return code


Code = Annotated[str, Depends(room_code)]


async def room_info(service: RoomService, hub: Hub, room: RoomRecord) -> RoomInfo:
    game = service.game(room.game_id)
    connected, spectators = await hub.presence(room.code)
    return RoomInfo(
        code=room.code,
        game=room.game_id,
        title=game.title,
        name=room.name,
        visibility=room.visibility,
        status=room.status,
        options=room.options,
        seat_count=room.seat_count,
        min_players=game.min_players,
        max_players=game.max_players,
        turn_seconds=room.turn_seconds,
        clock_rule=room.clock_rule,
        pace=pace_of(room.turn_seconds),
        seats=[
            SeatInfo(
                seat=s.seat,
                name=s.name,
                bot=s.bot_level,
                away=s.away,
                connected=s.bot_level is not None or s.seat in connected,
                former=s.former,
                for_good=s.for_good,
            )
            for s in room.seats
        ],
        spectators=spectators,
        created_at=room.created_at,
        rematch_by=room.rematch_by,
        fairness=fairness(
            room, await service.repo.match(room.id) if room.status == "finished" else None
        ),
    )


@router.get("/healthz", response_model=Health, tags=["ops"])
async def healthz(coven: ServicesDep) -> Health:
    await coven.service.repo.count_rooms()
    return Health(ok=True, sockets=coven.hub.sockets())


@router.get("/api/games", response_model=list[GameInfo], tags=["lobby"])
async def list_games() -> list[GameInfo]:
    return [
        GameInfo(
            id=g.id,
            title=g.title,
            min_players=g.min_players,
            max_players=g.max_players,
            description=getattr(g, "description", ""),
            options=g.options.model_json_schema(),
        )
        for g in registry.games()
    ]


@router.get("/api/games/{game_id}/catalog", tags=["lobby"])
async def game_catalog(game_id: str) -> Response:
    """Static card data for the game's renderer (Whirling Witchcraft: every recipe with both
    faces, every personality, the ingredients and their workbench capacity)."""
    describe = getattr(RoomService.game(game_id), "catalog", None)
    if not callable(describe):
        raise CovenError("unknown_game", f"{game_id!r} has no card catalog")
    return Response(
        wire.dumps(describe()),
        media_type="application/json",
        headers={"Cache-Control": "public, max-age=300"},
    )


@router.post("/api/rooms", response_model=RoomWithSeat, status_code=201, tags=["lobby"])
async def create_room(
    body: CreateRoom,
    coven: ServicesDep,
    client: ClientDep,
    keep_seat: KeepSeatDep,
    held: MaybeHolderDep,
    circles: CirclesDep,
) -> RoomWithSeat:
    # A table for a circle is opened by one of its members: checked before anything is made.
    circle = None
    if body.circle is not None:
        opener = held.profile if held is not None else None
        circle = await circles.circles.open_table_for(opener, body.circle)
    # The public lobby must not be flooded out by one address.
    await coven.limits.rooms.take(client)
    room, seat, token = await coven.service.create_room(
        game_id=body.game,
        visibility=body.visibility,
        options=body.options,
        name=body.name,
        turn_seconds=body.turn_seconds,
        seats=body.seats,
        rematch_by=body.rematch_by,
        clock_rule=body.clock_rule,
        contribution=body.contribution,
    )
    await keep_seat(room.code, token)  # a profile holder's seat is hers
    if circle is not None:
        await circles.circles.attach(room.id, circle)
    return RoomWithSeat(
        room=await room_info(coven.service, coven.hub, room), seat=seat, token=token
    )


@router.get("/api/rooms", response_model=list[RoomInfo], tags=["lobby"])
async def list_rooms(coven: ServicesDep) -> list[RoomInfo]:
    rooms = await coven.service.repo.open_public_rooms()
    return [await room_info(coven.service, coven.hub, r) for r in rooms]


@router.get("/api/rooms/{code}", response_model=RoomInfo, tags=["room"])
async def get_room(code: Code, coven: ServicesDep) -> RoomInfo:
    room = await coven.service.room(code)
    info = await room_info(coven.service, coven.hub, room)
    # A finished table whose players pressed Play again: a reload or a late tab finds it.
    rematch = await coven.rematches.new_room(room)
    info.rematch = rematch.new_code if rematch is not None else None
    return info


@router.post("/api/rooms/{code}/join", response_model=RoomWithSeat, tags=["room"])
async def join_room(
    code: Code, body: JoinRoom, coven: ServicesDep, keep_seat: KeepSeatDep
) -> RoomWithSeat:
    room, seat, token = await coven.service.join(code, body.name, body.contribution)
    await keep_seat(code, token)
    return RoomWithSeat(
        room=await room_info(coven.service, coven.hub, room), seat=seat, token=token
    )


@router.post("/api/rooms/{code}/contribution", response_model=RoomInfo, tags=["room"])
async def contribute(
    code: Code, body: Contribute, coven: ServicesDep, token: TokenDep
) -> RoomInfo:
    """Before the start, this seat's part of the match seed (it replaces the one it had: a
    seat taken without one, a rematch's seat); ``bad_contribution`` (400) for another format."""
    room = await coven.service.contribute(code, token, body.contribution)
    return await room_info(coven.service, coven.hub, room)


@router.post("/api/rooms/{code}/bots", response_model=BotSeat, tags=["room"])
async def add_bot(code: Code, body: AddBot, coven: ServicesDep, token: TokenDep) -> BotSeat:
    connected, _ = await coven.hub.presence(code)
    room, seat = await coven.service.add_bot(code, token, body.level, body.seat, connected)
    return BotSeat(room=await room_info(coven.service, coven.hub, room), seat=seat)


@router.delete("/api/rooms/{code}/seats/{seat}", response_model=RoomInfo, tags=["room"])
async def remove_seat(code: Code, seat: int, coven: ServicesDep, token: TokenDep) -> RoomInfo:
    connected, _ = await coven.hub.presence(code)
    room = await coven.service.remove_seat(code, token, seat, connected)
    return await room_info(coven.service, coven.hub, room)


@router.post("/api/rooms/{code}/seats/{seat}/move", response_model=RoomInfo, tags=["room"])
async def move_seat(
    code: Code, seat: int, body: MoveSeat, coven: ServicesDep, token: TokenDep
) -> RoomInfo:
    room = await coven.service.move_seat(code, token, seat, body.to)
    return await room_info(coven.service, coven.hub, room)


@router.post("/api/rooms/{code}/leave", response_model=RoomInfo, tags=["room"])
async def leave_room(code: Code, coven: ServicesDep, token: TokenDep) -> RoomInfo:
    room = await coven.service.leave(code, token)
    return await room_info(coven.service, coven.hub, room)


@router.post("/api/rooms/{code}/back", response_model=RoomInfo, tags=["room"])
async def take_seat_back(code: Code, coven: ServicesDep, token: TokenDep) -> RoomInfo:
    """Her seat, which the host handed to a bot while she was away, is hers again (her turn
    clock starts afresh); ``not_away`` when no bot plays for it, ``seat_handed_over`` when the
    turn clock handed it to a bot for good."""
    room = await coven.service.take_back(code, token)
    return await room_info(coven.service, coven.hub, room)


@router.post("/api/rooms/{code}/start", response_model=StateMessage, tags=["room"])
async def start_match(code: Code, coven: ServicesDep, token: TokenDep) -> Response:
    table = await coven.service.start(code, token)
    seat = coven.service.seat_of(table.room, token)
    return Response(table.message_text(seat), media_type="application/json")


@router.get("/api/rooms/{code}/state", response_model=StateMessage, tags=["room"])
async def get_state(code: Code, coven: ServicesDep, token: TokenDep) -> Response:
    _, seat = await coven.service.seat_for(code, token)
    table = await coven.service.table(code)
    return Response(table.message_text(seat), media_type="application/json")


@router.post("/api/rooms/{code}/actions", response_model=ActionAck, tags=["room"])
async def submit_action(
    code: Code, body: SubmitAction, coven: ServicesDep, token: TokenDep, client: ClientDep
) -> ActionAck:
    if token is None:
        await coven.service.room(code, cached=True)  # an unknown room is a 404 first
        raise CovenError("spectator", "spectators cannot act; send your seat's bearer token")
    _, seat = await coven.service.seat_for(code, token)
    # A client spamming refused moves is turned away here, before it takes the table's lock.
    keys = (client, f"{code}:{seat}")
    await coven.limits.refused.check(*keys)
    try:
        ack = await coven.service.act(code, seat, body.action, body.client_id, body.version)
    except CovenError:
        await coven.limits.refused.note(*keys)
        raise
    if ack.duplicate:
        # A repeat costs a database look-up under the table's lock: counted like a refusal.
        await coven.limits.refused.note(*keys)
    return ActionAck(client_id=ack.client_id, version=ack.version, duplicate=ack.duplicate)


# The most versions one page of the log holds (``limit``).
LOG_PAGE_MAX = 500


@router.get("/api/rooms/{code}/log", response_model=MatchLog, tags=["room"])
async def get_log(
    code: Code,
    coven: ServicesDep,
    token: TokenDep,
    since: Annotated[
        int | None, Query(ge=0, description="only the events after this version")
    ] = None,
    before: Annotated[
        int | None, Query(ge=1, description="only the events before this version")
    ] = None,
    limit: Annotated[
        int | None,
        Query(ge=1, le=LOG_PAGE_MAX, description="only the latest this many versions of the range"),
    ] = None,
) -> MatchLog:
    """The match's public events by version; with none of ``since``, ``before``, ``limit`` the
    whole match, and its replay record once it is over. With any of them, one page of it and
    no replay record: versions after ``since`` and before ``before``, the latest ``limit``.
    Versions are the caller's own: a seat's token also reads her own private steps."""
    seat = (await coven.service.seat_for(code, token))[1] if token else None
    page = None
    if (since, before, limit) != (None, None, None):
        page = LogPage(since=since, before=before, limit=limit)
    return MatchLog.model_validate(await coven.service.log(code, page, seat))


@router.get("/api/rooms/{code}/replay", response_model=ReplayTimeline, tags=["room"])
async def get_replay(code: Code, coven: ServicesDep) -> Response:
    """The finished match step by step (409 ``not_finished`` before its end)."""
    built = await replays(coven.service).get(code)
    return Response(wire.dumps(built.timeline), media_type="application/json")


@router.get("/api/rooms/{code}/replay/steps", response_model=ReplaySteps, tags=["room"])
async def get_replay_steps(
    code: Code, coven: ServicesDep, start: int = 0, count: int = 1
) -> Response:
    """Every seat's view at ``count`` steps (at most ``app.replay.MAX_COUNT``) from ``start``."""
    built = await replays(coven.service).get(code)
    steps = await asyncio.to_thread(built.steps, start, count)  # views of every seat: off the loop
    return Response(wire.dumps({"steps": steps}), media_type="application/json")

"""One-click rematch (app/rooms/rematch.py): "Play again" on a finished table opens one new room
for the same people, each seat carried over (kept or rotated) with the same token, bots kept;
every socket of the old room is told; the match starts when every person has come, or at the
deadline without them (a bot in their seat, or left out). SQLite and PostgreSQL (``server``)."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import insert, select, update

from app.rooms.rematch import arrange
from app.settings import Settings
from app.store.db import make_engine
from app.store.models import CircleRoomRow, CircleRow, ProfileRow, RoomRow, SeatRow
from app.store.rematches import SeatCopy
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer

GAME = "test-guess"
ONE_ROUND = {"rounds": 1}


@pytest.fixture
def short_wait(settings: Settings) -> Iterator[ThreadServer]:
    """A server whose rematches wait one second for their players."""
    with ThreadServer(dataclasses.replace(settings, rematch_seconds=1.0)) as running:
        yield running


def error(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


def seated(info: dict[str, Any]) -> list[tuple[int, str, str | None]]:
    return [(s["seat"], s["name"], s["bot"]) for s in info["seats"]]


async def room(client: Client, code: str) -> dict[str, Any]:
    response = await client.http.get(f"/api/rooms/{code}")
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()
    return info


async def finished_table(
    url: str, names: list[str], *, bots: int = 0, rematch_by: str = "host"
) -> tuple[str, list[Client]]:
    """A room of ``names`` (the first hosts) and ``bots`` random bots, played to its end."""
    code, players = await open_room(url, GAME, names, options=ONE_ROUND)
    host = players[0]
    if rematch_by != "host":
        changed = await host.http.put(
            f"/api/rooms/{code}/rematch/rules", json={"rematch_by": rematch_by}
        )
        assert changed.status_code == 200, changed.text
    for _ in range(bots):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await play_out(code, players)
    return code, players


async def play_out(code: str, players: list[Client], seconds: float = 20) -> None:
    """Random legal moves for the people until the match is over (the bots answer between)."""
    rng = random.Random(19)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for player in players:
            state = (await player.http.get(f"/api/rooms/{code}/state")).json()
            if state["result"] is not None:
                return
            if state["legal"]:
                await player.http.post(
                    f"/api/rooms/{code}/actions",
                    json={
                        "action": rng.choice(state["legal"]),
                        "client_id": uuid.uuid4().hex,
                        "version": state["version"],
                    },
                )
        await asyncio.sleep(0.02)
    raise AssertionError("the match did not end")


async def started(client: Client, code: str, seconds: float = 10) -> dict[str, Any]:
    """The new room once its match has started."""
    deadline = time.monotonic() + seconds
    while (info := await room(client, code))["status"] == "open":
        assert time.monotonic() < deadline, f"{code} never started: {seated(info)}"
        await asyncio.sleep(0.05)
    return info


async def close(*clients: Client) -> None:
    for client in clients:
        await client.close()


async def test_the_host_plays_again_and_everyone_comes_with_bots_and_seats_kept(
    server: ThreadServer,
) -> None:
    code, players = await finished_table(server.url, ["Ada", "Bea", "Cy"], bots=1)
    host, bea, cy = players
    spectator = await Client(server.url).connect(code)
    await bea.connect(code)
    await spectator.until(lambda: bool(spectator.messages), what="the spectator's first message")
    mark = len(spectator.messages)

    pressed_at = time.monotonic()
    pressed = await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "keep"})
    assert pressed.status_code == 200, pressed.text
    new = pressed.json()["code"]
    assert new and new != code and pressed.json()["started"] is False
    # Every socket of the old room is told, the spectator's too; nothing secret in it.
    told = await spectator.next_of("rematch", mark)
    assert told == {"type": "rematch", "code": new}
    await bea.until(lambda: {"type": "rematch", "code": new} in bea.messages, what="Bea told")
    assert (await room(spectator, code))["rematch"] == new

    # Same people, same seats, the bot kept at its level; the room waits for the people.
    waiting = await room(host, new)
    assert waiting["status"] == "open" and waiting["game"] == GAME
    assert waiting["options"] == (await room(host, code))["options"]
    assert seated(waiting) == [
        (0, "Ada", None),
        (1, "Bea", None),
        (2, "Cy", None),
        (3, "Bot 4", "random"),
    ]
    # Its page says it starts by itself (at the latest at the deadline).
    waits = (await host.http.get(f"/api/rooms/{new}/rematch")).json()
    assert 50 < waits["waiting_seconds"] <= 60 and waits["code"] is None
    # Each old token holds the new seat: arriving answers it.
    for player, seat in ((bea, 1), (cy, 2)):
        arrived = await player.http.post(f"/api/rooms/{new}/arrive")
        assert arrived.status_code == 200, arrived.text
        assert arrived.json() == {"code": new, "seat": seat}
    assert (await room(host, new))["status"] == "open"  # the host has not come yet
    assert (await host.http.post(f"/api/rooms/{new}/arrive")).json()["seat"] == 0
    # The last person in starts the match: no click.
    assert (await room(host, new))["status"] == "playing"
    assert time.monotonic() - pressed_at < 2.0
    assert (await host.http.get(f"/api/rooms/{new}/rematch")).json()["waiting_seconds"] is None
    for player, seat in ((host, 0), (bea, 1), (cy, 2)):
        state = (await player.http.get(f"/api/rooms/{new}/state")).json()
        assert state["seat"] == seat and state["version"] >= 0 and state["result"] is None

    # Pressing again (or late) finds the same room; the old match stays viewable.
    again = await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "rotate"})
    assert again.json()["code"] == new and again.json()["seats"] == "keep"
    assert (await bea.http.post(f"/api/rooms/{code}/rematch")).json()["code"] == new
    assert (await spectator.http.get(f"/api/rooms/{code}/replay")).status_code == 200
    old = await room(spectator, code)
    assert (
        old["status"] == "finished"
        and (await host.http.get(f"/api/rooms/{code}/state")).json()["seat"] == 0
    )
    assert [m for m in spectator.messages[mark:] if m["type"] == "rematch"] == [told]
    await close(host, bea, cy, spectator)


async def test_rotated_seats_move_one_on_and_the_host_seat_never_goes_to_a_bot(
    server: ThreadServer,
) -> None:
    code, players = await finished_table(server.url, ["Ada", "Bea", "Cy"], bots=1)
    pressed = await players[0].http.post(
        f"/api/rooms/{code}/rematch", json={"seats": "rotate", "absent": "leave_out"}
    )
    assert pressed.status_code == 200, pressed.text
    assert (pressed.json()["seats"], pressed.json()["absent"]) == ("rotate", "leave_out")
    new = pressed.json()["code"]
    # One seat on would put the bot (seat 3) in seat 0, which holds the host's tools: two on.
    assert seated(await room(players[0], new)) == [
        (0, "Cy", None),
        (1, "Bot 2", "random"),
        (2, "Ada", None),
        (3, "Bea", None),
    ]
    # Cy hosts the new table, and its rematch rules came along with the choice made.
    rules = (await players[0].http.get(f"/api/rooms/{new}/rematch")).json()
    assert (rules["rematch_by"], rules["seats"], rules["absent"]) == ("host", "rotate", "leave_out")
    for player in players:
        await player.http.post(f"/api/rooms/{new}/arrive")
    info = await started(players[2], new)
    assert [s["name"] for s in info["seats"]] == ["Cy", "Bot 2", "Ada", "Bea"]
    assert (await players[2].http.get(f"/api/rooms/{new}/state")).json()["seat"] == 0
    await close(*players)


def test_arrange_keeps_or_moves_every_seat_one_on() -> None:
    def seat(n: int, name: str, bot: str | None = None) -> SeatCopy:
        return SeatCopy(n, name, None if bot else f"hash-{name}", bot, None, False)

    people = [seat(0, "Ada"), seat(1, "Bea"), seat(2, "Cy")]
    assert [s.name for s in arrange(people, rotate=False)] == ["Ada", "Bea", "Cy"]
    assert [s.name for s in arrange(people, rotate=True)] == ["Cy", "Ada", "Bea"]
    assert [s.seat for s in arrange(people, rotate=True)] == [0, 1, 2]
    with_bots = [
        seat(0, "Ada"),
        seat(1, "Bot 2", "greedy"),
        seat(2, "Bea"),
        seat(3, "Bot 4", "strong"),
    ]
    rotated = arrange(with_bots, rotate=True)
    assert [(s.name, s.bot_level) for s in rotated] == [
        ("Bea", None),
        ("Bot 2", "strong"),
        ("Ada", None),
        ("Bot 4", "greedy"),
    ]
    assert rotated[0].token_hash == "hash-Bea"
    alone = [seat(0, "Ada"), seat(1, "Bot 2", "random")]
    assert [s.name for s in arrange(alone, rotate=True)] == ["Ada", "Bot 2"]


async def test_anyone_may_play_again_when_the_host_said_so_else_only_the_host(
    server: ThreadServer,
) -> None:
    code, (host, bea) = await finished_table(server.url, ["Ada", "Bea"])
    refused = await bea.http.post(f"/api/rooms/{code}/rematch")
    assert refused.status_code == 403 and error(refused) == "not_host"
    changed = await bea.http.put(f"/api/rooms/{code}/rematch/rules", json={"rematch_by": "anyone"})
    assert changed.status_code == 403 and error(changed) == "not_host"
    spectator = Client(server.url)
    nobody = await spectator.http.post(f"/api/rooms/{code}/rematch")
    assert nobody.status_code == 401 and error(nobody) == "unauthorized"
    assert (await room(host, code))["rematch"] is None

    other, (host2, bea2, cy2) = await finished_table(
        server.url, ["Ada", "Bea", "Cy"], rematch_by="anyone"
    )
    assert (await room(bea2, other))["rematch_by"] == "anyone"
    # The host's standing choice is stored on the room: it applies to another player's press,
    # whatever that player asks for.
    await cy2.connect(other)
    await cy2.until(lambda: bool(cy2.messages), what="Cy's first message")
    mark = len(cy2.messages)
    set_rules = await host2.http.put(f"/api/rooms/{other}/rematch/rules", json={"seats": "rotate"})
    assert set_rules.status_code == 200 and set_rules.json()["seats"] == "rotate"
    told = await cy2.next_of("rematch_rules", mark)
    assert told == {
        "type": "rematch_rules",
        "rematch_by": "anyone",
        "seats": "rotate",
        "absent": "bot",
    }
    pressed = await bea2.http.post(f"/api/rooms/{other}/rematch", json={"seats": "keep"})
    assert pressed.status_code == 200, pressed.text
    assert pressed.json()["seats"] == "rotate"
    new = pressed.json()["code"]
    assert [s["name"] for s in (await room(bea2, new))["seats"]] == ["Cy", "Ada", "Bea"]
    assert (await room(bea2, new))["rematch_by"] == "anyone"
    await close(host, bea, spectator, host2, bea2, cy2)


async def test_two_players_pressing_at_once_open_one_room(
    server: ThreadServer, settings: Settings
) -> None:
    code, (host, bea, cy) = await finished_table(
        server.url, ["Ada", "Bea", "Cy"], rematch_by="anyone"
    )
    rooms_before = await count_rooms(settings)
    presses = await asyncio.gather(
        *(p.http.post(f"/api/rooms/{code}/rematch") for p in (host, bea, cy, bea))
    )
    assert [p.status_code for p in presses] == [200] * 4
    assert len({p.json()["code"] for p in presses}) == 1
    assert await count_rooms(settings) == rooms_before + 1
    await close(host, bea, cy)


async def count_rooms(settings: Settings) -> int:
    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        async with engine.connect() as conn:
            return len((await conn.execute(select(RoomRow.id))).all())
    finally:
        await engine.dispose()


async def test_no_rematch_before_the_end_and_arriving_needs_a_seat(server: ThreadServer) -> None:
    code, (host, bea) = await open_room(server.url, GAME, ["Ada", "Bea"], options=ONE_ROUND)
    early = await host.http.post(f"/api/rooms/{code}/rematch")
    assert early.status_code == 409 and error(early) == "not_finished"
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    playing = await host.http.post(f"/api/rooms/{code}/rematch")
    assert playing.status_code == 409 and error(playing) == "not_finished"
    stranger = Client(server.url, token="not-a-seat-token")
    wrong = await stranger.http.post(f"/api/rooms/{code}/rematch")
    assert wrong.status_code == 401 and error(wrong) == "bad_token"
    # This room is no rematch: nobody arrives in it.
    no_rematch = await bea.http.post(f"/api/rooms/{code}/arrive")
    assert no_rematch.status_code == 404 and error(no_rematch) == "no_rematch"
    bad_choice = await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "shuffle"})
    assert bad_choice.status_code == 422
    await play_out(code, [host, bea])
    new = (await host.http.post(f"/api/rooms/{code}/rematch")).json()["code"]
    assert (await Client(server.url).http.post(f"/api/rooms/{new}/arrive")).status_code == 401
    assert (await stranger.http.post(f"/api/rooms/{new}/arrive")).status_code == 401
    await close(host, bea, stranger)


async def test_at_the_deadline_who_did_not_come_gets_a_bot(short_wait: ThreadServer) -> None:
    code, (host, bea, cy) = await finished_table(short_wait.url, ["Ada", "Bea", "Cy"])
    pressed = await host.http.post(f"/api/rooms/{code}/rematch", json={"absent": "bot"})
    new = pressed.json()["code"]
    assert pressed.json()["deadline"] == pytest.approx(time.time() + 1.0, abs=0.5)
    for player in (host, bea):
        assert (await player.http.post(f"/api/rooms/{new}/arrive")).status_code == 200
    assert (await room(host, new))["status"] == "open"  # Cy has not come
    info = await started(host, new)
    assert seated(info) == [(0, "Ada", None), (1, "Bea", None), (2, "Bot 3", "greedy")]
    # Her seat is a bot's for good: her token holds nothing there (she may watch), while the
    # old table still knows her.
    late = await cy.http.post(f"/api/rooms/{new}/arrive")
    assert late.status_code == 401 and error(late) == "bad_token"
    assert (await cy.http.get(f"/api/rooms/{code}/state")).json()["seat"] == 2
    assert (await cy.http.get(f"/api/rooms/{new}/state")).status_code == 401
    await close(host, bea, cy)


async def test_at_the_deadline_who_did_not_come_is_left_out(short_wait: ThreadServer) -> None:
    code, players = await finished_table(short_wait.url, ["Ada", "Bea", "Cy", "Dee"])
    new = (
        await players[0].http.post(f"/api/rooms/{code}/rematch", json={"absent": "leave_out"})
    ).json()["code"]
    for player in players[:2]:
        await player.http.post(f"/api/rooms/{new}/arrive")
    info = await started(players[0], new)
    assert seated(info) == [(0, "Ada", None), (1, "Bea", None)]
    assert (await players[1].http.get(f"/api/rooms/{new}/state")).json()["seat"] == 1

    # Fewer than the game's minimum left: bots fill up to it. The host did not come either,
    # so the person who did takes seat 0.
    other, (host2, bea2) = await finished_table(short_wait.url, ["Ada", "Bea"])
    new2 = (
        await host2.http.post(f"/api/rooms/{other}/rematch", json={"absent": "leave_out"})
    ).json()["code"]
    await bea2.http.post(f"/api/rooms/{new2}/arrive")
    info2 = await started(bea2, new2)
    assert seated(info2) == [(0, "Bea", None), (1, "Bot 1", "greedy")]
    assert (await bea2.http.get(f"/api/rooms/{new2}/state")).json()["seat"] == 0
    await close(*players, host2, bea2)


async def test_nobody_coming_leaves_the_new_room_to_its_host(short_wait: ThreadServer) -> None:
    code, (host, bea) = await finished_table(short_wait.url, ["Ada", "Bea"])
    new = (await host.http.post(f"/api/rooms/{code}/rematch")).json()["code"]
    await asyncio.sleep(2.5)
    info = await room(host, new)
    assert info["status"] == "open" and seated(info) == [(0, "Ada", None), (1, "Bea", None)]
    assert (await host.http.get(f"/api/rooms/{code}/rematch")).json()["started"] is True
    assert (await host.http.post(f"/api/rooms/{new}/start")).status_code == 200
    await close(host, bea)


async def test_profiles_and_the_circle_come_along(server: ThreadServer, settings: Settings) -> None:
    code, (host, bea) = await finished_table(server.url, ["Ada", "Bea"], bots=1)
    engine = make_engine(settings.database_url, settings.database_schema)
    try:
        async with engine.begin() as conn:
            old_id = (
                await conn.execute(select(RoomRow.id).where(RoomRow.code == code))
            ).scalar_one()
            profile = (
                await conn.execute(
                    insert(ProfileRow)
                    .values(
                        public_id=uuid.uuid4().hex, name="Bea", listed=True, created_at=time.time()
                    )
                    .returning(ProfileRow.id)
                )
            ).scalar_one()
            await conn.execute(
                update(SeatRow)
                .where(SeatRow.room_id == old_id, SeatRow.seat == 1)
                .values(profile_id=profile)
            )
            circle = (
                await conn.execute(
                    insert(CircleRow)
                    .values(
                        public_id=uuid.uuid4().hex,
                        name="Friday",
                        created_by=profile,
                        created_at=time.time(),
                    )
                    .returning(CircleRow.id)
                )
            ).scalar_one()
            await conn.execute(insert(CircleRoomRow).values(room_id=old_id, circle_id=circle))
        new = (await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "rotate"})).json()[
            "code"
        ]
        async with engine.connect() as conn:
            new_id = (
                await conn.execute(select(RoomRow.id).where(RoomRow.code == new))
            ).scalar_one()
            seats = (
                await conn.execute(
                    select(SeatRow.seat, SeatRow.name, SeatRow.profile_id)
                    .where(SeatRow.room_id == new_id)
                    .order_by(SeatRow.seat)
                )
            ).all()
            circles = (
                (
                    await conn.execute(
                        select(CircleRoomRow.circle_id).where(CircleRoomRow.room_id == new_id)
                    )
                )
                .scalars()
                .all()
            )
    finally:
        await engine.dispose()
    # Rotated (past the bot, which may not hold seat 0): Bea takes seat 0 with her profile.
    assert [tuple(s) for s in seats] == [(0, "Bea", profile), (1, "Bot 2", None), (2, "Ada", None)]
    assert list(circles) == [circle]
    await close(host, bea)

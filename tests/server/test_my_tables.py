"""My tables (issue 20, item 3): ``POST /api/me/tables`` lists every table not finished where
this browser holds a seat token or its profile holds a seat, with whose turn it is, when the
owing seats' turn clocks run out, when the last move was made, and the server's ``now``;
yours to play first, then by the clock that runs out first, then the rooms waiting for
players. Runs on SQLite and PostgreSQL (the ``server`` fixture); the query count on SQLite."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import event

from app.clock import CORRESPONDENCE_SECONDS
from tests.server.conftest import sqlite_settings
from tests.support.client import TIMEOUT, Client
from tests.support.server import ThreadServer

GAME = "test-guess"
DAY = 86400.0
THREE_DAYS = 3 * DAY
LIVE = 60.0


class Browser:
    """One browser: its cookie jar (a profile, once kept) and the Origin its pages send."""

    def __init__(self, url: str) -> None:
        self.http = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=TIMEOUT)

    async def mine(self, *held: tuple[str, Client]) -> dict[str, Any]:
        body = {"seats": [{"room": code, "token": seat.token} for code, seat in held]}
        answer = await self.http.post("/api/me/tables", json=body)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found


async def open_room(
    host: httpx.AsyncClient, host_name: str, turn_seconds: float | None = None
) -> tuple[str, Client]:
    body: dict[str, Any] = {"game": GAME, "name": host_name, "visibility": "private"}
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    made = await host.post("/api/rooms", json=body)
    assert made.status_code == 201, made.text
    code: str = made.json()["room"]["code"]
    return code, Client(str(host.base_url), made.json()["token"], 0)


async def join(browser: httpx.AsyncClient, code: str, name: str) -> Client:
    joined = await browser.post(f"/api/rooms/{code}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    return Client(str(browser.base_url), joined.json()["token"], joined.json()["seat"])


async def start(host: Client, code: str) -> None:
    started = await host.http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text


async def pick(player: Client, code: str, value: int) -> tuple[float, float]:
    """A pick of ``value``; the wall time just before it was sent and just after its answer."""
    before = time.time()
    answer = await player.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": {"type": "pick", "value": value}, "client_id": f"pick-{player.seat}"},
    )
    assert answer.status_code == 200, answer.text
    return before, time.time()


async def table_clock(player: Client, code: str) -> dict[str, Any]:
    """The turn clocks the table itself shows (its ``state`` message's ``clock``)."""
    state = (await player.http.get(f"/api/rooms/{code}/state")).json()
    clock: dict[str, Any] = state["clock"]
    return clock


async def test_my_tables_by_token_and_by_profile(server: ThreadServer) -> None:
    """Bea keeps a profile on her phone and sits at four tables: her turn at one (a day per
    move), Ada's turn at two (a minute, three days), one waiting for players. Her phone finds
    them by its profile; a browser of hers without the profile, by the seat tokens alone."""
    phone = Browser(server.url)
    made = await phone.http.post("/api/profile", json={"name": "Bea"})
    assert made.status_code == 201, made.text
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as ada:
        # Made oldest first: newest first would list them the other way round.
        hers, ada1 = await open_room(ada, "Ada", DAY)
        bea1 = await join(phone.http, hers, "Bea")
        await start(ada1, hers)
        ada_picked = await pick(ada1, hers, 1)  # every seat picks at once: Bea alone owes now

        soon, ada2 = await open_room(ada, "Ada", LIVE)
        bea2 = await join(phone.http, soon, "Bea")
        await start(ada2, soon)
        await pick(ada2, soon, 1)
        bea_picked = await pick(bea2, soon, 2)  # the round's caller (Ada) owes from now

        later, ada3 = await open_room(ada, "Ada", THREE_DAYS)
        bea3 = await join(phone.http, later, "Bea")
        await start(ada3, later)
        await pick(ada3, later, 1)
        await pick(bea3, later, 2)

        waiting, bea4 = await open_room(phone.http, "Bea")

        # Cy's table: her token sent under Bea's room's code, or under its own code by a
        # browser that is not hers, leaks nothing to Bea.
        cys, cy = await open_room(ada, "Cy")

        before = time.time()
        by_profile = await phone.mine()
        after = time.time()
        assert before <= by_profile["now"] <= after
        tables = by_profile["tables"]
        assert [t["table"]["code"] for t in tables] == [hers, soon, later, waiting]
        assert [(t["your_turn"], t["seat"], t["to_move"]) for t in tables] == [
            (True, 1, [1]),
            (False, 1, [0]),
            (False, 1, [0]),
            (False, 0, []),
        ]
        assert [(t["turn_seconds"], t["pace"]) for t in tables] == [
            (DAY, "correspondence"),
            (LIVE, "live"),
            (THREE_DAYS, "correspondence"),
            (None, "none"),
        ]
        assert DAY >= CORRESPONDENCE_SECONDS > LIVE
        by_code = {t["table"]["code"]: t for t in tables}

        # Due: the same times the table's own clock shows, per seat and the earliest.
        for code, seat in ((hers, ada1), (soon, ada2), (later, ada3)):
            shown = (await table_clock(seat, code))["due"]
            assert by_code[code]["seat_due"] == shown
            assert by_code[code]["due"] == min(d for d in shown if d is not None)
        mine_due = by_code[hers]["seat_due"][1]
        assert by_code[hers]["due"] == mine_due and mine_due > by_profile["now"] + DAY - 60
        # Ada began to owe the call at Bea's pick: her clock runs from that move.
        assert by_code[soon]["due"] == pytest.approx(by_code[soon]["last_move_at"] + LIVE)
        # Last move: the latest action's time (Ada's pick at Bea's turn); none while waiting.
        assert ada_picked[0] <= by_code[hers]["last_move_at"] <= ada_picked[1]
        assert bea_picked[0] <= by_code[soon]["last_move_at"] <= bea_picked[1]
        assert by_code[waiting]["last_move_at"] is None
        assert by_code[waiting]["due"] is None and by_code[waiting]["seat_due"] == []
        assert [s["name"] for s in by_code[hers]["table"]["seats"]] == ["Ada", "Bea"]

        # Another browser of Bea's, without the profile: the tokens alone find the same.
        async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as laptop:
            guest = Browser(server.url)
            guest.http = laptop
            by_token = await guest.mine(
                (hers, bea1), (soon, bea2), (later, bea3), (waiting, bea4), (hers, cy)
            )
            assert by_token["tables"] == tables
            # A token counts only in its own room: Cy's, under Bea's room's code, finds
            # neither table; under its own, from this browser, Cy's table alone (not Bea's).
            assert (await guest.mine((hers, cy)))["tables"] == []
            assert [t["table"]["code"] for t in (await guest.mine((cys, cy)))["tables"]] == [cys]
            assert (await guest.mine((cys, bea1)))["tables"] == []
        # After her move the table is no longer hers to play: it goes below the urgent one.
        await pick(bea1, hers, 2)
        after_move = (await phone.mine())["tables"]
        assert [(t["table"]["code"], t["your_turn"]) for t in after_move] == [
            (soon, False),
            (hers, False),
            (later, False),
            (waiting, False),
        ]
        for client in (ada1, bea1, ada2, bea2, ada3, bea3, bea4, cy):
            await client.close()
    await phone.http.aclose()


class Statements:
    """The SQL statements one server's database engine runs (read in the test's thread while
    the server's runs them: a list's append is atomic)."""

    def __init__(self, server: ThreadServer) -> None:
        app: Any = server.server.config.app
        self.engine = app.state.profiles.store.db.engine.sync_engine
        self.seen: list[str] = []
        event.listen(self.engine, "before_cursor_execute", self._record)

    def _record(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        self.seen.append(statement)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self._record)


@pytest.fixture
def quiet_server(tmp_path: Path) -> Iterator[ThreadServer]:
    """A server whose sweeps wait an hour: the statements counted are the request's own."""
    settings = sqlite_settings(
        tmp_path, sweep_seconds=3600, results_sweep_seconds=3600, notify_sweep_seconds=3600
    )
    with ThreadServer(settings) as running:
        yield running


async def test_the_reads_do_not_grow_with_the_tables(quiet_server: ThreadServer) -> None:
    """One table or eight (played, waiting): the same number of statements."""
    async with httpx.AsyncClient(base_url=quiet_server.url, timeout=TIMEOUT) as ada:
        held: list[tuple[str, Client]] = []
        seated: list[Client] = []
        for number in range(8):
            code, host = await open_room(ada, "Ada", DAY)
            seated.append(host)
            held.append((code, host))
            if number % 2:
                seated.append(await join(ada, code, "Bea"))
                await start(host, code)
                await pick(host, code, 1)
        browser = Browser(quiet_server.url)
        statements = Statements(quiet_server)

        async def counted(*tables: tuple[str, Client]) -> int:
            counts = []
            for _ in range(3):  # the fewest of three: a stray statement is not the request's
                statements.seen.clear()
                assert len((await browser.mine(*tables))["tables"]) == len(tables)
                counts.append(len(statements.seen))
            return min(counts)

        try:
            one, eight = await counted(held[1]), await counted(*held)
        finally:
            statements.close()
        assert one == eight, (one, eight)
        assert one <= 5
        for client in seated:
            await client.close()
        await browser.http.aclose()


async def test_now_and_the_waiting_rooms_follow_the_servers_clock(tmp_path: Path) -> None:
    """The server's clock (here moved on by a test clock file, as by days passing) is the
    answer's ``now``, which the page counts the clocks down from; a room nobody started in
    three days is left out by it."""
    offset = tmp_path / "clock-offset"
    settings = sqlite_settings(tmp_path, clock_file=str(offset))
    with ThreadServer(settings) as server:
        async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as ada:
            daily, host1 = await open_room(ada, "Ada", DAY)
            await join(ada, daily, "Bea")
            await start(host1, daily)
            unclocked, host2 = await open_room(ada, "Ada")
            await join(ada, unclocked, "Bea")
            await start(host2, unclocked)
            waiting, host3 = await open_room(ada, "Ada")
            browser = Browser(server.url)
            held = ((daily, host1), (unclocked, host2), (waiting, host3))

            first = await browser.mine(*held)
            due = {t["table"]["code"]: t["due"] for t in first["tables"]}[daily]
            assert due == pytest.approx(first["now"] + DAY, abs=5)
            offset.write_text(str(2 * 3600))
            later = await browser.mine(*held)
            assert later["now"] == pytest.approx(time.time() + 2 * 3600, abs=5)
            # The due time stays; 2 hours of it have gone.
            assert {t["table"]["code"]: t["due"] for t in later["tables"]}[daily] == due
            assert [t["table"]["code"] for t in later["tables"]][-1] == waiting

            offset.write_text(str(3 * DAY + 3600))
            days_later = [t["table"]["code"] for t in (await browser.mine(*held))["tables"]]
            assert waiting not in days_later and unclocked in days_later
            for client in (host1, host2, host3):
                await client.close()
            await browser.http.aclose()

"""History and ratings (app/results): a finished match recorded once, whatever races to record
it; ratings equal to what OpenSkill computes from the same places; who may see which profile;
head to head; paging. On SQLite and PostgreSQL.

Profiles are rows inserted here (a name, a browser key whose secret the test sends as the
``coven_profile`` cookie) and given seats directly, as the profile routes would.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import itertools
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from openskill.models import PlackettLuce
from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession

from app.profiles.claims import Claims
from app.profiles.records import SeatToken
from app.results.ledger import Ledger, StoredMatch
from app.results.reaction import Recorder
from app.settings import Settings
from app.store.database import Database as StoreDatabase
from app.store.db import make_engine, migrate
from app.store.models import (
    Base,
    MatchPlayerRow,
    MatchResultRow,
    MatchRow,
    ProfileGameTotalsRow,
    ProfileKeyRow,
    ProfileRow,
    RatingRow,
    RoomRow,
    SeatRow,
)
from engine import registry
from tests.server.conftest import PG_URL, _pg_execute, unavailable
from tests.support.client import TIMEOUT, open_room
from tests.support.server import ThreadServer

COOKIE = "coven_profile"


@dataclass(frozen=True)
class Profile:
    id: int
    public_id: str
    secret: str
    name: str

    def cookies(self) -> dict[str, str]:
        return {COOKIE: self.secret}

    def cookie_header(self) -> dict[str, str]:
        return {"cookie": f"{COOKIE}={self.secret}"}


class Database:
    """The test's own connection to the server's database."""

    def __init__(self, settings: Settings) -> None:
        self.engine = make_engine(settings.database_url, settings.database_schema)

    async def profile(self, name: str, *, listed: bool = True) -> Profile:
        secret = secrets.token_urlsafe(32)
        now = time.time()
        async with self.engine.begin() as conn:
            public_id = secrets.token_hex(16)
            created = await conn.execute(
                ProfileRow.__table__.insert()
                .values(public_id=public_id, name=name, listed=listed, created_at=now)
                .returning(ProfileRow.id)
            )
            profile_id = created.scalar_one()
            await conn.execute(
                ProfileKeyRow.__table__.insert().values(
                    profile_id=profile_id,
                    secret_hash=hashlib.sha256(secret.encode()).hexdigest(),
                    via="created",
                    created_at=now,
                    last_used_at=now,
                )
            )
        return Profile(profile_id, public_id, secret, name)

    async def give_seat(self, code: str, seat: int, profile: Profile) -> None:
        room_id = select(RoomRow.id).where(RoomRow.code == code).scalar_subquery()
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SeatRow)
                .where(SeatRow.room_id == room_id, SeatRow.seat == seat)
                .values(profile_id=profile.id)
            )

    async def match_id(self, code: str) -> int:
        async with self.engine.connect() as conn:
            found = await conn.execute(
                select(MatchRow.id).join(RoomRow, RoomRow.id == MatchRow.room_id)
                .where(RoomRow.code == code)
            )
            return int(found.scalar_one())

    async def recorded_rows(self, code: str) -> tuple[int, int]:
        """(match_results rows, match_players rows) of the room's match."""
        match_id = await self.match_id(code)
        async with self.engine.connect() as conn:
            results = await conn.execute(
                select(func.count()).select_from(MatchResultRow)
                .where(MatchResultRow.match_id == match_id)
            )
            players = await conn.execute(
                select(func.count()).select_from(MatchPlayerRow)
                .where(MatchPlayerRow.match_id == match_id)
            )
            return int(results.scalar_one()), int(players.scalar_one())

    async def forget_result(self, code: str) -> None:
        """As if the worker that ended the match died before recording it (the result row and
        the match's mark are written in one transaction: both or neither)."""
        match_id = await self.match_id(code)
        async with self.engine.begin() as conn:
            await conn.execute(delete(MatchResultRow).where(MatchResultRow.match_id == match_id))
            await conn.execute(
                update(MatchRow).where(MatchRow.id == match_id).values(recorded=False)
            )

    async def history_holders(self, code: str) -> list[tuple[int, int | None]]:
        """(seat, profile row id) of every history row of the room's match."""
        match_id = await self.match_id(code)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(MatchPlayerRow.seat, MatchPlayerRow.profile_id)
                .where(MatchPlayerRow.match_id == match_id)
                .order_by(MatchPlayerRow.seat)
            )
            return [(seat, profile_id) for seat, profile_id in rows]

    async def totals(self, profile: Profile) -> list[Any]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ProfileGameTotalsRow).where(ProfileGameTotalsRow.profile_id == profile.id)
            )
            return list(rows.all())

    async def ratings(self, profile: Profile) -> list[Any]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(RatingRow).where(RatingRow.profile_id == profile.id))
            return list(rows.all())

    async def close(self) -> None:
        await self.engine.dispose()


@pytest.fixture
def quick(settings: Settings) -> Settings:
    """The server's settings with a sweep that races the trigger to record every match."""
    return dataclasses.replace(settings, results_sweep_seconds=0.05)


@pytest.fixture
def quick_server(quick: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(quick) as running:
        yield running


@pytest.fixture
async def db(quick: Settings) -> AsyncIterator[Database]:
    await asyncio.to_thread(migrate, quick.database_url, quick.database_schema)
    database = Database(quick)
    yield database
    await database.close()


async def recorded(url: str, code: str, cookies: dict[str, str] | None = None) -> dict[str, Any]:
    """The room's results once recorded."""
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT, cookies=cookies) as http:
        deadline = time.monotonic() + 30
        while True:
            answer = await http.get(f"/api/rooms/{code}/results")
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            if body["recorded"]:
                return body
            assert time.monotonic() < deadline, f"room {code} was never recorded: {body}"
            await asyncio.sleep(0.05)


async def final_state(url: str, code: str) -> tuple[Any, list[dict[str, Any]], dict[str, Any]]:
    """The match replayed here through the engine from its log: the final state, every event
    the engine made on the way, and the result as the room reports it."""
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
        log = (await http.get(f"/api/rooms/{code}/log")).json()["replay"]
        result = (await http.get(f"/api/rooms/{code}/state")).json()["result"]
    game = registry.get(log["game"])
    state = game.setup(log["players"], log["seed"], log["options"])
    events: list[dict[str, Any]] = []
    for entry in log["actions"]:
        step = game.apply(state, entry["seat"], entry["action"])
        state, events = step.state, events + step.events
    return state, events, result


# --- a whole match, recorded once --------------------------------------------------------------


async def test_a_whole_bot_match_is_recorded_once_even_racing_and_after_a_restart(
    quick: Settings, quick_server: ThreadServer, db: Database
) -> None:
    # The host's clock runs out at once: a random bot plays her seat, two bots the others.
    code, (host,) = await open_room(
        quick_server.url, "whirling-witchcraft", ["Hostess"], turn_seconds=0.05
    )
    hostess = await db.profile("Hostess")
    await db.give_seat(code, 0, hostess)
    for _ in range(2):
        added = await host.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    body = await recorded(quick_server.url, code, hostess.cookies())
    await host.close()

    state, events, result = await final_state(quick_server.url, code)
    match = body["match"]
    assert body["finished"] and body["game"] == "whirling-witchcraft"
    assert body["statistic_names"] == list(registry.get("whirling-witchcraft").statistic_names)
    assert [s["place"] for s in match["seats"]] == result["placings"]
    assert [s["score"] for s in match["seats"]] == result["scores"]
    assert [s["bot"] for s in match["seats"]] == [None, "random", "random"]
    assert [s["public_id"] for s in match["seats"]] == [hostess.public_id, None, None]
    assert [s["you"] for s in match["seats"]] == [True, False, False]
    game = registry.get("whirling-witchcraft")
    assert [s["stats"] for s in match["seats"]] == game.statistics(state, events)
    # One profile among bots: nothing to rate.
    assert match["rated"] is False and await db.ratings(hostess) == []

    # The sweep looked again many times meanwhile: still one result.
    await asyncio.sleep(0.5)
    assert await db.recorded_rows(code) == (1, 3)

    # A worker that died before recording: the next start's sweep records it, once.
    await db.forget_result(code)
    assert await db.recorded_rows(code) == (0, 0)
    with ThreadServer(quick) as restarted:
        again = await recorded(restarted.url, code)
        assert again["match"]["seats"] == [{**s, "you": False} for s in match["seats"]]
        await asyncio.sleep(0.3)
    assert await db.recorded_rows(code) == (1, 3)


async def test_the_move_that_ends_a_match_records_it_without_a_sweep(
    quick: Settings, db: Database
) -> None:
    # The sweep runs once at the start, then not for an hour: only the trigger is left.
    with ThreadServer(dataclasses.replace(quick, results_sweep_seconds=3600)) as server:
        jo, kim = await db.profile("Jo"), await db.profile("Kim")
        code = await play_guess(server.url, db, [jo, kim])
        started = time.monotonic()
        body = await recorded(server.url, code)
        assert time.monotonic() - started < 5
    assert body["match"]["rated"] is True
    assert await db.recorded_rows(code) == (1, 2)


async def test_recorders_racing_on_one_match_write_it_once(
    quick: Settings, db: Database
) -> None:
    one, other = await db.profile("One"), await db.profile("Other")
    with ThreadServer(quick) as server:
        code = await play_guess(server.url, db, [one, other])
        await recorded(server.url, code)
    rating_before = await db.ratings(one)
    await db.forget_result(code)
    # Two workers' worth of recorders (each its own engine and pool), four tries each, at once.
    engines = [make_engine(quick.database_url, quick.database_schema) for _ in range(2)]
    try:
        recorders = [Recorder(Ledger(StoreDatabase(e)), registry.get, 3600) for e in engines]
        match_id = await db.match_id(code)
        written = await asyncio.gather(
            *(r.record(match_id) for r in recorders for _ in range(4))
        )
    finally:
        for engine in engines:
            await engine.dispose()
    assert sorted(written) == [False] * 7 + [True]
    assert await db.recorded_rows(code) == (1, 2)
    # Forgetting the result does not roll back its ratings: recording again moved them once
    # more (one more rated match), never twice.
    (after,) = await db.ratings(one)
    assert after.matches == rating_before[0].matches + 1


# --- ratings -----------------------------------------------------------------------------------


async def play_guess(
    url: str, db: Database, people: list[Profile | None], *, bots: int = 0, rounds: int = 1
) -> str:
    """One match of the test game: a profile or ``None`` (a guest) per person's seat, in seat
    order, then ``bots`` bots; the people pick by a fixed rule. Returns the room's code once
    the match is over."""
    code, _ = await play_guess_holding(url, db, people, bots=bots, rounds=rounds)
    return code


async def play_guess_holding(
    url: str, db: Database, people: list[Profile | None], *, bots: int = 0, rounds: int = 1
) -> tuple[str, list[str]]:
    """``play_guess``, with the people's seat tokens (a guest's browser keeps hers)."""
    names = [p.name if p is not None else f"Guest{i}" for i, p in enumerate(people)]
    code, clients = await open_room(url, "test-guess", names, options={"rounds": rounds})
    for _ in range(bots):
        added = await clients[0].http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    for seat, holder in enumerate(people):
        if holder is not None:
            await db.give_seat(code, seat, holder)
    assert (await clients[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    deadline = time.monotonic() + 30
    ticket = itertools.count()
    while True:
        state = (await clients[0].http.get(f"/api/rooms/{code}/state")).json()
        if state["result"] is not None:
            break
        assert time.monotonic() < deadline, f"the match in {code} never ended"
        for client in clients:
            mine = (await client.http.get(f"/api/rooms/{code}/state")).json()
            if mine["legal"]:
                # Seat s picks s % 4, so places differ from one table to the next.
                legal = mine["legal"]
                action = legal[(client.seat or 0) % len(legal)]
                await client.http.post(
                    f"/api/rooms/{code}/actions",
                    json={"action": action, "client_id": f"t{next(ticket)}"},
                )
        await asyncio.sleep(0.02)
    for client in clients:
        await client.close()
    return code, [client.token or "" for client in clients]


def expected_ratings(matches: list[list[tuple[str | None, int]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill's Plackett–Luce, used directly: each match's (profile or None, place) seats,
    in the order they finished; rated when two or more distinct profiles sat, each once."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for seats in matches:
        rated = [(who, place) for who, place in seats if who is not None]
        names = [who for who, _ in rated]
        if len(rated) < 2 or len(set(names)) != len(names):
            continue
        teams = [[ratings.get(who) or model.rating()] for who, _ in rated]
        after = model.rate(teams, ranks=[place for _, place in rated])
        for (who, _), (rating,) in zip(rated, after, strict=True):
            ratings[who] = rating
    return {who: (r.mu, r.sigma) for who, r in ratings.items()}


async def test_ratings_after_a_series_are_openskills_from_the_same_places(
    quick_server: ThreadServer, db: Database
) -> None:
    ann, bea, cat = await db.profile("Ann"), await db.profile("Bea"), await db.profile("Cat")
    series: list[tuple[list[Profile | None], int]] = [
        ([ann, bea], 0),
        ([ann, None, bea], 0),  # a guest among them: her place orders them, nothing more
        ([bea, cat, ann], 1),  # a bot too
        ([ann, ann, cat], 0),  # Ann in two seats: not rated at all
        ([cat, None], 1),  # one profile: not rated
        ([cat, bea, ann], 0),
        ([bea, ann], 0),
    ]
    played: list[list[tuple[str | None, int]]] = []
    for people, bots in series:
        code = await play_guess(quick_server.url, db, people, bots=bots)
        match = (await recorded(quick_server.url, code))["match"]
        played.append([(s["public_id"], s["place"]) for s in match["seats"]])
        profiles = [s["public_id"] for s in match["seats"] if s["public_id"]]
        assert match["rated"] is (len(profiles) >= 2 and len(set(profiles)) == len(profiles))
    expected = expected_ratings(played)
    assert set(expected) == {ann.public_id, bea.public_id, cat.public_id}
    rated_matches = {ann.public_id: 5, bea.public_id: 5, cat.public_id: 2}
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        for who in (ann, bea, cat):
            page = (await http.get(f"/api/profiles/{who.public_id}")).json()
            (rating,) = page["ratings"]
            assert rating["game"] == "test-guess"
            mu, sigma = expected[who.public_id]
            assert rating["mu"] == pytest.approx(mu, abs=1e-9)
            assert rating["sigma"] == pytest.approx(sigma, abs=1e-9)
            assert rating["ordinal"] == pytest.approx(mu - 3 * sigma, abs=1e-9)
            assert rating["matches"] == rated_matches[who.public_id]
        board = (await http.get("/api/leaderboard/test-guess")).json()["entries"]
    ours = [e for e in board if e["public_id"] in expected]
    assert [e["public_id"] for e in ours] == sorted(
        expected, key=lambda p: -(expected[p][0] - 3 * expected[p][1])
    )


async def test_guests_and_bots_move_nobody(quick_server: ThreadServer, db: Database) -> None:
    dee = await db.profile("Dee")
    code = await play_guess(quick_server.url, db, [dee, None, None], bots=1)
    assert (await recorded(quick_server.url, code))["match"]["rated"] is False
    assert await db.ratings(dee) == []


# --- who sees what -----------------------------------------------------------------------------


async def test_a_private_profile_is_its_owners_alone(
    quick_server: ThreadServer, db: Database
) -> None:
    shy, open_ = await db.profile("Shy", listed=False), await db.profile("Open")
    code = await play_guess(quick_server.url, db, [shy, open_])
    await recorded(quick_server.url, code)
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        stranger = await http.get(f"/api/profiles/{shy.public_id}")
        unknown = await http.get(f"/api/profiles/{secrets.token_hex(16)}")
        assert (stranger.status_code, stranger.json()) == (unknown.status_code, unknown.json())
        assert stranger.json()["error"]["code"] == "profile_not_found"
        assert stranger.status_code == 404
        owner = await http.get(f"/api/profiles/{shy.public_id}", headers=shy.cookie_header())
        assert owner.status_code == 200 and owner.json()["profile"]["you"] is True
        board = (await http.get("/api/leaderboard/test-guess")).json()["entries"]
        assert shy.public_id not in {e["public_id"] for e in board}
        assert open_.public_id in {e["public_id"] for e in board}
        # In the other player's history she is a name without a link.
        theirs = (await http.get(f"/api/profiles/{open_.public_id}")).json()
        seats = theirs["history"]["matches"][0]["seats"]
        assert [(s["name"], s["public_id"]) for s in seats] == [
            ("Shy", None), ("Open", open_.public_id)
        ]
        versus = await http.get(f"/api/profiles/{open_.public_id}/versus/{shy.public_id}")
        assert versus.status_code == 404
        results = (await http.get(f"/api/rooms/{code}/results")).json()
        assert shy.public_id not in str(results)


async def test_with_public_profiles_off_each_sees_only_her_own(
    quick: Settings, db: Database
) -> None:
    with ThreadServer(dataclasses.replace(quick, public_profiles=False)) as server:
        eve, fay = await db.profile("Eve"), await db.profile("Fay")
        code = await play_guess(server.url, db, [eve, fay])
        await recorded(server.url, code)
        async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
            board = await http.get("/api/leaderboard/test-guess")
            assert (board.status_code, board.json()["error"]["code"]) == (404, "leaderboards_off")
            other = await http.get(f"/api/profiles/{fay.public_id}", headers=eve.cookie_header())
            assert (other.status_code, other.json()["error"]["code"]) == (
                404, "profile_not_found"
            )
            own = await http.get(f"/api/profiles/{eve.public_id}", headers=eve.cookie_header())
            assert own.status_code == 200 and own.json()["public_profiles"] is False
            seats = own.json()["history"]["matches"][0]["seats"]
            assert [s["public_id"] for s in seats] == [eve.public_id, None]


# --- head to head, history ---------------------------------------------------------------------


async def test_head_to_head_counts_every_match_both_played(
    quick_server: ThreadServer, db: Database
) -> None:
    gil, hal = await db.profile("Gil"), await db.profile("Hal")
    tables: list[tuple[list[Profile | None], int]] = [
        ([gil, hal], 0), ([hal, gil], 0), ([gil, None, hal], 0), ([hal, gil], 1), ([gil], 1),
    ]
    wins = losses = draws = together = 0
    for people, bots in tables:
        code = await play_guess(quick_server.url, db, people, bots=bots)
        seats = (await recorded(quick_server.url, code))["match"]["seats"]
        place = {s["public_id"]: s["place"] for s in seats if s["public_id"]}
        if hal.public_id in place:
            together += 1
            mine, theirs = place[gil.public_id], place[hal.public_id]
            wins, losses, draws = (
                wins + (mine < theirs), losses + (mine > theirs), draws + (mine == theirs)
            )
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        record = (await http.get(f"/api/profiles/{gil.public_id}/versus/{hal.public_id}")).json()
        mirror = (await http.get(f"/api/profiles/{hal.public_id}/versus/{gil.public_id}")).json()
        same = await http.get(f"/api/profiles/{gil.public_id}/versus/{gil.public_id}")
    assert record["games"] == [
        {"game": "test-guess", "matches": together, "wins": wins, "losses": losses,
         "draws": draws}
    ]
    assert together == 4 and record["total"]["matches"] == 4
    assert (mirror["total"]["wins"], mirror["total"]["losses"]) == (losses, wins)
    assert same.json()["error"]["code"] == "same_profile"


async def test_history_pages_run_newest_first_to_the_last(
    quick_server: ThreadServer, db: Database
) -> None:
    ivy = await db.profile("Ivy")
    for played in range(1, 6):
        code = await play_guess(quick_server.url, db, [ivy, None])
        await recorded(quick_server.url, code)
        # Her figures follow each new match (the server keeps them between views).
        async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
            games = (await http.get(f"/api/profiles/{ivy.public_id}")).json()["games"]
        assert [g["matches"] for g in games] == [played]
    seen: list[float] = []
    async with httpx.AsyncClient(base_url=quick_server.url, timeout=TIMEOUT) as http:
        page = (await http.get(f"/api/profiles/{ivy.public_id}/matches?limit=2")).json()
        while True:
            seen += [m["finished_at"] for m in page["matches"]]
            if page["next"] is None:
                break
            page = (
                await http.get(
                    f"/api/profiles/{ivy.public_id}/matches",
                    params={"limit": 2, "before": page["next"]},
                )
            ).json()
        bad = await http.get(f"/api/profiles/{ivy.public_id}/matches?before=yesterday")
        summary = (await http.get(f"/api/profiles/{ivy.public_id}")).json()["games"]
    assert len(seen) == 5 and seen == sorted(seen, reverse=True)
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad_cursor")
    (guess,) = summary
    assert guess["game"] == "test-guess" and guess["matches"] == 5
    assert 1 <= guess["average_place"] <= 2 and 0 <= guess["wins"] <= 5


# --- running totals: her page's figures without reading her past --------------------------------


async def bot_match(url: str, db: Database, host: Profile | None) -> tuple[str, str]:
    """A whole Whirling Witchcraft match among random bots (the host's clock runs out at once:
    a bot plays her seat too). The room's code and the host's seat token."""
    code, (client,) = await open_room(
        url, "whirling-witchcraft", [host.name if host else "Guest"], turn_seconds=0.05
    )
    if host is not None:
        await db.give_seat(code, 0, host)
    for _ in range(2):
        added = await client.http.post(f"/api/rooms/{code}/bots", json={"level": "random"})
        assert added.status_code == 200, added.text
    assert (await client.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await client.close()
    return code, client.token or ""


def game_record(game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """Her page's line for ``game``, worked out here from her seats as the end screens list
    them: matches, first places, average place, each figure's total and per-match average."""
    places = [s["place"] for s in seats]
    figures = []
    for name in registry.get(game).statistic_names:
        values = [s["stats"][name] for s in seats if name in s["stats"]]
        figures.append({
            "name": name,
            "total": float(sum(values)),
            "average": sum(values) / len(values) if values else None,
        })
    return {
        "game": game, "matches": len(seats), "wins": places.count(1),
        "average_place": sum(places) / len(places), "figures": figures,
    }


async def test_her_figures_follow_each_match_a_claim_and_go_with_her(
    quick_server: ThreadServer, db: Database
) -> None:
    wil = await db.profile("Wil")
    url = quick_server.url
    game = "whirling-witchcraft"
    mine: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=TIMEOUT) as http:
        for _ in range(2):
            code, _ = await bot_match(url, db, wil)
            mine.append((await recorded(url, code))["match"]["seats"][0])
            page = (await http.get(f"/api/profiles/{wil.public_id}")).json()
            assert page["games"] == [game_record(game, mine)]
        # A match she played as a guest, then claimed with this browser's seat token: her
        # figures take it at once.
        as_guest, token = await bot_match(url, db, None)
        guest_seat = (await recorded(url, as_guest))["match"]["seats"][0]
        claims = Claims(StoreDatabase(db.engine))
        assert await claims.claim(wil.id, [SeatToken(as_guest, token)]) == 1
        page = (await http.get(f"/api/profiles/{wil.public_id}")).json()
        assert page["games"] == [game_record(game, [*mine, guest_seat])]
        assert await claims.claim(wil.id, [SeatToken(as_guest, token)]) == 0  # once
        again = (await http.get(f"/api/profiles/{wil.public_id}")).json()
        assert again["games"] == page["games"]
        assert len(page["history"]["matches"]) == 3
        (row,) = await db.totals(wil)
        assert row.matches == 3
        # Deleted: her totals go with her.
        gone = await http.delete(
            "/api/profile", headers={**wil.cookie_header(), "Origin": url}
        )
        assert gone.status_code == 204, gone.text
    assert await db.totals(wil) == []


# --- a claim racing the recording of its match -------------------------------------------------


class Pause:
    """A pause put into one side of a race: says when that side got there, waits for ``go``."""

    def __init__(self) -> None:
        self.reached = asyncio.Event()
        self.go = asyncio.Event()

    async def __call__(self) -> None:
        self.reached.set()
        await self.go.wait()


async def no_pause() -> None:
    return None


class PausingLedger(Ledger):
    """The results ledger, pausing after it read the finished match (before its transaction)
    or inside its transaction, before the commit."""

    def __init__(
        self,
        engine: AsyncEngine,
        after_load: Callable[[], Awaitable[None]],
        before_commit: Callable[[], Awaitable[None]],
    ) -> None:
        super().__init__(StoreDatabase(engine))
        self.after_load, self.before_commit = after_load, before_commit

    async def load(self, match_id: int) -> StoredMatch | None:
        stored = await super().load(match_id)
        await self.after_load()
        return stored

    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncSession]:
        async with super()._write() as session:
            yield session
            await self.before_commit()


class PausingDatabase(StoreDatabase):
    """The profiles' database, pausing each write transaction before its commit."""

    def __init__(self, engine: AsyncEngine, before_commit: Callable[[], Awaitable[None]]) -> None:
        super().__init__(engine)
        self.before_commit = before_commit

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncSession]:
        async with super().write() as session:
            yield session
            await self.before_commit()


@pytest.mark.parametrize(
    "paused",
    [
        "recorder, between reading the match and its transaction",
        "claim, before its commit",
        "recorder, before its commit",
    ],
)
async def test_a_claim_racing_the_recording_of_its_match_gives_her_the_match(
    quick: Settings, db: Database, paused: str
) -> None:
    with ThreadServer(quick) as server:
        code, (token, _) = await play_guess_holding(server.url, db, [None, None])
        await recorded(server.url, code)
    await db.forget_result(code)  # finished and not recorded, as its last move left it
    ron = await db.profile("Ron")
    pause = Pause()
    ledger = PausingLedger(
        db.engine,
        after_load=pause if paused.startswith("recorder, between") else no_pause,
        before_commit=pause if paused == "recorder, before its commit" else no_pause,
    )
    claims = Claims(
        PausingDatabase(
            db.engine, pause if paused == "claim, before its commit" else no_pause
        )
    )
    recorder = Recorder(ledger, registry.get, 3600)
    match_id = await db.match_id(code)
    record: asyncio.Task[Any]
    claim: asyncio.Task[Any]
    if paused.startswith("claim"):
        claim = asyncio.create_task(claims.claim(ron.id, [SeatToken(code, token)]))
        await asyncio.wait_for(pause.reached.wait(), TIMEOUT)
        record = asyncio.create_task(recorder.record(match_id))
        second = record
    else:
        record = asyncio.create_task(recorder.record(match_id))
        await asyncio.wait_for(pause.reached.wait(), TIMEOUT)
        claim = asyncio.create_task(claims.claim(ron.id, [SeatToken(code, token)]))
        second = claim
    if paused.endswith("before its commit"):
        # The other side waits for the paused transaction to commit (PostgreSQL: for its
        # row locks; SQLite: for its write lock) rather than read what it has not committed.
        await asyncio.sleep(0.5)
        assert not second.done()
    else:
        await asyncio.wait_for(second, TIMEOUT)  # the claim, all done meanwhile
    pause.go.set()
    assert await asyncio.wait_for(asyncio.gather(record, claim), 30) == [True, 1]
    assert await db.history_holders(code) == [(0, ron.id), (1, None)]
    (row,) = await db.totals(ron)
    assert (row.game_id, row.matches) == ("test-guess", 1)


# --- the migration -----------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A database no migration touched yet: (url, PostgreSQL schema or "")."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}", ""
        return
    schema = f"coven_test_{uuid.uuid4().hex[:10]}"
    try:
        asyncio.run(asyncio.wait_for(_pg_execute(f'CREATE SCHEMA "{schema}"'), 5))
    except Exception as exc:
        unavailable("PostgreSQL", exc)
    yield PG_URL, schema
    asyncio.run(_pg_execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


def rows_of(name: str, *columns: str, json: tuple[str, ...] = ()) -> sa.TableClause:
    return sa.table(name, *(sa.column(c, sa.JSON() if c in json else None) for c in columns))


async def test_migration_0006_adds_up_the_history_kept_before_it(
    empty_database: tuple[str, str]
) -> None:
    url, schema = empty_database
    await asyncio.to_thread(migrate, url, schema or None, "0005")
    engine = make_engine(url, schema or None)
    ww, seasons = "whirling-witchcraft", "seasons"
    try:
        async with engine.begin() as conn:
            await conn.execute(
                rows_of("profiles", "id", "public_id", "name", "listed", "created_at").insert(),
                [{"id": i, "public_id": f"{i:032x}", "name": n, "listed": True, "created_at": 1.0}
                 for i, n in ((1, "Ana"), (2, "Ben"))],
            )
            rooms = rows_of("rooms", "id", "code", "game_id", "name", "visibility", "options",
                            "status", "seat_count", "created_at", json=("options",))
            matches = rows_of("matches", "id", "room_id", "game_id", "seed", "players",
                              "options", "snapshot", "version", "stage", "stage_since",
                              "finished", "created_at", json=("options", "snapshot"))
            # 1, 2, 3: recorded; 4: finished, never recorded; 5: still played.
            games = {1: ww, 2: ww, 3: seasons, 4: ww, 5: ww}
            for n, game in games.items():
                await conn.execute(rooms.insert().values(
                    id=n, code=f"room{n}", game_id=game, name="t", visibility="public",
                    options={}, status="finished" if n < 5 else "playing", seat_count=3,
                    created_at=1.0,
                ))
                await conn.execute(matches.insert().values(
                    id=n, room_id=n, game_id=game, seed=n, players=3, options={}, snapshot={},
                    version=1, stage="x", stage_since=1.0, finished=n < 5, created_at=1.0,
                ))
                await conn.execute(
                    rows_of("actions", "match_id", "version", "seat", "action", "client_id",
                            "stage", "events", "by_bot", "created_at",
                            json=("action", "events")).insert().values(
                        match_id=n, version=1, seat=0, action={}, client_id=f"c{n}", stage="x",
                        events=[], by_bot=False, created_at=float(n),
                    )
                )
            await conn.execute(
                rows_of("match_results", "match_id", "room_id", "game_id", "players",
                        "finished_at", "rated").insert(),
                [{"match_id": n, "room_id": n, "game_id": games[n], "players": 3,
                  "finished_at": float(n), "rated": False} for n in (1, 2, 3)],
            )
            seats = [  # match, seat, profile, place, stats
                (1, 0, 1, 1, {"cubes": 3, "rounds": 1}), (1, 1, 2, 2, {"cubes": 1}),
                (1, 2, None, 3, {"cubes": 9}),
                (2, 0, 1, 2, {"cubes": 5, "note": "not a number"}), (2, 1, 2, 1, {}),
                (2, 2, 1, 3, {"cubes": 1}),  # Ana in two seats: two rows, as her history
                (3, 0, 1, 1, {"crystals": 7.5}),
            ]
            await conn.execute(
                rows_of("match_players", "match_id", "seat", "profile_id", "name", "bot_level",
                        "former", "place", "score", "stats", "game_id", "finished_at",
                        json=("stats",)).insert(),
                [{"match_id": m, "seat": seat, "profile_id": who, "name": "x", "bot_level": None,
                  "former": False, "place": place, "score": None, "stats": stats,
                  "game_id": games[m], "finished_at": float(m)}
                 for m, seat, who, place, stats in seats],
            )
        await asyncio.to_thread(migrate, url, schema or None)

        async with engine.connect() as conn:
            totals = (await conn.execute(
                select(ProfileGameTotalsRow.__table__).order_by("profile_id", "game_id")
            )).all()
            marks = (await conn.execute(
                select(MatchRow.id, MatchRow.recorded).order_by(MatchRow.id)
            )).all()
            diffs = await conn.run_sync(
                lambda sync: compare_metadata(MigrationContext.configure(sync), Base.metadata)
            )
        assert [tuple(r) for r in totals] == [
            (1, seasons, 1, 1, 1, {"crystals": 7.5}, {"crystals": 1}),
            (1, ww, 3, 1, 6, {"cubes": 9, "rounds": 1}, {"cubes": 3, "rounds": 1}),
            (2, ww, 2, 1, 3, {"cubes": 1}, {"cubes": 1}),
        ]
        assert [tuple(r) for r in marks] == [
            (1, True), (2, True), (3, True), (4, False), (5, False)
        ]
        # what the sweep records next
        assert await Ledger(StoreDatabase(engine)).unrecorded() == [4]
        assert diffs == []  # the migrated tables are the models
    finally:
        await engine.dispose()

"""A seat's private steps leave no trace for anyone else (issue 22, item 5).

Two matches from the same seed: in one, an opponent takes one private step before she commits,
in the other five (Witch's Brew: keep/unkeep toggles while choosing roles, one of them an undo;
Whirling Witchcraft: blind production steps; Seasons: library building, with an undo and a
reset, then her libraries completed and confirmed, which the others may learn). Every other
seat and a spectator receive the very same messages in both (versions, views, events, how
many) and get the very same answers from ``GET …/state`` and ``GET …/log``, over real sockets,
on SQLite and PostgreSQL.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from app.fairness import seeds
from tests.support.client import Client, open_room
from tests.support.server import ThreadServer

SECRET = seeds.Secret("5e" * 32, "a1" * 16)
CONTRIBUTION = "c0" * 16
NAMES = ["Agnes", "Brigid", "Circe"]
# Whirling Witchcraft's blind production steps (engine/whirling/game.py: private events).
PRODUCTION = {"brew", "book", "raven", "decline", "potion"}
UNDO = {"type": "undo"}


@pytest.fixture(autouse=True)
def same_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every room draws the same secret and every seat the same contribution: the same seed."""
    monkeypatch.setattr(seeds, "draw_secret", lambda: SECRET)
    monkeypatch.setattr(seeds, "draw_contribution", lambda: CONTRIBUTION)


class Table:
    """One room with three seats and a spectator, all connected."""

    def __init__(self, code: str, players: list[Client], spectator: Client) -> None:
        self.code = code
        self.players = players
        self.spectator = spectator
        self.marks: dict[int, int] = {}
        self.acts = [0] * len(players)
        self.before: tuple[int, int] | None = None  # seat 0's and the public version then
        self.last_move_before: list[float | None] = []

    async def private_steps_begin(self) -> None:
        self.before = (self.players[0].versions[-1], self.spectator.versions[-1])
        self.last_move_before = [await self.last_move_at(p) for p in self.players[1:]]

    async def last_move_at(self, player: Client) -> float | None:
        """ "My tables" for ``player``'s seat: when the table's last move was made."""
        body = {"seats": [{"room": self.code, "token": player.token}]}
        answer = await player.http.post("/api/me/tables", json=body, headers={"Origin": player.url})
        assert answer.status_code == 200, answer.text
        (table,) = answer.json()["tables"]
        moment: float | None = table["last_move_at"]
        return moment

    @classmethod
    async def open(cls, server: ThreadServer, game: str) -> Table:
        code, players = await open_room(server.url, game, NAMES)
        spectator = Client(server.url)
        for client in [*players, spectator]:
            await client.connect(code)
        table = cls(code, players, spectator)
        # Everyone connected is known to every socket before the start: presence settles.
        for client in table.everyone:
            await client.until(
                lambda c=client: any(  # type: ignore[misc]
                    m.get("type") == "presence"
                    and all(s["connected"] for s in m["seats"])
                    and m["spectators"] == 1
                    for m in c.messages
                ),
                what="everyone connected",
            )
        started = await players[0].http.post(f"/api/rooms/{code}/start")
        assert started.status_code == 200, started.text
        for client in table.everyone:
            await client.synced()
            table.marks[id(client)] = len(client.messages)
        return table

    @property
    def everyone(self) -> list[Client]:
        return [*self.players, self.spectator]

    async def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """``seat`` plays ``action`` against its own version; then every socket has caught up
        with what the server holds for it."""
        player = self.players[seat]
        assert player.state is not None
        self.acts[seat] += 1
        client_id = f"seat-{seat}-move-{self.acts[seat]}"  # the same in both matches
        ack = await player.act(action, version=player.state["version"], client_id=client_id)
        assert ack["type"] == "ack", ack
        await player.at_version(ack["version"])
        for client in self.everyone:
            await client.synced()
        return ack

    async def seen_by(self, client: Client) -> dict[str, Any]:
        """Everything ``client`` got since the start, and what the HTTP API tells it now."""
        http = client.http
        messages = client.messages[self.marks[id(client)] :]
        return {
            # Presence comes on its own clock (joins, a 10 s refresh), one text for the room.
            "messages": [m for m in messages if m.get("type") not in ("pong", "presence")],
            "state": (await http.get(f"/api/rooms/{self.code}/state")).json(),
            "log": (await http.get(f"/api/rooms/{self.code}/log")).json(),
            "log_since": (await http.get(f"/api/rooms/{self.code}/log?since=0")).json(),
            "log_page": (await http.get(f"/api/rooms/{self.code}/log?limit=3")).json(),
        }

    async def close(self) -> None:
        for client in self.everyone:
            await client.close()


# Plays a table up to where seat 0 takes private steps, then takes ``steps`` of them (or as
# many as the rules let her, at least 3): returns how many it took.
Play = Callable[[Table, int], Awaitable[int]]


async def play_both(
    server: ThreadServer, game: str, play: Play, finish: Play | None = None
) -> list[dict[str, Any]]:
    """``play`` on two tables from the same seed, seat 0 taking 1 then 5 (at least 3) private
    steps (then ``finish``, public moves, if given); what seats 1 and 2 and the spectator saw,
    per table, and what seat 0 was sent herself (``"own"``)."""
    seen: list[dict[str, Any]] = []
    for steps in (1, 5):
        table = await Table.open(server, game)
        taken = await play(table, steps)
        assert table.before is not None
        assert taken == 1 if steps == 1 else taken >= 3
        # Her own version counted every step; the public one did not move.
        mine_before, public_before = table.before
        assert table.players[0].versions[-1] == mine_before + taken
        assert table.spectator.versions[-1] == public_before
        # "My tables" tells the others the moment of the last move: not of a private step.
        assert [await table.last_move_at(p) for p in table.players[1:]] == table.last_move_before
        if finish is not None:
            await finish(table, steps)
        seen.append(
            {
                "seats": [await table.seen_by(p) for p in table.players[1:]],
                "spectator": await table.seen_by(table.spectator),
                "own": await table.seen_by(table.players[0]),
            }
        )
        await table.close()
    return seen


async def toggle_roles(table: Table, steps: int) -> int:
    """Witch's Brew, before anyone has chosen: seats 1 and 2 keep a role each (private too),
    then seat 0 keeps and un-keeps a role ``steps`` times in all, ending with it kept, then
    seat 1 keeps another."""
    for seat in (1, 2):
        await table.act(seat, legal(table, seat, "keep")[0])
    role = legal(table, 0, "keep")[0]
    await table.private_steps_begin()
    for n in range(steps):
        # the second step takes the keep back by undo (private too), the fourth un-keeps it
        back = UNDO if n == 1 else {"type": "unkeep", "role": role["role"]}
        await table.act(0, role if n % 2 == 0 else back)
    # Seat 1 goes on choosing against the version it holds: the others' private steps since
    # never make its move stale.
    await table.act(1, legal(table, 1, "keep")[0])
    return steps


async def produce_blind(table: Table, steps: int) -> int:
    """Whirling Witchcraft (blind production): play on in seat order (the same random choices
    on both tables) until seat 0 brews with at least 5 production steps to choose from, then
    seat 0 takes up to ``steps`` of them in a row."""
    rng = random.Random(11)
    for _ in range(400):
        owing = table.spectator.state["to_move"] if table.spectator.state else []
        if 0 in owing and len(private_choices(table, 0)) >= 5:
            break
        seat = owing[0]
        player = table.players[seat]
        assert player.state is not None
        await table.act(seat, rng.choice(player.state["legal"]))
    else:
        raise AssertionError("seat 0 never came to brew")
    await table.private_steps_begin()
    taken = 0
    while taken < steps:
        choices = private_choices(table, 0)
        if not choices:
            break
        await table.act(0, choices[0])
        taken += 1
    return taken


async def build_libraries(table: Table, steps: int) -> int:
    """Seasons (apprentice: the sets are dealt, every seat builds at once): seats 1 and 2 put a
    card into a library each (private too), then seat 0 takes ``steps`` building steps — with
    5: a card in, another, that one taken back by undo, a reset, a card in — then seat 1 puts
    another card, against the version it holds."""
    for seat in (1, 2):
        await table.act(seat, legal(table, seat, "to_library")[0])
    await table.private_steps_begin()
    plan = ["to_library"] if steps == 1 else ["to_library", "to_library", "undo", "reset"]
    plan += ["to_library"] * (steps - len(plan))
    for kind in plan:
        if kind == "undo":
            await table.act(0, UNDO)
        elif kind == "reset":
            await table.act(0, *legal(table, 0, "reset_libraries"))
        else:
            await table.act(0, legal(table, 0, kind)[-1])  # into Library III
    await table.act(1, legal(table, 1, "to_library")[0])
    return len(plan)


async def complete_libraries(table: Table, steps: int) -> None:
    """Seat 0 fills both libraries (private steps) and confirms them (public)."""
    while not legal(table, 0, "confirm_libraries"):
        await table.act(0, legal(table, 0, "to_library")[0])
    await table.act(0, *legal(table, 0, "confirm_libraries"))


def legal(table: Table, seat: int, kind: str) -> list[dict[str, Any]]:
    state = table.players[seat].state
    assert state is not None
    return [a for a in state["legal"] if a["type"] == kind]


def private_choices(table: Table, seat: int) -> list[dict[str, Any]]:
    state = table.players[seat].state
    assert state is not None
    return [a for a in state["legal"] if a["type"] in PRODUCTION]


def assert_same(first: dict[str, Any], second: dict[str, Any]) -> None:
    for key in first:
        assert first[key] == second[key], f"{key} differs"


async def test_brew_toggles_leave_no_trace(server: ThreadServer) -> None:
    one, five = await play_both(server, "witchs-brew", toggle_roles)
    for seat in (0, 1):
        assert_same(one["seats"][seat], five["seats"][seat])
    assert_same(one["spectator"], five["spectator"])
    # Not a table where nothing was sent: each other seat saw its own keeps, the spectator
    # saw nothing (keeping is private to each witch).
    counts = [len([m for m in s["messages"] if m["type"] == "state"]) for s in one["seats"]]
    assert counts == [2, 1]
    assert not [m for m in one["spectator"]["messages"] if m["type"] == "state"]


async def test_whirling_blind_production_leaves_no_trace(server: ThreadServer) -> None:
    one, five = await play_both(server, "whirling-witchcraft", produce_blind)
    for seat in (0, 1):
        assert_same(one["seats"][seat], five["seats"][seat])
    assert_same(one["spectator"], five["spectator"])
    assert one["spectator"]["state"]["version"] > 0  # public moves came before the brewing


def states(seen: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in seen["messages"] if m["type"] == "state"]


async def test_seasons_library_building_leaves_no_trace(server: ThreadServer) -> None:
    one, five = await play_both(server, "seasons", build_libraries, complete_libraries)
    for seat in (0, 1):
        assert_same(one["seats"][seat], five["seats"][seat])
    assert_same(one["spectator"], five["spectator"])
    # Each other seat saw its own building steps and seat 0's confirmation, the spectator the
    # confirmation alone: what the rules make public (she has built; 3 and 3 cards face down).
    assert [len(states(s)) for s in one["seats"]] == [3, 2]
    (confirmed,) = states(one["spectator"])
    assert {"type": "libraries_built", "seat": 0} in confirmed["events"]
    board = confirmed["view"]["seats"][0]
    assert board["built"] and board["library_counts"] == [3, 3] and board["hand_count"] == 3
    # While she built, the others saw all her cards in her hand and nothing of her piles.
    before = states(one["seats"][1])[-2]["view"]["seats"][0]
    assert before["library_counts"] == "hidden" and before["hand_count"] == 9
    assert not before["built"]
    # Her own socket got every step of hers, her piles shown, her undo told to her alone.
    own = states(five["own"])
    assert [m["version"] for m in own] == list(range(own[0]["version"], own[-1]["version"] + 1))
    told = {"type": "undone_privately", "seat": 0, "@to": [0]}
    assert len([m for m in own if told in m["events"]]) == 1
    assert [len(lib) for lib in own[-1]["view"]["seats"][0]["libraries"]] == [3, 3]
    told_others = [e for s in five["seats"] for m in states(s) for e in m["events"]]
    assert not [e for e in told_others if e["type"].startswith("undone")]

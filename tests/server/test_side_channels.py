"""No side channel: a bot's answer time, and what the other seats receive when it answers, do
not depend on what only its seat knows (issue 22 item 5; docs/DESIGN.md "No side channels").

Rooms of bots play on a real server (the host hands her seat to a ``random`` bot); a spy on the
runner notes, for every decision a bot owes alone, how many legal actions its seat had — its
secret: in Witch's Brew whether it holds the led role, in Seasons and Whirling Witchcraft its
hand. The host's socket times every state message; a bot's answer time is the gap between the
message at which it came to owe the decision and the one its answer made. A two-sample
Kolmogorov–Smirnov test compares answers with one legal action to answers with several: with
pacing (the default) it finds no difference; with ``bot_pace=False`` (how bots answered before)
it finds the difference at once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import math
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from app import wire
from app.rooms import thinking
from app.rooms.bots import BotRunner
from app.rooms.pacing import ANSWER_SHARE
from app.rooms.tables import Table
from app.settings import Settings
from engine.protocol import events_for
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.fair_pool import fair_children
from tests.support.server import ThreadServer

BUDGET_MS = 400  # small enough that many answers fit in a few seconds
DELAY = 0.05  # as a room's bot_delay: each answer has a state message of its own
ROOMS = 6
SECONDS = 14.0
# Per level and class (the secret one way or the other), for the test to mean anything.
MIN_SAMPLES = 8
SAME = 0.001  # the KS p-value above which two sets of answer times are not told apart
SIZE_CHECKS = 400  # decisions whose alternatives are rendered for the other seats


def ks_test(a: list[float], b: list[float]) -> tuple[float, float]:
    """Two-sample Kolmogorov–Smirnov: the statistic D and its asymptotic p-value (Numerical
    Recipes' form of the Kolmogorov distribution)."""
    xs, ys = sorted(a), sorted(b)
    n, m = len(xs), len(ys)
    i = j = 0
    d = 0.0
    while i < n and j < m:
        x = min(xs[i], ys[j])
        while i < n and xs[i] <= x:
            i += 1
        while j < m and ys[j] <= x:
            j += 1
        d = max(d, abs(i / n - j / m))
    en = math.sqrt(n * m / (n + m))
    lam = (en + 0.12 + 0.11 / en) * d
    if lam < 0.2:
        return d, 1.0
    p = 2 * sum((-1) ** (k - 1) * math.exp(-2 * k * k * lam * lam) for k in range(1, 101))
    return d, min(1.0, max(0.0, p))


def test_the_ks_test_tells_apart_what_differs_and_not_what_does_not() -> None:
    same = ks_test([i / 100 for i in range(100)], [i / 100 + 0.001 for i in range(100)])
    apart = ks_test([i / 100 for i in range(30)], [0.5 + i / 100 for i in range(30)])
    assert same[1] > 0.9 and apart[1] < 1e-6


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision a bot owed, with the table it owed it at (looked into after the run, so
    that the spy adds no time to the answer)."""

    code: str
    seat: int
    level: str
    table: Table

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def watched(self) -> int:
        """The version the watcher (seat 0) saw this table at: its own numbering, which the
        other seats' private steps do not move (app/rooms/private_steps.py)."""
        return self.table.version_for(0)

    @property
    def fresh(self) -> bool:
        """Whether the action that made this version was public (the watcher got a message at
        it): the answer time is measured from that message."""
        return self.table.private.get(self.table.version) is None

    @property
    def legal(self) -> int:
        """The seat's number of legal actions: its secret."""
        return len(self.table.game.legal_actions(self.table.state, self.seat))

    @property
    def phase(self) -> str:
        """The phase of the match, as everyone sees it: public."""
        return str(self.table.game.view(self.table.state, None).get("phase"))

    @property
    def alone(self) -> bool:
        """Whether it was the only seat that owed a decision at this version."""
        return self.table.to_move == {self.seat}


def others_sizes(table: Table, seat: int) -> tuple[int, ...] | None:
    """When ``seat``'s choice is secret (every event it makes is its own), how many different
    sizes each other seat may be sent after it, over its legal actions; else None."""
    game, state = table.game, table.state
    sizes: dict[int, set[int]] = defaultdict(set)
    for action in game.legal_actions(state, seat):
        step = game.apply(state, seat, action)
        if any(events_for(step.events, None)):
            return None  # a public choice: the others are meant to see it
        for other in range(table.match.players):
            if other != seat:
                shown = {
                    "view": game.view(step.state, other),
                    "events": events_for(step.events, other),
                    "to_move": sorted(game.to_move(step.state)),
                }
                sizes[other].add(len(wire.dumps(shown)))
    return tuple(len(sizes[other]) for other in sorted(sizes))


def spy_on(runner: BotRunner, decisions: list[Decision]) -> None:
    """Note every decision the runner's bots think about, with the seat's secret."""
    think = runner._think

    async def noted(code: str, table: Table, seat: int, level: str, started: float) -> Any:
        decisions.append(Decision(code, seat, level, table))
        return await think(code, table, seat, level, started)

    runner._think = noted  # type: ignore[method-assign]
    play = runner._play_unpaced

    async def noted_unpaced(code: str, table: Table, due: list[tuple[int, str]]) -> float:
        decisions.extend(Decision(code, seat, level, table) for seat, level in due)
        return await play(code, table, due)

    runner._play_unpaced = noted_unpaced  # type: ignore[method-assign]


def note_visible(runner: BotRunner, visible: dict[tuple[str, int, int], bool]) -> None:
    """Note, per (room, match version, seat), whether the watcher (seat 0) saw the bot's
    answer there: another seat's private step (keeping a role) sends it nothing, so it has no
    time to measure; seat 0's own private steps it sees."""
    moves = runner.service.moves
    submit = moves.bot_act

    async def noted(code: str, table: Table, seat: int, action: Any, client_id: Any = None) -> Any:
        ack = await submit(code, table, seat, action, client_id)
        latest = runner.tables.cached(code)
        if latest is not None and not ack.duplicate:
            visible[(code, table.version, seat)] = latest.private.get(latest.version) in (None, 0)
        return ack

    moves.bot_act = noted  # type: ignore[method-assign]


class Watcher(Client):
    """A client that notes when each message arrived, and its size."""

    def __init__(self, url: str, token: str | None = None, seat: int | None = None) -> None:
        super().__init__(url, token, seat)
        self.arrivals: list[tuple[float, str, int, int | None]] = []  # (t, type, bytes, version)

    async def connect(self, code: str) -> Client:
        await super().connect(code)
        return self

    async def _read(self) -> None:
        assert self.ws is not None
        async for raw in self.ws:
            message = wire.loads(raw)
            self.arrivals.append(
                (time.monotonic(), message.get("type"), len(raw), message.get("version"))
            )
            self.messages.append(message)


@dataclass(slots=True)
class Answers:
    """Per level, (the seat's number of legal actions, its answer time less the pace the
    table knew beforehand, the match's phase) of each answer."""

    times: dict[str, list[tuple[int, float, str]]]
    counts: dict[str, list[tuple[int, int]]]  # (legal actions, messages the host got)
    secret_sizes: list[tuple[int, ...]]
    late: int
    answers: int


async def play_rooms(settings: Settings, game: str, levels: list[str]) -> Answers:
    decisions: list[Decision] = []
    with ThreadServer(settings) as server:
        runner: BotRunner = server.server.config.app.state.coven.bots  # type: ignore[attr-defined]
        spy_on(runner, decisions)
        visible: dict[tuple[str, int, int], bool] = {}
        note_visible(runner, visible)
        watchers: dict[str, Watcher] = {}
        for _ in range(ROOMS):
            code, (host,) = await open_room(server.url, game, ["Host"])
            for level in levels:
                response = await host.http.post(f"/api/rooms/{code}/bots", json={"level": level})
                assert response.status_code == 200, response.text
            await host.http.post(f"/api/rooms/{code}/start")
            # The host's seat goes to a random bot: the whole table plays itself.
            response = await host.http.post(
                f"/api/rooms/{code}/bots", json={"level": "random", "seat": 0}
            )
            assert response.status_code == 200, response.text
            watchers[code] = watcher = Watcher(server.url, host.token, 0)
            await watcher.connect(code)
            await host.http.aclose()
        await asyncio.sleep(SECONDS)
        late, answers = runner.overruns.late, runner.overruns.answers
        for watcher in watchers.values():
            await watcher.close()
    times: dict[str, list[tuple[int, float, str]]] = defaultdict(list)
    counts: dict[str, list[tuple[int, int]]] = defaultdict(list)
    # The bots that owe at one version answer together, in seat order: the i-th one's answer
    # is version + 1 + i.
    # A room that changed without a new version (a socket came, away flags) has its bots
    # decide again, with the same start: the first decision of each seat at a version counts.
    firsts: dict[tuple[str, int, int], Decision] = {}
    for d in decisions:
        firsts.setdefault((d.code, d.version, d.seat), d)
    decisions = list(firsts.values())
    batches: dict[tuple[str, int], list[Decision]] = defaultdict(list)
    for d in decisions:
        batches[(d.code, d.version)].append(d)
    for d in decisions:
        # Only answers the watcher sees, owed at a version it got a message at.
        if d.level == "random" or not d.fresh or not visible.get((d.code, d.version, d.seat)):
            continue
        batch = batches[(d.code, d.version)]
        rank = sum(
            1 for b in batch if b.seat < d.seat and visible.get((b.code, b.version, b.seat))
        )
        arrivals = watchers[d.code].arrivals
        states = [(i, v) for i, (_, kind, _, v) in enumerate(arrivals) if kind == "state"]
        came = next((i for i, v in states if v == d.watched), None)
        # The first message that shows the answer (quick answers may share one).
        went = next((i for i, v in states if v >= d.watched + 1 + rank), None)
        if came is None or went is None:
            continue  # the run ended first, or a message covered the version it was owed at
        # What the table knows beforehand: which seats owe and their levels, so when they all
        # answer; the rest of the time is what may not depend on the secret.
        public = settings.bot_delay + max(
            ANSWER_SHARE[b.level] * (settings.bot_budget_ms or 0) / 1000 for b in batch
        )
        answered = arrivals[went][0] - arrivals[came][0] - public
        times[d.level].append((d.legal, answered, d.phase))
        if d.alone and arrivals[went][3] == d.watched + 1:
            # Presence messages come on their own clock (joins, a periodic refresh).
            between = arrivals[came + 1 : went + 1]
            sent = sum(1 for _, kind, _, _ in between if kind != "presence")
            counts[d.level].append((d.legal, sent))
    secret = []
    for d in decisions[:SIZE_CHECKS]:
        sizes = others_sizes(d.table, d.seat) if d.legal > 1 else None
        if sizes:
            secret.append(sizes)
    return Answers(times, counts, secret, late, answers)


@pytest.fixture(autouse=True)
def fair_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's processes at the test's own priority, not ``SCHED_IDLE``
    (``tests/support/fair_pool.py``): the test is the pacing, so its thinking gets its fair
    share of a machine other work keeps busy; lateness the server counts, and
    ``benchmarks/bot_pacing.py`` measures it."""
    monkeypatch.setattr(thinking.Thinkers, "_lower_new_children", fair_children)


def bot_settings(tmp_path: Path, **overrides: Any) -> Settings:
    base = sqlite_settings(tmp_path, bot_delay=DELAY, sweep_seconds=0.2)
    values: dict[str, Any] = {"bot_processes": 2, "bot_budget_ms": BUDGET_MS, **overrides}
    return dataclasses.replace(base, **values)


GAMES = {
    "witchs-brew": ["greedy", "strong"],
    "seasons": ["greedy", "strong"],
    "whirling-witchcraft": ["greedy", "strong"],
}


def by_phase(samples: list[tuple[int, float, str]]) -> list[tuple[int, float]]:
    """Each answer time less the median of its phase's: what the table does after an answer
    costs more in one phase than in another (a draft pick passes hands, a turn's end scores),
    and phases, public, come with hands of different sizes. What is left to compare is what
    the secret could change within one phase."""
    phases: dict[str, list[float]] = defaultdict(list)
    for _, t, phase in samples:
        phases[phase].append(t)
    middle = {phase: sorted(ts)[len(ts) // 2] for phase, ts in phases.items()}
    return [(n, t - middle[phase]) for n, t, phase in samples]


def split(samples: list[tuple[int, float]], game: str) -> tuple[list[float], list[float]]:
    """The answer times with the secret one way and the other: in Witch's Brew one legal action
    (the bot does not hold the led role) or several; in the other games few legal actions or
    many — what a hand allows — cut where the two sides are the most even."""
    if game == "witchs-brew":
        cut = 1
    else:
        legal = sorted(n for n, _ in samples)
        cuts = sorted(set(legal))[:-1] or [1]
        cut = max(cuts, key=lambda c: min(sum(n <= c for n in legal), sum(n > c for n in legal)))
    return [t for n, t in samples if n <= cut], [t for n, t in samples if n > cut]


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_bots_answer_time_does_not_tell_its_secret(tmp_path: Path, game: str) -> None:
    answers = await play_rooms(bot_settings(tmp_path), game, GAMES[game])
    report: dict[str, Any] = {"late": (answers.late, answers.answers)}
    for level in GAMES[game]:
        few, many = split(by_phase(answers.times[level]), game)
        report[level] = [(len(x), round(sorted(x)[len(x) // 2], 3)) for x in (few, many) if x]
        print(game, report)
        assert min(len(few), len(many)) >= MIN_SAMPLES, report
        d, p = ks_test(few, many)
        assert p > SAME, f"{game} {level}: D={d:.2f} p={p:.2g}: {report}"
        # And the answers came when the table expected them, give or take a commit.
        plain = [t for _, t, _ in answers.times[level]]
        median = sorted(plain)[len(plain) // 2]
        assert 0 <= median < 0.25, (level, median)
        # What the host receives per answer: one message, whatever the bot's secret (counted
        # where the bot owed alone: in Whirling Witchcraft the witches mostly choose together,
        # and a run may have no such answer of a level).
        sent = {n for _, n in answers.counts[level]}
        assert sent <= {1}, answers.counts[level]
        assert sent or game == "whirling-witchcraft", answers.counts[level]
    # A secret choice changes nothing the others are sent: not even its size.
    assert answers.secret_sizes, "no secret choice came up"
    for sizes in answers.secret_sizes:
        assert set(sizes) == {1}, sizes


async def test_without_pacing_the_clock_tells(tmp_path: Path) -> None:
    """The contrast that makes the test above mean something: bots as they answered before
    (``COVEN_BOT_PACE=0``: after the delay, as soon as decided) give their secret away, and
    the same test sees it."""
    # A shorter budget: without the deadline cut, searches queue for the pool.
    settings = bot_settings(tmp_path, bot_pace=False, bot_budget_ms=BUDGET_MS // 2)
    answers = await play_rooms(settings, "witchs-brew", ["greedy", "strong"])
    forced, chosen = split([(n, t) for n, t, _ in answers.times["strong"]], "witchs-brew")
    report = [(len(x), round(sorted(x)[len(x) // 2], 3)) for x in (forced, chosen) if x]
    print("unpaced", report)
    # Quick answers often share a message with the next one: fewer forced samples count.
    assert min(len(forced), len(chosen)) >= 5, report
    d, p = ks_test(forced, chosen)
    assert p <= SAME, f"D={d:.2f} p={p:.2g}: {report}"


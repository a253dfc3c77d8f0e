"""Bot decisions away from the event loop: a process pool for the levels that search.

A search bot may think for a second or more; on the event loop that second would stall every
table of the worker. So ``greedy`` and ``strong`` decide in a ``ProcessPoolExecutor`` of
``COVEN_BOT_PROCESSES`` processes (default: cores − 1, at least 1), started with ``spawn``:
a child that forks a process running an event loop, a SQLite writer thread and aiosqlite
threads may inherit a lock held by one of them, so each child starts clean and imports only
the engine. Children run at the lowest CPU priority (``SCHED_IDLE`` on Linux, else
``nice 19``), so people's moves at other tables always win the CPU. ``random`` is cheap and
decides inline. ``greedy`` decides in milliseconds but answers soon (``app.rooms.pacing``), so it
thinks in a pool of its own (one process): it never waits in line behind another table's
``strong`` search, which would make it late and its lateness tell.

What crosses into a child is the game's id (plus where its class lives, for a game registered
at run time such as a test game), the level, the seed and the seat's ``Seen`` — never the
state: a bot sees what its seat sees. With it goes a deadline (``app.rooms.pacing``): the
search budget is cut to what is left of it when the child starts, so a decision that waited for
a free process searches less instead of answering late.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from app.observability.metrics import timed_decisions
from engine import registry
from engine.bots import make_bot
from engine.bots.base import Seen
from engine.bots.strong import BUDGET_MS
from engine.protocol import Action, Game

log = logging.getLogger(__name__)

# Levels cheap enough to run on the event loop; every other level thinks in the pool.
INLINE_LEVELS = frozenset({"random"})
# Levels that think in the quick pool (one process), never behind a search.
QUICK_LEVELS = frozenset({"greedy"})

GameRef = tuple[str, str, str]  # (game id, module, class name)


def default_processes() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


def game_ref(game: Game) -> GameRef:
    return (game.id, type(game).__module__, type(game).__qualname__)


def _game(ref: GameRef) -> Game:
    game_id, module, name = ref
    try:
        return registry.get(game_id)
    except Exception:
        # A game added at run time (a test game) is not in a fresh child's registry.
        game: Game = getattr(importlib.import_module(module), name)()
        registry.register(game)
        return game


def search_budget(budget_ms: int | None, deadline: float | None) -> int | None:
    """The search budget (ms): ``budget_ms`` (None: the engine's default), cut to what is
    left until ``deadline`` (``time.monotonic``), at least 1 ms (one search iteration)."""
    if deadline is None:
        return budget_ms
    left = int((deadline - time.monotonic()) * 1000)
    return max(1, min(budget_ms if budget_ms is not None else BUDGET_MS, left))


def decide(
    ref: GameRef,
    level: str,
    seed: int,
    seen: Seen,
    budget_ms: int | None,
    deadline: float | None = None,
) -> Action:
    """One decision of a ``level`` bot for ``seen.seat`` (runs in a pool process, or inline).

    Uses ``engine.bots.decide`` where the engine provides it (search levels with a time
    budget), else the level's ``Bot.choose``."""
    budget_ms = search_budget(budget_ms, deadline)
    game = _game(ref)
    import engine.bots as bots

    engine_decide = getattr(bots, "decide", None)
    if engine_decide is not None:
        action: Action = engine_decide(game.id, level, seed, seen, budget_ms=budget_ms)
        return action
    return make_bot(level, seed).choose(game, seen)


def lowest_priority(pid: int = 0) -> None:
    """People first: on Linux a pool process runs under SCHED_IDLE (it gets a core only when
    nothing else wants it, so a move at another table never waits behind a search);
    elsewhere it drops its priority as far as it can."""
    try:
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, pid, 19)


def _child_start() -> None:
    lowest_priority()
    with contextlib.suppress(Exception):
        registry.games()  # import the built-in games once, not on the first decision


class Thinkers:
    """The pool, started on the first decision that needs it (a server without search bots
    never pays for the processes)."""

    def __init__(self, processes: int, budget_ms: int | None = None) -> None:
        self.processes = processes
        self.budget_ms = budget_ms
        self._pool: ProcessPoolExecutor | None = None  # the quick levels' pool
        self._search: ProcessPoolExecutor | None = None  # every other level's
        self._lowered: set[int] = set()
        self._warm: set[str] = set()  # the pools ("quick", "search") that have answered once

    def _executor(self, level: str) -> Executor:
        if level in QUICK_LEVELS:
            if self._pool is None:
                self._pool = _new_pool(1)
            return self._pool
        if self._search is None:
            self._search = _new_pool(self.processes)
        return self._search

    def warm(self, level: str) -> bool:
        """Whether ``level``'s decisions are answered by a pool that has started (it has
        answered once), or inline."""
        if level in INLINE_LEVELS or self.processes <= 0:
            return True
        return ("quick" if level in QUICK_LEVELS else "search") in self._warm

    @timed_decisions
    async def decide(
        self, game: Game, level: str, seed: int, seen: Seen, deadline: float | None = None
    ) -> Action:
        """``level``'s choice for ``seen``; a search stops by ``deadline`` (monotonic) at the
        latest, counted from the moment the decision was owed, not from when a process is
        free."""
        ref = game_ref(game)
        if level in INLINE_LEVELS or self.processes <= 0:
            return decide(ref, level, seed, seen, self.budget_ms, deadline)
        loop = asyncio.get_running_loop()
        try:
            future = loop.run_in_executor(
                self._executor(level), decide, ref, level, seed, seen, self.budget_ms, deadline
            )
            self._lower_new_children()
            action = await future
            self._warm.add("quick" if level in QUICK_LEVELS else "search")
            return action
        except BrokenProcessPool:
            # A child died (killed, out of memory): start a new pool next time and let a
            # random bot decide this once, so the table goes on.
            log.warning("bot pool broke; restarting it")
            self.close(wait=False)
            return decide(ref, "random", seed, seen, None)

    def _lower_new_children(self) -> None:
        """Lower a new child's priority from here, the moment it exists: a spawned child
        imports the engine before its initializer runs, and that start should not compete
        with people's moves either."""
        processes = {
            **(getattr(self._pool, "_processes", None) or {}),
            **(getattr(self._search, "_processes", None) or {}),
        }
        for pid in list(processes):
            if pid not in self._lowered:
                self._lowered.add(pid)
                lowest_priority(pid)

    def close(self, wait: bool = True) -> None:
        pools = [p for p in (self._pool, self._search) if p is not None]
        self._pool = self._search = None
        self._warm.clear()
        for pool in pools:
            pool.shutdown(wait=wait, cancel_futures=True)


def _new_pool(processes: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_child_start,
    )

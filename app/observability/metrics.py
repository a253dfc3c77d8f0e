"""Prometheus metrics (``prometheus-client``), on with ``COVEN_METRICS=1``.

Every record function below is a flag test when metrics are off. With
``PROMETHEUS_MULTIPROC_DIR`` set (``coven serve`` sets it up when metrics are on, see
``multiproc.py``), each process writes its values to files in that directory and ``render``
sums every process's: so a scrape of any worker of one ``coven serve --workers N`` (or of N
processes sharing the directory) reports the whole host. The names are the contract (issue 23):

- ``coven_moves_total{game}``: moves committed by this deployment;
- ``coven_move_seconds{stage}``: from the move's arrival at the move path (``Moves.act``) to
  ``applied`` (the engine's ``apply`` done), ``committed`` (the database has it) and
  ``fanned_out`` (every socket of the room in the committing worker was handed its new view);
- ``coven_refusals_total{code}``: error answers, HTTP and WebSocket, by error code;
- ``coven_sockets``, ``coven_rooms_live``: open room sockets, and rooms with at least one
  socket, summed over the live processes;
- ``coven_bot_think_seconds{level}``: one bot decision (the search, in its process pool);
- ``coven_store_errors_total``, ``coven_bus_errors_total{op}``: failures of the database and
  of Redis;
- ``coven_lost_commits_total{resolved}``: moves whose commit another worker's beat (a room's
  sockets on several workers), by how the move went on: ``replayed`` (the winner's sealed
  move heard and replayed, no read), ``locked`` (the match read holding its row, PostgreSQL)
  or ``read`` (read again, SQLite);
- ``coven_moves_behind_total{went}``: moves applied and sent while their room's last move was
  still committing (PostgreSQL: ``app/rooms/in_flight.py``), by how they went: ``landed``, or
  ``careful`` (it or a move before it did not land: applied again the careful way);
- ``coven_gc_pause_seconds{generation}``: one cyclic garbage collection (the worker serves
  nothing meanwhile; ``app/gc_tuning.py``).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)

from app.observability.multiproc import MULTIPROC_ENV

MOVE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
THINK_BUCKETS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)
GC_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
STAGES = ("applied", "committed", "fanned_out")


class Metrics:
    """The metrics of one process (in a registry of their own: several apps in one test
    process share them without registering twice)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.moves = Counter("coven_moves", "Moves committed", ["game"], registry=r)
        self.move_seconds = Histogram(
            "coven_move_seconds",
            "A move from its arrival to each stage: applied, committed, fanned_out",
            ["stage"],
            buckets=MOVE_BUCKETS,
            registry=r,
        )
        self.refusals = Counter(
            "coven_refusals", "Error answers (HTTP and WebSocket) by code", ["code"], registry=r
        )
        self.sockets = Gauge(
            "coven_sockets", "Open room sockets", registry=r, multiprocess_mode="livesum"
        )
        self.rooms_live = Gauge(
            "coven_rooms_live",
            "Rooms with at least one open socket in a worker",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.bot_think = Histogram(
            "coven_bot_think_seconds",
            "One bot decision",
            ["level"],
            buckets=THINK_BUCKETS,
            registry=r,
        )
        self.bot_fallbacks = Counter(
            "coven_bot_fallbacks",
            "Bot answers played at random because the search was not back in time",
            ["level"],
            registry=r,
        )
        # The move path's series, looked up once (``labels`` takes a lock and hashes its keys).
        self.stages = {stage: self.move_seconds.labels(stage) for stage in STAGES}
        self.games: dict[str, Any] = {}
        self.store_errors = Counter("coven_store_errors", "Database failures", registry=r)
        self.bus_errors = Counter("coven_bus_errors", "Redis bus failures", ["op"], registry=r)
        self.lost_commits = Counter(
            "coven_lost_commits",
            "Moves whose commit another worker's beat, by how they went on",
            ["resolved"],
            registry=r,
        )
        self.moves_behind = Counter(
            "coven_moves_behind",
            "Moves applied and sent while their room's last move was still committing",
            ["went"],
            registry=r,
        )
        self.gc_pause = Histogram(
            "coven_gc_pause_seconds",
            "One cyclic garbage collection (the worker serves nothing meanwhile)",
            ["generation"],
            buckets=GC_BUCKETS,
            registry=r,
        )
        self.gc_generations = {g: self.gc_pause.labels(str(g)) for g in (0, 1, 2)}


_metrics: Metrics | None = None


def enable() -> Metrics:
    """Turn metrics on in this process (idempotent)."""
    global _metrics
    if _metrics is None:
        # One series per value whatever the mode: no ``_created`` beside each counter (the
        # multiprocess mode has none).
        disable_created_metrics()  # type: ignore[no-untyped-call]
        _metrics = Metrics()
    return _metrics


def enabled() -> bool:
    return _metrics is not None


def move_committed(game: str) -> None:
    if _metrics is not None:
        series = _metrics.games.get(game)
        if series is None:
            series = _metrics.games[game] = _metrics.moves.labels(game)
        series.inc()


def move_stage(stage: str, seconds: float) -> None:
    if _metrics is not None:
        _metrics.stages[stage].observe(seconds)


def refused(code: str) -> None:
    if _metrics is not None:
        _metrics.refusals.labels(code).inc()


def socket_opened() -> None:
    if _metrics is not None:
        _metrics.sockets.inc()


def socket_closed() -> None:
    if _metrics is not None:
        _metrics.sockets.dec()


def rooms_live(count: int) -> None:
    if _metrics is not None:
        _metrics.rooms_live.set(count)


def bot_thought(level: str, seconds: float) -> None:
    if _metrics is not None:
        _metrics.bot_think.labels(level).observe(seconds)


def bot_fell_back(level: str) -> None:
    if _metrics is not None:
        _metrics.bot_fallbacks.labels(level).inc()


_S = TypeVar("_S")
_G = TypeVar("_G")
_P = ParamSpec("_P")
_R = TypeVar("_R")


def timed_decisions(
    decide: Callable[Concatenate[_S, _G, str, _P], Awaitable[_R]],
) -> Callable[Concatenate[_S, _G, str, _P], Awaitable[_R]]:
    """``coven_bot_think_seconds{level}`` around a bot's ``decide(self, game, level, …)``."""

    async def timed(self: _S, game: _G, level: str, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        if _metrics is None:
            return await decide(self, game, level, *args, **kwargs)
        started = time.perf_counter()
        try:
            return await decide(self, game, level, *args, **kwargs)
        finally:
            bot_thought(level, time.perf_counter() - started)

    return timed


def store_error() -> None:
    if _metrics is not None:
        _metrics.store_errors.inc()


def bus_error(op: str) -> None:
    if _metrics is not None:
        _metrics.bus_errors.labels(op).inc()


def lost_commit(resolved: str) -> None:
    if _metrics is not None:
        _metrics.lost_commits.labels(resolved).inc()


def move_behind(went: str) -> None:
    if _metrics is not None:
        _metrics.moves_behind.labels(went).inc()


def gc_paused(generation: int, seconds: float) -> None:
    if _metrics is not None:
        series = _metrics.gc_generations.get(generation)
        if series is None:
            series = _metrics.gc_pause.labels(str(generation))
        series.observe(seconds)


def watch_store(engine: Any) -> None:
    """Count every failure of a database call made through SQLAlchemy (``engine``: an async
    engine); the move's own commit, straight on the driver, is counted by the move path."""
    if _metrics is None:
        return
    from sqlalchemy import event
    from sqlalchemy.exc import IntegrityError

    def failed(context: Any) -> None:
        # A constraint that refuses a row is the store working (a seat taken meanwhile, a
        # duplicate ignored): callers expect it. Anything else is a failure.
        if not isinstance(context.sqlalchemy_exception, IntegrityError):
            store_error()

    event.listen(engine.sync_engine, "handle_error", failed)


def render() -> tuple[bytes, str]:
    """The exposition text and its content type: every process's values when several share
    ``PROMETHEUS_MULTIPROC_DIR``, else this process's."""
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(enable().registry), CONTENT_TYPE_LATEST


def process_exits() -> None:
    """This process stops: its live gauges (sockets, rooms) stop counting in the sum."""
    if os.environ.get(MULTIPROC_ENV):
        with contextlib.suppress(Exception):
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]

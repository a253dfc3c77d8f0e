"""One move watched from its arrival to its fan-out: ``coven_move_seconds`` per stage and the
spans ``coven.move`` → ``coven.move.apply``, ``coven.move.commit``, ``coven.move.publish``,
then ``coven.move.fan_out`` (in the hub's task, a child of the same trace).

The move path (``app/rooms/moves.py``) calls ``arrived``, ``stage`` and ``published``; the hub
(``app/rooms/hub.py``) wraps its push of a version in ``fan_out``. Between the two, a bounded
map holds each published move's arrival time and trace context until this worker's hub has
pushed that version (a move in a room no socket here watches is never pushed here: the
oldest entries make room). With metrics and tracing off every call is a flag test.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from app.observability import metrics, tracing

PENDING_MAX = 4096
_pending: OrderedDict[tuple[str, int], tuple[float, Any]] = OrderedDict()


def watching() -> bool:
    return metrics.enabled() or tracing.enabled()


def arrived() -> float:
    """The arrival time of a move (0 when nothing watches)."""
    return time.perf_counter() if metrics.enabled() else 0.0


def stage(name: str, since: float) -> None:
    """The move that arrived at ``since`` reached ``name`` (``applied``, ``committed``)."""
    if since:
        metrics.move_stage(name, time.perf_counter() - since)


def published(code: str, game: str, version: int, since: float) -> None:
    """Version ``version`` of room ``code`` (a match of ``game``) is committed and goes on the
    bus now: remember when its move arrived and its trace, for the fan-out."""
    context = tracing.current()
    if not since and context is None:
        return
    tracing.annotate({"coven.game": game, "coven.version": version})
    _pending[(code, version)] = (since, context)
    while len(_pending) > PENDING_MAX:
        _pending.popitem(last=False)


@contextlib.contextmanager
def _fan_out(code: str, version: int) -> Iterator[None]:
    since, context = _pending.pop((code, version), (0.0, None))
    attributes = {"coven.room": code, "coven.version": version}
    with tracing.span("coven.move.fan_out", attributes, parent=context):
        yield
    stage("fanned_out", since)


def fan_out(code: str, version: int) -> contextlib.AbstractContextManager[Any]:
    """Around the hub's push of ``version`` to this worker's sockets of room ``code``."""
    if not watching():
        return contextlib.nullcontext()
    return _fan_out(code, version)

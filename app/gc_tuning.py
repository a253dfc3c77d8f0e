"""Keep long-lived objects (open sockets and everything each one holds) out of the cyclic
collector's full passes, and measure its pauses (issue 24 item 4).

CPython's collector walks every object it tracks on a full (generation 2) collection: with
19,000 sockets open that is some two million objects and about a second of CPU, during which
no move is served. ``gc.freeze()`` moves every tracked object to the permanent generation,
which no collection walks; the app does it once at startup (``app/main.py``), and this module
keeps doing it while the worker runs:

- the youngest generation is collected after ``YOUNG_THRESHOLD`` new objects (CPython's 700:
  under play, objects that live a few tens of ms, a move's request in flight, reach the
  oldest generation at some 30,000 a second, and that generation's collections were what
  paused the worker: ``benchmarks/README.md``);
- every ``freeze_seconds`` (``COVEN_GC_FREEZE_SECONDS``, 3 s by default): ``gc.collect()``,
  which now walks only what was made since the last freeze (cycles that died young are
  freed), then ``gc.freeze()``: what survived joins the permanent generation;
- a frozen object is still freed when its last reference goes, but a frozen *cycle* (a closed
  socket's protocol, transport, task and frames refer to each other) is never collected. So
  once the objects frozen since the last full pass reach ``FULL_GROWTH`` of what that pass
  kept (and at least ``FULL_MIN_SECONDS`` after it), or ``FULL_MAX_SECONDS`` after it, the
  worker does one whole pass: ``gc.unfreeze(); gc.collect(); gc.freeze()`` (the one long
  pause, rare: once per as many objects frozen again as were alive).

Every collection's pause (``gc.callbacks``) goes to ``coven_gc_pause_seconds{generation}``
(with ``COVEN_METRICS=1``) and the longest one is kept in ``GcTuning.longest``. The callback
itself only appends to a list (a collection may start while a metric's lock is held: no lock
is taken there); ``FLUSH_SECONDS`` later the loop hands the pauses to the histogram.

``COVEN_GC_FREEZE_SECONDS=0`` turns the periodic freezing off (the startup freeze stays);
pauses are still measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from app.observability import metrics

log = logging.getLogger(__name__)

FLUSH_SECONDS = 1.0
# New objects (allocations less deallocations) before a collection of the youngest
# generation, while the tuning is on.
YOUNG_THRESHOLD = 20_000
# A whole pass once the objects frozen since the last one reach this share of what it kept.
FULL_GROWTH = 1.0
FULL_MIN_SECONDS = 300.0
FULL_MAX_SECONDS = 3600.0
# A pause this long is also logged (a warning: every move waited that long).
SLOW_PAUSE_SECONDS = 0.25


class GcTuning:
    """One per worker: ``await start()`` (which installs the pause callback), ``await
    close()`` at shutdown. ``tick()`` and ``full()`` are the two steps (called by the loop;
    tests call them)."""

    def __init__(self, freeze_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.freeze_seconds = freeze_seconds
        self.clock = clock
        self.longest = 0.0  # seconds: the longest collection since install
        self.ticks = 0
        self.fulls = 0
        self.kept = 0  # objects frozen by the last whole pass (the live set then)
        self.frozen_since = 0  # objects frozen by ticks since then (some freed since)
        self.last_full = clock()
        self._pauses: list[tuple[int, float]] = []
        self._started: float | None = None
        self._task: asyncio.Task[None] | None = None
        self._raised = False

    @property
    def enabled(self) -> bool:
        return self.freeze_seconds > 0

    # ---------------------------------------------------------------- measuring

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        # Runs inside the collector: no lock, no logging, no metric here.
        if phase == "start":
            self._started = time.perf_counter()
        elif self._started is not None:
            pause = time.perf_counter() - self._started
            self._started = None
            self._pauses.append((info.get("generation", 2), pause))
            if pause > self.longest:
                self.longest = pause

    def install(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)

    def flush(self) -> None:
        """The pauses measured since the last flush, to the histogram (and the log)."""
        pauses, self._pauses = self._pauses, []
        for generation, pause in pauses:
            metrics.gc_paused(generation, pause)
            if pause >= SLOW_PAUSE_SECONDS:
                log.warning(
                    "a generation %d collection paused the worker %.3f s", generation, pause
                )

    # ---------------------------------------------------------------- freezing

    def tick(self) -> bool:
        """Collect what is not frozen, freeze what survived; a whole pass when due (True)."""
        self.ticks += 1
        gc.collect()  # only the objects made since the last freeze
        # What survived is all in the oldest generation now. Counted there, not by
        # ``gc.get_freeze_count()``: that walks the whole permanent generation (two million
        # objects with 19,000 sockets open, some 0.2 s a call), where this lists the survivors.
        self.frozen_since += len(gc.get_objects(generation=2))
        gc.freeze()
        since = self.clock() - self.last_full
        grown = self.frozen_since >= FULL_GROWTH * max(self.kept, 1)
        if (grown and since >= FULL_MIN_SECONDS) or since >= FULL_MAX_SECONDS:
            self.full()
            return True
        return False

    def full(self) -> None:
        """Every object walked once: frozen cycles (closed sockets) freed, the rest refrozen."""
        self.fulls += 1
        gc.unfreeze()
        gc.collect()
        self.kept = len(gc.get_objects())
        gc.freeze()
        self.frozen_since = 0
        self.last_full = self.clock()

    # ---------------------------------------------------------------- the loop

    async def start(self) -> None:
        self.install()
        if self.enabled:
            _raise_young_threshold()
            self._raised = True
        self.kept = gc.get_freeze_count()  # the startup freeze (app/main.py) was a whole pass
        self.last_full = self.clock()
        self._task = asyncio.create_task(self._run(), name="gc-tuning")

    async def _run(self) -> None:
        next_tick = self.clock() + self.freeze_seconds
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            try:
                if self.enabled and self.clock() >= next_tick:
                    self.tick()
                    next_tick = self.clock() + self.freeze_seconds
                self.flush()
            except Exception:  # never let the worker lose this loop
                log.exception("gc tuning failed")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self.flush()
        self.uninstall()
        if self._raised:
            _restore_young_threshold()
            self._raised = False


# CPython's thresholds while no tuning runs, and how many run (apps in one test process).
_saved: tuple[int, int, int] | None = None
_running = 0


def _raise_young_threshold() -> None:
    global _saved, _running
    if _running == 0:
        _saved = gc.get_threshold()
        gc.set_threshold(YOUNG_THRESHOLD, *_saved[1:])
    _running += 1


def _restore_young_threshold() -> None:
    global _saved, _running
    _running -= 1
    if _running == 0 and _saved is not None:
        gc.set_threshold(*_saved)
        _saved = None

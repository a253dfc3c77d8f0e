"""The bot pool's processes at the caller's own priority rather than ``SCHED_IDLE``.

On a machine other work keeps busy (a test suite, other test runs) an idle-class process gets
no core for seconds at a time: every bot answer is late, and lateness is what pacing cannot
hide (``app/rooms/pacing.py``). Tests of the pacing itself, and the benchmark's ``--fair-pool``
runs, give the pool its fair share of the CPU with ``fair_pool()``; production keeps
``SCHED_IDLE`` (people's moves first) and counts the late answers (``BotRunner.overruns``).
"""

from __future__ import annotations

import contextlib
import os

from app.rooms import thinking


def fair_children(self: thinking.Thinkers) -> None:
    """Put the pool's processes back at normal priority (a child lowers itself when it
    starts; each decision puts it back)."""
    for pool in (self._pool, self._search):
        for pid in list(getattr(pool, "_processes", None) or {}):
            with contextlib.suppress(OSError, AttributeError):
                os.sched_setscheduler(pid, os.SCHED_OTHER, os.sched_param(0))


def fair_pool() -> None:
    """For this process: every ``Thinkers`` keeps its children at normal priority."""
    thinking.Thinkers._lower_new_children = fair_children  # type: ignore[method-assign]

"""How long a bot takes to answer: a function of public facts only (its level and the room's
settings), never of what its seat knows.

A bot whose answer comes at once when it has one legal action and after a search when it has
several tells the whole table its hand by the clock. So every answer is padded: the runner
notes the moment the bot came to owe the decision (``started``), thinks (in the pool, or
inline for ``random``), then sleeps on the event loop until ``started + answer_seconds``, and
only then commits — forced and one-choice answers, and ``random``, included.

The answer time is the room's ``bot_delay`` plus a share of the think budget
(``COVEN_BOT_BUDGET_MS``, the engine's 500 ms by default), per level (``ANSWER_SHARE``). A
search may use the answer time less a slack (``SLACK_SHARE`` of the level's share) — measured
from ``started``, so time spent waiting for a free pool process is taken from the search, not
added to the answer: what overruns is at most one search iteration and the pool's round
trip. ``greedy`` has no budget to cut (its few deals take milliseconds, measured); its share
is the room it is given. A search starved of CPU (the pool runs at ``SCHED_IDLE``) is not
waited for past the answer's moment: its seat answers on time with a ``random`` choice
(``BotRunner._think_by``; ``Overruns.fallbacks``). ``Overruns`` counts the answers that came
late anyway (the event loop's own lag), and by how much (docs/DESIGN.md "No side channels",
``benchmarks/bot_pacing.py``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from engine.bots.strong import BUDGET_MS

# The share of the think budget each level's answer takes beyond ``bot_delay`` (a level not
# named here, e.g. a test's, is paced like ``strong``).
ANSWER_SHARE: dict[str, float] = {"random": 0.0, "greedy": 0.5, "strong": 1.0}
DEFAULT_SHARE = 1.0
# The part of a level's share kept free at the end: a search must stop this early, so that its
# last iteration and the pool's round trip land before the answer is due.
SLACK_SHARE = 0.2
# An answer this little after its moment is on time (an event loop's own jitter; ``random``
# with no delay is due the moment it is owed).
LATE_SECONDS = 0.002


@dataclass(slots=True)
class Overruns:
    """Answers that came after their due moment (the pad could not hide their thinking)."""

    answers: int = 0
    late: int = 0
    fallbacks: int = 0  # searches not back by the answer's moment: a random choice, on time
    late_seconds: float = 0.0
    worst_seconds: float = 0.0
    recent: list[float] = field(default_factory=list)  # the lateness of the last late answers

    def fallback(self) -> None:
        self.fallbacks += 1

    def record(self, late_by: float) -> None:
        self.answers += 1
        if late_by <= LATE_SECONDS:
            return
        self.late += 1
        self.late_seconds += late_by
        self.worst_seconds = max(self.worst_seconds, late_by)
        self.recent = [*self.recent[-99:], late_by]


@dataclass(frozen=True, slots=True)
class Pace:
    delay: float  # settings.bot_delay
    budget_ms: int | None  # settings.bot_budget_ms (None: the engine's default)
    padded: bool = True  # settings.bot_pace

    def share(self, level: str) -> float:
        return ANSWER_SHARE.get(level, DEFAULT_SHARE) * (self.budget_ms or BUDGET_MS) / 1000

    def answer_seconds(self, level: str) -> float:
        """From owing the decision to committing it, for every decision of ``level``."""
        return self.delay + self.share(level)

    def answer_at(self, started: float, levels: list[str]) -> float:
        """When bots of ``levels`` that came to owe decisions at ``started`` (monotonic) all
        answer: together, at the slowest level's moment (which seats owe and their levels are
        public)."""
        return started + max(self.answer_seconds(level) for level in levels)

    def think_until(self, started: float, level: str) -> float:
        """The latest moment (monotonic) a search of ``level`` may go on thinking."""
        return started + self.answer_seconds(level) - SLACK_SHARE * self.share(level)


def now() -> float:
    """The clock of ``started`` and of the pool's deadlines: monotonic, and on Linux and macOS
    the same clock in every process of the machine."""
    return time.monotonic()

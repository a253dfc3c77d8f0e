"""What the room layer tells the rest of this worker after a commit.

Sockets learn of a commit from the bus (every worker's hub); these notices are for reactions
in this worker that need no socket — the bot runner today, and whatever later reacts to a move
or to a finished match, each in a module of its own that subscribes here. A notice comes only
after the commit and its publish, from the worker that committed (a duplicate or a refused
move makes none), so a reaction can never change the move it follows. Reactions are called in
line on the move path: one that has real work to do schedules it (a task, a queue) and
returns; one that fails is logged, never the mover's error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from app.rooms.tables import Table

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Moved:
    """A move this worker committed: ``table`` is the version it made."""

    code: str
    seat: int
    by_bot: bool
    table: Table

    @property
    def finished(self) -> bool:
        """This move ended the match."""
        return self.table.result is not None


class Notices:
    def __init__(self) -> None:
        # A room changed through this worker: a move, the start, a seat handed to a bot.
        self.on_change: list[Callable[[str], None]] = []
        # A move committed here (after ``on_change``); ``Moved.finished`` marks the last one.
        self.on_move: list[Callable[[Moved], None]] = []

    def changed(self, code: str) -> None:
        for react in self.on_change:
            try:
                react(code)
            except Exception:
                log.exception("reaction to a change in room %s failed", code)

    def moved(self, moved: Moved) -> None:
        for react in self.on_move:
            try:
                react(moved)
            except Exception:
                log.exception("reaction to a move in room %s failed", moved.code)

"""A finished match as history keeps it: every seat's place, score and the game's figures,
computed from the final snapshot and the match's events through the game itself."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.results.records import Figures, FinishedMatch, SeatOutcome
from engine.protocol import Event, Game, KeepsStatistics

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who sat in a seat when the match ended (from the room's seats)."""

    seat: int
    name: str
    bot_level: str | None
    profile_id: int | None
    former: bool


def statistic_names(game: Game) -> tuple[str, ...]:
    """The figures ``game`` keeps per seat, in the order a table shows them (none for a game
    without ``statistics``)."""
    return tuple(game.statistic_names) if isinstance(game, KeepsStatistics) else ()


def figures_of(game: Game, state: Any, events: list[Event]) -> list[Figures] | None:
    """The game's own figures per seat, or ``None`` when it keeps none. A game whose figures
    fail is recorded without them (logged): history must not wait on a statistic."""
    if not isinstance(game, KeepsStatistics):
        return None
    try:
        return game.statistics(state, events)
    except Exception:
        log.exception("statistics of a finished %s match failed", game.id)
        return None


def finished_match(
    *,
    match_id: int,
    room_id: int,
    game: Game,
    snapshot: dict[str, Any],
    events: list[Event],
    holders: Sequence[SeatHolder],
    finished_at: float,
) -> FinishedMatch | None:
    """``None`` when the snapshot is not a finished match."""
    state = game.load(snapshot)
    result = game.result(state)
    if result is None:
        return None
    figures = figures_of(game, state, events)
    by_seat = {h.seat: h for h in holders}
    seats = []
    for seat, place in enumerate(result.placings):
        holder = by_seat.get(seat) or SeatHolder(seat, f"#{seat + 1}", None, None, False)
        seats.append(
            SeatOutcome(
                seat=seat,
                name=holder.name,
                bot_level=holder.bot_level,
                profile_id=holder.profile_id,
                former=holder.former,
                place=place,
                score=result.scores[seat] if seat < len(result.scores) else None,
                stats=dict(figures[seat]) if figures and seat < len(figures) else {},
            )
        )
    return FinishedMatch(match_id, room_id, game.id, finished_at, seats)

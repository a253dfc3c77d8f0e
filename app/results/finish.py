"""A finished match as history keeps it: every seat's place, score and the game's figures,
computed from the final snapshot and the match's events through the game itself
(``match_outcome``), then joined with who sat in each seat (``seated``) inside the transaction
that records it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.results.records import Figures, FinishedMatch, MatchOutcome, SeatOutcome, SeatScore
from engine.protocol import Event, Game, KeepsStatistics

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class SeatHolder:
    """Who holds a seat when the match is recorded (from the room's seats)."""

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


def match_outcome(
    *,
    match_id: int,
    room_id: int,
    game: Game,
    snapshot: dict[str, Any],
    events: list[Event],
    finished_at: float,
) -> MatchOutcome | None:
    """Every seat's place, score and figures; ``None`` when the snapshot is not a finished
    match."""
    state = game.load(snapshot)
    result = game.result(state)
    if result is None:
        return None
    figures = figures_of(game, state, events)
    return MatchOutcome(
        match_id,
        room_id,
        game.id,
        finished_at,
        [
            SeatScore(
                seat=seat,
                place=place,
                score=result.scores[seat] if seat < len(result.scores) else None,
                stats=dict(figures[seat]) if figures and seat < len(figures) else {},
            )
            for seat, place in enumerate(result.placings)
        ],
    )


def seated(outcome: MatchOutcome, holders: Sequence[SeatHolder]) -> FinishedMatch:
    """The outcome with who sat in each seat (a seat without a row: its number for a name)."""
    by_seat = {h.seat: h for h in holders}
    seats = []
    for score in outcome.seats:
        holder = by_seat.get(score.seat) or SeatHolder(
            score.seat, f"#{score.seat + 1}", None, None, False
        )
        seats.append(
            SeatOutcome(
                seat=score.seat,
                name=holder.name,
                bot_level=holder.bot_level,
                profile_id=holder.profile_id,
                former=holder.former,
                place=score.place,
                score=score.score,
                stats=score.stats,
            )
        )
    return FinishedMatch(
        outcome.match_id, outcome.room_id, outcome.game_id, outcome.finished_at, seats
    )

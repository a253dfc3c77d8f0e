"""The season marker: moving it, the year change and its libraries, the season change.

Used by the end of a round (the leftover die) and by Temporal Boots (#7), forward or back.
"""

from __future__ import annotations

from engine.protocol import Event
from engine.seasons import readings
from engine.seasons.state import State
from engine.seasons.table import to_hand
from engine.seasons.tasks import make, push


def move_marker(state: State, by: int, events: list[Event], why: str) -> None:
    """Move the season marker ``by`` spaces (negative: back, Temporal Boots). Passing space 12
    ends a year and hands out that year's library; a season change pushes its effects."""
    old_season, old_year = state.season, state.year
    month, year = state.month + by, state.year
    while month > readings.MONTHS:
        month -= readings.MONTHS
        year += 1
    while month < 1:
        month += readings.MONTHS
        year -= 1
    if (year, month) < readings.EARLIEST:
        year, month = readings.EARLIEST
    state.year, state.month = year, month
    events.append({"type": "marker_moved", "by": by, "year": year, "month": month,
                   "season": state.season, "why": why})
    if year != old_year:
        events.append({"type": "year_changed", "year": year})
    if year > old_year:
        for y in range(old_year + 1, min(year, readings.YEARS) + 1):
            for seat, player in enumerate(state.seats):
                cards, player.libraries[y - 2] = player.libraries[y - 2], []
                to_hand(state, seat, cards, events, f"library_{y}")
    if state.season != old_season or year != old_year:
        push(state, make("season_change", state.first_player))

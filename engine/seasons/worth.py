"""What time and the season dice are worth to a sorcerer, in points: shared by the heuristic
(``heuristic.py``) and the search's playout policy (``playout.py``)."""

from __future__ import annotations

from engine.seasons import readings
from engine.seasons.dice import face
from engine.seasons.state import State

ENDGAME = 6  # months: over the last ones, held energy and cards lose their value
STAR = 1.0  # a star of the season die: +1 gauge
DIE_CARD = 2.0  # a card drawn by the season die (kept or discarded)
DIE_TRANSMUTE = 1.0  # the die's permission to transmute this turn
MONTHS = readings.YEARS * readings.MONTHS


def late(state: State) -> float:
    """1 until the last ``ENDGAME`` months of year III, then linearly down to 0 at its end:
    what held energy and cards keep of their worth (at the end energy is worth nothing)."""
    left = MONTHS - ((state.year - 1) * readings.MONTHS + state.month - 1)
    return max(0.0, min(1.0, left / ENDGAME))


def die_value(state: State, index: int, keep: float | None = None) -> float:
    """What this round's die ``index`` gives the seat that resolves it: its crystals, and its
    energy (at the season's rate), stars, card and permission to transmute, times ``keep``
    (default ``late(state)``)."""
    d = state.dice[index]
    f = face(state.round_season, d["die"], d["side"])
    values = readings.TRANSMUTE_VALUES[state.season]
    return f.crystals + (late(state) if keep is None else keep) * (
        sum(n * values[k] for k, n in enumerate(f.energy))
        + STAR * f.gauge
        + DIE_CARD * f.card
        + DIE_TRANSMUTE * f.transmute
    )

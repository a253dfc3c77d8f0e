"""Each witch's own figures of a finished match, for her history (``Game.statistics``).

Read from the public events only (the recipes revealed, each witch's production and the
cauldron passes), so every figure is one the whole table saw, whatever the production mode.
"""

from __future__ import annotations

from engine.protocol import Event, Figures, zero_figures
from engine.whirling.state import State

FIGURES: tuple[str, ...] = (
    "recipes_played", "recipes_brewed", "cubes_poured", "cubes_overflowed", "rounds_won",
)
"""In the order a table shows them:

- ``recipes_played``: recipe cards she played from her hand (one a round at most);
- ``recipes_brewed``: uses of a recipe (her played ones and her personality's) in production;
- ``cubes_poured``: cubes her cauldron carried to the witch on her right;
- ``cubes_overflowed``: of those, the cubes that did not fit and scored for her;
- ``rounds_won``: rounds in which her circle grew by more cubes than any other witch's.
"""


def statistics(state: State, events: list[Event]) -> list[Figures]:
    figures = zero_figures(FIGURES, state.players)
    gains = [0] * state.players  # cubes into each circle in the round being passed
    for event in events:
        kind = event.get("type")
        if kind == "recipes_revealed":
            for play in event["plays"]:
                figures[play["seat"]]["recipes_played"] += 1
        elif kind == "production":
            seat = event["seat"]
            figures[seat]["recipes_brewed"] += len(event["used"])
            gains[seat] += sum(event.get("claimed", {}).values())
        elif kind == "cauldron_passed":
            sender = event["from"]
            overflow = sum(event["overflow"].values())
            figures[sender]["cubes_poured"] += sum(event["cubes"].values())
            figures[sender]["cubes_overflowed"] += overflow
            gains[sender] += overflow
        elif kind in ("round_started", "game_over"):
            # A round's cauldrons pass just before the next round starts or the match ends.
            _count_round_winner(gains, figures)
            gains = [0] * state.players
    return figures


def _count_round_winner(gains: list[int], figures: list[Figures]) -> None:
    best = max(gains, default=0)
    leaders = [seat for seat, gained in enumerate(gains) if gained == best]
    if best > 0 and len(leaders) == 1:
        figures[leaders[0]]["rounds_won"] += 1

"""The win check and the rulebook's four-step tie-break (sheet section 9)."""

from __future__ import annotations

from collections.abc import Callable

from engine.protocol import Result
from engine.whirling import readings
from engine.whirling.state import State, Witch

# In order [RULEBOOK]: most cubes in the circle, most different types in the circle, fewest
# cubes on the workbench; still tied, the witches share the win.
TIE_BREAKS: tuple[tuple[str, Callable[[Witch], int]], ...] = (
    ("most_cubes_in_circle", lambda w: sum(w.circle)),
    ("most_types_in_circle", lambda w: sum(1 for n in w.circle if n)),
    ("fewest_cubes_on_workbench", lambda w: -sum(w.workbench)),
)


def decide(state: State) -> Result | None:
    """``None`` unless some witch has 5+ cubes in her circle; then who wins and why."""
    scores = [sum(w.circle) for w in state.witches]
    contenders = [s for s, score in enumerate(scores) if score >= readings.WIN_THRESHOLD]
    if not contenders:
        return None
    if len(contenders) == 1:
        return Result(contenders, scores, "circle", {"qualified": contenders})
    qualified = contenders[:]
    for rule, measure in TIE_BREAKS:
        best = max(measure(state.witches[s]) for s in contenders)
        contenders = [s for s in contenders if measure(state.witches[s]) == best]
        if len(contenders) == 1:
            return Result(contenders, scores, rule, {"qualified": qualified})
    return Result(contenders, scores, "shared_win", {"qualified": qualified})

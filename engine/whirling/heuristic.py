"""How good a Whirling Witchcraft position is for one witch: the ``greedy`` bot's one-ply score
and the ``strong`` bot's leaf value (``engine/bots``).

The game is won by the cubes your cauldron pours onto the witch on your right that her workbench
cannot hold [RULEBOOK]. So the score projects the rest of the round: every witch finishes her
production with a simple greedy rule (use each affordable recipe of her row once, inputs from the
workbench first, outputs chosen where her nemesis has least room; a pending potion becomes the
most damaging cube, a raven clears her two fullest slots), the cauldrons pass, and the overflow
is added to each circle. A second, discounted projection of the next round (same rows, the
workbenches left by the first) values what a position is worth beyond this round: a production
engine, a nemesis whose workbench is full, a workbench of your own with room.

The score is the projected margin over the best other witch, plus a little of one's own
projection (in a four-witch race the leader is whom to beat, yet cubes of one's own count),
squashed by a logistic into (0, 1), a rough chance of winning; a finished match scores 1 for a
win (1/k for a win shared by k), 0 for a loss, so search bots can mix both on one scale.
"""

from __future__ import annotations

import math

from engine.whirling.cards import CAPACITY, Face, Recipe
from engine.whirling.rules import row
from engine.whirling.state import State, Witch
from engine.whirling.table import right_of

SCALE = 1.5  # cubes of margin that make a position about 2:1 (logistic)
NEXT_ROUND = 0.5  # weight of the second projected round
OWN = 0.25  # weight of one's own projection besides the margin over the leader
WIN_AT = 5

_cache: tuple[State | None, list[float]] = (None, [])


def evaluate(state: State, seat: int) -> float:
    """Higher is better for ``seat``. Scores for every seat are computed together and the last
    state's are kept, since a search asks for each seat of the same leaf in turn."""
    global _cache
    cached_state, values = _cache
    if cached_state is not state:
        values = evaluate_all(state)
        _cache = (state, values)
    return values[seat]


def evaluate_all(state: State) -> list[float]:
    n = state.players
    if state.result is not None:
        winners = state.result["winners"]
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(n)]
    rows = [_row(state, w) for w in state.witches]
    benches, cauldrons = _this_round(state, rows)
    circles = [float(sum(w.circle) + (sum(w.brew.claimed) if w.brew else 0)) for w in state.witches]
    first = _pass(benches, cauldrons, n)
    projected = [circles[s] + first[s] for s in range(n)]
    # The next round: the same rows, the benches left after the pass.
    after = [b[:] for b in benches]
    for s in range(n):
        r = right_of(s, n)
        for k in range(5):
            after[r][k] = min(CAPACITY[k], after[r][k] + cauldrons[s][k])
    if max(projected) < WIN_AT:
        second_benches, second_cauldrons = _round(after, rows, n)
        second = _pass(second_benches, second_cauldrons, n)
        projected = [projected[s] + NEXT_ROUND * second[s] for s in range(n)]
    values = []
    for s in range(n):
        leader = max(projected[o] for o in range(n) if o != s)
        mine = projected[s]
        values.append(1.0 / (1.0 + math.exp(-((mine - leader) + OWN * mine) / SCALE)))
    return values


def _row(state: State, witch: Witch) -> list[tuple[str, _Shape]]:
    """Her recipes this round: the personality's own, the tableau, and a face-down play."""
    out = [(recipe.id, _shape(recipe, face)) for recipe, face in row(state, witch)]
    if witch.played is not None and witch.brew is None:
        recipe = state.recipes[witch.played.card]
        out.append((recipe.id, _shape(recipe, recipe.side(witch.played.rotated))))
    return out


def _this_round(
    state: State, rows: list[list[tuple[str, _Shape]]], only: int | None = None
) -> tuple[list[list[int]], list[list[int]]]:
    """Every witch's workbench and cauldron once her production of this round is over (or just
    ``only``'s)."""
    n = state.players
    targets = [
        (w.brew.workbench if w.brew else w.workbench) for w in state.witches
    ]  # her nemesis's room, as it stands
    benches: list[list[int]] = []
    cauldrons: list[list[int]] = []
    for s, witch in enumerate(state.witches):
        if only is not None and s != only:
            continue
        target = targets[right_of(s, n)]
        prod = witch.brew
        if prod is not None and prod.done:
            benches.append(prod.workbench[:])
            cauldrons.append(prod.cauldron[:])
            continue
        if prod is None:
            bench, outputs, cauldron = witch.workbench[:], [0] * 5, [0] * 5
            used: list[str] = []
            books: list[int] = []
        else:
            bench, outputs, cauldron = prod.workbench[:], prod.outputs[:], prod.cauldron[:]
            used, books = prod.used, prod.books
            for trigger in prod.triggers:
                _trigger(trigger, bench, cauldron, target)
        _produce(rows[s], used, books, bench, outputs, target)
        benches.append(bench)
        cauldrons.append([cauldron[k] + outputs[k] for k in range(5)])
    return benches, cauldrons


def project_production(state: State, seat: int) -> tuple[list[int], list[int]]:
    """Her workbench and cauldron once she has finished this round's production the greedy
    way (what ``determinize`` gives a witch whose hidden production is over)."""
    benches, cauldrons = _this_round(state, [_row(state, w) for w in state.witches], only=seat)
    return benches[0], cauldrons[0]


def _round(
    workbenches: list[list[int]], rows: list[list[tuple[str, _Shape]]], n: int
) -> tuple[list[list[int]], list[list[int]]]:
    benches, cauldrons = [], []
    for s in range(n):
        bench, outputs = workbenches[s][:], [0] * 5
        _produce(rows[s], [], [], bench, outputs, workbenches[right_of(s, n)])
        benches.append(bench)
        cauldrons.append(outputs)
    return benches, cauldrons


def _pass(benches: list[list[int]], cauldrons: list[list[int]], n: int) -> list[float]:
    """The overflow each witch's cauldron scores on her nemesis's bench."""
    scored = []
    for s in range(n):
        bench = benches[right_of(s, n)]
        cubes = cauldrons[s]
        scored.append(
            float(sum(max(0, cubes[k] - (CAPACITY[k] - bench[k])) for k in range(5) if cubes[k]))
        )
    return scored


def _room(target: list[int], k: int) -> int:
    return CAPACITY[k] - target[k]


def _trigger(trigger: str, bench: list[int], cauldron: list[int], target: list[int]) -> None:
    if trigger == "potion":  # any cube into the cauldron: the type her nemesis has least room for
        k = min(range(5), key=lambda k: (_room(target, k), -k))
        cauldron[k] += 1
    elif trigger == "raven":  # two cubes off her own bench: the fullest slots
        for _ in range(2):
            k = min(range(5), key=lambda k: (CAPACITY[k] - bench[k], k))
            if bench[k]:
                bench[k] -= 1
    elif trigger == "pour":
        k = max(range(5), key=lambda k: (bench[k] > 0, -_room(target, k)))
        if bench[k]:
            bench[k] -= 1
            cauldron[k] += 1


class _Shape:
    """A recipe face as the projection reads it, computed once per card and side."""

    __slots__ = ("makes", "needs", "useless")

    def __init__(self, face: Face) -> None:
        self.needs = [
            (need, [k for k in range(5) if need[k]], sum(need))
            for need in sorted(face.input_totals)
        ]
        self.makes = sorted(face.output_totals)
        self.useless = not self.makes or sum(self.makes[0]) == 0


_SHAPES: dict[tuple[int, bool], _Shape] = {}


def _shape(recipe: Recipe, face: Face) -> _Shape:
    k = (id(recipe), face is not recipe.face)
    shape = _SHAPES.get(k)
    if shape is None:
        shape = _SHAPES[k] = _Shape(face)
    return shape


def _produce(
    row: list[tuple[str, _Shape]],
    used: list[str],
    books: list[int],
    bench: list[int],
    outputs: list[int],
    target: list[int],
) -> None:
    """Use every affordable unused recipe once, in row order, then retry the ones that became
    affordable from what the others made (changes ``bench`` and ``outputs``)."""
    pending = [shape for rid, shape in row if rid not in used and not shape.useless]
    for _ in range(2):
        left = [shape for shape in pending if not _use(shape, books, bench, outputs, target)]
        if len(left) == len(pending):
            break
        pending = left


def _use(
    shape: _Shape, books: list[int], bench: list[int], outputs: list[int], target: list[int]
) -> bool:
    best_need = None
    best_score = -1.0
    best_size = 0
    for need, kinds, size in shape.needs:
        ok = True
        score = 0.0
        for k in kinds:
            if need[k] > bench[k] + outputs[k] and k not in books:
                ok = False
                break
            # Prefer the inputs that free the slots where she is fullest.
            score += need[k] * bench[k] / CAPACITY[k]
        if ok and score > best_score:
            best_need, best_score, best_size = need, score, size
    if best_need is None:
        return False
    need = best_need
    # Outputs where her nemesis is fullest hurt most.
    weights = [target[k] + 1 for k in range(5)]
    make = max(shape.makes, key=lambda out: sum(out[k] * weights[k] for k in range(5)))
    if sum(make) < best_size and not any(make[k] and CAPACITY[k] - target[k] < 3 for k in range(5)):
        return False  # a shrinking recipe only pays when its output hurts
    for k in range(5):
        if not need[k]:
            continue
        from_bench = min(need[k], bench[k])
        rest = need[k] - from_bench
        if rest > outputs[k] and k in books:
            rest = outputs[k]
        bench[k] -= from_bench
        outputs[k] -= rest
    for k in range(5):
        outputs[k] += make[k]
    return True

"""The rest of a round as the bots project it (``heuristic.py``'s score, ``playout.py``'s
policy, ``determinize.py``'s finished productions): every witch finishes her production with a
simple greedy rule (use each affordable recipe of her row once, inputs from the workbench first,
outputs chosen where her nemesis has least room; a pending potion becomes the most damaging cube,
a raven clears her two fullest slots, a pour moves the cube that hurts most), then the cauldrons
pass and overflow.
"""

from __future__ import annotations

from engine.whirling.cards import CAPACITY, Face, Recipe
from engine.whirling.rules import row
from engine.whirling.state import State, Witch
from engine.whirling.table import right_of

ROOM_WORTH = 0.02  # own_round: a free slot on her own workbench, in cubes scored
SENT_WORTH = 0.01  # own_round: a cube sent at all (it fills her nemesis up), in cubes scored


def recipe_row(state: State, witch: Witch) -> list[tuple[str, Shape]]:
    """Her recipes this round: the personality's own, the tableau, and a face-down play."""
    out = [(recipe.id, _shape(recipe, face)) for recipe, face in row(state, witch)]
    if witch.played is not None and witch.brew is None:
        recipe = state.recipes[witch.played.card]
        out.append((recipe.id, _shape(recipe, recipe.side(witch.played.rotated))))
    return out


def this_round(
    state: State, rows: list[list[tuple[str, Shape]]], only: int | None = None
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
    benches, cauldrons = this_round(state, [recipe_row(state, w) for w in state.witches], only=seat)
    return benches[0], cauldrons[0]


def own_round(state: State, seat: int, play: tuple[Recipe, Face] | None = None) -> float:
    """What one witch's own round is worth by the projection alone, cheaply (the others' rows
    are not projected): the cubes her cauldron would overflow onto her nemesis's workbench as it
    stands, plus a little for room left on her own workbench and for cubes sent at all. ``play``:
    a recipe she would play this round, on the side she would play it (without playing it)."""
    rows: list[list[tuple[str, Shape]]] = [[] for _ in state.witches]
    rows[seat] = recipe_row(state, state.witches[seat])
    if play is not None:
        rows[seat].append((play[0].id, _shape(*play)))
    benches, cauldrons = this_round(state, rows, only=seat)
    nemesis = state.witches[right_of(seat, state.players)]
    target = nemesis.brew.workbench if nemesis.brew else nemesis.workbench
    cubes, bench = cauldrons[0], benches[0]
    over = sum(max(0, cubes[k] - (CAPACITY[k] - target[k])) for k in range(5) if cubes[k])
    room = sum(CAPACITY[k] - bench[k] for k in range(5))
    return over + ROOM_WORTH * room + SENT_WORTH * sum(cubes)


def next_round(
    workbenches: list[list[int]], rows: list[list[tuple[str, Shape]]], n: int
) -> tuple[list[list[int]], list[list[int]]]:
    benches, cauldrons = [], []
    for s in range(n):
        bench, outputs = workbenches[s][:], [0] * 5
        _produce(rows[s], [], [], bench, outputs, workbenches[right_of(s, n)])
        benches.append(bench)
        cauldrons.append(outputs)
    return benches, cauldrons


def overflow(benches: list[list[int]], cauldrons: list[list[int]], n: int) -> list[float]:
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


class Shape:
    """A recipe face as the projection reads it, computed once per card and side."""

    __slots__ = ("makes", "needs", "useless")

    def __init__(self, face: Face) -> None:
        self.needs = [
            (need, [k for k in range(5) if need[k]], sum(need))
            for need in sorted(face.input_totals)
        ]
        self.makes = sorted(face.output_totals)
        self.useless = not self.makes or sum(self.makes[0]) == 0


_SHAPES: dict[tuple[int, bool], Shape] = {}


def _shape(recipe: Recipe, face: Face) -> Shape:
    k = (id(recipe), face is not recipe.face)
    shape = _SHAPES.get(k)
    if shape is None:
        shape = _SHAPES[k] = Shape(face)
    return shape


def _produce(
    row: list[tuple[str, Shape]],
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
    shape: Shape, books: list[int], bench: list[int], outputs: list[int], target: list[int]
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

"""Witch's Brew's printed potion values: an operator's JSON file (engine/brew/README.md,
"Printed potion values"), checked against the rulebook's facts when loaded, played and scored by
the tables whose room option ``potion_values`` is ``"printed"``; the reconstruction's tables are
untouched."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.brew import cards
from engine.protocol import IllegalAction
from engine.registry import get
from tests.support.randomplay import random_plies

GAME = get("witchs-brew")
EXAMPLE = Path(cards.__file__).with_name("printed_values.example.json")


def _row(cost: dict[str, int], vp: int, raven: bool = False) -> dict[str, Any]:
    return {"cost": cost, "vp": vp, "raven": raven}


def _cauldron(main: str, second: str) -> list[dict[str, Any]]:
    # Values unlike the reconstruction's (2, 2, 3, 3, 4, 5, 6), so a score tells them apart.
    values = (3, 4, 6, 7, 9, 11, 14)
    costs = ((1, 0), (1, 1), (2, 1), (2, 1), (2, 2), (3, 2), (3, 3))
    return [
        _row({main: a} | ({second: b} if b else {}), vp, raven=i in (3, 6))
        for i, ((a, b), vp) in enumerate(zip(costs, values, strict=True))
    ]


BOX: dict[str, Any] = {
    "about": "a test box",
    "stacks": {
        "copper": [_row({"white": 1}, 3), *_cauldron("white", "red")[1:]],
        "silver": _cauldron("green", "red"),
        "iron": _cauldron("red", "white"),
        "gold_shelf": [
            _row({"gold": n}, vp, n in (4, 7))
            for n, vp in zip((2, 3, 4, 6, 7), (3, 4, 5, 8, 10), strict=True)
        ],
        "ingredient_shelf": [
            _row({"any_drops": n}, vp, vp in (5, 10))
            for n, vp in zip((2, 3, 4, 6, 7), (3, 4, 5, 8, 10), strict=True)
        ],
    },
}
BOX_VP = {
    f"{sid}-p{i + 1}": card["vp"]
    for sid, rows in BOX["stacks"].items()
    for i, card in enumerate(rows)
}


def _write(tmp_path: Path, data: Any, name: str = "box.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


@pytest.fixture
def printed(tmp_path: Path) -> Iterator[Path]:
    """The test box loaded, as a server does at start; forgotten afterwards."""
    path = _write(tmp_path, BOX)
    cards.use_printed_values(path)
    try:
        yield path
    finally:
        cards.use_printed_values(None)


def _play_out(options: dict[str, Any], players: int, seed: int) -> Any:
    last = None
    for ply in random_plies(GAME, players, seed, options):
        last = ply.after
    assert last is not None
    return last


def test_a_printed_table_lays_out_plays_and_scores_by_the_box(printed: Path) -> None:
    state = GAME.setup(4, 7, {"potion_values": "printed"})
    view = GAME.view(state, 0)
    assert view["options"]["potion_values"] == "printed"
    tops = {s["id"]: s["top"] for s in view["stacks"]}
    assert tops["copper"] == {
        "id": "copper-p1",
        "stack": "copper",
        "cost": {"white": 1},
        "vp": 3,
        "raven": False,
    }
    assert tops["gold_shelf"]["cost"] == {"gold": 2} and tops["gold_shelf"]["vp"] == 3

    for seed in (1, 2, 3):
        end = _play_out({"potion_values": "printed"}, 3 + seed % 3, seed)
        result = GAME.result(end)
        witches = GAME.dump(end)["witches"]
        owned = [c for w in witches for c in w["potions"]]
        assert owned and all(c in BOX_VP for c in owned), owned
        assert result.scores == [sum(BOX_VP[c] for c in w["potions"]) + w["vials"] for w in witches]
        # The same (seed, actions) replay to the same end: the box's data is the table's.
        assert GAME.dump(end) == GAME.dump(
            _play_out({"potion_values": "printed"}, 3 + seed % 3, seed)
        )


def test_the_reconstruction_tables_are_untouched_when_the_box_is_loaded(printed: Path) -> None:
    state = GAME.setup(3, 5, {})
    assert "potion_values" not in GAME.view(state, 0)["options"]
    assert all("-p" not in s["top"]["id"] for s in GAME.view(state, 0)["stacks"])
    catalog = GAME.catalog()
    assert catalog["potion_data_is_placeholder"] is True
    assert [len(s["cards"]) for s in catalog["printed_stacks"]] == [7, 7, 7, 5, 5]
    assert catalog["printed_stacks"][0]["cards"][-1] == {
        "id": "copper-p7",
        "stack": "copper",
        "cost": {"white": 3, "red": 3},
        "vp": 14,
        "raven": True,
    }


def test_a_bot_imagines_the_hidden_cards_of_the_tables_own_edition(printed: Path) -> None:
    state = GAME.setup(3, 9, {"potion_values": "printed"})
    imagined = GAME.determinize(GAME.view(state, 1), 1, random.Random(4))
    stacks = GAME.dump(imagined)["stacks"]
    assert all(
        c in BOX_VP
        for s in ("copper", "silver", "iron", "gold_shelf", "ingredient_shelf")
        for c in stacks[s]
    )
    assert sorted(stacks["copper"]) == sorted(GAME.dump(state)["stacks"]["copper"])


def test_printed_values_are_refused_where_the_operator_loaded_none() -> None:
    assert cards.printed_stacks() is None
    with pytest.raises(IllegalAction) as refused:
        GAME.setup(3, 1, {"potion_values": "printed"})
    assert refused.value.code == "bad_options"
    assert "COVEN_BREW_PRINTED_VALUES" in refused.value.message


def test_the_documented_example_file_loads() -> None:
    stacks = cards.read_printed_values(EXAMPLE)
    assert [s.id for s in stacks] == list(cards.STACK_IDS)
    assert stacks[0].cards[0].id == "copper-p1"


def _broken(change: Any) -> dict[str, Any]:
    data = copy.deepcopy(BOX)
    change(data["stacks"])
    return data


WRONG_FILES = [
    ("not json", "{ copper: 1 ", "not JSON"),
    ("a stack missing", _broken(lambda s: s.pop("iron")), "stacks must be exactly"),
    ("6 copper cards", _broken(lambda s: s["copper"].pop(3)), "copper: 6 cards, the game has 7"),
    ("3 ravens", _broken(lambda s: s["silver"][0].update(raven=True)), "exactly 2 ravens"),
    ("values going down", _broken(lambda s: s["iron"][6].update(vp=5)), "must not decrease"),
    (
        "a value of 0",
        _broken(lambda s: s["gold_shelf"][0].update(vp=0)),
        "vp must be a whole number",
    ),
    (
        "a value of 99",
        _broken(lambda s: s["gold_shelf"][4].update(vp=99)),
        "vp must be a whole number",
    ),
    (
        "gold shelf paid in drops",
        _broken(lambda s: s["gold_shelf"][0].update(cost={"red": 2})),
        "gold_shelf card 1: cost",
    ),
    (
        "a cauldron paid in gold",
        _broken(lambda s: s["silver"][2].update(cost={"gold": 1})),
        "silver card 3: cost",
    ),
    (
        "a typo in a field",
        _broken(lambda s: s["copper"][1].update(rave=True)),
        "copper card 2: give exactly",
    ),
    (
        "copper's top not 1 white",
        _broken(lambda s: s["copper"][0].update(cost={"red": 1})),
        "1 white drop",
    ),
]


@pytest.mark.parametrize(("case", "data", "said"), WRONG_FILES, ids=[c for c, _, _ in WRONG_FILES])
def test_a_file_that_breaks_the_rulebooks_facts_is_refused_saying_why(
    tmp_path: Path, case: str, data: Any, said: str
) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(cards.PrintedValuesError) as refused:
        cards.use_printed_values(path)
    assert said in str(refused.value), (case, str(refused.value))
    assert cards.printed_stacks() is None  # nothing half-loaded


def test_a_missing_file_is_refused() -> None:
    with pytest.raises(cards.PrintedValuesError, match="cannot read"):
        cards.read_printed_values("/nonexistent/box.json")

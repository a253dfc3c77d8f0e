"""The static data a renderer gets (``catalog``) and the data checks of ``cards.py``."""

from __future__ import annotations

import json

import pytest

from engine.brew import readings
from engine.brew.cards import ROLE_IDS, SPELL_IDS, _build_stacks
from tests.brew.positions import GAME


def test_the_catalog_holds_every_component_with_stable_ids() -> None:
    catalog = json.loads(json.dumps(GAME.catalog()))  # JSON-ready
    assert list(catalog["roles"]) == list(ROLE_IDS) and len(ROLE_IDS) == 12
    assert list(catalog["spells"]) == list(SPELL_IDS) and len(SPELL_IDS) == 8
    cards = [c for s in catalog["stacks"] for c in s["cards"]]
    assert len(cards) == 31
    assert [len(s["cards"]) for s in catalog["stacks"]] == [7, 7, 7, 5, 5]
    assert all(sum(c["raven"] for c in s["cards"]) == 2 for s in catalog["stacks"])
    assert catalog["stacks"][0]["cards"][0]["cost"] == {"white": 1}  # S9: copper #1, 1 white
    assert catalog["potion_data_is_placeholder"] is True
    assert all(r == r.lower() and " " not in r for r in ROLE_IDS + SPELL_IDS)


def test_potion_data_that_breaks_the_rulebook_is_refused() -> None:
    good = dict(readings.POTION_STACKS)
    (cost, vp, _), *rest = good["copper"]
    three_ravens = ((cost, vp, True), *rest)
    for bad in (
        good | {"copper": good["copper"][:6]},                       # 6 cards, not 7
        good | {"silver": tuple((c, vp, False) for c, vp, _ in good["silver"])},  # no raven
        good | {"iron": tuple(reversed(good["iron"]))},              # highest value on top
        good | {"copper": three_ravens},                             # 3 ravens
        good | {"gold_shelf": (({"red": 3}, 2, False), *good["gold_shelf"][1:])},  # drops
    ):
        with pytest.raises(ValueError):
            _build_stacks(bad)

"""The 20 season dice, all 120 faces, as data (sheet section 5.3, from BGA ``material.inc.php``;
every face confirmed by BRO or TAK, sheet section 5.4).

``DICE[season][k]`` is die *k* (0–4; BGA numbers them 1–5) of that season; each die is a tuple
of its six faces. Energies are 4-tuples in the order of ``cards.ENERGIES``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.seasons.cards import ENERGIES, Energy

SEASONS: tuple[str, ...] = ("winter", "spring", "summer", "autumn")


@dataclass(frozen=True, slots=True)
class Face:
    energy: Energy  # tokens taken into the reserve
    crystals: int  # 0, 1, 2, 3 or 6
    gauge: int  # stars: +1 summoning gauge each
    card: bool  # draw a power card (keep or discard it)
    transmute: bool  # the transmute frame: may transmute this turn
    time: int  # dots, 1–3: the leftover die moves the season marker by this much


DICE: dict[str, tuple[tuple[Face, ...], ...]] = {
    "winter": (
        (
            Face((0, 0, 1, 0), 0, 1, False, True, 3),
            Face((0, 2, 0, 0), 0, 1, False, False, 2),
            Face((0, 2, 0, 0), 3, 0, False, False, 1),
            Face((2, 0, 0, 0), 0, 1, False, False, 3),
            Face((0, 0, 0, 0), 0, 0, True, False, 2),
            Face((1, 1, 0, 0), 0, 0, False, True, 1),
        ),
        (
            Face((0, 2, 0, 0), 0, 1, False, False, 3),
            Face((0, 2, 0, 0), 1, 0, False, False, 2),
            Face((0, 0, 2, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 0), 0, 0, True, False, 3),
            Face((1, 1, 0, 0), 0, 0, False, True, 2),
            Face((1, 0, 0, 0), 0, 1, False, True, 1),
        ),
        (
            Face((0, 2, 0, 0), 0, 1, False, False, 1),
            Face((1, 0, 0, 0), 0, 1, False, True, 2),
            Face((1, 1, 0, 0), 0, 0, False, True, 3),
            Face((0, 0, 0, 0), 0, 0, True, False, 1),
            Face((0, 0, 1, 0), 0, 1, False, False, 2),
            Face((0, 2, 0, 0), 3, 0, False, False, 3),
        ),
        (
            Face((1, 1, 0, 0), 0, 0, False, True, 1),
            Face((0, 2, 0, 0), 2, 0, False, False, 2),
            Face((1, 0, 0, 0), 0, 1, False, True, 3),
            Face((0, 2, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 0), 6, 0, False, False, 2),
            Face((0, 0, 1, 0), 0, 1, False, False, 3),
        ),
        (
            Face((2, 0, 0, 0), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 6, 0, False, False, 3),
            Face((0, 0, 1, 0), 0, 1, False, False, 1),
            Face((1, 0, 0, 0), 0, 1, False, True, 1),
            Face((0, 2, 0, 0), 0, 1, False, False, 3),
            Face((0, 2, 0, 0), 1, 0, False, False, 2),
        ),
    ),
    "spring": (
        (
            Face((0, 0, 0, 0), 0, 0, True, False, 2),
            Face((0, 2, 0, 0), 0, 1, False, False, 3),
            Face((0, 0, 0, 2), 3, 0, False, False, 1),
            Face((0, 0, 0, 2), 0, 1, False, False, 2),
            Face((1, 0, 0, 0), 0, 1, False, True, 3),
            Face((0, 1, 0, 1), 0, 0, False, True, 1),
        ),
        (
            Face((0, 1, 0, 0), 0, 1, False, True, 1),
            Face((0, 1, 0, 1), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 0, 0, True, False, 3),
            Face((2, 0, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 2), 1, 0, False, False, 2),
            Face((0, 0, 0, 2), 0, 1, False, False, 3),
        ),
        (
            Face((0, 0, 0, 2), 0, 1, False, False, 1),
            Face((0, 1, 0, 0), 0, 1, False, True, 2),
            Face((0, 1, 0, 1), 0, 0, False, True, 3),
            Face((0, 0, 0, 0), 0, 0, True, False, 1),
            Face((1, 0, 0, 0), 0, 1, False, False, 2),
            Face((0, 0, 0, 2), 3, 0, False, False, 3),
        ),
        (
            Face((0, 1, 0, 1), 0, 0, False, True, 1),
            Face((0, 0, 0, 2), 2, 0, False, False, 2),
            Face((0, 1, 0, 0), 0, 1, False, True, 3),
            Face((0, 0, 0, 2), 0, 1, False, False, 1),
            Face((0, 0, 0, 0), 6, 0, False, False, 2),
            Face((1, 0, 0, 0), 0, 1, False, False, 3),
        ),
        (
            Face((0, 1, 0, 0), 0, 1, False, True, 1),
            Face((0, 2, 0, 0), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 6, 0, False, False, 3),
            Face((1, 0, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 2), 1, 0, False, False, 2),
            Face((0, 0, 0, 2), 0, 1, False, False, 3),
        ),
    ),
    "summer": (
        (
            Face((0, 0, 0, 0), 0, 0, True, False, 2),
            Face((0, 0, 0, 2), 0, 1, False, False, 3),
            Face((0, 0, 2, 0), 3, 0, False, False, 1),
            Face((0, 0, 2, 0), 0, 1, False, False, 2),
            Face((0, 1, 0, 0), 0, 1, False, True, 3),
            Face((0, 0, 1, 1), 0, 0, False, True, 1),
        ),
        (
            Face((0, 0, 1, 1), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 0, 0, True, False, 3),
            Face((0, 2, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 2, 0), 1, 0, False, False, 2),
            Face((0, 0, 2, 0), 0, 1, False, False, 3),
            Face((0, 0, 0, 1), 0, 1, False, True, 1),
        ),
        (
            Face((0, 0, 0, 1), 0, 1, False, True, 2),
            Face((0, 0, 1, 1), 0, 0, False, True, 3),
            Face((0, 0, 0, 0), 0, 0, True, False, 1),
            Face((0, 1, 0, 0), 0, 1, False, False, 2),
            Face((0, 0, 2, 0), 3, 0, False, False, 3),
            Face((0, 0, 2, 0), 0, 1, False, False, 1),
        ),
        (
            Face((0, 0, 2, 0), 2, 0, False, False, 2),
            Face((0, 0, 0, 1), 0, 1, False, True, 3),
            Face((0, 0, 2, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 0), 6, 0, False, False, 2),
            Face((0, 1, 0, 0), 0, 1, False, False, 3),
            Face((0, 0, 1, 1), 0, 0, False, True, 1),
        ),
        (
            Face((0, 0, 2, 0), 0, 1, False, False, 3),
            Face((0, 0, 0, 1), 0, 1, False, True, 1),
            Face((0, 0, 0, 2), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 6, 0, False, False, 3),
            Face((0, 1, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 2, 0), 1, 0, False, False, 2),
        ),
    ),
    "autumn": (
        (
            Face((1, 0, 1, 0), 0, 0, False, True, 1),
            Face((0, 0, 0, 0), 0, 0, True, False, 2),
            Face((0, 0, 2, 0), 0, 1, False, False, 3),
            Face((2, 0, 0, 0), 3, 0, False, False, 1),
            Face((2, 0, 0, 0), 0, 1, False, False, 2),
            Face((0, 0, 0, 1), 0, 1, False, True, 3),
        ),
        (
            Face((0, 0, 1, 0), 0, 1, False, True, 1),
            Face((1, 0, 1, 0), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 0, 0, True, False, 3),
            Face((0, 0, 0, 2), 0, 1, False, False, 1),
            Face((2, 0, 0, 0), 1, 0, False, False, 2),
            Face((2, 0, 0, 0), 0, 1, False, False, 3),
        ),
        (
            Face((2, 0, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 1, 0), 0, 1, False, True, 2),
            Face((1, 0, 1, 0), 0, 0, False, True, 3),
            Face((0, 0, 0, 0), 0, 0, True, False, 1),
            Face((0, 0, 0, 1), 0, 1, False, False, 2),
            Face((2, 0, 0, 0), 3, 0, False, False, 3),
        ),
        (
            Face((1, 0, 1, 0), 0, 0, False, True, 1),
            Face((2, 0, 0, 0), 2, 0, False, False, 2),
            Face((0, 0, 1, 0), 0, 1, False, True, 3),
            Face((2, 0, 0, 0), 0, 1, False, False, 1),
            Face((0, 0, 0, 0), 6, 0, False, False, 2),
            Face((0, 0, 0, 1), 0, 1, False, False, 3),
        ),
        (
            Face((0, 0, 2, 0), 0, 0, False, True, 2),
            Face((0, 0, 0, 0), 6, 0, False, False, 3),
            Face((0, 0, 0, 1), 0, 1, False, False, 1),
            Face((2, 0, 0, 0), 1, 0, False, False, 2),
            Face((2, 0, 0, 0), 0, 1, False, False, 3),
            Face((0, 0, 1, 0), 0, 1, False, True, 1),
        ),
    ),
}

DICE_PER_SEASON = 5
FACES = 6

assert all(len(DICE[s]) == DICE_PER_SEASON for s in SEASONS)
assert all(len(die) == FACES for s in SEASONS for die in DICE[s])


def face(season: str, die: int, side: int) -> Face:
    return DICE[season][die][side]


def face_dict(season: str, die: int, side: int) -> dict[str, object]:
    """A face as JSON, for views and events: energies by name."""
    f = DICE[season][die][side]
    return {
        "energy": {name: f.energy[i] for i, name in enumerate(ENERGIES)},
        "crystals": f.crystals,
        "gauge": f.gauge,
        "card": f.card,
        "transmute": f.transmute,
        "time": f.time,
    }

"""The state of a Whirling Witchcraft match, and its exact JSON form.

A rules expert can write a position by hand: ``dump`` gives the JSON below, ``load`` reads it.

```
{
  "players": 3,                        # seats 0..n-1, clockwise: seat s's LEFT neighbour is s+1
  "options": {"personalities": "initiates", "production": "simultaneous",
              "flasks_as_converted": false, "spider_summoning_one_way": false},
  "phase": "study",                    # "personality" | "study" | "brew" | "over"
  "round": 1,
  "deck": ["R17", ...],                # draw pile, top card first
  "discard": [],
  "rng": "9e3779b97f4a7c15",           # engine.rng state
  "result": null,                      # {"winners", "scores", "reason", "details"} once over
  "witches": [{
    "personality": "P01",              # null: discarded (Initiate swap, Hidden Power used)
    "offer": [],                       # advanced mode: the 2 personalities dealt, until she keeps 1
    "rotated_own": false,              # Trickster: her recipe is currently turned
    "hand": ["R01", "R40", ...],
    "tableau": [["R24", false], ...],  # played recipes in order, with their fixed rotation
    "workbench": [H, M, R, S, T],      # at most 3/4/9/9/9
    "circle": [H, M, R, S, T],         # the Witch's Circle: cubes scored
    "arcana": [potion, raven, book],   # 0..6
    "gain_due": false,                 # Uncontrolled Powers still owes this round's gain
    "committed": false,                # her study decision is in
    "played": null,                    # ["R12", rotated, random?, extra_arcana or null]
    "brew": null                       # during the brew phase, her private production sheet:
       # {"workbench": [..], "outputs": [..], "cauldron": [..], "used": ["R24", ...],
       #  "triggers": ["potion", "raven", "book", "pour"], "books": [2], "scholar": false,
       #  "done": false, "claimed": [0, 0, 0, 0, 0]}
  }]
}
```

During the brew phase every witch works on ``brew`` (a private copy); the public ``workbench``
changes only when cauldrons are passed, so no one sees another's production before it is over.
With the option ``"production": "initiative"`` the sheets are public instead, and only one witch
brews at a time: the first seat of ``rules.decision_order`` whose ``brew.done`` is false. That is
derived, not stored, so this option adds no field to the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.whirling.cards import Recipe, recipe_table


@dataclass(slots=True)
class Production:
    """One witch's brew phase, private to her until the cauldrons pass."""

    workbench: list[int]
    outputs: list[int]  # cubes sitting on output slots of recipes used this round
    cauldron: list[int]  # cubes already in the cauldron (potion, Potion Brewer)
    used: list[str]
    triggers: list[str]  # arcana still to resolve: "potion", "raven", "book", "pour"
    books: list[int]  # types named by a Book this round
    scholar: bool = False
    done: bool = False
    # Witch of All Trades: cubes moved to her circle, shown only when the cauldrons pass.
    claimed: list[int] = field(default_factory=lambda: [0, 0, 0, 0, 0])

    def copy(self) -> Production:
        return Production(
            self.workbench[:],
            self.outputs[:],
            self.cauldron[:],
            self.used[:],
            self.triggers[:],
            self.books[:],
            self.scholar,
            self.done,
            self.claimed[:],
        )

    def dump(self) -> dict[str, Any]:
        return {
            "workbench": self.workbench[:],
            "outputs": self.outputs[:],
            "cauldron": self.cauldron[:],
            "used": self.used[:],
            "triggers": self.triggers[:],
            "books": self.books[:],
            "scholar": self.scholar,
            "done": self.done,
            "claimed": self.claimed[:],
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Production:
        return cls(
            list(d["workbench"]),
            list(d["outputs"]),
            list(d["cauldron"]),
            list(d["used"]),
            list(d["triggers"]),
            list(d["books"]),
            bool(d.get("scholar", False)),
            bool(d.get("done", False)),
            list(d.get("claimed", [0, 0, 0, 0, 0])),
        )


@dataclass(slots=True)
class Played:
    card: str
    rotated: bool
    random: bool = False  # Daredevil's random play
    extra_arcana: str | None = None  # Daredevil's extra effect, named with the face-down card

    def dump(self) -> list[Any]:
        return [self.card, self.rotated, self.random, self.extra_arcana]

    @classmethod
    def load(cls, d: list[Any]) -> Played:
        return cls(d[0], bool(d[1]), bool(d[2]), d[3])


@dataclass(slots=True)
class Witch:
    personality: str | None
    offer: list[str]
    rotated_own: bool
    hand: list[str]
    tableau: list[tuple[str, bool]]
    workbench: list[int]
    circle: list[int]
    arcana: list[int]
    gain_due: bool = False
    committed: bool = False
    played: Played | None = None
    brew: Production | None = None

    def copy(self, brew: bool = True) -> Witch:
        """Her own copy; ``brew=False`` shares her production sheet (never to be changed)."""
        played = self.played
        return Witch(
            self.personality,
            self.offer[:],
            self.rotated_own,
            self.hand[:],
            self.tableau[:],
            self.workbench[:],
            self.circle[:],
            self.arcana[:],
            self.gain_due,
            self.committed,
            Played(played.card, played.rotated, played.random, played.extra_arcana)
            if played
            else None,
            self.brew.copy() if brew and self.brew else self.brew,
        )

    def brewing_copy(self) -> Witch:
        """A copy for a step of the brew phase, whose rules change only her production sheet
        (and may replace, never change, her other parts): the sheet is her own, every other
        list is still the previous state's."""
        brew = self.brew
        return Witch(
            self.personality,
            self.offer,
            self.rotated_own,
            self.hand,
            self.tableau,
            self.workbench,
            self.circle,
            self.arcana,
            self.gain_due,
            self.committed,
            self.played,
            brew.copy() if brew else None,
        )

    def dump(self) -> dict[str, Any]:
        return {
            "personality": self.personality,
            "offer": self.offer[:],
            "rotated_own": self.rotated_own,
            "hand": self.hand[:],
            "tableau": [[c, r] for c, r in self.tableau],
            "workbench": self.workbench[:],
            "circle": self.circle[:],
            "arcana": self.arcana[:],
            "gain_due": self.gain_due,
            "committed": self.committed,
            "played": self.played.dump() if self.played else None,
            "brew": self.brew.dump() if self.brew else None,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Witch:
        return cls(
            d["personality"],
            list(d.get("offer", [])),
            bool(d.get("rotated_own", False)),
            list(d["hand"]),
            [(c, bool(r)) for c, r in d["tableau"]],
            list(d["workbench"]),
            list(d["circle"]),
            list(d["arcana"]),
            bool(d.get("gain_due", False)),
            bool(d.get("committed", False)),
            Played.load(d["played"]) if d.get("played") else None,
            Production.load(d["brew"]) if d.get("brew") else None,
        )


@dataclass(slots=True)
class State:
    players: int
    options: dict[str, Any]
    phase: str
    round: int
    deck: list[str]
    discard: list[str]
    rng: str
    witches: list[Witch]
    result: dict[str, Any] | None = None
    # engine.undo's journal, set and dumped by the adapter; never part of a view.
    undo: Any = None
    # engine.memo: to_move and legal actions, worked out once; never copied, dumped or compared.
    memo: dict[Any, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def open_production(self) -> bool:
        """Production in initiative order, in the open (room option ``production``)."""
        return self.options.get("production") == "initiative"

    @property
    def recipes(self) -> dict[str, Recipe]:
        return recipe_table(
            bool(self.options.get("flasks_as_converted", False)),
            bool(self.options.get("spider_summoning_one_way", False)),
        )

    def shallow(self) -> State:
        """A new top-level state sharing every witch; replace a witch before changing it."""
        return State(
            self.players,
            self.options,
            self.phase,
            self.round,
            self.deck,
            self.discard,
            self.rng,
            self.witches[:],
            self.result,
        )

    def deep(self) -> State:
        """A copy of every part but the production sheets (the steps that change every witch,
        ``rules._resolve_all``, read a sheet or replace it, never change one) and the options
        (never changed after setup)."""
        return State(
            self.players,
            self.options,
            self.phase,
            self.round,
            self.deck[:],
            self.discard[:],
            self.rng,
            [w.copy(False) for w in self.witches],
            self.result,
        )

    def dump(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "phase": self.phase,
            "round": self.round,
            "deck": self.deck[:],
            "discard": self.discard[:],
            "rng": self.rng,
            "result": self.result,
            "witches": [w.dump() for w in self.witches],
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> State:
        return cls(
            int(d["players"]),
            dict(d.get("options", {})),
            d["phase"],
            int(d["round"]),
            list(d["deck"]),
            list(d.get("discard", [])),
            d["rng"],
            [Witch.load(w) for w in d["witches"]],
            d.get("result"),
        )

"""The state of a Seasons match, and its exact JSON form.

A rules expert can write a position by hand: ``dump`` gives the JSON below, ``load`` reads it
(every key shown is required unless marked optional). Energy vectors are objects
``{"air", "water", "fire", "earth"}``; card numbers are the printed ones (1–50).

```
{
  "players": 2,                      # seats 0..n-1 clockwise: seat s's LEFT neighbour is s+1
  "options": {"level": "apprentice", "edition": 2, "first_player": null,
              "score_floor": false, "exchange_exactly_two": false},
  "phase": "turn",                   # "draft" | "build" | "dice" | "turn" | "over"
  "year": 1, "month": 1,             # the season marker: year I–III, space 1–12
  "round": 1,                        # rounds started so far (0 during the Prelude)
  "first_player": 0,
  "dice_in_use": {"winter": [0, 2, 4], ...},   # die indices (0–4) of each season in this match
  "round_season": "winter",          # the season whose dice were rolled this round
  "dice": [{"die": 2, "side": 5, "taken_by": 0}, ...],   # this round's dice, as rolled
  "chooser": null,                   # phase "dice": the seat taking a die now
  "turn": {"seat": 0, "step": "main", "may_transmute": true, "transmute_bonus": 0,
           "card_choice": false},    # phase "turn": whose turn, and what this turn allows
                                     # (step "die": the die is not resolved yet)
  "turns_taken": 1,                  # turns played this round
  "deck": [12, 3, ...],              # draw pile, top first
  "discard": [7],                    # face down
  "rng": "9e3779b97f4a7c15",
  "next_id": 5,                      # id of the next card to enter play
  "stack": [ {"kind": "gain_energy", "seat": 1, "count": 2, ...,
              "secret": {...}} ],    # pending tasks and questions, top last (tasks.py)
  "tick": 17,                        # actions applied so far (the stage of a sequential turn)
  "draft_round": 0,                  # phase "draft": picks made so far by every seat
  "result": null,                    # {"winners", "scores", "placings", "reason", "details"}
  "seats": [{
    "crystals": 0, "energy": {"air": 0, ...}, "gauge": 0, "bonus_used": 0,
    "hand": [3, 12],                 # sorted card numbers
    "libraries": [[1, 2, 7], [18, 20, 30]],   # Library II, Library III (emptied once handed out)
    "in_play": [{"id": 1, "card": 3, "used": false, "fresh": false,
                 "tokens": {"air": 0, ...}}],  # used: activated this turn; fresh: entered this
                                               # turn; tokens: energy kept on the card (#4, #35)
    "draft": [],                     # phase "draft": the cards offered to this seat now
    "pick": null,                    # phase "draft": this pass's pick, until every seat picked
    "built": false,                  # phase "build": libraries confirmed
    "die": 0                         # index in "dice" of the die this seat took this round
  }]
}
```
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.seasons.cards import ENERGIES
from engine.seasons.dice import SEASONS
from engine.seasons.options import SeasonsOptions


def energy_dict(vec: list[int] | tuple[int, ...]) -> dict[str, int]:
    return {name: vec[i] for i, name in enumerate(ENERGIES)}


def energy_list(d: dict[str, int]) -> list[int]:
    return [int(d.get(name, 0)) for name in ENERGIES]


_SCALARS = frozenset({int, str, bool, float, type(None)})


def copy_json(x: Any) -> Any:
    """A copy of plain JSON data (the stack's tasks), faster than ``copy.deepcopy``: a scalar
    value in it is taken as it is, without a call."""
    if isinstance(x, dict):
        return {k: v if type(v) in _SCALARS else copy_json(v) for k, v in x.items()}
    if isinstance(x, list):
        return [v if type(v) in _SCALARS else copy_json(v) for v in x]
    return x


@dataclass(slots=True)
class InPlay:
    id: int
    card: int
    used: bool = False
    fresh: bool = False
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def copy(self) -> InPlay:
        return InPlay(self.id, self.card, self.used, self.fresh, self.tokens[:])

    def dump(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "card": self.card,
            "used": self.used,
            "fresh": self.fresh,
            "tokens": energy_dict(self.tokens),
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> InPlay:
        return cls(
            int(d["id"]),
            int(d["card"]),
            bool(d.get("used", False)),
            bool(d.get("fresh", False)),
            energy_list(d.get("tokens", {})),
        )


@dataclass(slots=True)
class Player:
    crystals: int = 0
    energy: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    gauge: int = 0
    bonus_used: int = 0
    hand: list[int] = field(default_factory=list)
    libraries: list[list[int]] = field(default_factory=lambda: [[], []])
    in_play: list[InPlay] = field(default_factory=list)
    draft: list[int] = field(default_factory=list)
    pick: int | None = None
    built: bool = False
    die: int | None = None
    # True while the cards in play are the previous state's own objects (``copy``): a rule
    # changes one only after ``own_entries``. Never dumped or compared.
    shares_entries: bool = field(default=False, compare=False, repr=False)

    def copy(self) -> Player:
        """A copy for ``apply`` to change. Its list of cards in play is its own, the cards in
        it are still the previous state's: most steps change no card in play, so each is
        copied only when a rule asks to change one (``own_entries``, ``own_entry``). Its
        draft and its two libraries are the previous state's lists too: a rule replaces them,
        never changes one in place (a library is replaced in its own pair of libraries)."""
        return Player(
            self.crystals,
            self.energy[:],
            self.gauge,
            self.bonus_used,
            self.hand[:],
            self.libraries[:],  # each library is replaced, never changed in place
            self.in_play[:],
            self.draft,  # replaced, never changed in place
            self.pick,
            self.built,
            self.die,
            True,
        )

    def own_entries(self) -> list[InPlay]:
        """The cards in play, to change: copied first if they are shared with another state."""
        if self.shares_entries:
            self.in_play = [e.copy() for e in self.in_play]
            self.shares_entries = False
        return self.in_play

    def entry(self, entry_id: int) -> InPlay | None:
        """The card in play with this id, to read (see ``own_entry`` to change it)."""
        for e in self.in_play:
            if e.id == entry_id:
                return e
        return None

    def own_entry(self, entry_id: int) -> InPlay | None:
        """The card in play with this id, to change."""
        for e in self.own_entries():
            if e.id == entry_id:
                return e
        return None

    def count_in_play(self, card: int) -> int:
        return sum(1 for e in self.in_play if e.card == card)

    def dump(self) -> dict[str, Any]:
        return {
            "crystals": self.crystals,
            "energy": energy_dict(self.energy),
            "gauge": self.gauge,
            "bonus_used": self.bonus_used,
            "hand": self.hand[:],
            "libraries": [self.libraries[0][:], self.libraries[1][:]],
            "in_play": [e.dump() for e in self.in_play],
            "draft": self.draft[:],
            "pick": self.pick,
            "built": self.built,
            "die": self.die,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Player:
        libraries = d.get("libraries", [[], []])
        return cls(
            int(d.get("crystals", 0)),
            energy_list(d.get("energy", {})),
            int(d.get("gauge", 0)),
            int(d.get("bonus_used", 0)),
            sorted(int(c) for c in d.get("hand", [])),
            [[int(c) for c in libraries[0]], [int(c) for c in libraries[1]]],
            [InPlay.load(e) for e in d.get("in_play", [])],
            [int(c) for c in d.get("draft", [])],
            d.get("pick"),
            bool(d.get("built", False)),
            d.get("die"),
        )


_get = list.__getitem__
_set = list.__setitem__


class SeatsInWork(list[Player]):
    """The seats of a state that ``apply`` is building: they start as the previous state's own
    players, and each is copied the first time it is read (indexed or iterated), so a rule can
    only ever change a copy. Seats never read are shared with the previous state: a state once
    returned never changes, so sharing them is safe. ``State.done`` turns this back into a plain
    list when the state is finished."""

    __slots__ = ("_own",)
    # seat i is this state's own copy; set by its maker (``State.copy``: built by list's own
    # __init__, without a frame of Python)
    _own: list[bool]

    def __getitem__(self, i):  # type: ignore[no-untyped-def]  # list's overloads: int and slice
        if type(i) is not int:
            return [self[k] for k in range(*i.indices(len(self)))]
        if self._own[i]:
            return _get(self, i)
        player: Player = _get(self, i).copy()
        _set(self, i, player)
        self._own[i] = True
        return player

    def __setitem__(self, i, value):  # type: ignore[no-untyped-def]
        if isinstance(i, slice):
            raise TypeError("replace seats one at a time")
        list.__setitem__(self, i, value)
        self._own[i] = True

    def __iter__(self) -> Iterator[Player]:
        for k in range(len(self)):
            yield self[k]

    def done(self) -> list[Player]:
        return list.copy(self)


@dataclass(slots=True)
class Turn:
    seat: int
    step: str = "main"  # "die": the season die is not resolved yet; "main": everything else
    may_transmute: bool = False
    transmute_bonus: int = 0  # Bonus 2 uses this turn: +1 crystal per token each
    card_choice: bool = False  # Bonus 4 declared: the die's card symbol draws 2, keep 1

    def copy(self) -> Turn:
        return Turn(self.seat, self.step, self.may_transmute, self.transmute_bonus,
                    self.card_choice)

    def dump(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "step": self.step,
            "may_transmute": self.may_transmute,
            "transmute_bonus": self.transmute_bonus,
            "card_choice": self.card_choice,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> Turn:
        return cls(
            int(d["seat"]),
            str(d.get("step", "main")),
            bool(d.get("may_transmute", False)),
            int(d.get("transmute_bonus", 0)),
            bool(d.get("card_choice", False)),
        )


@dataclass(slots=True)
class State:
    players: int
    options: dict[str, Any]
    phase: str
    year: int
    month: int
    round: int
    first_player: int
    dice_in_use: dict[str, list[int]]
    round_season: str
    dice: list[dict[str, Any]]
    chooser: int | None
    turn: Turn | None
    turns_taken: int
    deck: list[int]
    discard: list[int]
    rng: str
    next_id: int
    stack: list[dict[str, Any]]
    tick: int
    draft_round: int
    result: dict[str, Any] | None
    seats: list[Player]
    # engine.undo's journal, set and dumped by the adapter; never part of a view.
    undo: Any = None
    # engine.memo: to_move and legal actions, worked out once; never copied, dumped or compared.
    memo: dict[Any, Any] | None = field(default=None, compare=False, repr=False)
    # True while ``turn`` is the previous state's own object (``copy``): a rule changes it only
    # through ``own_turn``. Never dumped or compared.
    turn_shared: bool = field(default=False, compare=False, repr=False)

    def copy(self) -> State:
        """A copy for ``apply`` to change: every seat is copied when first read (``SeatsInWork``);
        call ``done`` when finished."""
        seats = SeatsInWork(self.seats)
        seats._own = [False] * len(self.seats)
        return State(
            self.players,
            self.options,  # never changed after setup
            self.phase,
            self.year,
            self.month,
            self.round,
            self.first_player,
            self.dice_in_use,  # never changed after setup
            self.round_season,
            self.dice[:],  # a die is replaced, never changed in place
            self.chooser,
            self.turn,  # shared until a rule changes it (own_turn)
            self.turns_taken,
            self.deck[:],
            self.discard[:],
            self.rng,
            self.next_id,
            self.stack[:],  # a task is never changed on the stack: it is copied when popped
            self.tick,
            self.draft_round,
            self.result,
            seats,
            None,
            None,
            True,
        )

    def own_turn(self) -> Turn:
        """The turn, to change: copied first if it is still the previous state's."""
        turn = self.turn
        assert turn is not None
        if self.turn_shared:
            turn = self.turn = turn.copy()
            self.turn_shared = False
        return turn

    def done(self) -> None:
        """The end of ``apply``'s work on this copy: its seats become a plain list again."""
        if isinstance(self.seats, SeatsInWork):
            self.seats = self.seats.done()

    def seats_to_read(self) -> list[Player]:
        """The seats, to read only: during ``apply`` this copies none of them."""
        seats = self.seats
        return list.copy(seats) if isinstance(seats, SeatsInWork) else seats

    def dump(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "phase": self.phase,
            "year": self.year,
            "month": self.month,
            "round": self.round,
            "first_player": self.first_player,
            "dice_in_use": {k: v[:] for k, v in self.dice_in_use.items()},
            "round_season": self.round_season,
            "dice": [dict(d) for d in self.dice],
            "chooser": self.chooser,
            "turn": self.turn.dump() if self.turn else None,
            "turns_taken": self.turns_taken,
            "deck": self.deck[:],
            "discard": self.discard[:],
            "rng": self.rng,
            "next_id": self.next_id,
            "stack": copy_json(self.stack),
            "tick": self.tick,
            "draft_round": self.draft_round,
            "result": copy_json(self.result),
            "seats": [p.dump() for p in self.seats],
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> State:
        return cls(
            int(d["players"]),
            SeasonsOptions.model_validate(d.get("options", {})).model_dump(),
            str(d["phase"]),
            int(d.get("year", 1)),
            int(d.get("month", 1)),
            int(d.get("round", 1)),
            int(d.get("first_player", 0)),
            {k: [int(x) for x in v] for k, v in d["dice_in_use"].items()},
            str(d.get("round_season", "winter")),
            [dict(x) for x in d.get("dice", [])],
            d.get("chooser"),
            Turn.load(d["turn"]) if d.get("turn") else None,
            int(d.get("turns_taken", 0)),
            [int(c) for c in d.get("deck", [])],
            [int(c) for c in d.get("discard", [])],
            str(d["rng"]),
            int(d.get("next_id", 1)),
            copy_json(d.get("stack", [])),
            int(d.get("tick", 0)),
            int(d.get("draft_round", 0)),
            copy_json(d.get("result")),
            [Player.load(p) for p in d["seats"]],
        )

    # --- small readings of the position ---------------------------------------------------------

    @property
    def season(self) -> str:
        return SEASONS[(self.month - 1) // 3]

    @property
    def edition(self) -> int:
        return int(self.options.get("edition", 2))

"""The state of a Witch's Brew match, and its exact JSON form.

A rules expert can write a position by hand: ``dump`` gives the JSON below, ``load`` reads it
back (``load(dump(s)) == s``). Seats are numbered clockwise: the player to seat *s*'s left, who
answers after her, is seat *s + 1* (mod players).

```
{
  "players": 4,
  "options": {"variant_blocked_roles": false, "thief_favor": "exempt"},
  "phase": "respond",        # "choose" | "lead" | "respond" | "act" | "tribute" | "shelf" | "over"
  "set": 1,                  # sets begun (1-based)
  "round": 3,                # rounds begun in the whole match
  "turn": 17,                # sequential actions applied (the stage id; constant while choosing)
  "rng": "9e3779b97f4a7c15", # engine.rng state
  "start_player": 0,
  "leader": 2,               # leads the current round, or the next one
  "stacks": {"copper": ["copper-1", ...], ...},   # the 5 potion stacks, top card first
  "spells": ["copia", ...],  # the 8 spell books, the face-up top one first
  "spell_history": [],       # spells that were on top in earlier sets, oldest first
  "variant_deck": [],        # the variant's face-down role cards of the unused colour, top first
  "variant_revealed": [],    # turned up since the last reshuffle
  "blocked": [],             # roles nobody may keep this set (the last ones turned up)
  "led": ["warlock"],        # roles led this set, in order
  "current": null | {        # the round being played
    "role": "warlock", "leader": 0, "claimant": 3,
    "answers": [[1, "favor"], [2, "claim"]],
                 # [seat, "claim" | "favor" | "decline_favor" | "pass" | "auto_pass"]
    "pending": [3, 4],       # seats still to answer, in order
    "exempt": [1],           # took a thief's favor: spared the theft
    "givers": []             # Begging Monk: seats still owing a drop, in order
  },
  "witches": [{
    "hand": ["warlock", "witch"],   # kept roles not yet played (while choosing: kept so far)
    "played": ["alchemist"],        # roles played face up this set, in order
    "confirmed": true,              # choose phase: her 5 are final
    "drops": {"red": 1, "white": 1, "green": 1},
    "gold": 2,
    "vials": 0,
    "potions": ["copper-1"]         # potion cards in her play area, in the order taken
  }],
  "result": null             # {"winners", "scores", "placings", "reason", "details"} once over
}
```

A witch's set-aside roles are not stored: they are her 12 roles minus ``hand`` minus ``played``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Witch:
    hand: list[str]
    played: list[str]
    confirmed: bool
    drops: dict[str, int]
    gold: int
    vials: int
    potions: list[str]

    def copy(self) -> Witch:
        return Witch(self.hand[:], self.played[:], self.confirmed, dict(self.drops), self.gold,
                     self.vials, self.potions[:])

    def dump(self) -> dict[str, Any]:
        return {"hand": self.hand[:], "played": self.played[:], "confirmed": self.confirmed,
                "drops": dict(self.drops), "gold": self.gold, "vials": self.vials,
                "potions": self.potions[:]}

    @classmethod
    def load(cls, d: dict[str, Any]) -> Witch:
        return cls(list(d["hand"]), list(d.get("played", [])), bool(d.get("confirmed", False)),
                   {k: int(v) for k, v in d["drops"].items()}, int(d["gold"]),
                   int(d.get("vials", 0)), list(d.get("potions", [])))


@dataclass(slots=True)
class Round:
    role: str
    leader: int
    claimant: int
    answers: list[tuple[int, str]] = field(default_factory=list)
    pending: list[int] = field(default_factory=list)
    exempt: list[int] = field(default_factory=list)
    givers: list[int] = field(default_factory=list)

    def copy(self) -> Round:
        return Round(self.role, self.leader, self.claimant, self.answers[:], self.pending[:],
                     self.exempt[:], self.givers[:])

    def dump(self) -> dict[str, Any]:
        return {"role": self.role, "leader": self.leader, "claimant": self.claimant,
                "answers": [[s, a] for s, a in self.answers], "pending": self.pending[:],
                "exempt": self.exempt[:], "givers": self.givers[:]}

    @classmethod
    def load(cls, d: dict[str, Any]) -> Round:
        return cls(d["role"], int(d["leader"]), int(d["claimant"]),
                   [(int(s), str(a)) for s, a in d.get("answers", [])],
                   [int(s) for s in d.get("pending", [])], [int(s) for s in d.get("exempt", [])],
                   [int(s) for s in d.get("givers", [])])


@dataclass(slots=True)
class State:
    players: int
    options: dict[str, Any]
    phase: str
    set: int
    round: int
    turn: int
    rng: str
    start_player: int
    leader: int
    stacks: dict[str, list[str]]
    spells: list[str]
    spell_history: list[str]
    variant_deck: list[str]
    variant_revealed: list[str]
    blocked: list[str]
    led: list[str]
    current: Round | None
    witches: list[Witch]
    result: dict[str, Any] | None = None
    # engine.undo's journal, set and dumped by the adapter; never part of a view.
    undo: Any = None

    def copy(self) -> State:
        """A copy sharing nothing mutable with this state (``apply`` works on one)."""
        return State(
            self.players, self.options, self.phase, self.set, self.round, self.turn, self.rng,
            self.start_player, self.leader, {k: v[:] for k, v in self.stacks.items()},
            self.spells[:], self.spell_history[:], self.variant_deck[:],
            self.variant_revealed[:], self.blocked[:], self.led[:],
            self.current.copy() if self.current else None, [w.copy() for w in self.witches],
            self.result,
        )

    def dump(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "phase": self.phase,
            "set": self.set,
            "round": self.round,
            "turn": self.turn,
            "rng": self.rng,
            "start_player": self.start_player,
            "leader": self.leader,
            "stacks": {k: v[:] for k, v in self.stacks.items()},
            "spells": self.spells[:],
            "spell_history": self.spell_history[:],
            "variant_deck": self.variant_deck[:],
            "variant_revealed": self.variant_revealed[:],
            "blocked": self.blocked[:],
            "led": self.led[:],
            "current": self.current.dump() if self.current else None,
            "witches": [w.dump() for w in self.witches],
            "result": self.result,
        }

    @classmethod
    def load(cls, d: dict[str, Any]) -> State:
        return cls(
            int(d["players"]),
            dict(d.get("options", {})),
            str(d["phase"]),
            int(d.get("set", 1)),
            int(d.get("round", 0)),
            int(d.get("turn", 0)),
            str(d["rng"]),
            int(d.get("start_player", 0)),
            int(d["leader"]),
            {k: list(v) for k, v in d["stacks"].items()},
            list(d["spells"]),
            list(d.get("spell_history", [])),
            list(d.get("variant_deck", [])),
            list(d.get("variant_revealed", [])),
            list(d.get("blocked", [])),
            list(d.get("led", [])),
            Round.load(d["current"]) if d.get("current") else None,
            [Witch.load(w) for w in d["witches"]],
            d.get("result"),
        )

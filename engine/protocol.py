"""The one protocol every Coven game implements (see DESIGN.md, "Engine protocol").

A game is a pure object: no I/O, no clock, no globals. Everything that changes lives in the
``State`` it hands out, and ``setup(players, seed, options)`` followed by the same list of
``(seat, action)`` pairs rebuilds a match bit for bit.

Two kinds of games run on this protocol:

* games of **simultaneous hidden choices** (Whirling Witchcraft's recipe plays, Witch's Brew's
  role selection): ``to_move`` names several seats at once, each sends an ordinary action, the
  state records every pending choice and resolves the step when the last one arrives;
* games of **long sequential turns with chance** (Seasons): ``to_move`` names one seat, a turn is
  several small actions, dice come from the RNG stored in the state.

``stage`` is the one addition to the protocol in DESIGN.md: an id that stays the same for the
whole length of one decision step. The server uses it to accept an action sent against an older
version of the *same* step (two players choosing at the same moment) while still refusing an
action aimed at a step that is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

Action = dict[str, Any]
"""A small JSON object with a ``type`` field, e.g. ``{"type": "play", "card": "R17"}``."""

Event = dict[str, Any]
"""What happened, for the table log: ``{"type": ..., ...}``; a ``"to": seat`` key addresses it to
one seat only (everyone else never receives it)."""


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable and machine-readable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True, slots=True)
class Step:
    """The outcome of ``Game.apply``: a new state and the events it produced."""

    state: Any
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished match ended: who won, every seat's score, and why."""

    winners: list[int]
    scores: list[int]
    reason: str
    details: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "details": self.details,
        }


def public_events(events: list[Event]) -> list[Event]:
    """The events every seat and every spectator may see."""
    return [e for e in events if "to" not in e]


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events one seat (or, with ``None``, a spectator) may see."""
    return [e for e in events if "to" not in e or (seat is not None and e["to"] == seat)]


@runtime_checkable
class Game(Protocol):
    """A game's rules. ``State`` is whatever object the game chooses; only the game reads it."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[type[BaseModel]]

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        """A new match. Raises ``IllegalAction("bad_options", ...)`` for bad options."""
        ...

    def to_move(self, state: Any) -> frozenset[int]:
        """The seats that owe a decision now (empty once the match is over)."""
        ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        """Every action ``seat`` may send now; ``[]`` when it owes nothing."""
        ...

    def apply(self, state: Any, seat: int, action: Action) -> Step:
        """Validate and apply one action. Never changes ``state``; raises ``IllegalAction``."""
        ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Same shape for every seat."""
        ...

    def result(self, state: Any) -> Result | None:
        """``None`` while the match runs."""
        ...

    def stage(self, state: Any) -> str:
        """An id constant for the length of one decision step (see module docstring)."""
        ...

    def dump(self, state: Any) -> dict[str, Any]:
        """JSON-ready form of the state; ``load(dump(s))`` is an exact round trip."""
        ...

    def load(self, data: dict[str, Any]) -> Any: ...


def parse_options(game: Game, options: dict[str, Any] | None) -> BaseModel:
    """Validate setup options against the game's model, as an ``IllegalAction`` on failure."""
    from pydantic import ValidationError

    try:
        return game.options.model_validate(options or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise IllegalAction("bad_options", f"{where}: {first.get('msg', 'invalid')}") from None

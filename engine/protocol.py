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
whole length of one decision step. The server uses it, per seat, to accept an action sent against
an older version of the *same* step by a seat that has not acted since (two players choosing at
the same moment) while refusing an action aimed at a step that is over, or a sub-action of a
sequential turn sent twice.

**``to_move`` is public.** Every seat and every spectator is told who owes a decision, so a game
must never reveal a hidden fact through it (never prompt only the holders of a hidden card: in
Witch's Brew every seat answers a role, holders and non-holders alike).

**Events are addressed by an envelope key no game may use as data**: :data:`TO` (``"@to"``), a
sorted list of seats. An event without it is public. Build private events with
:func:`private`; never give a game's own field a name starting with ``"@"``. Every game declares
the visibility of each event type it emits in ``event_types`` (``PUBLIC`` or ``PRIVATE``), and
``tests/engine`` checks every registered game against its declaration.

Optional, for search bots (see ``engine/bots``): ``determinize(view, seat, rng)`` returns a full
state consistent with what ``seat`` sees in ``view`` (hidden cards dealt at random from what is
unseen), and ``evaluate(state, seat)`` scores a position for ``seat`` (higher is better), the
one-ply heuristic of the ``greedy`` bot. Both live next to the game's rules.

Optional, for undo within a turn (see :class:`Undoes` and ``engine/undo.py``): ``{"type":
"undo"}`` is an ordinary recorded action through ``apply``, never listed by ``legal_actions``;
``undo_allowed(state, seat)`` says whether ``seat`` may send it now.

Optional, for players' history (see :class:`KeepsStatistics`): ``statistics(state, events)``, a
finished match's own figures per seat (e.g. potions brewed), named in ``statistic_names``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable

from pydantic import BaseModel

Action = dict[str, Any]
"""A small JSON object with a ``type`` field, e.g. ``{"type": "play", "card": "R17"}``."""

Event = dict[str, Any]
"""What happened, for the table log: ``{"type": ..., ...}``. Public unless it carries the
envelope key :data:`TO`, the list of seats that may receive it."""

TO = "@to"
"""The envelope key of an addressed event: a sorted list of the seats that may see it."""

PUBLIC = "public"
PRIVATE = "private"
"""The two visibilities a game declares for its event types in ``event_types``."""


def private(event: Event, seats: int | Iterable[int]) -> Event:
    """``event`` addressed to ``seats`` only (one seat or several)."""
    targets = [seats] if isinstance(seats, int) else list(seats)
    if not targets:
        raise ValueError("a private event needs at least one seat")
    if any(key.startswith("@") for key in event):
        raise ValueError(f"event keys starting with '@' are reserved: {sorted(event)}")
    return {**event, TO: sorted(set(targets))}


def is_public(event: Event) -> bool:
    return TO not in event


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


def rank(winners: list[int], scores: list[int]) -> list[int]:
    """Placings from winners and scores: winners share place 1; the others follow by score,
    equal scores sharing a place (competition ranking: 1, 1, 3, ...)."""
    others = sorted((s for s in range(len(scores)) if s not in winners), key=lambda s: -scores[s])
    placings = [0] * len(scores)
    for seat in winners:
        placings[seat] = 1
    place = len(winners) + 1
    for i, seat in enumerate(others):
        if i and scores[seat] == scores[others[i - 1]]:
            placings[seat] = placings[others[i - 1]]
        else:
            placings[seat] = place + i
    return placings


@dataclass(frozen=True, slots=True)
class Result:
    """How a finished match ended: who won, every seat's score and place, and why.

    ``placings[seat]`` is that seat's place, 1 for the winners; tied seats share a place. A game
    whose tie-breaks order the losers too passes them; otherwise they follow from the scores.
    """

    winners: list[int]
    scores: list[int]
    reason: str
    details: dict[str, Any] = field(default_factory=dict)
    placings: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.placings:
            object.__setattr__(self, "placings", rank(self.winners, self.scores))

    @classmethod
    def from_dict(cls, record: dict[str, Any] | None) -> Result | None:
        """The inverse of ``as_dict`` (``None`` stays ``None``: the match still runs)."""
        if record is None:
            return None
        return cls(
            record["winners"], record["scores"], record["reason"],
            record.get("details", {}), record.get("placings", []),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "placings": list(self.placings),
            "reason": self.reason,
            "details": self.details,
        }


def public_events(events: list[Event]) -> list[Event]:
    """The events every seat and every spectator may see."""
    return [e for e in events if TO not in e]


def events_for(events: list[Event], seat: int | None) -> list[Event]:
    """The events one seat (or, with ``None``, a spectator) may see."""
    return [e for e in events if TO not in e or (seat is not None and seat in e[TO])]


@runtime_checkable
class Game(Protocol):
    """A game's rules. ``State`` is whatever object the game chooses; only the game reads it."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options: ClassVar[type[BaseModel]]
    event_types: ClassVar[Mapping[str, str]]
    """Every event type the game emits, with its visibility (``PUBLIC`` or ``PRIVATE``)."""

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        """A new match. Raises ``IllegalAction("bad_options", ...)`` for bad options."""
        ...

    def to_move(self, state: Any) -> frozenset[int]:
        """The seats that owe a decision now (empty once the match is over). Public: every
        seat and spectator sees it, so it must not depend on a hidden fact."""
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


Figures = dict[str, int | float]


def zero_figures(names: tuple[str, ...], players: int) -> list[Figures]:
    """Every seat's figures at 0, in ``names``' order: where a game's ``statistics`` starts."""
    return [dict.fromkeys(names, 0) for _ in range(players)]


def count_events(figures: list[Figures], events: list[Event], counted: Mapping[str, str]) -> None:
    """Add 1 to the figure ``counted[type]`` of the event's ``seat`` for each counted event."""
    for event in events:
        figure = counted.get(event.get("type", ""))
        if figure is not None:
            figures[event["seat"]][figure] += 1
"""One seat's statistics of a finished match: ``{"potions_brewed": 4, ...}``."""


@runtime_checkable
class KeepsStatistics(Protocol):
    """Optional beside :class:`Game`, like ``catalog()``: the game's own figures of a finished
    match, shown in each player's history and on the match's end screen.

    ``statistics(state, events)`` gets the final state and every event of the match in order
    (addressed ones included; setup's state carries no events) and returns one dict per seat
    with exactly the keys of ``statistic_names``, in that order (the order a table shows them;
    the browser translates each name as ``stat.<game id>.<name>``). Each figure is a count or
    amount for that one match, so a player's matches can be summed and averaged. Pure, like
    the rest of the engine; it must not tell a seat's hidden facts (count public events)."""

    statistic_names: ClassVar[tuple[str, ...]]

    def statistics(self, state: Any, events: list[Event]) -> list[Figures]: ...


@runtime_checkable
class Undoes(Protocol):
    """Optional beside :class:`Game`: a seat may take back its own steps since its turn or the
    open decision began, while nothing hidden was revealed, nothing drawn or rolled and no other
    seat acted on them (Board Game Arena's rule; ``engine/undo.py`` holds the mechanism, each
    game's ``undo_barriers`` which of its steps end it). The undo itself is ``{"type": "undo"}``
    sent through ``apply``, so (seed, actions) still replays a match bit for bit; it is not in
    ``legal_actions`` (which bots choose from), ``undo_allowed`` says when it may be sent."""

    def undo_allowed(self, state: Any, seat: int) -> bool: ...


def check_player_count(game: Game, players: object) -> int:
    """``players`` if the game seats that many, else ``IllegalAction("bad_player_count")``."""
    if (
        not isinstance(players, int)
        or isinstance(players, bool)
        or not game.min_players <= players <= game.max_players
    ):
        raise IllegalAction(
            "bad_player_count",
            f"{game.title} is for {game.min_players} to {game.max_players} players",
        )
    return players


def check_request(seat: object, action: object, players: int, over: bool) -> None:
    """The checks every game's ``apply`` makes before any rule, in this order: an action is an
    object with a string ``type`` (``bad_action``), the match still runs (``game_over``), and
    ``seat`` is one of its seats (``bad_seat``)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", "an action is an object with a string 'type'")
    if over:
        raise IllegalAction("game_over", "the match is over")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise IllegalAction("bad_seat", f"there is no seat {seat!r}")


def parse_options(game: Game, options: dict[str, Any] | None) -> BaseModel:
    """Validate setup options against the game's model, as an ``IllegalAction`` on failure."""
    from pydantic import ValidationError

    try:
        return game.options.model_validate(options or {})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "options"
        raise IllegalAction("bad_options", f"{where}: {first.get('msg', 'invalid')}") from None

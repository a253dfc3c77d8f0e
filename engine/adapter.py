"""One shape for a game behind the engine protocol (``protocol.Game``).

Every game keeps its rules in plain modules: ``rules`` (``setup``, ``to_move``,
``legal_actions``, ``apply``, ``stage``), ``view`` (``view``), a ``State`` class that dumps
itself and loads from its dump, and, for the search bots, ``determinize`` and ``heuristic``.
:class:`RulesGame` is the protocol delegated to those modules, named as class attributes, so a
game's ``game.py`` holds only what is its own: id, title, seats, options, event types,
description and its catalog.

The modules are typed by the small protocols below: mypy checks that each game's modules offer
what the adapter calls (a module can implement a protocol). ``RulesGame`` subclasses ``Game``
itself, so mypy also checks it against the contract and refuses to build a game that leaves one
of the protocol's class attributes unset.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

from engine import undo
from engine.protocol import (
    Action,
    Event,
    Figures,
    Game,
    Result,
    Step,
    check_player_count,
    parse_options,
)


class Rules(Protocol):
    """A game's ``rules`` module."""

    def setup(self, players: int, seed: int, options: Any, /) -> Any: ...

    def to_move(self, state: Any, /) -> frozenset[int]: ...

    def legal_actions(self, state: Any, seat: int, /) -> list[Action]: ...

    def apply(self, state: Any, seat: int, action: Action, /) -> Step: ...

    def stage(self, state: Any, /) -> str: ...


class Views(Protocol):
    """A game's ``view`` module."""

    def view(self, state: Any, viewer: int | None, /) -> dict[str, Any]: ...


class SavedState(Protocol):
    """A game's state: its JSON form, the result once the match is over, and its undo journal
    (``engine.undo``; the adapter's to read and write, never the game's)."""

    undo: undo.Journal | None

    @property
    def result(self) -> dict[str, Any] | None: ...

    def dump(self) -> dict[str, Any]: ...


class StateClass(Protocol):
    """A game's ``State`` class: ``load(dump())`` is an exact round trip."""

    def load(self, data: dict[str, Any], /) -> Any: ...


class UndoBarriers(Protocol):
    """A game's ``undo_barriers`` module: which of its steps may never be taken back (beyond
    ``engine.undo``'s own: the RNG, private events to others, a decision passed on)."""

    def barrier(
        self, before: Any, after: Any, seat: int, action: Action, events: list[Event], /
    ) -> bool: ...


class Determinizer(Protocol):
    """A game's ``determinize`` module: a full state consistent with one seat's view."""

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random, /) -> Any: ...


class Heuristic(Protocol):
    """A game's ``heuristic`` module: a position's worth for one seat (higher is better)."""

    def evaluate(self, state: Any, seat: int, /) -> float: ...


class FigureCounter(Protocol):
    """A game's ``statistics`` module: each seat's own figures of a finished match."""

    def statistics(self, state: Any, events: list[Event], /) -> list[Figures]: ...


class RulesGame(Game):
    """``protocol.Game`` by delegation to a game's rules, view and state modules. A subclass sets
    the protocol's class attributes (``id``, ``title``, seats, ``options``, ``event_types``)."""

    description: ClassVar[str] = ""

    # The modules the calls go to. Plain attributes, not ClassVar, so that a game names them as
    # `rules = rules` and mypy still checks each against its protocol.
    rules: Rules
    views: Views
    state_class: StateClass
    # Optional: without it every step is a barrier and no step can be undone.
    undo_barriers: UndoBarriers | None = None

    def __init__(self) -> None:
        # The busiest calls (each action's, and a search bot's millions) go straight to the
        # rules' own functions, without a frame of this class on the way, unless a game
        # overrides the method.
        cls, direct = type(self), vars(self)
        if cls.to_move is RulesGame.to_move:
            direct["to_move"] = self.rules.to_move
        if cls.legal_actions is RulesGame.legal_actions:
            direct["legal_actions"] = self.rules.legal_actions
        if cls.barrier is RulesGame.barrier and self.undo_barriers is not None:
            direct["barrier"] = self.undo_barriers.barrier

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        check_player_count(self, players)
        return self.rules.setup(players, seed, parse_options(self, options))

    def to_move(self, state: Any) -> frozenset[int]:
        return self.rules.to_move(state)

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        return self.rules.legal_actions(state, seat)

    def apply(self, state: Any, seat: int, action: Action) -> Step:
        """The rules' step, journaled for undo; ``{"type": "undo"}`` is applied here."""
        if isinstance(action, dict) and action.get("type") == undo.UNDO:
            return undo.undo(self, state, seat, action)
        return undo.track(self, state, seat, action, self.rules.apply(state, seat, action))

    def undo_allowed(self, state: Any, seat: int) -> bool:
        """May ``seat`` send ``{"type": "undo"}`` now? (Beside ``legal_actions``, never in it.)"""
        return undo.allowed(self, state, seat)

    # What engine.undo needs of a game.

    def rules_apply(self, state: Any, seat: int, action: Action) -> Step:
        return self.rules.apply(state, seat, action)

    def barrier(
        self, before: Any, after: Any, seat: int, action: Action, events: list[Event]
    ) -> bool:
        return self.undo_barriers is None or self.undo_barriers.barrier(
            before, after, seat, action, events
        )

    def finished(self, state: SavedState) -> bool:
        return state.result is not None

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return self.views.view(state, seat)

    def result(self, state: SavedState) -> Result | None:
        record = state.result  # None while the match runs: asked after every step
        return None if record is None else Result.from_dict(record)

    def stage(self, state: Any) -> str:
        return self.rules.stage(state)

    def dump(self, state: SavedState) -> dict[str, Any]:
        data = state.dump()
        if state.undo is not None:
            data[undo.UNDO] = state.undo.dump(self.dump)
        return data

    def load(self, data: dict[str, Any]) -> Any:
        state = self.state_class.load(data)
        if data.get(undo.UNDO):
            state.undo = undo.Journal.load(data[undo.UNDO], self.load)
        return state


class CountedRulesGame(RulesGame):
    """A :class:`RulesGame` that keeps statistics (``protocol.KeepsStatistics``): a subclass
    names its figures in ``statistic_names`` and the module that counts them in ``figures``."""

    statistic_names: ClassVar[tuple[str, ...]]
    figures: FigureCounter

    def statistics(self, state: Any, events: list[Event]) -> list[Figures]:
        return self.figures.statistics(state, events)


class SearchableRulesGame(CountedRulesGame):
    """A :class:`CountedRulesGame` that the search bots can play (``bots.searching.Searchable``)."""

    determinizer: Determinizer
    heuristic: Heuristic

    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> Any:
        return self.determinizer.determinize(view, seat, rng)

    def evaluate(self, state: Any, seat: int) -> float:
        return self.heuristic.evaluate(state, seat)

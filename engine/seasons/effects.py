"""The card-effect framework: one :class:`Effect` per card number, registered with
:func:`effect`. Every hook is a no-op by default, so a card only writes what it does.

Where the engine calls each hook (see ``README.md``, "Adding a card effect"):

| hook | called | by |
|---|---|---|
| ``on_entry`` | the card has just entered play (summoned, or put into play free) | summoning |
| ``activations`` / ``activate`` | owner's turn: the ways to activate it now; one chosen | rules |
| ``cost_choices`` | summoning it: alternative costs (Elemental Amulet) | summoning |
| ``cost_reductions`` | the owner summons any card: energy tokens it takes off (#20) | summoning |
| ``summon_toll`` | an opponent is about to summon from hand: crystals owed (#33) | summoning |
| ``on_own_summon`` | the owner summoned *another* card from hand, cost paid (#6, #30) | summoning |
| ``on_opponent_summon`` | an opponent summoned a card from hand | summoning |
| ``on_opponent_activation`` | an opponent activated a card (#41) | rules |
| ``on_season_change`` | the season marker entered another season (#11, #27) | rules |
| ``on_end_of_round`` | the round is over, in end-of-round order (#13, #14) | rules |
| ``end_of_game_crystals`` | final scoring, before the count (#19, #45, #46) | scoring |
| ``reserve_limit`` | whenever the limit is checked: a limit this card sets (#18) | table |
| ``transmute_bonus`` | any transmutation: extra crystals per token (#8) | table |
| ``on_sacrifice`` | the card is being sacrificed (#42) | table |
| ``tokens_spendable`` | class flag: tokens kept on it pay like reserve tokens (#4) | table |

A hook that needs a seat's decision pushes a question (``tasks.ask``); the seat then owes it
through ``to_move`` and the flow resumes when it is answered.

This module knows no card: the card modules (``effects_apprentice``, ``effects_master``) import
it and write into :data:`EFFECTS`; the rest of the engine only reads it through
:func:`effect_of`. ``rules.py``, the one module that needs every card, imports the card modules
from above, so nothing here has to import them back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.protocol import Event
from engine.seasons.state import InPlay, State


@dataclass(frozen=True, slots=True)
class Entry:
    """How a card entered play: ``free`` (put into play by an effect, cost ignored, not
    counted as summoned) or summoned from hand with ``paid`` energy (for #31) and ``choice``
    (the summon action's extra fields)."""

    free: bool
    paid: tuple[int, ...] = (0, 0, 0, 0)
    choice: dict[str, Any] | None = None


class Effect:
    num: ClassVar[int] = 0
    tokens_spendable: ClassVar[bool] = False  # tokens kept on this card pay like reserve tokens
    when: ClassVar[str] = "main"  # the turn step its activation belongs to ("die": #15)

    # --- entering play ------------------------------------------------------------------------
    def on_entry(
        self, state: State, seat: int, entry: InPlay, how: Entry, events: list[Event]
    ) -> None:
        pass

    def cost_choices(self, state: State, seat: int) -> list[tuple[dict[str, Any], list[int]]]:
        """Alternative costs: (extra action fields, energy vector). Empty: the printed cost."""
        return []

    # --- activation -----------------------------------------------------------------------------
    def activations(self, state: State, seat: int, entry: InPlay) -> list[dict[str, Any]]:
        """The ways the card may be activated now, as the action's extra fields ([] = none).
        The engine has already checked that it is the owner's turn and the card is not used."""
        return []

    def activate(
        self, state: State, seat: int, entry: InPlay, choice: dict[str, Any], events: list[Event]
    ) -> None:
        pass

    # --- permanent hooks ----------------------------------------------------------------------
    def cost_reductions(self, state: State, seat: int, entry: InPlay) -> int:
        return 0

    def summon_toll(self, state: State, owner: int, entry: InPlay, summoner: int) -> int:
        return 0

    def on_own_summon(
        self, state: State, seat: int, entry: InPlay, card: int, events: list[Event]
    ) -> None:
        pass

    def on_opponent_summon(
        self, state: State, owner: int, entry: InPlay, summoner: int, card: int,
        events: list[Event],
    ) -> None:
        pass

    def on_opponent_activation(
        self, state: State, owner: int, entry: InPlay, activator: int, events: list[Event]
    ) -> None:
        pass

    def on_season_change(
        self, state: State, seat: int, entry: InPlay, events: list[Event]
    ) -> None:
        pass

    def on_end_of_round(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        pass

    def end_of_game_crystals(self, state: State, seat: int, entry: InPlay) -> int:
        return 0

    def reserve_limit(self, state: State, seat: int, entry: InPlay) -> int | None:
        return None

    def transmute_bonus(self, state: State, seat: int, entry: InPlay) -> int:
        return 0

    def on_sacrifice(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        pass


NO_EFFECT = Effect()


class _Registry(dict[int, Effect]):
    """The effects by card number; a card without one reads as :data:`NO_EFFECT`."""

    def __missing__(self, card: int) -> Effect:
        return NO_EFFECT


EFFECTS: dict[int, Effect] = _Registry()


def effect(num: int) -> Any:
    """Class decorator: register the effect of card ``num`` (once)."""

    def register(cls: type[Effect]) -> type[Effect]:
        if num in EFFECTS:
            raise ValueError(f"card #{num} has two effects")
        cls.num = num
        EFFECTS[num] = cls()
        _HOOKED.clear()  # the cards with each hook: to work out again
        return cls

    return register


effect_of: Callable[[int], Effect] = EFFECTS.__getitem__
"""The effect of a card number (:data:`NO_EFFECT` for a card without one): the registry's own
lookup, with no frame of Python for a card that has one (the rules ask several times a step)."""


class _Hooked(dict[str, frozenset[int]]):
    """The cards with each hook, worked out on the first ask for the registry as it stands (a
    card registered later empties it)."""

    def __missing__(self, hook: str) -> frozenset[int]:
        default = getattr(Effect, hook)
        found = self[hook] = frozenset(
            num for num, e in EFFECTS.items() if getattr(type(e), hook) is not default
        )
        return found


_HOOKED = _Hooked()

cards_with: Callable[[str], frozenset[int]] = _HOOKED.__getitem__
"""The cards whose effect has its own ``hook`` (the others' does nothing): a loop over the
cards in play may skip the rest. The lookup is the dict's own (no frame of Python once known)."""

"""Questions many cards and rules share. A card-specific question lives next to its card.

Each answer is an ordinary action whose exact form ``options`` lists, e.g.
``{"type": "gain_energy", "energy": "fire"}``.
"""

from __future__ import annotations

from engine.protocol import Action, Event, private
from engine.seasons.cards import CARD, ENERGIES, ENERGY_INDEX
from engine.seasons.state import State
from engine.seasons.table import (
    discard,
    leave_play,
    reserve_limit,
    reserve_size,
    sacrifice,
    to_hand,
)
from engine.seasons.tasks import Question, Task, push, task


@task
class GainEnergy(Question):
    """Take ``count`` energy tokens of your choice, one per answer, into the reserve or onto the
    card ``dest`` (an entry id: Amulet of Water)."""

    kind = "gain_energy"

    def options(self, state: State, t: Task) -> list[Action]:
        dest = t.get("dest", "reserve")
        if dest != "reserve" and state.seats[t["seat"]].entry(dest) is None:
            return []
        return [{"type": "gain_energy", "energy": e} for e in ENERGIES]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        k = ENERGY_INDEX[action["energy"]]
        seat = t["seat"]
        dest = t.get("dest", "reserve")
        if dest == "reserve":
            state.seats[seat].energy[k] += 1
        else:
            entry = state.seats[seat].own_entry(dest)
            assert entry is not None
            entry.tokens[k] += 1
        events.append({"type": "energy_chosen", "seat": seat, "energy": action["energy"],
                       "onto": dest, "why": t.get("why", "")})
        if t["count"] > 1:
            push(state, {**t, "count": t["count"] - 1})


@task
class DiscardEnergy(Question):
    """The reserve is over its limit: discard one token of your choice, until it is not."""

    kind = "discard_energy"

    def options(self, state: State, t: Task) -> list[Action]:
        seat = t["seat"]
        player = state.seats[seat]
        if reserve_size(player) <= reserve_limit(state, seat):
            return []
        return [{"type": "discard_energy", "energy": e}
                for k, e in enumerate(ENERGIES) if player.energy[k]]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        state.seats[seat].energy[ENERGY_INDEX[action["energy"]]] -= 1
        events.append({"type": "energy_discarded", "seat": seat, "energy": action["energy"],
                       "why": "reserve_limit"})
        push(state, t)  # asked again while still over the limit (then moot)


@task
class KeepOrDiscard(Question):
    """The die's card symbol: keep the drawn card or discard it [RULEBOOK]."""

    kind = "keep_or_discard"

    def options(self, state: State, t: Task) -> list[Action]:
        card = t["secret"]["cards"][0]
        return [{"type": "keep_card", "card": card}, {"type": "discard_card", "card": card}]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        card = action["card"]
        if action["type"] == "keep_card":
            to_hand(state, seat, [card], events, t.get("why", "die"))
        else:
            discard(state, [card])
            events.append({"type": "card_discarded", "seat": seat, "count": 1,
                           "why": t.get("why", "die")})
            events.append(private({"type": "you_discarded", "cards": [card]}, seat))


@task
class KeepOne(Question):
    """Keep one of the cards shown to you; the others go to the discard pile."""

    kind = "keep_one"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "keep_card", "card": c} for c in sorted(set(t["secret"]["cards"]))]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        rest = list(t["secret"]["cards"])
        rest.remove(action["card"])
        to_hand(state, seat, [action["card"]], events, t.get("why", ""))
        discard(state, rest)
        if rest:
            events.append({"type": "card_discarded", "seat": seat, "count": len(rest),
                           "why": t.get("why", "")})
            events.append(private({"type": "you_discarded", "cards": sorted(rest)}, seat))


def _entries(state: State, t: Task) -> list[int]:
    only = t.get("only")  # "familiar" | "magic_item" | None
    return [e.id for e in state.seats[t["seat"]].in_play
            if only is None or CARD[e.card].kind == only]


@task
class SacrificeCard(Question):
    """Sacrifice one of your own cards in play (you choose which): #10's victims, and others.
    ``only`` restricts the kind; ``why`` names the card that asks."""

    kind = "sacrifice_card"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "sacrifice", "slot": i} for i in _entries(state, t)]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        sacrifice(state, t["seat"], action["slot"], events, t.get("why", ""))


@task
class ReturnCard(Question):
    """Return one of your own cards in play to your hand (#17): not a sacrifice; tokens kept on
    it are lost [SOURCE: BGA]."""

    kind = "return_card"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "return_card", "slot": i} for i in _entries(state, t)]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        entry = leave_play(state, seat, action["slot"])
        events.append({"type": "card_returned", "seat": seat, "id": entry.id, "card": entry.card,
                       "why": t.get("why", "")})
        state.seats[seat].hand.append(entry.card)
        state.seats[seat].hand.sort()

"""The effects of cards 1–30 (the apprentice level), one small class per card, registered by
number. The data (cost, prestige, timing, rulings) is in ``cards.py``; README.md, "Adding a card
effect", says where each hook is called and how a choice is asked.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from engine.protocol import Action, Event, private
from engine.rng import Rng
from engine.seasons import readings
from engine.seasons.cards import ENERGIES, ENERGY_INDEX
from engine.seasons.dice import face_dict
from engine.seasons.effects import Effect, Entry, effect
from engine.seasons.marker import move_marker
from engine.seasons.state import InPlay, State, energy_dict
from engine.seasons.summoning import put_into_play
from engine.seasons.table import (
    add_gauge,
    amulet_pool,
    discard,
    draw,
    gain_crystals,
    gain_energy,
    give_crystals,
    has_room,
    lose_crystals,
    magic_items,
    opponents,
    reserve_size,
    sacrifice,
    spend,
    splits,
    to_hand,
    transmute_extra,
)
from engine.seasons.tasks import Question, Task, ask, make, push, push_in_order, task

Choice = dict[str, Any]


def why(num: int) -> str:
    return f"card:{num}"


def pay_choices(state: State, seat: int, need: list[int]) -> list[Choice]:
    """Ways to pay a discard cost ``need`` from reserve and Amulet of Water: ``{}`` (all from
    the reserve) or ``{"amulet": {...}}`` (that much from the amulets)."""
    player = state.seats[seat]
    out: list[Choice] = []
    for amulet in splits(need, player.energy, amulet_pool(player)):
        out.append({"amulet": {ENERGIES[k]: n for k, n in enumerate(amulet) if n}}
                   if any(amulet) else {})
    return out


def pay(state: State, seat: int, need: list[int], choice: Choice) -> None:
    amulet = [int(choice.get("amulet", {}).get(e, 0)) for e in ENERGIES]
    spend(state.seats[seat], [need[k] - amulet[k] for k in range(4)], amulet)


def single(k: int, n: int = 1) -> list[int]:
    vec = [0, 0, 0, 0]
    vec[k] = n
    return vec


def _turn_bonus(state: State, seat: int) -> int:
    turn = state.turn
    return turn.transmute_bonus if turn is not None and turn.seat == seat else 0


class OnEntry(Effect, ABC):
    """Base for cards whose whole effect is on entry."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        self.enter(state, seat, entry, events)

    @abstractmethod
    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None: ...


@effect(1)
class AmuletOfAir(OnEntry):
    """+2 summoning gauge; the gauge never goes above 15 [RULEBOOK]."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        add_gauge(state, seat, 2, events, why(1))


@effect(2)
class AmuletOfFire(OnEntry):
    """Top 4 cards of the draw pile: 1 to the hand, 3 discarded."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        cards = draw(state, 4, events)
        if cards:
            events.append(private({"type": "cards_seen", "cards": cards[:], "why": why(2)}, seat))
            ask(state, "keep_one", seat, secret={"cards": cards}, why=why(2))


@effect(3)
class AmuletOfEarth(OnEntry):
    """+9 crystals."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        gain_crystals(state, seat, 9, events, why(3))


@effect(4)
class AmuletOfWater(OnEntry):
    """4 energies of your choice onto this card; they pay like reserve tokens but are not in the
    reserve (limit, #13, #14, #21, #24, #26, ... ignore them) [CONFIRMED: TTS, BGA]."""

    tokens_spendable = True

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        ask(state, "gain_energy", seat, count=4, dest=entry.id, why=why(4))


@effect(5)
class BalanceOfIshtar(Effect):
    """Discard 3 identical tokens for 9 crystals (1st edition: 4 for 12), without a transmute
    permission; counts as transmuting (Purse of Io and Bonus 2 add per token)."""

    def _size(self, state: State) -> tuple[int, int]:
        return (4, 12) if state.edition == 1 else (3, 9)

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        n, _ = self._size(state)
        return [{"energy": e, **c} for k, e in enumerate(ENERGIES)
                for c in pay_choices(state, seat, single(k, n))]

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        n, crystals = self._size(state)
        pay(state, seat, single(ENERGY_INDEX[choice["energy"]], n), choice)
        extra = (transmute_extra(state, seat) + _turn_bonus(state, seat)) * n
        gain_crystals(state, seat, crystals + extra, events, why(5))


@effect(6)
class StaffOfSpring(Effect):
    """+3 crystals for each other card summoned from hand (not free entries, not itself)."""

    def on_own_summon(self, state: State, seat: int, entry: InPlay, card: int,
                      events: list[Event]) -> None:
        gain_crystals(state, seat, 3, events, why(6))


@task
class MoveMarker(Question):
    kind = "move_marker"

    def options(self, state: State, t: Task) -> list[Action]:
        now = (state.year - 1) * readings.MONTHS + state.month
        earliest = (readings.EARLIEST[0] - 1) * readings.MONTHS + readings.EARLIEST[1]
        return [{"type": "move_marker", "by": by} for by in (-3, -2, -1, 1, 2, 3)
                if now + by >= earliest]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        move_marker(state, action["by"], events, why(7))


@effect(7)
class TemporalBoots(OnEntry):
    """Move the season marker 1–3 spaces forward or back; this round's dice stay, the rates and
    season-change effects follow at once; back past winter lowers the year (hands are kept,
    libraries are handed out once); past the end of year III the game ends with this round."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        ask(state, "move_marker", seat, why=why(7))


@effect(8)
class PurseOfIo(Effect):
    """+1 crystal per token transmuted (also #5 and #26); each copy adds its own."""

    def transmute_bonus(self, state: State, seat: int, entry: InPlay) -> int:
        return 1


@task
class ChaliceChoice(Question):
    """Divine Chalice: choose 1 of the cards looked at; it enters play free if a gauge slot is
    free, else it is discarded too; the others are discarded."""

    kind = "chalice"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "choose_card", "card": c} for c in sorted(set(t["secret"]["cards"]))]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        rest = list(t["secret"]["cards"])
        card = action["card"]
        rest.remove(card)
        discard(state, rest)
        if rest:
            events.append({"type": "card_discarded", "seat": seat, "count": len(rest),
                           "why": why(9)})
        if has_room(state.seats[seat]):
            put_into_play(state, seat, card, events, why(9))
        else:
            discard(state, [card])
            events.append({"type": "card_discarded", "seat": seat, "count": 1, "why": why(9)})


@effect(9)
class DivineChalice(OnEntry):
    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        cards = draw(state, 4, events)
        if cards:
            events.append(private({"type": "cards_seen", "cards": cards[:], "why": why(9)}, seat))
            ask(state, "chalice", seat, secret={"cards": cards}, why=why(9))


@effect(10)
class SyllasTheFaithful(OnEntry):
    """Each opponent, from the left, sacrifices one of their cards in play (their choice); one
    with nothing in play is unaffected (the question is moot)."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        push_in_order(state, [make("sacrifice_card", o, why=why(10))
                              for o in opponents(state, seat)])


@effect(11)
class FigrimTheAvaricious(Effect):
    """At each change of season every opponent gives 1 crystal (one with 0 gives nothing)."""

    def on_season_change(self, state: State, seat: int, entry: InPlay,
                         events: list[Event]) -> None:
        for other in opponents(state, seat):
            give_crystals(state, other, seat, 1, events, why(11))


@task
class NariaChoice(Question):
    """Naria: first keep one card (``keep_card``), then give one to each opponent in turn
    (``give_card``); the last card goes to the last opponent by itself."""

    kind = "naria"

    def options(self, state: State, t: Task) -> list[Action]:
        kind = "give_card" if t["kept"] else "keep_card"
        return [{"type": kind, "card": c} for c in sorted(set(t["secret"]["cards"]))]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        cards = list(t["secret"]["cards"])
        cards.remove(action["card"])
        recipients = list(t["recipients"])
        if not t["kept"]:
            to_hand(state, seat, [action["card"]], events, why(12))
        else:
            to_hand(state, recipients.pop(0), [action["card"]], events, why(12))
        if len(cards) == 1 and len(recipients) == 1:
            to_hand(state, recipients.pop(0), cards, events, why(12))
            cards = []
        if cards and recipients:
            push(state, {**t, "kept": True, "recipients": recipients, "secret": {"cards": cards}})
        elif cards:
            discard(state, cards)


@effect(12)
class NariaTheProphetess(OnEntry):
    """Draw one card per player; keep one, give one of your choice to each opponent."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        cards = draw(state, state.players, events)
        if cards:
            events.append(private({"type": "cards_seen", "cards": cards[:], "why": why(12)},
                                  seat))
            ask(state, "naria", seat, secret={"cards": cards}, kept=False,
                recipients=opponents(state, seat), why=why(12))


@effect(13)
class WondrousChest(Effect):
    """End of round: +3 crystals with 4 or more tokens in the reserve (not on #4 or #35)."""

    def on_end_of_round(self, state: State, seat: int, entry: InPlay,
                        events: list[Event]) -> None:
        if reserve_size(state.seats[seat]) >= 4:
            gain_crystals(state, seat, 3, events, why(13))


@effect(14)
class BeggarsHorn(Effect):
    """End of round: with at most 1 token in the reserve, gain 1 energy of your choice."""

    def on_end_of_round(self, state: State, seat: int, entry: InPlay,
                        events: list[Event]) -> None:
        if reserve_size(state.seats[seat]) <= 1:
            ask(state, "gain_energy", seat, count=1, dest="reserve", why=why(14))


@effect(15)
class DieOfMalice(Effect):
    """Start of your turn, before the die is used: re-roll it, use the new face, +2 crystals.
    Not in the turn it enters play [SOURCE: BGA]; each copy once (two re-rolls with two)."""

    when = "die"

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        turn = state.turn
        ok = turn is not None and turn.seat == seat and turn.step == "die" and not entry.fresh
        return [{}] if ok else []

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        index = state.seats[seat].die
        assert index is not None
        rng = Rng.load(state.rng)
        side = rng.below(6)
        state.rng = rng.dump()
        state.dice[index] = {**state.dice[index], "side": side}
        d = state.dice[index]
        events.append({"type": "die_rerolled", "seat": seat, "die": index, "side": side,
                       "season": state.round_season,
                       "face": face_dict(state.round_season, d["die"], side)})
        gain_crystals(state, seat, 2, events, why(15))


@effect(16)
class KairnTheDestroyer(Effect):
    """Discard 1 energy: each opponent loses 4 crystals (stopping at 0)."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        return [{"energy": e, **c} for k, e in enumerate(ENERGIES)
                for c in pay_choices(state, seat, single(k))]

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        pay(state, seat, single(ENERGY_INDEX[choice["energy"]]), choice)
        for other in opponents(state, seat):
            lose_crystals(state, other, 4, events, why(16))


@effect(17)
class AmsugLongneck(OnEntry):
    """Every player, you first then clockwise, returns one of their magic items in play to their
    hand (their choice); no item: unaffected. Not a sacrifice (#42 does not trigger)."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        push_in_order(state, [make("return_card", s, only="magic_item", why=why(17))
                              for s in [seat, *opponents(state, seat)]])


@effect(18)
class BespelledGrimoire(OnEntry):
    """2 energies of your choice; while in play the reserve limit is 10 (two do not add)."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        ask(state, "gain_energy", seat, count=2, dest="reserve", why=why(18))

    def reserve_limit(self, state: State, seat: int, entry: InPlay) -> int | None:
        return readings.GRIMOIRE_RESERVE_LIMIT


@effect(19)
class RagfieldsHelm(Effect):
    """End of game: +20 crystals with strictly more cards in play than every opponent."""

    def end_of_game_crystals(self, state: State, seat: int, entry: InPlay) -> int:
        mine = len(state.seats[seat].in_play)
        most_other = max(len(state.seats[o].in_play) for o in opponents(state, seat))
        return 20 if mine > most_other else 0


@effect(20)
class HandOfFortune(Effect):
    """Each card you summon costs 1 energy less (your choice of type), never below 1 token;
    crystal and activation costs are not reduced; copies stack."""

    def cost_reductions(self, state: State, seat: int, entry: InPlay) -> int:
        return 1


@task
class LewisChoice(Question):
    kind = "choose_player"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "choose_player", "seat": o} for o in opponents(state, t["seat"])]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        _copy_reserve(state, t["seat"], action["seat"], events)


def _copy_reserve(state: State, seat: int, other: int, events: list[Event]) -> None:
    gain_energy(state, seat, state.seats[other].energy[:], events, why(21))


@effect(21)
class LewisGreyface(OnEntry):
    """Pick an opponent: take from the supply the same tokens as in their reserve (not those on
    #4 or #35); they lose nothing; the reserve limit applies afterwards."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        others = opponents(state, seat)
        if len(others) == 1:
            _copy_reserve(state, seat, others[0], events)
        else:
            ask(state, "choose_player", seat, why=why(21))


@effect(22)
class RunicCubeOfEolis(Effect):
    """No effect: 30 prestige points."""


class Potion(Effect, ABC):
    """Activation: sacrifice this card, then its effect."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        return [{}]

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        sacrifice(state, seat, entry.id, events, why(self.num))
        self.drink(state, seat, events)

    @abstractmethod
    def drink(self, state: State, seat: int, events: list[Event]) -> None: ...


@effect(23)
class PotionOfPower(Potion):
    """Draw 1 card (you must keep it) and +2 summoning gauge."""

    def drink(self, state: State, seat: int, events: list[Event]) -> None:
        cards = draw(state, 1, events)
        to_hand(state, seat, cards, events, why(23))
        add_gauge(state, seat, 2, events, why(23))


@task
class DreamsChoice(Question):
    kind = "dreams"

    def options(self, state: State, t: Task) -> list[Action]:
        player = state.seats[t["seat"]]
        if not has_room(player):
            return []
        return [{"type": "choose_card", "card": c} for c in sorted(set(player.hand))]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        state.seats[seat].hand.remove(action["card"])
        put_into_play(state, seat, action["card"], events, why(24))


@effect(24)
class PotionOfDreams(Potion):
    """Sacrifice it and discard the whole reserve (tokens on #4/#35 kept): put a card from your
    hand into play free. Its own slot is freed first [SOURCE: BGA]; no #6/#30/#33 triggers."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        player = state.seats[seat]
        room = len(player.in_play) - 1 < player.gauge
        return [{}] if player.hand and room else []

    def drink(self, state: State, seat: int, events: list[Event]) -> None:
        player = state.seats[seat]
        if any(player.energy):
            events.append({"type": "reserve_changed", "seat": seat,
                           "lost": energy_dict(player.energy), "why": why(24)})
            player.energy = [0, 0, 0, 0]
        ask(state, "dreams", seat, why=why(24))


@effect(25)
class PotionOfKnowledge(Potion):
    """5 energies of your choice; the reserve limit applies [RULEBOOK]."""

    def drink(self, state: State, seat: int, events: list[Event]) -> None:
        ask(state, "gain_energy", seat, count=5, dest="reserve", why=why(25))


@effect(26)
class PotionOfLife(Potion):
    """Transmute every reserve token at 4 crystals each, without permission (none given for
    later); Purse of Io and (our reading) this turn's Bonus 2 add per token."""

    def drink(self, state: State, seat: int, events: list[Event]) -> None:
        player = state.seats[seat]
        tokens = sum(player.energy)
        if tokens == 0:
            return
        value = readings.POTION_OF_LIFE_VALUE + transmute_extra(state, seat)
        value += _turn_bonus(state, seat)
        events.append({"type": "transmuted", "seat": seat, "energy": energy_dict(player.energy),
                       "count": tokens, "crystals": value * tokens, "why": why(26)})
        player.energy = [0, 0, 0, 0]
        player.crystals += value * tokens


@effect(27)
class HourglassOfTime(Effect):
    """At each change of season, gain 1 energy of your choice."""

    def on_season_change(self, state: State, seat: int, entry: InPlay,
                         events: list[Event]) -> None:
        ask(state, "gain_energy", seat, count=1, dest="reserve", why=why(27))


@effect(28)
class ScepterOfGreatness(OnEntry):
    """+3 crystals for each *other* magic item you have in play."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        others = [e for e in magic_items(state.seats[seat]) if e.id != entry.id]
        gain_crystals(state, seat, 3 * len(others), events, why(28))


@effect(29)
class OlafsBlessedStatue(OnEntry):
    """+20 crystals."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        gain_crystals(state, seat, 20, events, why(29))


@effect(30)
class YjangsForgottenVase(Effect):
    """1 energy of your choice for each other card summoned from hand (not free entries)."""

    def on_own_summon(self, state: State, seat: int, entry: InPlay, card: int,
                      events: list[Event]) -> None:
        ask(state, "gain_energy", seat, count=1, dest="reserve", why=why(30))

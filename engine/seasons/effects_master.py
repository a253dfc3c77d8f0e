"""The effects of cards 31–50 (the master level), one small class per card, registered by
number. The data (cost, prestige, timing, rulings) is in ``cards.py``; README.md, "Adding a card
effect", says where each hook is called and how a choice is asked. Readings of our own are
listed in README.md, "Readings we chose" → "Master cards 31–50".
"""

from __future__ import annotations

from engine.protocol import Action, Event, private
from engine.seasons.cards import CARD, ENERGIES, ENERGY_INDEX, WATER
from engine.seasons.effects import Effect, Entry, effect
from engine.seasons.effects_apprentice import Choice, OnEntry, pay, pay_choices, single, why
from engine.seasons.readings import DRAGON_SKULL_MAY_SACRIFICE_ITSELF
from engine.seasons.state import InPlay, State, energy_dict
from engine.seasons.summoning import put_into_play
from engine.seasons.table import (
    add_gauge,
    amulet_pool,
    discard,
    draw,
    familiars,
    gain_crystals,
    gain_energy,
    give_crystals,
    has_room,
    leave_play,
    left_of,
    lose_crystals,
    magic_items,
    opponents,
    reserve_size,
    sacrifice,
    spend,
    to_hand,
)
from engine.seasons.tasks import Question, Task, ask, push, task

THIEVING_FAIRIES = 41


def crystals_to_spend(state: State, seat: int) -> int:
    """Crystals an activation may still spend once opponents' Thieving Fairies (#41) have
    taken theirs: the engine gives the Fairies their crystal before the activation's own cost
    is paid (as BGA does), so a crystal cost must be payable after it (reading)."""
    fairies = sum(state.seats[o].count_in_play(THIEVING_FAIRIES) for o in opponents(state, seat))
    return max(0, state.seats[seat].crystals - fairies)


def pay_crystals(state: State, seat: int, n: int, events: list[Event], why_: str) -> None:
    lost = lose_crystals(state, seat, n, events, why_)
    assert lost == n, "an activation was offered that its owner cannot pay"


def ask_energy(state: State, seat: int, count: int, num: int) -> None:
    """``count`` energies of the seat's choice into the reserve (nothing when ``count`` < 1)."""
    if count > 0:
        ask(state, "gain_energy", seat, count=count, dest="reserve", why=why(num))


# --- 31 Elemental Amulet -----------------------------------------------------------------------


@effect(31)
class ElementalAmulet(Effect):
    """Paid with one token of each type in a non-empty subset of the four: water → 2 energies of
    your choice, earth → +5 crystals, fire → draw 1 card, air → +1 gauge. Put into play free
    (#9, #24, #34) it gives all four; a type Hand of Fortune took off still counts as paid
    (``how.paid`` is the cost before the reduction) [CONFIRMED: TTS, BGA]."""

    def cost_choices(self, state: State, seat: int) -> list[tuple[Choice, list[int]]]:
        out: list[tuple[Choice, list[int]]] = []
        for mask in range(1, 16):
            vec = [(mask >> k) & 1 for k in range(4)]
            out.append(({"energies": [e for k, e in enumerate(ENERGIES) if vec[k]]}, vec))
        return out

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        paid = [1, 1, 1, 1] if how.free else [min(1, n) for n in how.paid]
        air, water, fire, earth = paid
        if fire:  # a card effect's draw goes to the hand (reading: no keep-or-discard choice)
            to_hand(state, seat, draw(state, 1, events), events, why(31))
        if earth:
            gain_crystals(state, seat, 5, events, why(31))
        if air:
            add_gauge(state, seat, 1, events, why(31))
        if water:
            ask_energy(state, seat, 2, 31)


# --- 32 Tree of Light --------------------------------------------------------------------------


@effect(32)
class TreeOfLight(Effect):
    """One per activation: pay 3 crystals for 1 energy of your choice, or discard 1 energy
    (reserve or Amulet of Water) to be allowed to transmute this turn."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        out: list[Choice] = []
        if crystals_to_spend(state, seat) >= 3:
            out.append({"use": "crystals"})
        turn = state.turn
        if turn is not None and not turn.may_transmute:  # reading: not offered once allowed
            out += [{"use": "energy", "energy": e, **c} for k, e in enumerate(ENERGIES)
                    for c in pay_choices(state, seat, single(k))]
        return out

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        if choice["use"] == "crystals":
            pay_crystals(state, seat, 3, events, why(32))
            ask_energy(state, seat, 1, 32)
            return
        pay(state, seat, single(ENERGY_INDEX[choice["energy"]]), choice)
        state.own_turn().may_transmute = True


# --- 33 Arcano Leech ---------------------------------------------------------------------------


@effect(33)
class ArcanoLeech(Effect):
    """An opponent pays its owner 1 crystal before summoning a card from hand; cards put into
    play free are exempt (``put_into_play`` asks no toll); an opponent who cannot pay cannot
    summon from hand (``summon_options`` counts the toll) [CONFIRMED: TTS, BGA; SOURCE: BGA]."""

    def summon_toll(self, state: State, owner: int, entry: InPlay, summoner: int) -> int:
        return 1 if summoner != owner else 0


# --- 34 Crystal Orb ----------------------------------------------------------------------------


@task
class OrbLook(Question):
    """Crystal Orb (a): the top card, seen by its owner only: put it back (``pass``) or take it
    into play free (``choose_card``) — offered only with a free gauge slot and 4 tokens."""

    kind = "crystal_orb_look"

    def options(self, state: State, t: Task) -> list[Action]:
        seat = t["seat"]
        player = state.seats[seat]
        out: list[Action] = [{"type": "pass"}]
        if has_room(player) and reserve_size(player) + sum(amulet_pool(player)) >= 4:
            out.append({"type": "choose_card", "card": t["secret"]["cards"][0]})
        return out

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        if action["type"] == "pass":
            state.deck.insert(0, t["secret"]["cards"][0])
            return
        ask(state, "crystal_orb_pay", t["seat"], secret=t["secret"], count=4, why=why(34))


@task
class OrbPay(Question):
    """Crystal Orb (a): discard any 4 energies, one per answer (reserve, or ``amulet``), then
    the card enters play free: its own on-entry effect, no #6/#30/#33 (sheet ruling 4)."""

    kind = "crystal_orb_pay"

    def options(self, state: State, t: Task) -> list[Action]:
        player = state.seats[t["seat"]]
        pool = amulet_pool(player)
        out: list[Action] = [{"type": "discard_energy", "energy": e}
                             for k, e in enumerate(ENERGIES) if player.energy[k]]
        out += [{"type": "discard_energy", "energy": e, "amulet": True}
                for k, e in enumerate(ENERGIES) if pool[k]]
        return out

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        vec = single(ENERGY_INDEX[action["energy"]])
        if action.get("amulet"):
            spend(state.seats[seat], [0, 0, 0, 0], vec)
        else:
            spend(state.seats[seat], vec, [0, 0, 0, 0])
        events.append({"type": "energy_discarded", "seat": seat, "energy": action["energy"],
                       "why": why(34)})
        if t["count"] > 1:
            push(state, {**t, "count": t["count"] - 1})
        else:
            put_into_play(state, seat, t["secret"]["cards"][0], events, why(34))

    def moot(self, state: State, t: Task, events: list[Event]) -> None:
        discard(state, t["secret"]["cards"])  # cannot happen: 4 tokens were checked


@effect(34)
class CrystalOrb(Effect):
    """(a) Look at the top card of the draw pile: put it back, or discard 4 energies to put it
    into play free (a free gauge slot needed) [SOURCE]; (b) pay 3 crystals to discard the top
    card unseen (reading)."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        if not state.deck and not state.discard:
            return []
        out: list[Choice] = [{"use": "look"}]
        if crystals_to_spend(state, seat) >= 3:
            out.append({"use": "discard_top"})
        return out

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        if choice["use"] == "discard_top":
            pay_crystals(state, seat, 3, events, why(34))
            cards = draw(state, 1, events)
            discard(state, cards)
            if cards:
                events.append({"type": "card_discarded", "seat": seat, "count": 1,
                               "why": why(34)})
            return
        cards = draw(state, 1, events)
        if cards:
            events.append(private({"type": "cards_seen", "cards": cards[:], "why": why(34)},
                                  seat))
            ask(state, "crystal_orb_look", seat, secret={"cards": cards}, why=why(34))


# --- 35 Glutton Cauldron -----------------------------------------------------------------------

CAULDRON_FULL = 7
CAULDRON_CRYSTALS = 15


@effect(35)
class GluttonCauldron(Effect):
    """Activation: 1 token from the reserve onto the card (not part of the reserve). At 7 it is
    sacrificed at once: the 7 tokens go to the reserve (the overflow discard follows) and +15
    crystals, Purse of Io not applying [CONFIRMED: TTS, BGA]."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        return [{"energy": e} for k, e in enumerate(ENERGIES) if state.seats[seat].energy[k]]

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        k = ENERGY_INDEX[choice["energy"]]
        state.seats[seat].energy[k] -= 1
        entry.tokens[k] += 1
        events.append({"type": "reserve_changed", "seat": seat, "lost": energy_dict(single(k)),
                       "onto": entry.id, "why": why(35)})
        if sum(entry.tokens) >= CAULDRON_FULL:
            tokens, entry.tokens = entry.tokens, [0, 0, 0, 0]
            gain_energy(state, seat, tokens, events, why(35))
            gain_crystals(state, seat, CAULDRON_CRYSTALS, events, why(35))
            sacrifice(state, seat, entry.id, events, why(35))


# --- 36 Vampiric Crown -------------------------------------------------------------------------


@task
class CrownChoice(Question):
    """Vampiric Crown: draw a card (kept: ``choose`` with ``way: draw``) or discard one from
    your hand (``discard_card``); the card is shown to everyone [SOURCE]."""

    kind = "vampiric_crown"

    def options(self, state: State, t: Task) -> list[Action]:
        out: list[Action] = []
        if state.deck or state.discard:
            out.append({"type": "choose", "way": "draw"})
        out += [{"type": "discard_card", "card": c}
                for c in sorted(set(state.seats[t["seat"]].hand))]
        return out

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        if action["type"] == "choose":
            cards = draw(state, 1, events)
            if not cards:
                return
            card = cards[0]
            events.append({"type": "card_revealed", "seat": seat, "card": card, "why": why(36)})
            to_hand(state, seat, cards, events, why(36))
        else:
            card = action["card"]
            state.seats[seat].hand.remove(card)
            discard(state, [card])
            events.append({"type": "card_revealed", "seat": seat, "card": card, "why": why(36)})
            events.append({"type": "card_discarded", "seat": seat, "count": 1, "why": why(36)})
        ask_energy(state, seat, CARD[card].pp, 36)  # 0 or negative prestige gives nothing


@effect(36)
class VampiricCrown(OnEntry):
    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        ask(state, "vampiric_crown", seat, why=why(36))


# --- 37 Dragon Skull ---------------------------------------------------------------------------

DRAGON_SKULL_CARDS = 3
DRAGON_SKULL_CRYSTALS = 15


def _skull_victims(state: State, seat: int, skull: int) -> list[int]:
    return [e.id for e in state.seats[seat].in_play
            if DRAGON_SKULL_MAY_SACRIFICE_ITSELF or e.id != skull]


@task
class SkullSacrifice(Question):
    """Dragon Skull: sacrifice one of your cards in play, one per answer; after the third,
    +15 crystals (Purse of Io does not apply) [SOURCE]."""

    kind = "dragon_skull"

    def options(self, state: State, t: Task) -> list[Action]:
        return [{"type": "sacrifice", "slot": i} for i in _skull_victims(state, t["seat"],
                                                                         t["skull"])]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        sacrifice(state, seat, action["slot"], events, why(37))
        if t["count"] > 1:
            push(state, {**t, "count": t["count"] - 1})
        else:
            gain_crystals(state, seat, DRAGON_SKULL_CRYSTALS, events, why(37))


@effect(37)
class DragonSkull(Effect):
    """Sacrifice 3 of your cards in play for 15 crystals; needs 3 cards in play, the Skull itself
    may be one of them (open question 6, ``readings.DRAGON_SKULL_MAY_SACRIFICE_ITSELF``)."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        enough = len(_skull_victims(state, seat, entry.id)) >= DRAGON_SKULL_CARDS
        return [{}] if enough else []

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        ask(state, "dragon_skull", seat, skull=entry.id, count=DRAGON_SKULL_CARDS, why=why(37))


# --- 38 Demon of Argos -------------------------------------------------------------------------


@effect(38)
class DemonOfArgos(OnEntry):
    """Each opponent, from the left: −1 summoning gauge (not below 0) and draws 1 card that it
    must keep; nobody sacrifices for being over the gauge [SOURCE: TTS]."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        for other in opponents(state, seat):
            add_gauge(state, other, -1, events, why(38))
            cards = draw(state, 1, events)
            if cards:
                events.append({"type": "card_drawn", "seat": other, "count": 1})
                to_hand(state, other, cards, events, why(38))


# --- 39 Titus Deepgaze -------------------------------------------------------------------------


@effect(39)
class TitusDeepgaze(Effect):
    """End of round: every opponent gives 1 crystal; if any cannot, collect from those who can,
    then Titus is sacrificed [CONFIRMED: TTS, BGA]."""

    def on_end_of_round(self, state: State, seat: int, entry: InPlay,
                        events: list[Event]) -> None:
        short = False
        for other in opponents(state, seat):
            if give_crystals(state, other, seat, 1, events, why(39)) == 0:
                short = True
        if short:
            sacrifice(state, seat, entry.id, events, why(39))


# --- 40 Air Elemental --------------------------------------------------------------------------


@effect(40)
class AirElemental(OnEntry):
    """Every token in each opponent's reserve becomes air; tokens on #4 and #35 are not in the
    reserve and do not change [SOURCE]."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        for other in opponents(state, seat):
            player = state.seats[other]
            total = reserve_size(player)
            if total != player.energy[0]:
                lost = player.energy[:]
                lost[0] = 0
                player.energy = [total, 0, 0, 0]
                events.append({"type": "reserve_changed", "seat": other,
                               "lost": energy_dict(lost), "air": total, "why": why(40)})


# --- 41 Thieving Fairies -----------------------------------------------------------------------


@effect(THIEVING_FAIRIES)
class ThievingFairies(Effect):
    """An opponent activating a card gives the owner 1 crystal (nothing if at 0: it may still
    activate), and the owner takes 1 more from the supply either way [SOURCE]."""

    def on_opponent_activation(self, state: State, owner: int, entry: InPlay, activator: int,
                               events: list[Event]) -> None:
        give_crystals(state, activator, owner, 1, events, why(41))
        gain_crystals(state, owner, 1, events, why(41))


# --- 42 Cursed Treatise of Arus ----------------------------------------------------------------


@effect(42)
class CursedTreatiseOfArus(Effect):
    """On entry: 2 energies (of your choice, reading), +10 crystals, +1 gauge. Sacrificed: the
    whole reserve is discarded (tokens on #18 are in it; those on #4 and #35 are not); returned
    to hand by #17 it is not sacrificed, so nothing is lost [SOURCE: BGA]."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        gain_crystals(state, seat, 10, events, why(42))
        add_gauge(state, seat, 1, events, why(42))
        ask_energy(state, seat, 2, 42)

    def on_sacrifice(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        player = state.seats[seat]
        if any(player.energy):
            events.append({"type": "reserve_changed", "seat": seat,
                           "lost": energy_dict(player.energy), "why": why(42)})
            player.energy = [0, 0, 0, 0]


# --- 43 Idol of the Familiar -------------------------------------------------------------------


@effect(43)
class IdolOfTheFamiliar(Effect):
    """On entry +10 crystals (2nd edition only); activation: +1 crystal per familiar you have in
    play (offered only with at least one, reading)."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        if state.edition == 2:
            gain_crystals(state, seat, 10, events, why(43))

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        return [{}] if familiars(state.seats[seat]) else []

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        gain_crystals(state, seat, len(familiars(state.seats[seat])), events, why(43))


# --- 44 Necrotic Kriss -------------------------------------------------------------------------


@effect(44)
class NecroticKriss(Effect):
    """Discard a familiar from your hand (``discard``: the card, shown by the activation) or
    sacrifice one of your familiars in play (``sacrifice``: its id): 4 energies of your
    choice."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        player = state.seats[seat]
        out: list[Choice] = [{"discard": c} for c in sorted(set(player.hand))
                             if CARD[c].familiar]
        out += [{"sacrifice": e.id} for e in familiars(player)]
        return out

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        if "discard" in choice:
            state.seats[seat].hand.remove(choice["discard"])
            discard(state, [choice["discard"]])
            events.append({"type": "card_discarded", "seat": seat, "count": 1, "why": why(44)})
        else:
            sacrifice(state, seat, choice["sacrifice"], events, why(44))
        ask_energy(state, seat, 4, 44)


# --- 45 Lantern of Xidit, 46 Sealed Chest of Urm -----------------------------------------------


@effect(45)
class LanternOfXidit(Effect):
    """End of game: +3 crystals per token in the reserve (#18's count, #4's and #35's do not)."""

    def end_of_game_crystals(self, state: State, seat: int, entry: InPlay) -> int:
        return 3 * reserve_size(state.seats[seat])


@effect(46)
class SealedChestOfUrm(Effect):
    """End of game: +20 crystals with no familiar in play."""

    def end_of_game_crystals(self, state: State, seat: int, entry: InPlay) -> int:
        return 0 if familiars(state.seats[seat]) else 20


# --- 47 Mirror of the Seasons ------------------------------------------------------------------


@task
class MirrorCount(Question):
    """Mirror of the Seasons: how many tokens X (at least 1 [SOURCE], at most what the reserve
    holds of that type and the crystals allow); X crystals are paid."""

    kind = "mirror_of_the_seasons"

    def options(self, state: State, t: Task) -> list[Action]:
        player = state.seats[t["seat"]]
        most = min(player.energy[ENERGY_INDEX[t["energy"]]], player.crystals)
        return [{"type": "choose", "count": n} for n in range(1, most + 1)]

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        n = action["count"]
        player = state.seats[seat]
        pay_crystals(state, seat, n, events, why(47))
        player.energy[ENERGY_INDEX[t["energy"]]] -= n
        player.energy[ENERGY_INDEX[t["into"]]] += n
        events.append({"type": "energy_exchanged", "seat": seat,
                       "returned": {t["energy"]: n}, "taken": {t["into"]: n}, "why": why(47)})


@effect(47)
class MirrorOfTheSeasons(Effect):
    """Pay X crystals to turn X identical reserve tokens into X tokens of one other type: the
    activation names the two types (``energy``, ``into``), a question then asks X."""

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        if crystals_to_spend(state, seat) < 1:
            return []
        reserve = state.seats[seat].energy
        return [{"energy": e, "into": f} for k, e in enumerate(ENERGIES) if reserve[k]
                for f in ENERGIES if f != e]

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        ask(state, "mirror_of_the_seasons", seat, energy=choice["energy"], into=choice["into"],
            why=why(47))


# --- 48 Pendant of Ragnor ----------------------------------------------------------------------


@effect(48)
class PendantOfRagnor(OnEntry):
    """1 energy of your choice for each *other* magic item you have in play."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        others = [e for e in magic_items(state.seats[seat]) if e.id != entry.id]
        ask_energy(state, seat, len(others), 48)


# --- 49 Sid Nightshade -------------------------------------------------------------------------

SID_TAKES = 5


@effect(49)
class SidNightshade(OnEntry):
    """If you alone have the most crystals (counted after paying for Sid), each opponent gives
    you 5, or all it has; a tie for most gives nothing [SOURCE]."""

    def enter(self, state: State, seat: int, entry: InPlay, events: list[Event]) -> None:
        mine = state.seats[seat].crystals
        if all(state.seats[o].crystals < mine for o in opponents(state, seat)):
            for other in opponents(state, seat):
                give_crystals(state, other, seat, SID_TAKES, events, why(49))


# --- 50 Damned Soul of Onys --------------------------------------------------------------------

ONYS_CRYSTALS = 10
ONYS_LOSS = 3


@effect(50)
class DamnedSoulOfOnys(Effect):
    """On entry, only for whoever brings it into play: +10 crystals and 1 water [SOURCE: FAQ].
    End of round: its holder loses 3 crystals (stopping at 0). Activation: discard 1 water to
    pass it, ready for use, into the play area of the player on your left, even with a full
    gauge [SOURCE: TTS]; it does not enter play again there, so no entry bonus. Its −5 prestige
    counts for whoever holds it at the end (scoring counts the cards in play)."""

    def on_entry(self, state: State, seat: int, entry: InPlay, how: Entry,
                 events: list[Event]) -> None:
        gain_crystals(state, seat, ONYS_CRYSTALS, events, why(50))
        gain_energy(state, seat, single(WATER), events, why(50))

    def on_end_of_round(self, state: State, seat: int, entry: InPlay,
                        events: list[Event]) -> None:
        lose_crystals(state, seat, ONYS_LOSS, events, why(50))

    def activations(self, state: State, seat: int, entry: InPlay) -> list[Choice]:
        return pay_choices(state, seat, single(WATER))

    def activate(self, state: State, seat: int, entry: InPlay, choice: Choice,
                 events: list[Event]) -> None:
        pay(state, seat, single(WATER), choice)
        left = left_of(seat, state.players)
        moved = leave_play(state, seat, entry.id).copy()  # the card may be shared (own_entries)
        moved.used = False
        moved.fresh = False
        state.seats[left].in_play.append(moved)
        events.append({"type": "card_moved", "from": seat, "to": left, "id": moved.id,
                       "card": moved.card, "why": why(50)})

"""Small moves on the table that rules and card effects share: crystals, energy, the gauge,
drawing, discarding, leaving play, the reserve limit and transmutation rates.

Nothing here asks a question; callers push one (``tasks.ask``) where a choice is needed.
"""

from __future__ import annotations

from engine.protocol import Event, private
from engine.rng import Rng
from engine.seasons import readings
from engine.seasons.cards import CARD, ENERGIES
from engine.seasons.effects import cards_with, effect_of
from engine.seasons.state import InPlay, Player, State, energy_dict


def left_of(seat: int, players: int) -> int:
    return (seat + 1) % players


def opponents(state: State, seat: int) -> list[int]:
    """The other seats, clockwise from ``seat``'s left."""
    return [(seat + k) % state.players for k in range(1, state.players)]


def in_turn_order(state: State, start: int | None = None) -> list[int]:
    first = state.first_player if start is None else start
    return [(first + k) % state.players for k in range(state.players)]


# --- crystals ----------------------------------------------------------------------------------


def gain_crystals(state: State, seat: int, n: int, events: list[Event], why: str) -> None:
    if n <= 0:
        return
    state.seats[seat].crystals += n
    events.append({"type": "crystals_gained", "seat": seat, "crystals": n, "why": why})


def lose_crystals(state: State, seat: int, n: int, events: list[Event], why: str) -> int:
    """Crystals never go below 0 [CONFIRMED: FAQ, BGA]: returns what was really lost."""
    player = state.seats[seat]
    lost = min(n, player.crystals)
    if lost > 0:
        player.crystals -= lost
        events.append({"type": "crystals_lost", "seat": seat, "crystals": lost, "why": why})
    return lost


def give_crystals(
    state: State, giver: int, taker: int, n: int, events: list[Event], why: str
) -> int:
    moved = min(n, state.seats[giver].crystals)
    if moved > 0:
        state.seats[giver].crystals -= moved
        state.seats[taker].crystals += moved
        events.append(
            {"type": "crystals_given", "from": giver, "to": taker, "crystals": moved, "why": why}
        )
    return moved


# --- energy ------------------------------------------------------------------------------------


def gain_energy(state: State, seat: int, vec: list[int] | tuple[int, ...], events: list[Event],
                why: str) -> None:
    if not any(vec):
        return
    reserve = state.seats[seat].energy
    for k in range(4):
        reserve[k] += vec[k]
    events.append({"type": "energy_gained", "seat": seat, "energy": energy_dict(vec), "why": why})


def reserve_size(player: Player) -> int:
    return sum(player.energy)


def reserve_limit(state: State, seat: int) -> int:
    """7, or what a card in play sets (Grimoire: 10; two do not add) [RULEBOOK; CONFIRMED]."""
    limit = readings.RESERVE_LIMIT
    for entry in state.seats[seat].in_play:
        set_to = effect_of(entry.card).reserve_limit(state, seat, entry)
        if set_to is not None:
            limit = max(limit, set_to)
    return limit


def amulet_pool(player: Player) -> list[int]:
    """Tokens kept on cards whose tokens pay like reserve tokens (Amulet of Water, #4)."""
    pool = [0, 0, 0, 0]
    spendable = cards_with("tokens_spendable")
    for entry in player.in_play:
        if entry.card in spendable:
            t = entry.tokens
            pool = [pool[0] + t[0], pool[1] + t[1], pool[2] + t[2], pool[3] + t[3]]
    return pool


def spend(player: Player, from_reserve: list[int], from_amulet: list[int]) -> None:
    """Remove tokens: ``from_amulet`` out of the amulets in the order they entered play."""
    entries = player.own_entries() if any(from_amulet) else player.in_play
    for k in range(4):
        player.energy[k] -= from_reserve[k]
        left = from_amulet[k]
        for entry in entries:
            if left <= 0:
                break
            if effect_of(entry.card).tokens_spendable and entry.tokens[k]:
                take = min(left, entry.tokens[k])
                entry.tokens[k] -= take
                left -= take
        assert left == 0 and player.energy[k] >= 0


def splits(need: list[int], reserve: list[int], pool: list[int]) -> list[list[int]]:
    """Every way to take ``need`` from reserve + amulets: the amulet part of each way."""
    if not any(pool):  # the usual case: no amulet tokens, one way or none
        n, r = need, reserve
        if 0 <= n[0] <= r[0] and 0 <= n[1] <= r[1] and 0 <= n[2] <= r[2] and 0 <= n[3] <= r[3]:
            return [[0, 0, 0, 0]]
        return []
    ways: list[list[int]] = [[]]
    for k in range(4):
        low = max(0, need[k] - reserve[k])
        high = min(need[k], pool[k])
        if low > high:
            return []
        ways = [[*w, a] for w in ways for a in range(low, high + 1)]
    return ways


# --- transmutation -----------------------------------------------------------------------------


def token_value(state: State, seat: int, energy: int, bonus: int = 0) -> int:
    """One token transmuted now: the season's value, plus Bonus 2 uses and Purse of Io."""
    base = readings.TRANSMUTE_VALUES[state.season][energy]
    return base + bonus + transmute_extra(state, seat)


def transmute_extra(state: State, seat: int) -> int:
    bonuses = cards_with("transmute_bonus")
    extra = 0
    for e in state.seats_to_read()[seat].in_play:  # a loop, not a generator: every transmute
        if e.card in bonuses:
            extra += effect_of(e.card).transmute_bonus(state, seat, e)
    return extra


# --- the summoning gauge -----------------------------------------------------------------------


def add_gauge(state: State, seat: int, n: int, events: list[Event], why: str) -> None:
    player = state.seats[seat]
    new = max(0, min(readings.GAUGE_MAX, player.gauge + n))
    if new != player.gauge:
        events.append({"type": "gauge_changed", "seat": seat, "by": new - player.gauge,
                       "gauge": new, "why": why})
        player.gauge = new


def has_room(player: Player) -> bool:
    """To summon, cards in play must be fewer than the gauge [RULEBOOK]."""
    return len(player.in_play) < player.gauge


# --- cards -------------------------------------------------------------------------------------


def draw(state: State, n: int, events: list[Event]) -> list[int]:
    """Up to ``n`` cards from the top; an empty pile is remade from the discards [RULEBOOK]."""
    out: list[int] = []
    while len(out) < n:
        if not state.deck:
            if not state.discard:
                events.append({"type": "deck_empty"})
                break
            rng = Rng.load(state.rng)
            state.deck = state.discard
            state.discard = []
            rng.shuffle(state.deck)
            state.rng = rng.dump()
            events.append({"type": "deck_reshuffled", "cards": len(state.deck)})
        out.append(state.deck.pop(0))
    return out


def to_hand(state: State, seat: int, cards: list[int], events: list[Event], why: str) -> None:
    if not cards:
        return
    hand = state.seats[seat].hand
    hand.extend(cards)
    hand.sort()
    events.append({"type": "cards_to_hand", "seat": seat, "count": len(cards), "why": why})
    events.append(private({"type": "cards_received", "cards": sorted(cards), "why": why}, seat))


def discard(state: State, cards: list[int]) -> None:
    state.discard.extend(cards)


def new_entry(state: State, card: int) -> InPlay:
    entry = InPlay(state.next_id, card, used=False, fresh=True)
    state.next_id += 1
    return entry


def leave_play(state: State, seat: int, entry_id: int) -> InPlay:
    """Take a card out of play; tokens kept on it are lost [SOURCE: BGA]."""
    player = state.seats[seat]
    for i, e in enumerate(player.in_play):
        if e.id == entry_id:
            return player.in_play.pop(i)
    raise KeyError(entry_id)


def sacrifice(state: State, seat: int, entry_id: int, events: list[Event], why: str) -> None:
    """Move one of the seat's cards in play to the discard pile (face down)."""
    entry = state.seats[seat].entry(entry_id)
    assert entry is not None
    effect_of(entry.card).on_sacrifice(state, seat, entry, events)
    leave_play(state, seat, entry_id)
    discard(state, [entry.card])
    events.append({"type": "card_sacrificed", "seat": seat, "id": entry_id, "card": entry.card,
                   "why": why})


def magic_items(player: Player) -> list[InPlay]:
    return [e for e in player.in_play if CARD[e.card].magic_item]


def familiars(player: Player) -> list[InPlay]:
    return [e for e in player.in_play if CARD[e.card].familiar]


def energy_name(k: int) -> str:
    return ENERGIES[k]

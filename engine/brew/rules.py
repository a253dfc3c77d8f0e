"""The flow of a Witch's Brew match (sheet section 4, rulebook "Cómo se juega").

A match is a series of **sets**. Each set begins with the ``choose`` phase: every player, at once
and in secret, keeps 5 of her 12 roles (``keep`` / ``unkeep`` one at a time, then ``confirm``).
Then rounds are played until every hand is empty:

* ``lead``: the leader plays a role face up and claims it (she may not say "So be it!");
* ``respond``: every other seat in turn, clockwise, answers. ``to_move`` is public, so every seat
  with cards is asked, holder or not: a non-holder says ``pass``; a holder must play the card and
  either ``claim`` it ("I am the …!", the previous claimant gets nothing) or take the ``favor`` at
  once ("So be it!") or ``decline_favor``. A seat with an empty hand (public) passes by itself;
* ``act``: the last claimant performs the full action (``act``) or ``decline``s; the thieves go on
  with ``tribute`` (Begging Monk: each victim gives a drop of her choice) and ``shelf`` (buy the top
  shelf card or not);
* the claimant leads the next round; if her hand is empty, the lead passes left to the first
  player with cards; when no one has cards, the set ends: the spell book turns, and the match
  ends if the potion cards owned show at least 4 ravens.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.brew import readings, scoring
from engine.brew.cards import (
    RAVEN_THRESHOLD,
    ROLE_BY_ID,
    ROLE_IDS,
    ROLES_KEPT,
    SPELL_IDS,
    START_DROPS,
    START_GOLD,
    PotionStack,
    stacks_for,
)
from engine.brew.options import BrewOptions
from engine.brew.payments import Ledger
from engine.brew.roles import EFFECTS, SHELF_OF_THIEF, shelf_options, single_colour, thief_gives
from engine.brew.roles import buy_shelf as _buy_shelf
from engine.brew.state import Round, State, Witch
from engine.protocol import Action, Event, IllegalAction, Step, check_request, private
from engine.rng import Rng

_ORDER = {r: i for i, r in enumerate(ROLE_IDS)}

# --- setup -------------------------------------------------------------------------------------


def _laid_out(stack: PotionStack, rng: Rng) -> list[str]:
    """Sorted by value, lowest on top [RULEBOOK]; cards of equal value lie in any order."""
    out: list[str] = []
    for vp in sorted({c.vp for c in stack.cards}):
        group = [c.id for c in stack.cards if c.vp == vp]
        rng.shuffle(group)
        out += group
    return out


def blocked_per_set(players: int) -> int:
    """The variant turns up 2 roles with 3 players, 1 with 4 [RULEBOOK]."""
    return {3: 2, 4: 1}.get(players, 0)


def setup(players: int, seed: int, options: BrewOptions) -> State:
    if options.variant_blocked_roles and not blocked_per_set(players):
        raise IllegalAction("bad_options", "the blocked-roles variant is for 3 or 4 players")
    rng = Rng(seed)
    stacks = {s.id: _laid_out(s, rng) for s in stacks_for(options.potion_values)}
    spell_books = list(SPELL_IDS)
    rng.shuffle(spell_books)  # shuffled, face up [RULEBOOK]
    start = rng.below(players) if readings.RANDOM_START_PLAYER else 0
    witches = [Witch([], [], False, dict(START_DROPS), START_GOLD, 0, []) for _ in range(players)]
    state = State(players, options.model_dump(), "choose", 0, 0, 0, rng.dump(), start, start,
                  stacks, spell_books, [], [], [], [], [], None, witches)
    _begin_set(state, [])
    return state


def _begin_set(state: State, events: list[Event]) -> None:
    state.set += 1
    state.phase = "choose"
    state.led = []
    state.current = None
    for witch in state.witches:
        witch.hand, witch.played, witch.confirmed = [], [], False
    if state.options.get("variant_blocked_roles"):
        _turn_up_blocked(state, events)
    events.append({"type": "set_started", "set": state.set, "leader": state.leader,
                   "spell": state.spells[0], "blocked": state.blocked[:]})


def _turn_up_blocked(state: State, events: list[Event]) -> None:
    """Variant: the next 2 (3 players) or 1 (4 players) roles of the unused colour are blocked;
    when all 12 have been turned up they are shuffled again [RULEBOOK]."""
    n = blocked_per_set(state.players)
    # With cumulative blocks (not our reading) the turned-up roles stay blocked until the reshuffle,
    # which must then come early enough to leave 5 roles to keep (sheet 11: otherwise a 3-player
    # game runs out of roles).
    cumulative_full = (readings.BLOCKS_CUMULATIVE
                       and len(ROLE_IDS) - len(state.variant_revealed) - n < ROLES_KEPT)
    if len(state.variant_deck) < n or cumulative_full:
        rng = Rng.load(state.rng)
        deck = list(ROLE_IDS)
        rng.shuffle(deck)
        state.rng = rng.dump()
        state.variant_deck, state.variant_revealed = deck, []
        events.append({"type": "variant_shuffled"})
    turned = state.variant_deck[:n]
    state.variant_deck = state.variant_deck[n:]
    state.variant_revealed = state.variant_revealed + turned
    # Our reading (readings.BLOCKS_CUMULATIVE False): this set's block replaces the last one.
    state.blocked = state.variant_revealed[:] if readings.BLOCKS_CUMULATIVE else turned


# --- who owes what -----------------------------------------------------------------------------


def to_move(state: State) -> frozenset[int]:
    phase, cur = state.phase, state.current
    if phase == "choose":
        return frozenset(s for s, w in enumerate(state.witches) if not w.confirmed)
    if phase == "lead":
        return frozenset((state.leader,))
    if cur is None:
        return frozenset()
    if phase == "respond":
        return frozenset(cur.pending[:1])
    if phase in ("act", "shelf"):
        return frozenset((cur.claimant,))
    if phase == "tribute":
        return frozenset(cur.givers[:1])
    return frozenset()


def stage(state: State) -> str:
    """Constant while the roles are chosen (a simultaneous step); a new id after every
    sequential sub-action, so a re-sent one is refused as stale."""
    if state.phase == "choose":
        return f"{state.set}:choose"
    return f"{state.set}:{state.phase}:{state.turn}"


def holds(state: State, seat: int) -> bool:
    return state.current is not None and state.current.role in state.witches[seat].hand


def legal_actions(state: State, seat: int) -> list[Action]:
    if not isinstance(seat, int) or seat not in to_move(state):
        return []
    witch = state.witches[seat]
    phase = state.phase
    if phase == "choose":
        # confirm first: a bot that breaks ties by order ends its choice instead of cycling
        out: list[Action] = [{"type": "confirm"}] if len(witch.hand) == ROLES_KEPT else []
        if len(witch.hand) < ROLES_KEPT:
            out += [{"type": "keep", "role": r} for r in ROLE_IDS
                    if r not in witch.hand and r not in state.blocked]
        out += [{"type": "unkeep", "role": r} for r in witch.hand]
        return out
    if phase == "lead":
        return [{"type": "lead", "role": r} for r in witch.hand]
    cur = state.current
    assert cur is not None
    effect = EFFECTS[cur.role]
    if phase == "respond":
        if not holds(state, seat):
            return [{"type": "pass"}]
        return ([{"type": "claim"}]
                + [{"type": "favor", **p} for p in effect.favor_options(state, seat)]
                + [{"type": "decline_favor"}])
    if phase == "act":
        return ([{"type": "act", **p} for p in effect.full_options(state, seat)]
                + [{"type": "decline"}])
    if phase == "tribute":
        return [{"type": "give", "drop": d} for d, n in witch.drops.items() if n > 0]
    if phase == "shelf":
        return ([{"type": "buy", **p} for p in shelf_options(state, seat, SHELF_OF_THIEF[cur.role])]
                + [{"type": "no_buy"}])
    return []


# --- applying one action -----------------------------------------------------------------------

Handler = Callable[[State, State, int, Action, list[Event]], None]


def apply(state: State, seat: int, action: Action) -> Step:
    check_request(seat, action, state.players, state.phase == "over")
    kind = action["type"]
    handler = HANDLERS.get(state.phase, {}).get(kind)
    if handler is None:
        if kind not in FIELDS:
            raise IllegalAction("unknown_action", f"no action called {kind!r}")
        if state.phase == "lead" and seat == state.leader and kind in RESPONSES:
            raise IllegalAction("leader_must_claim",
                                "the leader plays a role and claims it; she may not say "
                                "\"So be it!\" or pass")
        raise IllegalAction("wrong_phase", f"{kind!r} cannot be played in the {state.phase} phase")
    if seat not in to_move(state):
        raise IllegalAction("not_your_turn", "you owe no decision now")
    expected = FIELDS[kind]
    if expected is not None and set(action) - {"type"} != expected:
        wanted = ", ".join(sorted(expected)) or "no other field"
        raise IllegalAction("bad_action", f"{kind!r} takes {wanted}")
    new = state.copy()
    events: list[Event] = []
    handler(state, new, seat, action, events)
    if state.phase != "choose":
        new.turn += 1  # every sequential sub-action is its own stage
    return Step(new, events)


def _params(action: Action) -> dict[str, object]:
    return {k: v for k, v in action.items() if k != "type"}


def _offered(params: dict[str, object], options: list[dict[str, object]]) -> None:
    if params not in options:
        raise IllegalAction("bad_action", "that is not one of the offered ways to do it")


# choose phase


def _check_role(action: Action) -> str:
    role = action.get("role")
    if not isinstance(role, str) or role not in ROLE_BY_ID:
        raise IllegalAction("unknown_role", f"there is no role {role!r}")
    return role


def _keep(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    role = _check_role(action)
    witch = state.witches[seat]
    if role in state.blocked:
        raise IllegalAction("blocked_role", f"the {role} is blocked this set (variant)")
    if role in witch.hand:
        raise IllegalAction("already_kept", f"you already keep the {role}")
    if len(witch.hand) >= ROLES_KEPT:
        raise IllegalAction("hand_full", f"you keep {ROLES_KEPT} roles; put one back first")
    witch.hand.append(role)
    events.append(private({"type": "role_kept", "role": role}, seat))


def _unkeep(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    role = _check_role(action)
    witch = state.witches[seat]
    if role not in witch.hand:
        raise IllegalAction("not_kept", f"you do not keep the {role}")
    witch.hand.remove(role)
    events.append(private({"type": "role_unkept", "role": role}, seat))


def _confirm(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    witch = state.witches[seat]
    if len(witch.hand) != ROLES_KEPT:
        raise IllegalAction("hand_incomplete", f"keep exactly {ROLES_KEPT} roles first")
    witch.hand.sort(key=_ORDER.__getitem__)
    witch.confirmed = True
    events.append({"type": "roles_chosen", "seat": seat})
    events.append(private({"type": "hand_confirmed", "roles": witch.hand[:]}, seat))
    if all(w.confirmed for w in state.witches):
        state.phase = "lead"
        events.append({"type": "lead_owed", "seat": state.leader})


# a round


def _play(state: State, seat: int) -> None:
    """Her card of the round's role goes face up (and later face down on her pile)."""
    assert state.current is not None
    witch = state.witches[seat]
    witch.hand.remove(state.current.role)
    witch.played.append(state.current.role)


def _lead(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    role = _check_role(action)
    witch = state.witches[seat]
    if role not in witch.hand:
        raise IllegalAction("not_in_hand", f"the {role} is not in your hand")
    n = state.players
    state.round += 1
    state.led.append(role)
    state.current = Round(role, seat, seat, [], [(seat + k) % n for k in range(1, n)])
    _play(state, seat)
    events.append({"type": "role_led", "seat": seat, "role": role, "round": state.round})
    _next_responder(state, events)


def _next_responder(state: State, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None
    while cur.pending and not state.witches[cur.pending[0]].hand:
        seat = cur.pending.pop(0)  # an empty hand is public: she passes by herself
        cur.answers.append((seat, "auto_pass"))
        events.append({"type": "passed", "seat": seat, "automatic": True})
    if cur.pending:
        state.phase = "respond"
    else:
        state.phase = "act"
        events.append({"type": "full_action_owed", "seat": cur.claimant, "role": cur.role})


def _answered(state: State, seat: int, answer: str, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None and cur.pending[0] == seat
    cur.pending.pop(0)
    cur.answers.append((seat, answer))
    _next_responder(state, events)


def _require_holding(state: State, seat: int) -> str:
    assert state.current is not None
    if not holds(state, seat):
        raise IllegalAction("not_holding",
                            f"you do not hold the {state.current.role}: you can only pass")
    return state.current.role


def _pass(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    if holds(state, seat):
        assert state.current is not None
        raise IllegalAction("must_play", f"you hold the {state.current.role}: you must play it")
    events.append({"type": "passed", "seat": seat, "automatic": False})
    _answered(state, seat, "pass", events)


def _claim(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    role = _require_holding(state, seat)
    cur = state.current
    assert cur is not None
    _play(state, seat)
    previous, cur.claimant = cur.claimant, seat
    events.append({"type": "claimed", "seat": seat, "role": role, "previous": previous})
    _answered(state, seat, "claim", events)


def _favor(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    role = _require_holding(state, seat)
    effect = EFFECTS[role]
    params = _params(action)
    _play(state, seat)
    ledger = Ledger()
    effect.favor(state, seat, params, ledger)  # at once, before the next player answers
    _offered(params, effect.favor_options(old, seat))
    events.append({"type": "favor_taken", "seat": seat, "role": role, **ledger.fields()})
    _answered(state, seat, "favor", events)


def _decline_favor(old: State, state: State, seat: int, action: Action,
                   events: list[Event]) -> None:
    role = _require_holding(state, seat)
    _play(state, seat)
    events.append({"type": "favor_declined", "seat": seat, "role": role})
    _answered(state, seat, "decline_favor", events)


# the full action


def _act(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None
    effect = EFFECTS[cur.role]
    params = _params(action)
    ledger = Ledger()
    effect.full(state, seat, params, ledger)
    _offered(params, effect.full_options(old, seat))
    event = {"type": "full_action", "seat": seat, "role": cur.role, **ledger.fields(),
             "taken_from": ledger.taken_from}
    if cur.role == "warlock":
        event["spell"] = state.spells[0]
    events.append(event)
    if cur.role == "begging_monk":
        _collect_tribute(state, events)
    elif cur.role == "cutpurse":
        _offer_shelf(state, events)
    else:
        _end_round(state, events)


def _decline(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    assert state.current is not None
    events.append({"type": "full_action_declined", "seat": seat, "role": state.current.role})
    _end_round(state, events)


def _collect_tribute(state: State, events: list[Event]) -> None:
    """The Begging Monk's victims give in turn; one with a single colour has no choice."""
    cur = state.current
    assert cur is not None
    while cur.givers:
        giver = cur.givers[0]
        if not thief_gives(state, giver):
            cur.givers.pop(0)
            continue
        only = single_colour(state, giver)
        if only is None:
            state.phase = "tribute"
            return
        _hand_over(state, giver, only, events)
    _offer_shelf(state, events)


def _hand_over(state: State, giver: int, drop: str, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None
    cur.givers.pop(0)
    state.witches[giver].drops[drop] -= 1
    state.witches[cur.claimant].drops[drop] += 1
    events.append({"type": "drop_given", "seat": giver, "to": cur.claimant, "drop": drop})


def _give(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    drop = action.get("drop")
    if not isinstance(drop, str) or drop not in START_DROPS:
        raise IllegalAction("unknown_drop", f"{drop!r} is not a drop colour (red, white, green)")
    if state.witches[seat].drops[str(drop)] <= 0:
        raise IllegalAction("cannot_afford", f"you have no {drop} drop")
    _hand_over(state, seat, str(drop), events)
    _collect_tribute(state, events)


def _offer_shelf(state: State, events: list[Event]) -> None:
    """The thief may buy the top card of her shelf; with nothing she can buy, the round ends."""
    cur = state.current
    assert cur is not None
    if shelf_options(state, cur.claimant, SHELF_OF_THIEF[cur.role]):
        state.phase = "shelf"
    else:
        _end_round(state, events)


def _buy(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None
    stack = SHELF_OF_THIEF[cur.role]
    params = _params(action)
    ledger = Ledger()
    _buy_shelf(state, seat, stack, params, ledger)
    _offered(params, shelf_options(old, seat, stack))
    events.append({"type": "shelf_bought", "seat": seat, "role": cur.role, **ledger.fields()})
    _end_round(state, events)


def _no_buy(old: State, state: State, seat: int, action: Action, events: list[Event]) -> None:
    assert state.current is not None
    events.append({"type": "shelf_declined", "seat": seat, "role": state.current.role})
    _end_round(state, events)


# the end of a round, of a set, of the match


def _end_round(state: State, events: list[Event]) -> None:
    cur = state.current
    assert cur is not None
    state.current = None
    claimant = cur.claimant
    state.leader = claimant  # she leads next, even if she declined [RULEBOOK]
    events.append({"type": "round_ended", "round": state.round, "role": cur.role,
                   "claimant": claimant})
    n = state.players
    for k in range(n):
        seat = (claimant + k) % n
        if state.witches[seat].hand:
            if seat != claimant:  # her hand is empty: the lead passes left [RULEBOOK]
                events.append({"type": "lead_passed", "from": claimant, "to": seat})
            state.leader = seat
            state.phase = "lead"
            events.append({"type": "lead_owed", "seat": seat})
            return
    _end_set(state, events)


def _end_set(state: State, events: list[Event]) -> None:
    ravens = scoring.ravens_owned(state)
    events.append({"type": "set_ended", "set": state.set, "ravens": ravens})
    if readings.SPELL_TURNS_EVERY_SET:
        state.spell_history.append(state.spells[0])
        state.spells = state.spells[1:] + state.spells[:1]
        events.append({"type": "spell_book_turned", "spell": state.spells[0]})
    if ravens >= RAVEN_THRESHOLD:
        result = scoring.decide(state)
        state.phase = "over"
        state.result = result.as_dict()
        events.append({"type": "game_over", **result.as_dict()})
        return
    _begin_set(state, events)  # the last claimant leads the first round [RULEBOOK]


# The exact fields of each action besides "type" (None: they depend on the role or the spell,
# and the offered list decides).
FIELDS: dict[str, frozenset[str] | None] = {
    "keep": frozenset({"role"}),
    "unkeep": frozenset({"role"}),
    "confirm": frozenset(),
    "lead": frozenset({"role"}),
    "pass": frozenset(),
    "claim": frozenset(),
    "favor": None,
    "decline_favor": frozenset(),
    "act": None,
    "decline": frozenset(),
    "give": frozenset({"drop"}),
    "buy": None,
    "no_buy": frozenset(),
}
RESPONSES = frozenset({"pass", "favor", "decline_favor"})

HANDLERS: dict[str, dict[str, Handler]] = {
    "choose": {"keep": _keep, "unkeep": _unkeep, "confirm": _confirm},
    "lead": {"lead": _lead},
    "respond": {"pass": _pass, "claim": _claim, "favor": _favor,
                "decline_favor": _decline_favor},
    "act": {"act": _act, "decline": _decline},
    "tribute": {"give": _give},
    "shelf": {"buy": _buy, "no_buy": _no_buy},
}

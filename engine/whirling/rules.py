"""The flow of a Whirling Witchcraft match (sheet sections 3, 4 and 9).

Phases: ``personality`` (advanced mode only: keep 1 of 2, hidden and simultaneous) → rounds of
``study`` (every witch commits a recipe, hidden) and ``brew`` (every witch resolves her arcana
and produces, hidden, then says ``done``) → the cauldrons pass, the win check, hands pass left →
next round, or ``over``. Every step waits for all witches; there are no turns.

The one exception is the room option ``production: "initiative"``: then the brew phase is the
rulebook's open production with the order settled by initiative (section 6) — one witch brews at
a time, lowest initiative first, and what she does is public.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import memo
from engine.protocol import TO, Action, Event, IllegalAction, Step, check_request, private
from engine.rng import Rng
from engine.whirling import arcana, brewing, personalities
from engine.whirling.brewing import cube_dict
from engine.whirling.cards import (
    ADVANCED_PERSONALITIES,
    INGREDIENT_INDEX,
    INITIATE,
    PERSONALITY_BY_ID,
    RECIPES,
    Face,
    Personality,
    Recipe,
)
from engine.whirling.options import WhirlingOptions
from engine.whirling.scoring import decide
from engine.whirling.state import Played, Production, State, Witch
from engine.whirling.table import draw, left_of, place, right_of

# --- setup -------------------------------------------------------------------------------------


def setup(players: int, seed: int, options: WhirlingOptions) -> State:
    rng = Rng(seed)
    deck = [r.id for r in RECIPES]
    rng.shuffle(deck)
    witches = [Witch(None, [], False, [], [], [0] * 5, [0] * 5, [0] * 5) for _ in range(players)]
    state = State(players, options.model_dump(), "personality", 0, deck, [], rng.dump(), witches)
    if options.personalities == "choose":
        offers = list(ADVANCED_PERSONALITIES)
        rng.shuffle(offers)
        for seat, witch in enumerate(witches):
            witch.offer = sorted(offers[2 * seat : 2 * seat + 2])
        state.rng = rng.dump()
        return state
    for witch in witches:
        witch.personality = INITIATE.id
    _finish_setup(state, [])
    return state


def _finish_setup(state: State, events: list[Event]) -> None:
    """Starting cubes, arcana on the ability side, then the recipes are dealt [RULEBOOK]."""
    for witch in state.witches:
        card: Personality = PERSONALITY_BY_ID[witch.personality or INITIATE.id]
        witch.workbench = list(card.start)
        for i, icons in enumerate(card.arcana_on_flip):
            witch.arcana[i], _ = arcana.advance(witch.arcana[i], icons)
    for seat, witch in enumerate(state.witches):
        witch.hand, _ = draw(state, personalities.hand_limit(witch))
        events.append(private({"type": "cards_drawn", "cards": witch.hand[:]}, seat))
    _begin_round(state, events)


# --- the round ---------------------------------------------------------------------------------


def _owes_study(state: State, witch: Witch) -> bool:
    return bool(witch.gain_due or witch.hand or personalities.can_swap(state, witch))


def _begin_round(state: State, events: list[Event]) -> None:
    state.round += 1
    state.phase = "study"
    for witch in state.witches:
        witch.played = None
        witch.brew = None
        witch.gain_due = personalities.has_power(witch, "forced_gain")
        witch.committed = not _owes_study(state, witch)
    events.append({"type": "round_started", "round": state.round})
    if all(w.committed for w in state.witches):
        _reveal(state, events)


def _reveal(state: State, events: list[Event]) -> None:
    """All recipes turn face up together; arcana tokens move; production sheets open."""
    plays = []
    recipes = state.recipes
    for seat, witch in enumerate(state.witches):
        triggers: list[str] = []
        played = witch.played
        if played is not None:
            witch.tableau.append((played.card, played.rotated))
            recipe = recipes[played.card]
            before = witch.arcana[:]
            for i, icons in enumerate(recipe.arcana):
                witch.arcana[i], earned = arcana.advance(witch.arcana[i], icons)
                triggers += [arcana.TRIGGERS[i]] * earned
            if personalities.has_power(witch, "pour_on_potion"):
                triggers += ["pour"] * recipe.arcana[0]
            if played.extra_arcana:
                triggers.append(played.extra_arcana)
            plays.append(
                {
                    "seat": seat,
                    "card": played.card,
                    "rotated": played.rotated,
                    "random": played.random,
                    "extra_arcana": played.extra_arcana,
                    "arcana_before": before,
                    "arcana_after": witch.arcana[:],
                    "triggers": sorted(triggers),
                }
            )
        witch.brew = Production(witch.workbench[:], [0] * 5, [0] * 5, [], triggers, [])
        witch.committed = False
        witch.played = None
    state.phase = "brew"
    events.append({"type": "recipes_revealed", "round": state.round, "plays": plays})


def _pass_cauldrons(state: State, events: list[Event]) -> None:
    """Every cauldron goes right; what the receiver cannot place scores for the sender [RULEBOOK].

    The receiver's room is what is left after her own production, counted type by type.
    """
    n = state.players
    benches = [w.brew.workbench[:] if w.brew else w.workbench[:] for w in state.witches]
    for seat, witch in enumerate(state.witches):
        prod = witch.brew
        assert prod is not None
        events.append(
            {
                "type": "production",
                "seat": seat,
                "used": prod.used[:],
                "cauldron": cube_dict(prod.cauldron),
                "workbench": cube_dict(prod.workbench),
                "claimed": cube_dict(prod.claimed),
            }
        )
    arrivals = []
    for sender, witch in enumerate(state.witches):
        assert witch.brew is not None
        receiver = right_of(sender, n)
        placed, overflow = place(benches[receiver], witch.brew.cauldron)
        for k in range(5):
            witch.circle[k] += overflow[k] + witch.brew.claimed[k]
        arrivals.append(
            {
                "type": "cauldron_passed",
                "from": sender,
                "to": receiver,
                "cubes": cube_dict(witch.brew.cauldron),
                "placed": cube_dict(placed),
                "overflow": cube_dict(overflow),
            }
        )
    for witch, bench in zip(state.witches, benches, strict=True):
        witch.workbench = bench
        witch.brew = None
    events.extend(arrivals)


def _pass_hands(state: State, events: list[Event]) -> None:
    """Hands go left, then each refills to her own limit, lowest initiative first (section 6)."""
    n = state.players
    hands = [w.hand for w in state.witches]
    for seat, witch in enumerate(state.witches):
        witch.hand = hands[(seat - 1) % n][:]
        if personalities.has_power(witch, "turning_recipe"):
            witch.rotated_own = not witch.rotated_own
            events.append({"type": "recipe_turned", "seat": seat})
    events.append({"type": "hands_passed"})
    for seat in decision_order(state):
        witch = state.witches[seat]
        want = personalities.hand_limit(witch) - len(witch.hand)
        drawn, reshuffled = draw(state, want) if want > 0 else ([], False)
        if reshuffled:
            events.append({"type": "deck_reshuffled"})
        witch.hand += drawn
        events.append(private({"type": "hand_received", "cards": witch.hand[:]}, seat))
    if not state.deck and not state.discard:
        events.append({"type": "deck_empty"})


def _end_round(state: State, events: list[Event]) -> None:
    _pass_cauldrons(state, events)
    outcome = decide(state)
    if outcome is not None:
        state.phase = "over"
        state.result = outcome.as_dict()
        events.append({"type": "game_over", **outcome.as_dict()})
        return
    _pass_hands(state, events)
    _begin_round(state, events)


def decision_order(state: State) -> list[int]:
    """Seats by ascending initiative of their most recently played recipe [RULEBOOK, section 6].

    Rotation does not change a card's initiative. A witch who has played nothing yet goes last,
    seats breaking any remaining tie.
    """
    recipes = state.recipes

    def key(seat: int) -> tuple[int, int]:
        tableau = state.witches[seat].tableau
        return (recipes[tableau[-1][0]].initiative if tableau else 10_000, seat)

    return sorted(range(state.players), key=key)


# --- who owes what -----------------------------------------------------------------------------


def to_move(state: State) -> frozenset[int]:
    known = state.memo  # memo.to_move's usual case, inlined (asked several times a step)
    if known is not None:
        found: frozenset[int] | None = known.get(memo.TO_MOVE)
        if found is not None:
            return found
    return memo.to_move(state, _to_move)


def _to_move(state: State) -> frozenset[int]:
    if state.phase == "personality":
        return frozenset(s for s, w in enumerate(state.witches) if w.offer)
    if state.phase == "study":
        return frozenset(s for s, w in enumerate(state.witches) if not w.committed)
    if state.phase == "brew":
        if state.open_production:
            current = brewer(state)
            return frozenset() if current is None else frozenset({current})
        return frozenset(s for s, w in enumerate(state.witches) if w.brew and not w.brew.done)
    return frozenset()


def brewer(state: State) -> int | None:
    """Open production: the witch whose turn it is to brew, lowest initiative first [RULEBOOK,
    section 6: when the order of decisions matters, the lowest initiative decides first]."""
    if state.phase != "brew" or not state.open_production:
        return None
    for seat in decision_order(state):
        prod = state.witches[seat].brew
        if prod is not None and not prod.done:
            return seat
    return None


def stage(state: State) -> str:
    # Open production passes the turn from witch to witch inside one phase: a stale re-send
    # from the previous brewer must land in another stage.
    current = brewer(state)
    return f"{state.round}:{state.phase}" + ("" if current is None else f":{current}")


def _brewing_event(state: State, seat: int, body: Event) -> Event:
    """A step of her production: private to her when production is blind; in open production
    everyone sees it, under its own public type (``brewed`` → ``brewed_openly``) with her seat."""
    if state.open_production:
        return {**body, "type": f"{body['type']}_openly", "seat": seat}
    return {**body, TO: [seat]}  # private(body, seat), without its checks of our own body


def row(state: State, witch: Witch) -> list[tuple[Recipe, Face]]:
    """Every recipe below her board: her personality's own (if any) then the played cards."""
    recipes = state.recipes
    out: list[tuple[Recipe, Face]] = []
    card = personalities.personality(witch)
    if card is not None and card.recipe is not None:
        out.append((card.recipe, card.recipe.side(witch.rotated_own)))
    for rid, rotated in witch.tableau:
        recipe = recipes[rid]
        out.append((recipe, recipe.back if rotated else recipe.face))  # recipe.side, inlined
    return out


def may_rotate(witch: Witch, recipe: Recipe) -> bool:
    return recipe.reversible or personalities.has_power(witch, "rotate_any")


def legal_actions(state: State, seat: int) -> list[Action]:
    return memo.legal_actions(state, seat, _legal_actions)


def _legal_actions(state: State, seat: int) -> list[Action]:
    if not 0 <= seat < state.players or seat not in to_move(state):
        return []
    witch = state.witches[seat]
    if state.phase == "personality":
        return [{"type": "keep_personality", "personality": p} for p in witch.offer]
    if state.phase == "study":
        return _study_options(state, witch)
    return _brew_options(state, witch)


def _study_options(state: State, witch: Witch) -> list[Action]:
    if witch.gain_due:
        return personalities.forced_gain_options()
    if witch.played is not None:  # Daredevil's random card, waiting for her confirmation
        recipe = state.recipes[witch.played.card]
        return personalities.confirm_random_options(witch, may_rotate(witch, recipe))
    actions: list[Action] = []
    recipes = state.recipes
    for card in witch.hand:
        actions.append({"type": "play", "card": card, "rotated": False})
        if may_rotate(witch, recipes[card]):
            actions.append({"type": "play", "card": card, "rotated": True})
    if witch.hand and personalities.has_power(witch, "play_random"):
        actions.append({"type": "play_random"})
    if personalities.can_swap(state, witch):
        actions.append({"type": "swap_hand"})
    if not witch.hand:
        actions.append({"type": "skip"})
    return actions


def _brew_options(state: State, witch: Witch) -> list[Action]:
    prod = witch.brew
    assert prod is not None
    if prod.triggers:
        return arcana.options(prod)
    actions: list[Action] = []
    used = prod.used
    # row(state, witch), inlined: her personality's recipe (if any), then the played cards
    card = personalities.personality(witch)
    own = card.recipe if card is not None else None
    if own is not None and own.id not in used:
        actions += brewing.uses(own.id, own.side(witch.rotated_own), prod)
    recipes = state.recipes
    for rid, rotated in witch.tableau:
        if rid not in used:
            recipe = recipes[rid]
            actions += brewing.uses(rid, recipe.back if rotated else recipe.face, prod)
    actions += personalities.scholar_options(witch)
    actions += personalities.claim_options(witch)
    actions.append({"type": "done"})
    return actions


# --- applying one action -----------------------------------------------------------------------

Handler = Callable[[State, int, Witch, Action, list[Event]], None]


def apply(state: State, seat: int, action: Action) -> Step:
    # One of the legal actions worked out for this state (engine.memo): the checks before the
    # rule cannot refuse it, so they are skipped (the rules' own checks still run).
    if memo.listed(state, seat, action):
        kind = action["type"]
        handler = _brew_listed if kind == "brew" else HANDLERS[state.phase][kind]
    else:
        handler = _checked(state, seat, action)
    new = state.shallow()
    witch = new.witches[seat]
    # a step of the brew phase changes only her production sheet (Witch.brewing_copy)
    witch = new.witches[seat] = witch.brewing_copy() if state.phase == "brew" else witch.copy()
    events: list[Event] = []
    handler(new, seat, witch, action, events)
    return Step(new, events)


def _checked(state: State, seat: int, action: Action) -> Handler:
    """The checks every action passes before its rule; returns the rule's handler."""
    check_request(seat, action, state.players, state.phase == "over")
    handler = HANDLERS.get(state.phase, {}).get(action["type"])
    if handler is None:
        if any(action["type"] in table for table in HANDLERS.values()):
            raise IllegalAction(
                "wrong_phase", f"{action['type']!r} cannot be played in the {state.phase} phase"
            )
        raise IllegalAction("unknown_action", f"no action called {action['type']!r}")
    if seat not in to_move(state):
        raise IllegalAction("not_your_turn", "you owe no decision now")
    fields = set(action) - {"type"}
    expected = FIELDS[action["type"]]
    if fields != expected:
        wanted = ", ".join(sorted(expected)) or "no other field"
        raise IllegalAction("bad_action", f"{action['type']!r} takes {wanted}")
    return handler


# personality phase


def _keep_personality(
    state: State, seat: int, witch: Witch, action: Action, events: list[Event]
) -> None:
    choice = action.get("personality")
    if choice not in witch.offer:
        raise IllegalAction("not_offered", f"{choice!r} is not a personality dealt to you")
    witch.personality = choice
    witch.offer = []
    events.append({"type": "personality_kept", "seat": seat})
    if not any(w.offer for w in state.witches):
        _resolve_all(state, events, _reveal_personalities)


def _reveal_personalities(state: State, events: list[Event]) -> None:
    events.append(
        {"type": "personalities_revealed", "personalities": [w.personality for w in state.witches]}
    )
    _finish_setup(state, events)


def _resolve_all(
    state: State, events: list[Event], step: Callable[[State, list[Event]], None]
) -> None:
    """A step that touches every witch: give the new state its own copy of everything first."""
    fresh = state.deep()
    step(fresh, events)
    state.phase, state.round, state.deck, state.discard = (
        fresh.phase,
        fresh.round,
        fresh.deck,
        fresh.discard,
    )
    state.rng, state.witches, state.result = fresh.rng, fresh.witches, fresh.result


# study phase


def _require_choice_open(witch: Witch) -> None:
    if witch.gain_due:
        raise IllegalAction("gain_first", "Uncontrolled Powers: take your 3 cubes first")
    if witch.played is not None:
        raise IllegalAction("already_played", "you have already played a recipe this round")


def _play(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    _require_choice_open(witch)
    card = action.get("card")
    rotated = action.get("rotated", False)
    if card not in witch.hand:
        raise IllegalAction("not_in_hand", f"{card!r} is not in your hand")
    if not isinstance(rotated, bool):
        raise IllegalAction("bad_action", "rotated must be true or false")
    if rotated and not may_rotate(witch, state.recipes[card]):
        raise IllegalAction("cannot_rotate", f"{card} is a one-way recipe")
    witch.hand.remove(card)  # face down below her board until the reveal
    witch.played = Played(card, rotated)
    _commit(state, seat, witch, events)


def _commit(state: State, seat: int, witch: Witch, events: list[Event]) -> None:
    witch.committed = True
    events.append({"type": "recipe_chosen", "seat": seat})
    if all(w.committed for w in state.witches):
        _resolve_all(state, events, _reveal)


def _skip(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    if witch.hand or witch.gain_due:
        raise IllegalAction("must_play", "every witch must play a recipe while she holds one")
    _commit(state, seat, witch, events)


def _gain(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    if not witch.gain_due:
        raise IllegalAction("no_power", "you owe no forced gain")
    personalities.forced_gain(state, seat, witch, action, events)


def _swap_hand(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    _require_choice_open(witch)
    if not personalities.can_swap(state, witch):
        raise IllegalAction("no_power", "only an Initiate, once per game, may swap her hand")
    personalities.hand_swap(state, seat, witch, action, events)


def _play_random(
    state: State, seat: int, witch: Witch, action: Action, events: list[Event]
) -> None:
    _require_choice_open(witch)
    if not personalities.has_power(witch, "play_random") or not witch.hand:
        raise IllegalAction("no_power", "only the Daredevil may play a random recipe")
    personalities.random_play(state, seat, witch, action, events)


def _confirm_random(
    state: State, seat: int, witch: Witch, action: Action, events: list[Event]
) -> None:
    if witch.played is None or not witch.played.random or witch.committed:
        raise IllegalAction("no_random_card", "play a random recipe first")
    personalities.confirm_random(witch, action, may_rotate(witch, state.recipes[witch.played.card]))
    _commit(state, seat, witch, events)


# brew phase


def _production(witch: Witch) -> Production:
    """Her production sheet, to change: ``apply`` copied it with the witch."""
    assert witch.brew is not None
    return witch.brew


def _no_triggers_left(prod: Production) -> None:
    if prod.triggers:
        raise IllegalAction(
            "arcana_first", "resolve or decline your arcana effects before producing"
        )


def _trigger(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    body = arcana.resolve(_production(witch), action)
    events.append(_brewing_event(state, seat, body))


def _brew(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    prod = _production(witch)
    _no_triggers_left(prod)
    rid = action.get("recipe")
    found = next(((r, f) for r, f in row(state, witch) if r.id == rid), None)
    if found is None:
        raise IllegalAction("not_in_row", f"{rid!r} is not a recipe below your board")
    recipe, face = found
    if rid in prod.used:
        raise IllegalAction("already_used", f"{rid} has been used this round")
    from_wb, from_out, _, make = brewing.check_use(face, prod, action)
    for k in range(5):
        prod.workbench[k] -= from_wb[k]
        prod.outputs[k] += make[k] - from_out[k]
    prod.used.append(recipe.id)
    # a copy: the listed actions are shared (brewing.uses), an event must not hold a part of one
    take = {source: dict(cubes) for source, cubes in action.get("take", {}).items()}
    body = {"type": "brewed", "recipe": recipe.id, "take": take, "make": cube_dict(make)}
    events.append(_brewing_event(state, seat, body))
    if recipe.single_use:  # Hidden Power: used once, then the personality goes back to the box
        witch.personality = None
        events.append({"type": "personality_discarded", "seat": seat, "personality": recipe.id})


def _brew_listed(
    state: State, seat: int, witch: Witch, action: Action, events: list[Event]
) -> None:
    """``_brew`` for one of the listed uses (``brewing.uses``): none of its checks can refuse
    it, so the cubes are moved as the action names them."""
    prod = _production(witch)
    rid = action["recipe"]
    card = personalities.personality(witch)  # row(state, witch)'s recipe of that id
    own = card.recipe if card is not None else None
    recipe = own if own is not None and own.id == rid else state.recipes[rid]
    take = action["take"]
    workbench, outputs = prod.workbench, prod.outputs
    for name, n in take.get("workbench", {}).items():
        workbench[INGREDIENT_INDEX[name]] -= n
    for name, n in take.get("outputs", {}).items():
        outputs[INGREDIENT_INDEX[name]] -= n
    make = action["make"]  # listed: in ingredient order, no zero count (cube_dict)
    for name, n in make.items():
        outputs[INGREDIENT_INDEX[name]] += n
    prod.used.append(rid)
    # copies: the listed actions are shared (brewing.uses), an event must not hold a part of one
    take = {source: dict(cubes) for source, cubes in take.items()}
    body = {"type": "brewed", "recipe": rid, "take": take, "make": dict(make)}
    events.append(_brewing_event(state, seat, body))
    if recipe.single_use:  # Hidden Power: used once, then the personality goes back to the box
        witch.personality = None
        events.append({"type": "personality_discarded", "seat": seat, "personality": rid})


def _scholar(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    _no_triggers_left(_production(witch))
    events.append(_brewing_event(state, seat, personalities.scholar(witch, action)))


def _claim(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    _no_triggers_left(_production(witch))
    events.append(_brewing_event(state, seat, personalities.claim(witch, action)))
    _done(state, seat, witch, {"type": "done"}, events)


def _done(state: State, seat: int, witch: Witch, action: Action, events: list[Event]) -> None:
    prod = _production(witch)
    _no_triggers_left(prod)
    for k in range(5):  # outputs still on the slots go into the cauldron [RULEBOOK]
        prod.cauldron[k] += prod.outputs[k]
        prod.outputs[k] = 0
    prod.done = True
    events.append({"type": "brewing_done", "seat": seat})
    if all(w.brew is not None and w.brew.done for w in state.witches):
        _resolve_all(state, events, _end_round)


# The exact fields of each action besides "type": an action is refused unless it has exactly
# these, so what apply accepts is exactly what legal_actions lists.
FIELDS: dict[str, frozenset[str]] = {
    "keep_personality": frozenset({"personality"}),
    "play": frozenset({"card", "rotated"}),
    "skip": frozenset(),
    "gain": frozenset({"ingredient"}),
    "swap_hand": frozenset(),
    "play_random": frozenset(),
    "confirm_random": frozenset({"rotated", "arcana"}),
    "potion": frozenset({"ingredient"}),
    "raven": frozenset({"remove"}),
    "book": frozenset({"ingredient"}),
    "pour": frozenset({"ingredient"}),
    "decline": frozenset({"arcana"}),
    "brew": frozenset({"recipe", "take", "make"}),
    "scholar": frozenset({"ingredient", "take"}),
    "claim": frozenset({"ingredient"}),
    "done": frozenset(),
}

HANDLERS: dict[str, dict[str, Handler]] = {
    "personality": {"keep_personality": _keep_personality},
    "study": {
        "play": _play,
        "skip": _skip,
        "gain": _gain,
        "swap_hand": _swap_hand,
        "play_random": _play_random,
        "confirm_random": _confirm_random,
    },
    "brew": {
        "potion": _trigger,
        "raven": _trigger,
        "book": _trigger,
        "pour": _trigger,
        "decline": _trigger,
        "brew": _brew,
        "scholar": _scholar,
        "claim": _claim,
        "done": _done,
    },
}

__all__ = [
    "apply",
    "brewer",
    "decision_order",
    "left_of",
    "legal_actions",
    "row",
    "setup",
    "stage",
    "to_move",
]

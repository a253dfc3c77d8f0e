"""A full state consistent with what one seat sees, for search bots (``engine/bots``).

``determinize(view, seat, rng)`` reads only ``view`` (what ``seat`` is shown) and deals every
hidden thing at random from what that seat has not seen:

* the recipe cards not in her hand, her face-down play or any tableau go, shuffled, to the other
  witches' hands (by their public counts), to their face-down plays (a committed witch with cards
  left, or with none in a phase where she must have played), to the deck and to the discard pile;
* in advanced mode, during the personality phase, the other witches' offers (or the personality
  they kept) come from the personalities she has not seen;
* another witch's hidden production sheet starts from her public workbench with the arcana
  triggers her reveal gave her (recomputed from her tracks and the card she revealed); if she has
  already said ``done``, her production is the heuristic's projection (``heuristic.py``);
* a fresh RNG state.

Nothing else is guessed: every public field is copied, so ``view(determinize(v, s, r), s) == v``
(tested on thousands of random positions). The view carries no memory, so neither does this: a
person would remember the hand she passed left; a bot built on this forgets it.
"""

from __future__ import annotations

import random
from typing import Any

from engine.whirling import arcana
from engine.whirling.cards import (
    ADVANCED_PERSONALITIES,
    ARCANA,
    INGREDIENTS,
    PERSONALITY_BY_ID,
    RECIPES,
)
from engine.whirling.projection import project_production
from engine.whirling.state import Production, State

HIDDEN = "hidden"


def _power(personality: str | None) -> str | None:
    card = PERSONALITY_BY_ID.get(personality) if personality else None
    return card.power if card else None


def _vec(cubes: dict[str, int]) -> list[int]:
    return [int(cubes.get(name, 0)) for name in INGREDIENTS]


def _triggers_of(state: State, seat: int) -> list[str]:
    """The triggers the reveal gave ``seat``: her last revealed card moved her tracks to where
    they are now (a track stopped at the top may hide how far it was; we read it as uncapped). A
    Daredevil's named extra arcana is not in the view, so it is not guessed."""
    witch = state.witches[seat]
    if not witch.tableau:
        return []
    recipe = state.recipes[witch.tableau[-1][0]]
    triggers: list[str] = []
    for i, icons in enumerate(recipe.arcana):
        before = max(0, witch.arcana[i] - icons)
        _, earned = arcana.advance(before, icons)
        triggers += [arcana.TRIGGERS[i]] * earned
    if _power(witch.personality) == "pour_on_potion":  # one pour per potion icon
        triggers += ["pour"] * recipe.arcana[0]
    return triggers


def _play_out_production(state: State, seat: int) -> None:
    """Give a witch who is already ``done`` a plausible production: the heuristic's greedy one
    (every affordable recipe once; triggers used), which is what a fair player does."""
    prod = state.witches[seat].brew
    assert prod is not None
    bench, cauldron = project_production(state, seat)
    prod.workbench, prod.cauldron, prod.outputs = bench, cauldron, [0] * 5
    prod.triggers = []
    prod.done = True


def _face_down(view: dict[str, Any], seat: int, unseen: int) -> set[int]:
    """The other seats with a hidden card face down below their board.

    How many there are is public: every card not in a tableau, a hand, the deck or the discard
    pile. A committed witch still holding cards has played one; one with an empty hand may have
    played her last card or skipped, and an uncommitted Daredevil may have a random card waiting
    for her confirmation: the count settles which (in seat order where it cannot)."""
    players = view["players"]
    if view["phase"] != "study":
        return set()
    others = [s for s in range(len(players)) if s != seat]
    count = unseen - view["deck_count"] - view["discard_count"]
    count -= sum(players[s]["hand_count"] for s in others)
    sure = [s for s in others if players[s]["committed"] and players[s]["hand_count"]]
    maybe = [s for s in others if players[s]["committed"] and not players[s]["hand_count"]]
    maybe += [
        s
        for s in others
        if not players[s]["committed"] and _power(players[s]["personality"]) == "play_random"
    ]
    return set((sure + maybe)[: max(0, count)])


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    phase = view["phase"]
    players = view["players"]
    unseen_cards = {r.id for r in RECIPES}
    seen_personalities: set[str] = set()
    for w in players:
        for entry in w["tableau"]:
            unseen_cards.discard(entry["card"])
        if w["personality"] not in (None, HIDDEN):
            seen_personalities.add(w["personality"])
        if w["offer"] != HIDDEN:
            seen_personalities.update(w["offer"])
    mine = players[seat]
    unseen_cards.difference_update(mine["hand"])
    if mine["played"] not in (None, HIDDEN):
        unseen_cards.discard(mine["played"]["card"])
    cards = sorted(unseen_cards)
    cards.sort(key=lambda _: rng.random())  # a uniform shuffle, cheaper than Random.shuffle
    pool = sorted(set(ADVANCED_PERSONALITIES) - seen_personalities)
    pool.sort(key=lambda _: rng.random())

    def deal(n: int) -> list[str]:
        dealt = cards[:n]
        del cards[:n]
        return dealt

    face_down = _face_down(view, seat, len(cards))
    witches: list[dict[str, Any]] = []
    for s, w in enumerate(players):
        own = w["own_recipe"]
        personality = w["personality"]
        offer = w["offer"]
        if offer == HIDDEN:
            offer = sorted(pool[: w["offer_count"]])
            del pool[: w["offer_count"]]
        if personality == HIDDEN:
            personality = None if offer else (pool.pop() if pool else None)
        hand = w["hand"] if w["hand"] != HIDDEN else deal(w["hand_count"])
        played = w["played"]
        if played == HIDDEN:
            played = None
            if s in face_down:
                played = {
                    "card": deal(1)[0],
                    "rotated": False,
                    "random": not w["committed"],
                    "extra_arcana": None,
                }
        production = w["production"]
        witches.append(
            {
                "personality": personality,
                "offer": list(offer),
                "rotated_own": bool(own["rotated"]) if own else False,
                "hand": list(hand),
                "tableau": [[e["card"], e["rotated"]] for e in w["tableau"]],
                "workbench": _vec(w["workbench"]),
                "circle": _vec(w["circle"]),
                "arcana": [w["arcana"][name] for name in ARCANA],
                "gain_due": w["gain_due"],
                "committed": w["committed"],
                "played": [
                    played["card"],
                    played["rotated"],
                    played["random"],
                    played["extra_arcana"],
                ]
                if played
                else None,
                "brew": _production(production, w) if production not in (None, HIDDEN) else None,
            }
        )
    deck = deal(view["deck_count"])
    discard = deal(view["discard_count"])
    state = State.load(
        {
            "players": len(players),
            "options": dict(view["options"]),
            "phase": phase,
            "round": view["round"],
            "deck": deck,
            "discard": discard,
            "rng": f"{rng.getrandbits(64):016x}",
            "result": view["result"],
            "witches": witches,
        }
    )
    if phase == "brew":
        for s, w in enumerate(players):
            if w["production"] != HIDDEN or state.witches[s].brew is not None:
                continue
            witch = state.witches[s]
            witch.brew = Production(witch.workbench[:], [0] * 5, [0] * 5, [], [], [])
            witch.brew.triggers = _triggers_of(state, s)
            if w["done"]:
                _play_out_production(state, s)
    return state


def _production(p: dict[str, Any], w: dict[str, Any]) -> dict[str, Any]:
    return {
        "workbench": _vec(p["workbench"]),
        "outputs": _vec(p["outputs"]),
        "cauldron": _vec(p["cauldron"]),
        "used": list(p["used"]),
        "triggers": list(p["triggers"]),
        "books": [INGREDIENTS.index(name) for name in p["books"]],
        "scholar": bool(p["scholar_used"]),
        "done": bool(w["done"]),
        "claimed": _vec(p["claimed"]),
    }

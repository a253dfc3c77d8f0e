"""A full state consistent with what one seat sees, for search bots (``Game.determinize``).

What the seat cannot see is dealt at random from what it cannot rule out:

* another player's hand: ``hand_count`` roles among her 12, never a blocked one, never one she
  has played, never one led earlier this set (had she held it, she would have had to play it);
  a player still choosing her roles gets an empty hand (her count is hidden too). Among the roles
  left, a player is taken to have kept the ones worth most to her (``worth.role_worth`` on the
  table as it is now, plus noise of ``HAND_NOISE`` VP): players keep the brewer whose potion they
  can pay rather than a role that brings them nothing, and a search that deals hands uniformly
  expects far less competition for the good roles than there is;
* another player's vials (hidden): 0;
* the cards below each potion stack's top: what is left of that stack (its cards minus those in
  play areas), sorted by value, equal values in random order;
* the spell books below the top: those already seen lie at the bottom in the order they were on
  top, the unseen ones are shuffled above them;
* the variant's face-down roles, and the match's random generator.

``view(determinize(view(s, seat), seat, rng), seat) == view(s, seat)`` (tested).
"""

from __future__ import annotations

import random
from typing import Any

from engine.brew.cards import ROLE_IDS, SPELL_IDS, stack_of_card
from engine.brew.state import Round, State, Witch
from engine.brew.view import HIDDEN
from engine.brew.worth import role_worth

HAND_NOISE = 1.0  # VP: how far a dealt hand strays from the roles worth most to their player


def _stack(spec: dict[str, Any], owned: set[str], rng: random.Random) -> list[str]:
    top = spec["top"]
    if top is None:
        return []
    # (the cards of the top card's edition: the reconstruction's, or the printed ones)
    left = [c for c in stack_of_card(top["id"]).cards if c.id not in owned]
    rest = [c for c in left if c.id != top["id"]]
    rng.shuffle(rest)
    rest.sort(key=lambda c: c.vp)  # a stable sort keeps the shuffle within equal values
    return [top["id"]] + [c.id for c in rest]


def _spell_books(spell: dict[str, Any], rng: random.Random) -> list[str]:
    history = spell["history"]
    below = history[-min(len(history), len(SPELL_IDS) - 1):] if history else []
    unseen = [s for s in SPELL_IDS if s != spell["top"] and s not in below]
    rng.shuffle(unseen)
    return [spell["top"], *unseen, *below]


def _pending(view: dict[str, Any], players: int) -> list[int]:
    cur = view["current"]
    if view["phase"] != "respond" or cur is None:
        return []
    answered = {a["seat"] for a in cur["answers"]}
    leader = cur["leader"]
    return [s for s in ((leader + k) % players for k in range(1, players)) if s not in answered]


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    players = int(view["players_count"])
    cur = view["current"]
    pending = _pending(view, players)
    variant = view["variant"]
    blocked = list(variant["blocked"]) if variant else []
    led = list(view["roles_led"])
    witches = []
    to_deal: list[tuple[int, int]] = []
    for p in view["players"]:
        s = p["seat"]
        if s == seat:
            hand = list(p["hand"])
        elif p["hand_count"] == HIDDEN:
            hand = []
        else:
            ruled_out = set(blocked) | set(p["played"]) | set(led)
            if cur is not None and s in pending:
                ruled_out.discard(cur["role"])  # she has not answered it yet
            hand = [r for r in ROLE_IDS if r not in ruled_out]  # dealt below, with the table
            to_deal.append((s, int(p["hand_count"])))
        vials = 0 if p["vials"] == HIDDEN else int(p["vials"])
        witches.append(Witch(hand, list(p["played"]), bool(p["confirmed"]), dict(p["drops"]),
                             int(p["gold"]), vials, [c["id"] for c in p["potions"]]))
    owned = {c for w in witches for c in w.potions}
    stacks = {spec["id"]: _stack(spec, owned, rng) for spec in view["stacks"]}
    variant_deck: list[str] = []
    revealed: list[str] = []
    if variant:
        revealed = list(variant["revealed"])
        variant_deck = [r for r in ROLE_IDS if r not in revealed]
        rng.shuffle(variant_deck)
        variant_deck = variant_deck[: int(variant["deck_count"])]
    current = None
    if cur is not None:
        current = Round(cur["role"], int(cur["leader"]), int(cur["claimant"]),
                        [(a["seat"], a["answer"]) for a in cur["answers"]], pending,
                        list(cur["exempt"]), list(cur["givers"]))
    state = State(
        players, dict(view["options"]), view["phase"], int(view["set"]), int(view["round"]),
        int(view["turn"]), f"{rng.getrandbits(64):016x}", int(view["start_player"]),
        int(view["leader"]), stacks, _spell_books(view["spell"], rng),
        list(view["spell"]["history"]),
        variant_deck, revealed, blocked, led, current, witches, view["result"],
    )
    for s, count in to_deal:
        _deal_hand(state, state.witches[s], count, rng)
    return state


def _deal_hand(state: State, witch: Witch, count: int, rng: random.Random) -> None:
    """Her hand: ``count`` of the roles she may hold (``witch.hand`` on entry), the likeliest."""
    allowed = witch.hand
    noisy = {r: role_worth(state, witch, r) + rng.gauss(0.0, HAND_NOISE) for r in allowed}
    hand = sorted(allowed, key=noisy.__getitem__, reverse=True)[:count]
    hand.sort(key=ROLE_IDS.index)
    witch.hand = hand

"""What one seat may see (DESIGN.md: views are the security boundary; README "View").

Every view has the same shape; what a seat may not see is replaced in place by ``"hidden"``:
another player's hand and set-aside roles, her hand size while she is still choosing, her vials
(they may be kept under the potion cards [CONFIRMED: S3, S11]; our reading hides them until the
end). Never in any view: the order of the cards below a potion stack's top, the spell books below
the top that have not been seen yet, the variant's face-down roles, the RNG state.
"""

from __future__ import annotations

from typing import Any

from engine.brew import readings
from engine.brew.cards import CARD_BY_ID, RAVEN_THRESHOLD, ROLE_IDS, STACKS
from engine.brew.scoring import potion_vp, ravens_owned
from engine.brew.state import State, Witch

HIDDEN = "hidden"


def set_aside(witch: Witch) -> list[str]:
    return [r for r in ROLE_IDS if r not in witch.hand and r not in witch.played]


def _player(state: State, seat: int, witch: Witch, viewer: int | None) -> dict[str, Any]:
    mine = viewer == seat
    choosing = state.phase == "choose" and not witch.confirmed
    vials_open = mine or not readings.HIDE_VIALS or state.phase == "over"
    return {
        "seat": seat,
        "hand": witch.hand[:] if mine else HIDDEN,
        "hand_count": len(witch.hand) if mine or not choosing else HIDDEN,
        "set_aside": set_aside(witch) if mine else HIDDEN,
        "confirmed": witch.confirmed,
        "played": witch.played[:],
        "drops": dict(witch.drops),
        "gold": witch.gold,
        "vials": witch.vials if vials_open else HIDDEN,
        "potions": [CARD_BY_ID[c].as_dict() for c in witch.potions],
        "potion_vp": potion_vp(witch),
        "ravens": sum(CARD_BY_ID[c].raven for c in witch.potions),
    }


def _current(state: State) -> dict[str, Any] | None:
    cur = state.current
    if cur is None:
        return None
    return {
        "role": cur.role,
        "leader": cur.leader,
        "claimant": cur.claimant,
        "answers": [{"seat": s, "answer": a} for s, a in cur.answers],
        "responder": cur.pending[0] if state.phase == "respond" and cur.pending else None,
        "exempt": cur.exempt[:],
        "givers": cur.givers[:],
    }


def view(state: State, viewer: int | None) -> dict[str, Any]:
    variant = None
    if state.options.get("variant_blocked_roles"):
        variant = {"blocked": state.blocked[:], "revealed": state.variant_revealed[:],
                   "deck_count": len(state.variant_deck)}
    stacks = []
    for stack in STACKS:
        cards = state.stacks[stack.id]
        stacks.append({"id": stack.id, "kind": stack.kind, "count": len(cards),
                       "top": CARD_BY_ID[cards[0]].as_dict() if cards else None})
    return {
        "game": "witchs-brew",
        "players_count": state.players,
        "set": state.set,
        "round": state.round,
        "turn": state.turn,
        "phase": state.phase,
        "leader": state.leader,
        "start_player": state.start_player,
        "options": dict(state.options),
        "spell": {"top": state.spells[0], "count": len(state.spells),
                  "history": state.spell_history[:]},
        "stacks": stacks,
        "variant": variant,
        "ravens": ravens_owned(state),
        "raven_threshold": RAVEN_THRESHOLD,
        "roles_led": state.led[:],
        "current": _current(state),
        "players": [_player(state, s, w, viewer) for s, w in enumerate(state.witches)],
        "result": state.result,
    }

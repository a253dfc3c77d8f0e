"""What one seat may see (DESIGN.md: views are the security boundary).

Every view has the same shape. What a seat may not see is replaced in place by ``"hidden"``:
another seat's hand, libraries, draft offer and pending pick, and the ``secret`` of a question
put to another seat (cards it was shown). Counts stay public, but for a seat still building its
libraries: the others see ``library_counts`` as ``"hidden"`` and ``hand_count`` as all her
cards (hand and piles) until she confirms, so her building steps are private (issue 22). Never
in any view: the draw pile's order or contents, the discard pile's contents, the RNG state.
Shape: README.md, "View".
"""

from __future__ import annotations

from typing import Any

from engine.seasons import readings
from engine.seasons.cards import ENERGIES
from engine.seasons.dice import face_dict
from engine.seasons.scoring import score_parts
from engine.seasons.state import Player, State, energy_dict
from engine.seasons.table import amulet_pool, reserve_limit

HIDDEN = "hidden"


def face_view(season: str, die: int, side: int) -> dict[str, Any]:
    return face_dict(season, die, side)


def _seat(state: State, seat: int, player: Player, viewer: int | None) -> dict[str, Any]:
    mine = viewer == seat
    # While a seat builds its libraries (face down, in secret) the others see how many cards
    # she holds in all, never how she has split them so far: each step of hers changes nothing
    # they are sent (issue 22), until she confirms and the counts are the rules' (3 and 3).
    building = state.phase == "build" and not player.built and not mine
    return {
        "seat": seat,
        "crystals": player.crystals,
        "energy": energy_dict(player.energy),
        "reserve_limit": reserve_limit(state, seat),
        "amulet_energy": energy_dict(amulet_pool(player)),
        "gauge": player.gauge,
        "bonus_used": player.bonus_used,
        "bonus_penalty": readings.BONUS_PENALTY[player.bonus_used],
        "hand": player.hand[:] if mine else HIDDEN,
        "hand_count": len(player.hand)
        + (len(player.libraries[0]) + len(player.libraries[1]) if building else 0),
        "libraries": [lib[:] for lib in player.libraries] if mine else HIDDEN,
        "library_counts": HIDDEN if building else [len(lib) for lib in player.libraries],
        "in_play": [e.dump() for e in player.in_play],
        "draft": player.draft[:] if mine else HIDDEN,
        "draft_count": len(player.draft),
        "pick": player.pick if mine else HIDDEN,
        "picked": player.pick is not None,
        "built": player.built,
        "die": player.die,
        "score": score_parts(state, seat),
    }


def _task(t: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    out = {k: v for k, v in t.items() if k not in ("secret", "shown")}
    if "secret" in t:
        may = viewer is not None and (viewer == t["seat"] or viewer in t.get("shown", []))
        out["secret"] = t["secret"] if may else HIDDEN
        out["secret_count"] = len(t["secret"].get("cards", []))
    return out


def view(state: State, viewer: int | None) -> dict[str, Any]:
    turn = state.turn.dump() if state.turn else None
    return {
        "game": "seasons",
        "phase": state.phase,
        "level": state.options.get("level"),
        "players": state.players,
        "year": state.year,
        "month": state.month,
        "season": state.season,
        "round": state.round,
        "first_player": state.first_player,
        "transmute_values": energy_dict(readings.TRANSMUTE_VALUES[state.season]),
        "energies": list(ENERGIES),
        "dice_in_use": {k: v[:] for k, v in state.dice_in_use.items()},
        "round_season": state.round_season,
        "dice": [
            {**d, "face": face_view(state.round_season, d["die"], d["side"])} for d in state.dice
        ],
        "chooser": state.chooser,
        "turn": turn,
        "turns_taken": state.turns_taken,
        "tick": state.tick,
        "next_id": state.next_id,
        "draft_round": state.draft_round,
        "deck_count": len(state.deck),
        "discard_count": len(state.discard),
        "seats": [_seat(state, s, p, viewer) for s, p in enumerate(state.seats)],
        "pending": [_task(t, viewer) for t in state.stack],
        "options": dict(state.options),
        "result": state.result,
    }

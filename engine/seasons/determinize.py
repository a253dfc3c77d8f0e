"""A full state consistent with what one seat sees, for search bots (``engine/bots``).

``determinize(view, seat, rng)`` reads only ``view`` and deals every hidden card at random from
the cards that seat has not seen (the level's 2 copies of each card, minus its own hand,
libraries, draft offer and pick, every card in play and the cards of questions shown to it):
other seats' hands, libraries, draft offers (a seat that has picked gets one of its offer as
its pick), the cards of questions put to other seats, the draw pile and the discard pile, each
by its public count. The RNG is fresh. Every public field is copied, so
``view(determinize(v, s, r), s) == v`` (tested).
"""

from __future__ import annotations

import random
from typing import Any

from engine.rng import Rng
from engine.seasons.cards import APPRENTICE_CARDS, COPIES, MASTER_CARDS
from engine.seasons.state import State

HIDDEN = "hidden"


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    numbers = MASTER_CARDS if view["level"] == "master" else APPRENTICE_CARDS
    unseen = [n for n in numbers for _ in range(COPIES)]

    def seen(cards: list[int]) -> None:
        for c in cards:
            unseen.remove(c)

    for s in view["seats"]:
        seen([e["card"] for e in s["in_play"]])
    me = view["seats"][seat]
    seen(me["hand"])
    for lib in me["libraries"]:
        seen(lib)
    seen(me["draft"])
    for t in view["pending"]:
        if "secret" in t and t["secret"] != HIDDEN:
            seen(t["secret"].get("cards", []))
    rng.shuffle(unseen)

    def deal(n: int) -> list[int]:
        out = unseen[:n]
        del unseen[:n]
        return out

    seats = []
    for s in view["seats"]:
        mine = s["seat"] == seat
        hand = s["hand"] if mine else sorted(deal(s["hand_count"]))
        # a seat still building (library_counts hidden): all her cards dealt to her hand
        counts = [0, 0] if s["library_counts"] == HIDDEN else s["library_counts"]
        libraries = s["libraries"] if mine else [sorted(deal(n)) for n in counts]
        draft = s["draft"] if mine else sorted(deal(s["draft_count"]))
        pick = s["pick"] if mine else (rng.choice(draft) if s["picked"] else None)
        seats.append({
            "crystals": s["crystals"], "energy": s["energy"], "gauge": s["gauge"],
            "bonus_used": s["bonus_used"], "hand": hand, "libraries": libraries,
            "in_play": s["in_play"], "draft": draft, "pick": pick, "built": s["built"],
            "die": s["die"],
        })
    stack = []
    for t in view["pending"]:
        task = {k: v for k, v in t.items() if k not in ("secret", "secret_count")}
        if "secret" in t:
            task["secret"] = (t["secret"] if t["secret"] != HIDDEN
                              else {"cards": deal(t["secret_count"])})
        stack.append(task)
    deck = deal(view["deck_count"])
    discard = deal(view["discard_count"])
    assert not unseen, "the view's counts do not add up to the cards of this level"
    data = {
        "players": view["players"], "options": view["options"], "phase": view["phase"],
        "year": view["year"], "month": view["month"], "round": view["round"],
        "first_player": view["first_player"], "dice_in_use": view["dice_in_use"],
        "round_season": view["round_season"],
        "dice": [{k: d[k] for k in ("die", "side", "taken_by")} for d in view["dice"]],
        "chooser": view["chooser"], "turn": view["turn"], "turns_taken": view["turns_taken"],
        "deck": deck, "discard": discard, "rng": Rng(rng.getrandbits(64)).dump(),
        "next_id": view["next_id"], "stack": stack, "tick": view["tick"],
        "draft_round": view["draft_round"], "result": view["result"], "seats": seats,
    }
    return State.load(data)

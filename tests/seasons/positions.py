"""Positions built by hand for rule tests: a state dict in the documented JSON form, loaded
with ``Seasons().load`` (so every test also exercises the schema of ``state.py``)."""

from __future__ import annotations

from typing import Any

from engine.protocol import Action
from engine.registry import get
from engine.seasons.state import State

GAME = get("seasons")
ENERGY = ("air", "water", "fire", "earth")


def energy(**counts: int) -> dict[str, int]:
    return {e: counts.get(e, 0) for e in ENERGY}


def seat(
    crystals: int = 0,
    energy_: dict[str, int] | None = None,
    gauge: int = 0,
    hand: list[int] | None = None,
    in_play: list[int | dict[str, Any]] | None = None,
    bonus_used: int = 0,
    libraries: list[list[int]] | None = None,
) -> dict[str, Any]:
    return {
        "crystals": crystals,
        "energy": energy_ or energy(),
        "gauge": gauge,
        "bonus_used": bonus_used,
        "hand": hand or [],
        "libraries": libraries or [[], []],
        "in_play": in_play or [],
        "draft": [],
        "pick": None,
        "built": True,
    }


def position(
    players: int = 2,
    seats: list[dict[str, Any]] | None = None,
    *,
    turn: int | None = 0,
    step: str = "main",
    may_transmute: bool = False,
    transmute_bonus: int = 0,
    year: int = 1,
    month: int = 1,
    deck: list[int] | None = None,
    discard: list[int] | None = None,
    sides: list[int] | None = None,
    leftover_side: int = 0,
    first_player: int = 0,
    phase: str = "turn",
    stack: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    turns_taken: int | None = None,
) -> State:
    """A turn of ``turn`` (step ``step``) in the given season; every seat holds die k = seat k
    of the round's season (dice 0..players), the last die left over."""
    seats = [dict(s) for s in (seats or [seat() for _ in range(players)])]
    next_id = 1
    for s in seats:
        entries = []
        for e in s["in_play"]:
            entry = {"card": e} if isinstance(e, int) else dict(e)
            entry.setdefault("id", next_id)
            entry.setdefault("used", False)
            entry.setdefault("fresh", False)
            entry.setdefault("tokens", energy())
            next_id = max(next_id, entry["id"]) + 1
            entries.append(entry)
        s["in_play"] = entries
    season = ("winter", "spring", "summer", "autumn")[(month - 1) // 3]
    sides = sides or [0] * players
    dice = [{"die": k, "side": sides[k], "taken_by": k} for k in range(players)]
    dice.append({"die": players, "side": leftover_side, "taken_by": None})
    for k, s in enumerate(seats):
        s["die"] = k if phase == "turn" else None
    data = {
        "players": players,
        "options": options or {},
        "phase": phase,
        "year": year,
        "month": month,
        "round": 1,
        "first_player": first_player,
        "dice_in_use": {x: list(range(players + 1)) for x in
                        ("winter", "spring", "summer", "autumn")},
        "round_season": season,
        "dice": dice,
        "chooser": None,
        "turn": None if turn is None else {
            "seat": turn, "step": step, "may_transmute": may_transmute,
            "transmute_bonus": transmute_bonus, "card_choice": False,
        },
        "turns_taken": (turn - first_player) % players if turns_taken is None and turn is not None
        else (turns_taken or 0),
        "deck": deck if deck is not None else [22] * 10,
        "discard": discard or [],
        "rng": "0123456789abcdef",
        "next_id": next_id,
        "stack": stack or [],
        "tick": 0,
        "draft_round": 0,
        "result": None,
        "seats": seats,
    }
    return GAME.load(data)


def play(state: State, seat_: int, action: Action) -> tuple[State, list[dict[str, Any]]]:
    step = GAME.apply(state, seat_, action)
    return step.state, step.events


def play_all(state: State, moves: list[tuple[int, Action]]) -> State:
    for s, a in moves:
        state = GAME.apply(state, s, a).state
    return state


def legal(state: State, seat_: int) -> list[Action]:
    return GAME.legal_actions(state, seat_)


def of_type(state: State, seat_: int, kind: str) -> list[Action]:
    return [a for a in GAME.legal_actions(state, seat_) if a["type"] == kind]


def owes(state: State) -> int:
    (s,) = GAME.to_move(state)
    return s


def pending_kind(state: State) -> str | None:
    return state.stack[-1]["kind"] if state.stack else None


def energy_of(state: State, seat_: int) -> dict[str, int]:
    return dict(zip(ENERGY, state.seats[seat_].energy, strict=True))

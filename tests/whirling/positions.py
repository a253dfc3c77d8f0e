"""Named positions written by hand, loaded through the public protocol.

A test builds a position the way a rules expert would lay it out at the table::

    kiki = witch(personality="P01", hand=["R01", "R02"], workbench="M1 R4 S4 T4",
                 arcana=(1, 1, 0))
    state = position(players=2, witches=[kiki, witch(hand=["R60", "R03"])])

and then drives it with ``act`` / ``play_all`` / ``finish_brew`` — nothing but ``game.apply``.
Cube strings list ingredient codes with counts: ``"H1 M2 S4"`` is 1 heart, 2 mandrakes,
4 spiders (H heart, M mandrake, R mushroom, S spider, T toad; sheet section 2.1).
The JSON layout is the one documented in ``engine/whirling/state.py``.
"""

from __future__ import annotations

import copy
from typing import Any

from engine import registry
from engine.protocol import Step

GAME = registry.get("whirling-witchcraft")

CODES = "HMRST"
TYPES = ("heart", "mandrake", "mushroom", "spider", "toad")
ARCANA = ("potion", "raven", "book")
# A valid RNG state string (engine.rng keeps its whole state in 16 hex digits).
RNG = "9e3779b97f4a7c15"

Cubes = str | list[int] | tuple[int, ...] | dict[str, int] | None


def cubes(spec: Cubes) -> list[int]:
    """``"H1 M2 S4"`` → ``[1, 2, 0, 4, 0]``; also accepts a 5-list or ``{"spider": 4}``."""
    if spec is None:
        return [0, 0, 0, 0, 0]
    if isinstance(spec, dict):
        return [int(spec.get(name, 0)) for name in TYPES]
    if isinstance(spec, list | tuple):
        assert len(spec) == 5, spec
        return [int(n) for n in spec]
    vec = [0, 0, 0, 0, 0]
    for token in spec.split():
        code, count = token[0].upper(), token[1:] or "1"
        vec[CODES.index(code)] += int(count)
    return vec


def named(spec: Cubes) -> dict[str, int]:
    """The same cubes as a full ``{"heart": 0, "mandrake": 2, ...}`` dict (the views' shape)."""
    return dict(zip(TYPES, cubes(spec), strict=True))


def sparse(spec: Cubes) -> dict[str, int]:
    """The same cubes without zero entries (the shape actions and events use)."""
    return {name: n for name, n in named(spec).items() if n}


def witch(
    personality: str | None = "P01",
    hand: list[str] | None = None,
    tableau: list[tuple[str, bool]] | None = None,
    workbench: Cubes = "M1 R4 S4 T4",
    circle: Cubes = None,
    arcana: tuple[int, int, int] = (0, 0, 0),
    production: dict[str, Any] | None = None,
    *,
    triggers: list[str] | None = None,
    rotated_own: bool = False,
    offer: list[str] | None = None,
    gain_due: bool = False,
    committed: bool = False,
    played: list[Any] | None = None,
) -> dict[str, Any]:
    """One witch's JSON. ``production`` (brew phase only) overrides parts of her production
    sheet, which otherwise starts fresh: her workbench, nothing on the outputs or in the cauldron,
    and ``triggers`` still to resolve. Cube-valued fields may be given as cube strings."""
    sheet = None
    if production is not None or triggers is not None:
        sheet = {
            "workbench": cubes(workbench),
            "outputs": [0] * 5,
            "cauldron": [0] * 5,
            "used": [],
            "triggers": list(triggers or []),
            "books": [],
            "scholar": False,
            "done": False,
        }
        for key, value in (production or {}).items():
            if key in ("workbench", "outputs", "cauldron"):
                value = cubes(value)
            elif key == "books":
                value = [TYPES.index(v) if isinstance(v, str) else v for v in value]
            sheet[key] = value
    return {
        "personality": personality,
        "offer": list(offer or []),
        "rotated_own": rotated_own,
        "hand": list(hand or []),
        "tableau": [[card, rotated] for card, rotated in (tableau or [])],
        "workbench": cubes(workbench),
        "circle": cubes(circle),
        "arcana": list(arcana),
        "gain_due": gain_due,
        "committed": committed,
        "played": played,
        "brew": sheet,
    }


def position(
    players: int | None = None,
    phase: str = "study",
    witches: list[dict[str, Any]] | None = None,
    deck: list[str] | None = None,
    discard: list[str] | None = None,
    round: int = 1,
    options: dict[str, Any] | None = None,
) -> Any:
    """A whole table, loaded with ``game.load``. Missing witches are plain Initiates.

    In the brew phase every witch gets a fresh production sheet unless one was given.
    """
    witches = [copy.deepcopy(w) for w in witches or []]
    players = players or len(witches)
    while len(witches) < players:
        witches.append(witch())
    if phase == "brew":
        for w in witches:
            if w["brew"] is None:
                w["brew"] = witch(workbench=w["workbench"], triggers=[])["brew"]
    data = {
        "players": players,
        "options": {
            "personalities": "initiates",
            "production": "simultaneous",
            "flasks_as_converted": False,
            "spider_summoning_one_way": False,
            **(options or {}),
        },
        "phase": phase,
        "round": round,
        "deck": list(deck if deck is not None else []),
        "discard": list(discard or []),
        "rng": RNG,
        "result": None,
        "witches": witches,
    }
    return GAME.load(data)


# --- driving a position through game.apply only -----------------------------------------------


def step(state: Any, seat: int, action: dict[str, Any]) -> Step:
    """``game.apply``, checking that the state it was given is left untouched."""
    before = GAME.dump(state)
    result = GAME.apply(state, seat, action)
    assert GAME.dump(state) == before, "apply changed the state it was given"
    return result


def act(state: Any, seat: int, action: dict[str, Any]) -> Any:
    """Apply one action; return the new state."""
    return step(state, seat, action).state


def play_all(
    state: Any, plays: dict[int, tuple[str, bool] | str], events: list[Any] | None = None
) -> Any:
    """The study phase for everyone: seat → (card, rotated) or just a card id, in seat order.

    ``events`` (if given) collects every event produced."""
    for seat, play in sorted(plays.items()):
        card, rotated = (play, False) if isinstance(play, str) else play
        s = step(state, seat, {"type": "play", "card": card, "rotated": rotated})
        state = s.state
        if events is not None:
            events.extend(s.events)
    return state


def me(state: Any, seat: int) -> dict[str, Any]:
    """What seat ``seat`` sees of herself."""
    return GAME.view(state, seat)["players"][seat]


def production(state: Any, seat: int) -> dict[str, Any]:
    """Her own production sheet, as her own view shows it."""
    return me(state, seat)["production"]


def decline_all(state: Any, seat: int) -> Any:
    """Decline every arcana effect she still has to resolve this round."""
    for trigger in production(state, seat)["triggers"]:
        state = act(state, seat, {"type": "decline", "arcana": trigger})
    return state


def finish_brew(state: Any, seats: list[int] | None = None, events: list[Any] | None = None) -> Any:
    """Every witch still brewing (or just ``seats``) declines her arcana and says ``done``, in
    seat order — or, in open production, in turn order (one witch owes a move at a time)."""
    pending = sorted(seats) if seats is not None else None
    def now(state: Any) -> tuple[int, str]:
        view = GAME.view(state, None)
        return view["round"], view["phase"]

    start = now(state)
    while start[1] == "brew" and now(state) == start:
        owing = sorted(GAME.to_move(state))
        if pending is not None:
            owing = [seat for seat in owing if seat in pending]
        if not owing:
            break
        seat = owing[0]
        if pending is not None:
            pending.remove(seat)
        state = decline_all(state, seat)
        s = step(state, seat, {"type": "done"})
        state = s.state
        if events is not None:
            events.extend(s.events)
    return state


def brew(
    recipe: str,
    make: Cubes,
    workbench: Cubes = None,
    outputs: Cubes = None,
    supply: Cubes = None,
) -> dict[str, Any]:
    """A ``brew`` action: where every input cube comes from, and what it makes."""
    take = {
        source: sparse(spec)
        for source, spec in (("workbench", workbench), ("outputs", outputs), ("supply", supply))
        if spec and any(cubes(spec))
    }
    return {"type": "brew", "recipe": recipe, "take": take, "make": sparse(make)}


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get("type") == kind]

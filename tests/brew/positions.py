"""Positions built by hand for scenario tests: a dump edited, then ``load``ed (README: schema)."""

from __future__ import annotations

from typing import Any

from engine.brew.cards import SPELL_IDS, STACKS
from engine.brew.state import State
from engine.protocol import Action, Event
from engine.registry import get

GAME = get("witchs-brew")


def position(
    hands: list[list[str]],
    *,
    leader: int = 0,
    spell: str = "copia",
    options: dict[str, Any] | None = None,
    witches: dict[int, dict[str, Any]] | None = None,
    stacks: dict[str, list[str]] | None = None,
) -> State:
    """The lead phase of a set in which every player has chosen; stacks in data order."""
    players = len(hands)
    d = GAME.dump(GAME.setup(players, 7, options))
    d["phase"] = "lead"
    d["leader"] = d["start_player"] = leader
    d["stacks"] = {s.id: [c.id for c in s.cards] for s in STACKS} | (stacks or {})
    d["spells"] = [spell] + [s for s in SPELL_IDS if s != spell]
    for seat, (w, hand) in enumerate(zip(d["witches"], hands, strict=True)):
        w["hand"] = list(hand)
        w["confirmed"] = True
        w.update((witches or {}).get(seat, {}))
    return GAME.load(d)


class Table:
    """A position being played step by step, keeping every event."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []

    def do(self, seat: int, action: Action) -> list[Event]:
        step = GAME.apply(self.state, seat, action)
        self.state = step.state
        self.events += step.events
        return step.events

    @property
    def to_move(self) -> frozenset[int]:
        return GAME.to_move(self.state)

    def legal(self, seat: int) -> list[Action]:
        return GAME.legal_actions(self.state, seat)

    def witch(self, seat: int) -> Any:
        return self.state.witches[seat]


def alone(role: str, *, spell: str = "copia", options: dict[str, Any] | None = None,
          witches: dict[int, dict[str, Any]] | None = None,
          stacks: dict[str, list[str]] | None = None, holders: tuple[int, ...] = ()) -> Table:
    """Seat 0 leads ``role`` with another card left; seats in ``holders`` hold it too, the rest of
    the 3 seats have empty hands (so they pass by themselves)."""
    hands = [[role, "wolf_keeper" if role != "wolf_keeper" else "herb_collector"], [], []]
    for h in holders:
        hands[h] = [role]
    table = Table(position(hands, spell=spell, options=options, witches=witches, stacks=stacks))
    table.do(0, {"type": "lead", "role": role})
    return table

"""The four bonus actions of the player board [RULEBOOK], at most 3 uses per game, each use
costing points at the end (−5 / −12 / −20).

1. ``exchange``: return 1 or 2 tokens of the reserve, take as many of your choice (question).
2. ``transmute``: may transmute this turn, +1 crystal per token transmuted (uses stack).
3. ``gauge``: +1 summoning gauge (never above 15).
4. ``card_choice``: declared before the die is resolved, when it shows a card symbol: draw 2,
   keep 1, discard the other.
"""

from __future__ import annotations

from engine.protocol import Action, Event, IllegalAction
from engine.seasons import readings
from engine.seasons.cards import ENERGIES, ENERGY_INDEX
from engine.seasons.dice import face as die_face
from engine.seasons.state import State
from engine.seasons.table import add_gauge, reserve_size
from engine.seasons.tasks import Question, Task, ask, push, task

BONUSES = ("exchange", "transmute", "gauge", "card_choice")


def exchange_min(state: State) -> int:
    if state.options.get("exchange_exactly_two"):
        return readings.EXCHANGE_MAX
    return readings.EXCHANGE_MIN_DEFAULT


def current_face(state: State, seat: int) -> object:
    index = state.seats[seat].die
    assert index is not None
    d = state.dice[index]
    return die_face(state.round_season, d["die"], d["side"])


def bonus_options(state: State, seat: int) -> list[Action]:
    player = state.seats_to_read()[seat]  # read only (start_turn asks it during apply)
    turn = state.turn
    if turn is None or player.bonus_used >= readings.BONUS_MAX_USES:
        return []
    if turn.step == "die":
        face = current_face(state, seat)
        if getattr(face, "card", False) and not turn.card_choice:
            return [{"type": "bonus", "bonus": "card_choice"}]
        return []
    out: list[Action] = []
    if reserve_size(player) >= exchange_min(state):
        out.append({"type": "bonus", "bonus": "exchange"})
    out.append({"type": "bonus", "bonus": "transmute"})
    if player.gauge < readings.GAUGE_MAX:
        out.append({"type": "bonus", "bonus": "gauge"})
    return out


def check_bonus(state: State, seat: int, action: Action) -> None:
    """The specific reason a bonus action is refused (bonus_options decides the rest)."""
    name = action.get("bonus")
    if name not in BONUSES:
        raise IllegalAction("bad_action", f"no bonus called {name!r}; known: {BONUSES}")
    player = state.seats[seat]
    if player.bonus_used >= readings.BONUS_MAX_USES:
        raise IllegalAction("bonus_exhausted", "the bonus track is full: 3 uses per game")
    assert state.turn is not None
    if name == "card_choice" and state.turn.step != "die":
        raise IllegalAction("die_resolved", "Bonus 4 is declared before the die is resolved")
    if name != "card_choice" and state.turn.step == "die":
        raise IllegalAction("die_first", "resolve your season die first")
    if name == "card_choice" and not getattr(current_face(state, seat), "card", False):
        raise IllegalAction("no_card_symbol", "your die shows no card symbol")
    if name == "gauge" and player.gauge >= readings.GAUGE_MAX:
        raise IllegalAction("gauge_max", "the summoning gauge is at 15")
    if name == "exchange" and reserve_size(player) < exchange_min(state):
        raise IllegalAction("cannot_afford", "not enough tokens in the reserve to exchange")


def use_bonus(state: State, seat: int, action: Action, events: list[Event]) -> None:
    name = action["bonus"]
    player = state.seats[seat]
    turn = state.own_turn()  # changed below (the previous state's until now)
    player.bonus_used += 1
    events.append({"type": "bonus_used", "seat": seat, "bonus": name, "uses": player.bonus_used})
    if name == "exchange":
        ask(state, "exchange", seat, returned=[], taken=0)
    elif name == "transmute":
        turn.transmute_bonus += 1
        turn.may_transmute = True
    elif name == "gauge":
        add_gauge(state, seat, 1, events, "bonus")
    else:
        turn.card_choice = True


@task
class Exchange(Question):
    """Bonus 1, step by step: return tokens (1 or 2), then take as many of your choice."""

    kind = "exchange"

    def options(self, state: State, t: Task) -> list[Action]:
        player = state.seats[t["seat"]]
        returned = len(t["returned"])
        out: list[Action] = []
        if t["taken"] == 0 and returned < readings.EXCHANGE_MAX:
            out += [{"type": "return_energy", "energy": e}
                    for k, e in enumerate(ENERGIES) if player.energy[k]]
        if returned >= exchange_min(state) and t["taken"] < returned:
            out += [{"type": "take_energy", "energy": e} for e in ENERGIES]
        return out

    def answer(self, state: State, t: Task, action: Action, events: list[Event]) -> None:
        seat = t["seat"]
        k = ENERGY_INDEX[action["energy"]]
        player = state.seats[seat]
        if action["type"] == "return_energy":
            player.energy[k] -= 1
            t = {**t, "returned": [*t["returned"], action["energy"]]}
        else:
            player.energy[k] += 1
            t = {**t, "taken": t["taken"] + 1}
        events.append({"type": "energy_exchanged", "seat": seat, "action": action["type"],
                       "energy": action["energy"]})
        if t["taken"] < len(t["returned"]) or t["taken"] == 0:
            push(state, t)

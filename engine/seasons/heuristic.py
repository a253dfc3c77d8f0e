"""A score of a position for one seat (``greedy`` one ply ahead, ``strong`` at its leaves): the
seat's projected final score against the best opponent's. ``strong``'s search hints
(``search_actions``, ``playout_action``, ``playout_over``) are ``playout.py``'s, read from here
(``engine/bots/searching.py``).

The projection is the final formula applied now (crystals + prestige in play − 5 per card in
hand − bonus penalty), plus what the seat still holds that may turn into points, each worth
less as the match runs out (``worth.late``: 1 until the last ``ENDGAME`` months, then down to
0 at the end of year III, where energy is worth nothing and a card in hand only its −5):

* energy at the current season's transmutation rate, in full while the seat may transmute in
  this turn (it can cash it now), so that a sorcerer transmutes before the end rather than
  holding energy that will score nothing;
* a card in hand or in a library (they join the hand later, so building libraries is neutral):
  ``CARD_IN_HAND`` + 0.3 × its prestige (a card not yet summoned costs 5 at the end but is worth
  its prestige once in play), and a little for a free gauge slot to summon it into;
* a season die taken but not resolved yet (``worth.die_value``): its crystals, energy, stars,
  card and permission to transmute, so that the die a seat takes is weighed by what it gives
  (one ply after ``take_die`` nothing else has changed yet).
"""

from __future__ import annotations

from engine.seasons import readings
from engine.seasons.cards import CARD
from engine.seasons.playout import playout_action, playout_over, search_actions
from engine.seasons.scoring import score_parts
from engine.seasons.state import State
from engine.seasons.worth import die_value, late

GAUGE_SLOT = 1.5
CARD_IN_HAND = 4.0  # offsets most of the −5: a card in hand is a future summon
def _die_pending(state: State, seat: int) -> bool:
    """Whether ``seat`` holds this round's die and has not resolved it yet."""
    if state.phase == "dice":  # (between rounds the chooser is None and the dice are old)
        return state.chooser is not None and state.seats_to_read()[seat].die is not None
    if state.phase != "turn" or state.turn is None:
        return False
    order = (seat - state.first_player) % state.players
    if order > state.turns_taken:
        return True
    return order == state.turns_taken and state.turn.seat == seat and state.turn.step == "die"


def _projected(state: State, seat: int, keep: float) -> float:
    if state.result is not None:
        return float(state.result["scores"][seat])
    player = state.seats_to_read()[seat]
    parts = score_parts(state, seat)
    values = readings.TRANSMUTE_VALUES[state.season]
    turn = state.turn
    cash = 1.0 if turn is not None and turn.seat == seat and turn.may_transmute else keep
    energy = cash * sum(n * values[k] for k, n in enumerate(player.energy))
    free_slots = max(0, player.gauge - len(player.in_play))
    waiting = player.hand + player.libraries[0] + player.libraries[1]
    hand_value = keep * (
        sum(CARD_IN_HAND + 0.3 * max(0, CARD[c].pp) for c in waiting)
        + GAUGE_SLOT * min(free_slots, len(player.hand))
    )
    total = parts["total"] + energy + hand_value
    if player.die is not None and _die_pending(state, seat):
        total += die_value(state, player.die, keep)
    return total


def evaluate(state: State, seat: int) -> float:
    keep = late(state)
    mine = _projected(state, seat, keep)
    best_other = max(_projected(state, s, keep) for s in range(state.players) if s != seat)
    return mine - best_other



__all__ = ["evaluate", "playout_action", "playout_over", "search_actions"]  # strong's hints

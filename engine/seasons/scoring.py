"""Final scoring [RULEBOOK]: crystals (after end-of-game cards, #19 #45 #46 [SOURCE: BGA]) +
prestige of the cards in play − 5 per card in hand − the bonus penalty (0/5/12/20). Highest wins;
tie-break (our reading, as BGA): most cards in play, then a shared win."""

from __future__ import annotations

from typing import Any

from engine.protocol import Event
from engine.seasons import readings
from engine.seasons.cards import CARD
from engine.seasons.effects import effect_of
from engine.seasons.state import State


def score_parts(state: State, seat: int) -> dict[str, int]:
    player = state.seats[seat]
    prestige = sum(CARD[e.card].pp for e in player.in_play)
    hand = len(player.hand) + len(player.libraries[0]) + len(player.libraries[1])
    parts = {
        "crystals": player.crystals,
        "prestige": prestige,
        "hand": -readings.HAND_PENALTY * hand,
        "bonus": -readings.BONUS_PENALTY[player.bonus_used],
    }
    parts["total"] = sum(parts.values())
    if state.options.get("score_floor"):
        parts["total"] = max(0, parts["total"])
    return parts


def place(totals: list[int], cards_in_play: list[int]) -> list[int]:
    """Placings by the score, then each tie-break of ``readings.TIE_BREAK`` (sheet question 1);
    equal on all of them share a place."""
    breaks = {"most_cards_in_play": cards_in_play}
    keys = [(totals[s], *(breaks[rule][s] for rule in readings.TIE_BREAK))
            for s in range(len(totals))]
    return [1 + sum(1 for other in keys if other > keys[s]) for s in range(len(keys))]


def final_result(state: State, events: list[Event]) -> dict[str, Any]:
    for seat, player in enumerate(state.seats):
        for entry in list(player.in_play):
            bonus = effect_of(entry.card).end_of_game_crystals(state, seat, entry)
            if bonus:
                player.crystals += bonus
                events.append({"type": "crystals_gained", "seat": seat, "crystals": bonus,
                               "why": f"end_of_game:{entry.card}"})
    parts = [score_parts(state, s) for s in range(state.players)]
    totals = [p["total"] for p in parts]
    in_play = [len(p.in_play) for p in state.seats]
    placings = place(totals, in_play)
    winners = [s for s in range(state.players) if placings[s] == 1]
    return {
        "winners": winners,
        "scores": totals,
        "placings": placings,
        "reason": "year_III_over",
        "details": {"parts": parts, "cards_in_play": in_play},
    }

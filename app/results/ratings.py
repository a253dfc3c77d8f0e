"""Ratings: OpenSkill's Plackett–Luce model with its defaults, one rating per profile and game.

Which matches move ratings (the README's "History and ratings" says the same to players):

- only profiles are rated: a guest's or a bot's seat moves nobody, and is moved by nobody;
  their places still order the profiles (a profile behind a bot is behind, not level);
- a match is rated when at least two distinct profiles sat in it, each in one seat only (one
  profile in two seats would rate itself against itself: then the match is not rated at all);
- the rated profiles are ranked by their places among themselves, tied places sharing a rank
  (the model reads only the order of the ranks, so places 1 and 3 rank like 1 and 2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from app.results.records import SeatOutcome, SkillRating

MODEL = PlackettLuce()


def first_rating() -> SkillRating:
    """A profile's rating before its first rated match in a game (the model's prior)."""
    return SkillRating(MODEL.mu, MODEL.sigma, 0)


def rated_places(seats: Sequence[SeatOutcome]) -> dict[int, int] | None:
    """Each rated profile's place, or ``None`` when the match moves no rating."""
    profiles = [s.profile_id for s in seats if s.profile_id is not None]
    if len(profiles) < 2 or len(set(profiles)) != len(profiles):
        return None
    return {s.profile_id: s.place for s in seats if s.profile_id is not None}


def rate(before: Mapping[int, SkillRating], places: Mapping[int, int]) -> dict[int, SkillRating]:
    """Every rated profile's rating after one match; ``before`` holds each one's current
    rating (``first_rating()`` for a first match in this game)."""
    order = sorted(places)
    teams = [[MODEL.rating(mu=before[p].mu, sigma=before[p].sigma)] for p in order]
    after = MODEL.rate(teams, ranks=[float(places[p]) for p in order])
    return {
        profile: SkillRating(team[0].mu, team[0].sigma, before[profile].matches + 1)
        for profile, team in zip(order, after, strict=True)
    }

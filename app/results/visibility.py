"""Who may see which profile.

A private profile (``listed`` false) is shown to its owner only: its page answers nobody else
(the same 404 as an unknown id), it is on no leaderboard, and in other people's match lists it
is a name without a link. ``COVEN_PUBLIC_PROFILES=0`` makes every profile private in this
sense: each player still sees her own page and history.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who asks: the profile this browser holds (``None``: a guest), and the operator's switch."""

    profile_id: int | None
    public_profiles: bool

    def may_see(self, profile_id: int | None, listed: bool) -> bool:
        if profile_id is None:
            return False
        return profile_id == self.profile_id or (self.public_profiles and listed)

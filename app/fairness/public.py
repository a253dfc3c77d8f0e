"""The ``fairness`` object the server shows (room info, presence, state, log, export): the
commitment and every seat's contribution from the room's creation on, the revealed seed and
salt only once its match is over (docs/FAIRNESS.md)."""

from __future__ import annotations

from typing import Any

from app.fairness import seeds
from app.store.repository import MatchRecord, RoomRecord


def contributions(room: RoomRecord) -> list[seeds.Contribution]:
    return [
        seeds.Contribution(s.seat, s.contribution, s.contribution_by or "server")
        for s in room.seats
        if s.contribution is not None
    ]


def fairness(room: RoomRecord, match: MatchRecord | None = None) -> dict[str, Any] | None:
    """The room's proof as anyone may see it now; ``match`` reveals the secret only when it
    is finished. ``None`` for a room made before the seed proof."""
    if room.commitment is None:
        return None
    revealed = None
    if match is not None and match.finished and match.secret is not None:
        revealed = seeds.revealed(match.secret, match.seed)
    return seeds.public(room.commitment, contributions(room), revealed)

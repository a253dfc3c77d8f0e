"""A match's log (``GET /api/rooms/{code}/log``): its public events by version and, once it
is over, the record a replay is rebuilt from (seed, options, seats, every action).

``since``: only what came after that version (a client that missed a few versions reads those
actions, not the whole match), and no replay record."""

from __future__ import annotations

from typing import Any

from app.fairness.public import fairness
from app.store.repository import Repository, RoomRecord
from engine.protocol import public_events


async def match_log(
    repo: Repository, room: RoomRecord, since: int | None = None
) -> dict[str, Any]:
    match = await repo.match(room.id)
    if match is None:
        return {
            "version": 0,
            "finished": False,
            "events": [],
            "replay": None,
            "fairness": fairness(room),
        }
    # One snapshot: the match row was read first, so only actions up to its version
    # belong to it (moves committed since are the next log's).
    if since is None:
        actions = [a for a in await repo.actions(match.id) if a.version <= match.version]
    else:
        actions = await repo.actions_between(match.id, since, match.version)
    events = [{"version": a.version, **event} for a in actions for event in public_events(a.events)]
    replay = None
    if match.finished and since is None:
        replay = {
            "game": match.game_id,
            "rules_version": match.rules_version or "1",
            "seed": match.seed,
            "players": match.players,
            "options": match.options,
            "seats": [
                {"seat": s.seat, "name": s.name, "bot": s.bot_level, "former": s.former}
                for s in room.seats
            ],
            "actions": [
                {"version": a.version, "seat": a.seat, "action": a.action, "bot": a.by_bot}
                for a in actions
            ],
        }
    return {
        "version": match.version,
        "finished": match.finished,
        "events": events,
        "replay": replay,
        "fairness": fairness(room, match),
    }

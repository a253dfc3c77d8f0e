"""A match's log (``GET /api/rooms/{code}/log``): its public events by version and, once it
is over, the record a replay is rebuilt from (seed, options, seats, every action).

A ``LogPage`` reads part of it, with no replay record: ``since`` (a client that missed a few
versions reads those actions, not the whole match), ``before`` and ``limit`` (the log panel
reads the page just before what it shows, when the person asks for earlier moves).

Versions are the reader's own (app/rooms/private_steps.py): a seat's token reads the public
actions and her own private steps, numbered as her sockets number them, with the events she may
see; without one, the public actions only. Another seat's private steps leave no gap and no
trace in it while the match runs (the replay record, once it is over, holds every action)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.fairness.public import fairness
from app.rooms.private_steps import viewer_version
from app.store.repository import Repository, RoomRecord
from engine.protocol import events_for


@dataclass(frozen=True, slots=True)
class LogPage:
    """The versions to read: after ``since``, before ``before``, and of those at most the
    ``limit`` latest. Each action makes one version, so a page is one range read."""

    since: int | None = None
    before: int | None = None
    limit: int | None = None

    def bounds(self, version: int) -> tuple[int, int]:
        """``(after, upto)``: the page holds versions ``after + 1`` … ``upto`` of a match at
        ``version`` (empty when ``upto <= after``)."""
        upto = version if self.before is None else min(version, self.before - 1)
        after = self.since or 0
        if self.limit is not None:
            after = max(after, upto - self.limit)
        return after, upto


async def match_log(
    repo: Repository, room: RoomRecord, page: LogPage | None = None, viewer: int | None = None
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
    # One snapshot: the match row was read first, so only the actions up to its version belong
    # to it (moves committed since are the next log's): the first ``latest`` visible ones.
    hidden = await repo.hidden_steps(match.id, match.version)
    counts = tuple(hidden.get(seat, 0) for seat in range(match.players))
    latest = viewer_version(match.version, counts, viewer)
    after, upto = (0, latest) if page is None else page.bounds(latest)
    actions = await repo.visible_actions(match.id, viewer, after, upto)
    events = [
        {"version": after + number, **event}
        for number, action in enumerate(actions, start=1)
        for event in events_for(action.events, viewer)
    ]
    replay = None
    if match.finished and page is None:
        everything = [a for a in await repo.actions(match.id) if a.version <= match.version]
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
                for a in everything
            ],
        }
    return {
        "version": latest,
        "finished": match.finished,
        "events": events,
        "replay": replay,
        "fairness": fairness(room, match),
    }

"""Replays: a finished match stepped through again, from its log, with every hand revealed.

``GET /api/rooms/{code}/replay`` is the timeline (who acted, what, every event, public and
private, and who owed a decision after each step); ``GET /api/rooms/{code}/replay/steps``
gives, for a few steps at a time, the view of every seat and the spectator's, so the browser
draws any step with the game's own renderer and needs no engine. Before the match is over
there is no replay (``not_finished``, 409): nothing hidden leaks while people play.

The match is replayed through the engine (``setup`` + ``apply``) from the seed, the options and
the logged actions, once per room, in a thread; a finished match never changes, so each
service keeps the replays it built lately (a few, least recently used first out), holding a
state every ``CHECKPOINT`` steps and replaying at most that many actions to reach any step.
"""

from __future__ import annotations

import asyncio
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from app.errors import CovenError
from app.rooms.service import RoomService
from engine import registry
from engine.protocol import Action, Event, Game, IllegalAction

MAX_STEPS = 20_000
"""A longer log is refused (``replay_too_long``): real matches take a few thousand actions."""

MAX_COUNT = 20
"""Steps per ``/replay/steps`` request (each holds a view per seat)."""

CHECKPOINT = 32
KEPT = 8
"""Replays each service keeps in memory."""


def not_finished() -> CovenError:
    return CovenError("not_finished", "the replay opens once the match is over", status=409)


@dataclass(frozen=True, slots=True)
class Replayed:
    """One finished match, replayed: its timeline, and states to rebuild any step from."""

    game: Game
    players: int
    actions: list[tuple[int, Action]]
    checkpoints: list[Any]  # the state at steps 0, CHECKPOINT, 2 * CHECKPOINT, …
    timeline: dict[str, Any]

    @property
    def last(self) -> int:
        return len(self.actions)

    def state_at(self, step: int) -> Any:
        state = self.checkpoints[step // CHECKPOINT]
        for seat, action in self.actions[step - step % CHECKPOINT : step]:
            state = self.game.apply(state, seat, action).state
        return state

    def steps(self, start: int, count: int) -> list[dict[str, Any]]:
        """Every seat's view (and the spectator's) at steps ``start`` … ``start + count - 1``."""
        if not 0 <= start <= self.last:
            raise CovenError("no_such_step", f"the replay has steps 0 to {self.last}", status=404)
        if not 1 <= count <= MAX_COUNT:
            raise CovenError("bad_count", f"ask for 1 to {MAX_COUNT} steps at a time", status=422)
        game = self.game
        state = self.state_at(start)
        out = []
        for step in range(start, min(start + count, self.last + 1)):
            if step > start:
                seat, action = self.actions[step - 1]
                state = game.apply(state, seat, action).state
            result = game.result(state)
            out.append(
                {
                    "step": step,
                    "views": [game.view(state, seat) for seat in range(self.players)],
                    "spectator": game.view(state, None),
                    "to_move": sorted(game.to_move(state)),
                    "result": result.as_dict() if result is not None else None,
                }
            )
        return out


def replay(log: dict[str, Any]) -> Replayed:
    """Replay the ``replay`` part of a finished match's log (``RoomService.log``) through the
    engine. CPU-bound and pure: run it in a thread."""
    record = log["replay"]
    game = registry.get(record["game"])
    players: int = record["players"]
    logged = record["actions"]
    version = record.get("rules_version", registry.rules_version(game))
    if version not in registry.rules_versions(game):
        raise CovenError(
            "rules_version_unavailable",
            f"this match was played under {game.title} rules version {version}; this server "
            f"has {', '.join(sorted(registry.rules_versions(game)))} and cannot replay it",
            status=409,
        )
    if len(logged) > MAX_STEPS:
        raise CovenError("replay_too_long", f"replays stop at {MAX_STEPS} actions", status=413)
    state = game.setup(players, record["seed"], record["options"])
    checkpoints = [state]
    actions: list[tuple[int, Action]] = []
    steps: list[dict[str, Any]] = [
        {
            "step": 0,
            "version": 0,
            "seat": None,
            "bot": False,
            "action": None,
            "events": [],
            "to_move": sorted(game.to_move(state)),
        }
    ]
    for entry in logged:
        seat, action = entry["seat"], entry["action"]
        try:
            moved = game.apply(state, seat, action)
        except IllegalAction as exc:  # the log and the engine disagree: never a half replay
            raise CovenError(
                "replay_broken",
                f"step {len(actions) + 1} no longer applies ({exc.code})",
                status=409,
            ) from None
        state = moved.state
        actions.append((seat, action))
        if len(actions) % CHECKPOINT == 0:
            checkpoints.append(state)
        events: list[Event] = list(moved.events)
        steps.append(
            {
                "step": len(actions),
                "version": entry["version"],
                "seat": seat,
                "bot": entry["bot"],
                "action": action,
                "events": events,
                "to_move": sorted(game.to_move(state)),
            }
        )
    result = game.result(state)
    if result is None:
        raise CovenError("replay_broken", "the logged actions do not end the match", status=409)
    timeline = {
        "game": game.id,
        "title": game.title,
        "players": players,
        "options": record["options"],
        "seats": record["seats"],
        "last": len(actions),
        "steps": steps,
        "result": result.as_dict(),
    }
    return Replayed(game, players, actions, checkpoints, timeline)


class Replays:
    """The replays one service built lately, one build per room at a time."""

    def __init__(self, service: RoomService) -> None:
        self.service = service
        self._built: OrderedDict[str, Replayed] = OrderedDict()
        self._building: dict[str, asyncio.Lock] = {}

    async def get(self, code: str) -> Replayed:
        built = self._built.get(code)
        if built is not None:
            self._built.move_to_end(code)
            return built
        room = await self.service.room(code, cached=True)
        if room.status != "finished":
            room = await self.service.room(code)  # it may have ended through another worker
            if room.status != "finished":
                raise not_finished()
        lock = self._building.setdefault(code, asyncio.Lock())
        try:
            async with lock:
                built = self._built.get(code)
                if built is None:
                    log = await self.service.log(code)
                    if log["replay"] is None:
                        raise not_finished()
                    built = await asyncio.to_thread(replay, log)
                    self._built[code] = built
                    while len(self._built) > KEPT:
                        self._built.popitem(last=False)
        finally:
            if not lock.locked():
                self._building.pop(code, None)
        return built


_REPLAYS: weakref.WeakKeyDictionary[RoomService, Replays] = weakref.WeakKeyDictionary()


def replays(service: RoomService) -> Replays:
    """The replay cache of ``service`` (one per app)."""
    found = _REPLAYS.get(service)
    if found is None:
        found = _REPLAYS[service] = Replays(service)
    return found

"""The bot runner: plays bot seats, and seats whose turn clock ran out, on the move path.

One small task per room in this worker, woken after every local commit and by a periodic
sweep (which also covers matches another worker left mid-turn, and a restarted server).

When a person's turn clock runs out the room's rule applies (``RoomRecord.clock_rule``):
"move", a bot of ``CLOCK_LEVEL`` plays for her seat as long as it goes on owing that overdue
decision (the seat stays hers: her next decision gets her full time again); "seat", the seat is
handed to a bot for good. Time is the server's clock (``service.clock``, injectable). A task
waits for a deadline only when it is near (``NEAR_SECONDS``): a clock days long needs nothing
in memory, the sweep finds its match by ``due_at`` when it runs out.
With several workers two runners may play the same turn: the client_id is deterministic in
(match, seat, version), so the second submission is a harmless duplicate even when a search
bot, thinking against the clock, would have chosen differently.

A bot decides from its seat's ``Seen`` only (``engine.bots.seen``); search levels think in a
process pool (``app.rooms.thinking``). A refused choice is never retried at the same version:
the runner tries one ``random`` choice instead, and if that is refused too it leaves the seat
alone until the match moves (no loop, however the refusal came about).

A bot's answer time says nothing of its seat (``app.rooms.pacing``): from the moment the runner
first sees the version at which the bots owe, each decides (searches cut by a deadline), then
all wait until the slowest due level's answer moment and commit in seat order — forced answers
and ``random`` too. Only then is the table looked at again: if the match moved meanwhile
(another worker committed) the decisions are dropped and made afresh; if only the room changed
(a player took her seat back, a socket came) the seats still due answer with the decisions
already made at that version, from the same start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field

from app.errors import CovenError
from app.observability import metrics
from app.rooms import pacing
from app.rooms.keys import room_channel
from app.rooms.moves import bot_client_id, bot_seed
from app.rooms.pacing import Overruns, Pace
from app.rooms.service import RoomService
from app.rooms.tables import Table
from app.rooms.thinking import Thinkers, default_processes
from app.settings import Settings
from engine.bots import seen
from engine.protocol import Action

log = logging.getLogger(__name__)

# The level that plays for a seat whose turn clock ran out (the host may pick another one when
# handing a vanished player's seat over).
CLOCK_LEVEL = "random"

# The sweep looks afresh at a room it saw unchanged at least this often.
FULL_LOOK_SECONDS = 30.0

# A room's task waits for a turn clock's end only when it is at most this far: a farther one
# is left to the sweep, which kicks the room when its match's ``due_at`` comes this near.
NEAR_SECONDS = 30.0


@dataclass(slots=True)
class Refused:
    """Seats whose bot was refused, each with the version it was refused at (in the seat's
    own numbering): left alone until the match moves for it."""

    seats: dict[int, int] = field(default_factory=dict)


def owes_help(table: Table | None) -> bool:
    """Whether the runner must look at a room: unknown here, or a match in play with a bot
    seat, an away seat or a turn clock."""
    if table is None:
        return True
    room = table.room
    return table.result is None and bool(
        room.turn_seconds or any(s.bot_level or s.away for s in room.seats)
    )


class BotRunner:
    def __init__(self, service: RoomService, settings: Settings) -> None:
        self.service = service
        self.tables = service.tables
        self.delay = settings.bot_delay
        self.pace = Pace(settings.bot_delay, settings.bot_budget_ms, settings.bot_pace)
        self.overruns = Overruns()
        # Per room: the versions its due bots owe decisions at (each in its seat's own
        # numbering, so another seat's private step changes nothing: app/rooms/private_steps),
        # and when the runner first saw them (``pacing.now``): the start of every due bot's
        # answer time.
        self._owed: dict[str, tuple[tuple[int, ...], float]] = {}
        # Per room: the decisions made at those versions, by (seat, level), so that a second
        # look at unchanged versions (the room changed, or only another seat's private step)
        # does not think again.
        self._decided: dict[
            str, tuple[tuple[int, ...], dict[tuple[int, str], Action | None]]
        ] = {}
        self.sweep_seconds = settings.sweep_seconds
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._wake: dict[str, asyncio.Event] = {}
        self._fresh: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._refused: dict[str, Refused] = {}
        # Per room: (match version, away seats) and when the sweep last kicked it.
        self._swept: dict[str, tuple[tuple[int, int], float]] = {}
        # Per room: the match's ``due_at`` the sweep last kicked it for, and whether it was
        # then near or past (each kicks once: an overdue room whose bot was refused is not
        # reloaded every sweep).
        self._due: dict[str, tuple[float, bool]] = {}
        processes = settings.bot_processes
        self.thinkers = Thinkers(
            default_processes() if processes is None else processes, settings.bot_budget_ms
        )
        service.notices.on_change.append(self.kick)

    async def start(self) -> None:
        self._sweeper = asyncio.create_task(self._sweep(), name="bot-sweep")

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        await asyncio.to_thread(self.thinkers.close)

    def kick(self, code: str, fresh: bool = False) -> None:
        """Look at ``code`` soon; ``fresh`` reads the database rather than this worker's copy
        (another worker may have moved the match)."""
        if fresh:
            self._fresh.add(code)
        elif (
            code not in self._fresh
            and code not in self._tasks
            and not owes_help(self.tables.cached(code))
        ):
            return  # this worker's copy is current and no bot or clock is involved
        task = self._tasks.get(code)
        if task is not None and not task.done():
            self._wake[code].set()
            return
        self._wake[code] = asyncio.Event()
        self._tasks[code] = asyncio.create_task(self._run(code), name=f"bots:{code}")

    async def _sweep(self) -> None:
        while True:
            try:
                await self._sweep_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("bot sweep failed")
            await asyncio.sleep(self.sweep_seconds)

    async def _sweep_once(self) -> None:
        now = time.monotonic()
        listed = set()
        for code, version, away, due in await self.service.repo.rooms_needing_bots():
            listed.add(code)
            self._kick_if_due(code, version, due)
            # A room whose match and away seats are as they were at the last look owes
            # nothing new (a clock that will run out soon has a task waiting for it, a later
            # one its ``due_at``): skip it, but look afresh now and then in case a task died
            # or a bus notice was lost. Abandoned bot tables then cost one row of a query, not
            # a reload each, every sweep.
            last, key = self._swept.get(code), (version, away)
            if last is None or now - last[1] >= FULL_LOOK_SECONDS:
                self._swept[code] = (key, now)
                self.kick(code, fresh=True)
                continue
            if last[0] == key:
                continue
            # Moved by this worker's own commit: its copy is current, no reload.
            cached = self.tables.cached(code)
            mine = cached is not None and cached.version == version and last[0][1] == away
            self._swept[code] = (key, last[1])
            self.kick(code, fresh=not mine)
        for code in set(self._swept) - listed:
            del self._swept[code]
        for code in set(self._due) - listed:
            del self._due[code]

    def _kick_if_due(self, code: str, version: int, due: float | None) -> None:
        """Kick ``code`` when its match's earliest turn clock comes near its end, and again
        when it ran out (by the server's clock, which a test may move days ahead), once each
        per ``due`` value."""
        if due is None:
            return
        now = self.service.clock.now()
        if due - now > NEAR_SECONDS:
            return
        mark = (due, due <= now)
        if self._due.get(code) == mark:
            return
        self._due[code] = mark
        cached = self.tables.cached(code)
        self.kick(code, fresh=cached is None or cached.version != version)

    async def _run(self, code: str) -> None:
        wake = self._wake[code]
        try:
            while True:
                wake.clear()
                wait = await self._play_once(code)
                if wait is None:
                    return
                if wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(wake.wait(), wait)
                else:
                    # A commit may never suspend (SQLite commits on the loop): let sockets
                    # and requests in between two bot moves.
                    await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot runner failed in room %s", code)
        finally:
            if self._tasks.get(code) is asyncio.current_task():
                del self._tasks[code]
                self._wake.pop(code, None)
                self._owed.pop(code, None)
                self._decided.pop(code, None)

    async def _play_once(self, code: str) -> float | None:
        """Play what is owed now; return how long to wait before looking again (``None``:
        nothing will fall due without a new commit)."""
        table = self.tables.cached(code)
        if code in self._fresh:
            self._fresh.discard(code)
            self.tables.room_changed(code)  # away flags may have moved in another worker
            table = None
        try:
            table = table or await self.tables.table(code)
        except CovenError:
            return None
        room = table.room
        if table.result is not None:
            self._refused.pop(code, None)
        if table.result is not None or not (
            room.turn_seconds or any(s.bot_level or s.away for s in room.seats)
        ):
            return None
        due: list[tuple[int, str]] = []
        deadline: float | None = None
        refused = self._refused.get(code)
        if refused is not None:
            refused.seats = {s: v for s, v in refused.seats.items() if table.version_for(s) == v}
            if not refused.seats:
                del self._refused[code]
                refused = None
        owing = table.match.owing_since
        now = self.service.clock.now()
        for seat in sorted(table.to_move):
            record = room.seat(seat)
            if record is None:
                continue
            parked = refused is not None and seat in refused.seats
            if record.bot_level is not None or record.away:
                if not parked:
                    due.append((seat, record.bot_level or record.away_level or CLOCK_LEVEL))
            elif room.turn_seconds:
                since = owing[seat] if owing is not None else None
                ends = (since if since is not None else table.match.stage_since) + room.turn_seconds
                if ends > now:
                    deadline = ends if deadline is None else min(deadline, ends)
                elif room.clock_rule == "seat":
                    await self._hand_over_for_good(code, table, seat)
                    return 0
                elif not parked:
                    # Time ran out: a bot plays this overdue decision for her (and each of
                    # its sub-actions while she goes on owing it); the seat stays hers.
                    due.append((seat, CLOCK_LEVEL))
        if due:
            if not self.pace.padded:
                return await self._play_unpaced(code, table, due)
            seen = tuple(table.version_for(seat) for seat, _ in due)
            owed = self._owed.get(code)
            if owed is None or owed[0] != seen:
                owed = self._owed[code] = (seen, pacing.now())
            started = owed[1]
            answer_at = self.pace.answer_at(started, [level for _, level in due])
            decided = self._decided.get(code)
            if decided is None or decided[0] != seen:
                decided = self._decided[code] = (seen, {})
            made = decided[1]
            todo = [(seat, level) for seat, level in due if (seat, level) not in made]
            made.update(await self._think_by(code, table, todo, started, answer_at))
            actions = [made[(seat, level)] for seat, level in due]
            late_by = pacing.now() - answer_at
            if late_by < 0:
                await asyncio.sleep(-late_by)
            if self.tables.cached(code) is not table:
                # The room or the match changed while the bots thought and waited (the player
                # took her seat back, another worker moved): decide again from what is now.
                return 0
            for (seat, level), action in zip(due, actions, strict=True):
                self.overruns.record(late_by)
                await self._play(code, table, seat, level, action)
            return 0
        if deadline is not None and deadline - now <= NEAR_SECONDS:
            return max(0.05, deadline - now)
        return None  # nothing owed soon: a later deadline is the sweep's (``_kick_if_due``)

    async def _hand_over_for_good(self, code: str, table: Table, seat: int) -> None:
        """The "seat" rule: the seat whose time ran out is a bot's for good."""
        room = table.room
        if await self.service.repo.hand_over_for_good(room.id, seat, CLOCK_LEVEL, table.version):
            await self.service.bus.publish(room_channel(code), {"type": "room"})
            self.service.notices.changed(code)
        # Either way the next look reads the room and the match again (a move that landed at
        # the last moment is why a hand-over may not happen).
        self.tables.forget(code)
        self._fresh.add(code)

    async def _play_unpaced(self, code: str, table: Table, due: list[tuple[int, str]]) -> float:
        """``COVEN_BOT_PACE=0``: wait ``bot_delay``, then each bot answers as soon as it has
        decided (its thinking time shows)."""
        if self.delay > 0:
            await asyncio.sleep(self.delay)
            if self.tables.cached(code) is not table:
                return 0
        for seat, level in due:
            await self._play(code, table, seat, level)
        return 0

    async def _think_by(
        self,
        code: str,
        table: Table,
        todo: list[tuple[int, str]],
        started: float,
        answer_at: float,
    ) -> dict[tuple[int, str], Action | None]:
        """The decisions of ``todo`` (seat, level), each thought in time for ``answer_at``.

        A search that has not answered by then (its pool starved of CPU, or queued behind other
        tables' searches) is not waited for: its seat answers on time with a ``random`` choice,
        decided inline in microseconds. A late answer would tell the table that its bot had
        something to think about (a forced answer costs the pool nothing), so under saturation
        a bot plays worse rather than telling its secret. While a pool is still starting (its
        first decision: spawned processes importing the engine, the same for every seat) its
        decisions are waited for."""
        tasks = {
            (seat, level): asyncio.ensure_future(self._think(code, table, seat, level, started))
            for seat, level in todo
        }
        if not tasks:
            return {}
        warm = all(self.thinkers.warm(level) for _, level in todo)
        timeout = max(0.0, answer_at + pacing.LATE_SECONDS - pacing.now()) if warm else None
        done, _ = await asyncio.wait(tasks.values(), timeout=timeout)
        made: dict[tuple[int, str], Action | None] = {}
        for (seat, level), task in tasks.items():
            if task in done:
                made[(seat, level)] = task.result()
                continue
            task.cancel()
            self.overruns.fallback()
            metrics.bot_fell_back(level)
            view = seen(table.game, table.state, seat)
            seed = bot_seed(table.match.seed, seat, table.version_for(seat))
            made[(seat, level)] = await self.thinkers.decide(table.game, "random", seed, view)
        return made

    async def _think(
        self, code: str, table: Table, seat: int, level: str, started: float
    ) -> Action | None:
        """``level``'s choice for ``seat`` at ``table``'s version, thought by the level's
        deadline (None: it failed to decide; ``_play`` falls back to random)."""
        view = seen(table.game, table.state, seat)
        seed = bot_seed(table.match.seed, seat, table.version_for(seat))
        deadline = self.pace.think_until(started, level)
        try:
            return await self.thinkers.decide(table.game, level, seed, view, deadline)
        except Exception:
            log.exception("bot seat %s in %s (%s) failed to decide", seat, code, level)
            return None

    async def _play(
        self, code: str, table: Table, seat: int, level: str, decided: Action | None = None
    ) -> None:
        """One decision for ``seat`` at ``table``'s version (``decided``: already made by
        ``level``); a refusal falls back to one random choice, and a second refusal parks the
        seat until the match moves."""
        view = seen(table.game, table.state, seat)
        seed = bot_seed(table.match.seed, seat, table.version_for(seat))
        attempts = [(level, bot_client_id(seat, table.version_for(seat)))]
        if level != "random":
            attempts.append(("random", bot_client_id(seat, table.version_for(seat)) + ":random"))
        for attempt, client_id in attempts:
            try:
                action: Action
                if decided is not None and attempt == level:
                    action = decided
                else:
                    action = await self.thinkers.decide(table.game, attempt, seed, view)
                await self.service.moves.bot_act(code, table, seat, action, client_id)
                return
            except CovenError as exc:
                # Somebody else moved first (another worker, the player coming back), or the
                # bot chose badly: either way never the same submission again at this version.
                log.debug("bot seat %s in %s (%s): %s", seat, code, attempt, exc.code)
            except Exception:
                log.exception("bot seat %s in %s (%s) failed to decide", seat, code, attempt)
            latest = self.tables.cached(code)
            if latest is not None and latest.version_for(seat) != table.version_for(seat):
                return  # the match moved meanwhile: decide again from the new version
        refused = self._refused.setdefault(code, Refused())
        refused.seats[seat] = table.version_for(seat)

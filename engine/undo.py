"""Undo within a turn, for every game behind ``adapter.RulesGame`` (Board Game Arena's rule).

A seat may take back its own steps since its turn or the open decision began, as long as
nothing hidden was revealed to anyone, no die was rolled and no card drawn (the RNG untouched, no
card moved from a hidden place), and no other seat has acted on it since.

**How.** Every state carries a :class:`Journal` in its ``undo`` attribute (``None`` after a
barrier): the *base*, the state where the open decision began, and the log of ``(seat, action)``
applied since. Undo is an ordinary recorded action, ``{"type": "undo"}``, sent through ``apply``:
it drops the seat's last step from the log and replays the rest on the base. Since every step
is deterministic, the state after an undo is exactly the state before that step, and a match with
undos still replays bit for bit from (seed, actions).

**Barriers** end the journal (the next step starts a new one, and nothing before it can be taken
back): a step that ends the match, draws from the RNG, sends a private event to another seat,
gives a decision to a seat that owed none (the turn passed, the simultaneous choice resolved), or
that the game's own ``barrier(before, after, seat, action, events)`` calls one (a card drawn
from a deck, a card revealed from a hand, ...).

**Whose steps.** In a sequential decision only the seat's last step can go (another seat acting
on it is a barrier already). In a simultaneous decision (several seats owed it at its base)
choices are hidden and independent of their order (the protocol's promise), so a seat takes back
its own last choice even after others chose: the others' choices are replayed without it.

**Private undo.** An undo that takes back a step nobody else could tell happened (a seat's
*private step*, ``app/rooms/private_steps.py``: Witch's Brew's keep, a Seasons library step) must
not tell it either. So the undo judges what it takes back by the same generic rule: when every
event of the step taken back was addressed to the seat alone, and every other seat's and the
spectator's view, legal actions and undo, who owes, the stage and the result are the same after
the undo as before it, its event is :data:`UNDONE_PRIVATELY` addressed to the seat (and the
server, judging the undo itself, finds it private too); otherwise it is the public
:data:`UNDONE`. The step's events are not kept: they are worked out again by replaying it.

The journal lives in the state, never in a view: ``view`` is the game's own and knows nothing of
it. It is dumped under the key ``"undo"`` (absent when empty, so older snapshots load as they are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from engine.protocol import TO, Action, Event, IllegalAction, Step, private

UNDO = "undo"
"""The action type of an undo: ``{"type": "undo"}``, no other field."""

UNDONE = "undone"
"""The public event of an undo: ``{"type": "undone", "seat": s}``."""

UNDONE_PRIVATELY = "undone_privately"
"""The event of an undo nobody else can tell happened (see "Private undo"):
``{"type": "undone_privately", "seat": s}``, addressed to ``s`` alone."""


@dataclass(frozen=True, slots=True)
class Journal:
    """The base of the open decision and the ``(seat, action)`` steps applied since."""

    base: Any
    log: tuple[tuple[int, Action], ...]

    def dump(self, dump_state: Callable[[Any], dict[str, Any]]) -> dict[str, Any]:
        return {"base": dump_state(self.base), "log": [[s, a] for s, a in self.log]}

    @classmethod
    def load(cls, data: dict[str, Any], load_state: Callable[[dict[str, Any]], Any]) -> Journal:
        return cls(load_state(data["base"]), tuple((int(s), dict(a)) for s, a in data["log"]))


class Undoable(Protocol):
    """What the journal needs of a game: its rules' own ``apply`` and the public readings."""

    def rules_apply(self, state: Any, seat: int, action: Action) -> Step: ...

    def to_move(self, state: Any) -> frozenset[int]: ...

    def barrier(
        self, before: Any, after: Any, seat: int, action: Action, events: list[Event]
    ) -> bool: ...

    def finished(self, state: Any) -> bool: ...

    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def stage(self, state: Any) -> str: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...


def track(game: Undoable, before: Any, seat: int, action: Action, step: Step) -> Step:
    """``step`` (``seat`` played ``action`` on ``before``) with its journal set."""
    after = step.state
    if after is before:  # a game that returns its input unchanged: never write into it
        raise AssertionError("apply must return a new state")
    if _is_barrier(game, before, after, seat, action, step.events):
        after.undo = None
    else:
        journal: Journal | None = before.undo
        base = before if journal is None else journal.base
        log = () if journal is None else journal.log
        after.undo = Journal(base, (*log, (seat, action)))
    return step


def _is_barrier(
    game: Undoable, before: Any, after: Any, seat: int, action: Action, events: list[Event]
) -> bool:
    if game.finished(after) or after.rng != before.rng:
        return True
    for e in events:  # loops, not generators: this runs after every step of every game
        if TO in e:
            for to in e[TO]:
                if to != seat:  # a private event to another seat
                    return True
    if not game.to_move(after) <= game.to_move(before):  # a seat owes a new decision
        return True
    return game.barrier(before, after, seat, action, events)


def allowed(game: Undoable, state: Any, seat: int) -> bool:
    """May ``seat`` undo now? (Replays only when others acted after her last step.)"""
    last = _last_step(game, state, seat)
    if last is None:
        return False
    journal: Journal = state.undo
    return last == len(journal.log) - 1 or _rebuilt(game, state, seat) is not None


def undo(game: Undoable, state: Any, seat: int, action: Action) -> Step:
    """Apply ``{"type": "undo"}``: the state as it was before ``seat``'s last undoable step."""
    if set(action) != {"type"}:
        raise IllegalAction("bad_action", "'undo' takes no other field")
    if game.finished(state):
        raise IllegalAction("game_over", "the match is over")
    taken_back: list[Event] = []
    rebuilt = _rebuilt(game, state, seat, taken_back)
    if rebuilt is None:
        raise IllegalAction("cannot_undo", "there is no step of yours to take back now")
    if _unseen(game, state, rebuilt, seat, taken_back):
        return Step(rebuilt, [private({"type": UNDONE_PRIVATELY, "seat": seat}, seat)])
    return Step(rebuilt, [{"type": UNDONE, "seat": seat}])


def _unseen(game: Undoable, before: Any, after: Any, seat: int, taken_back: list[Event]) -> bool:
    """Can nobody but ``seat`` tell that ``before`` became ``after`` (the step taken back, whose
    events were ``taken_back``, was private to her, and so is its undo)? The rule of
    ``app/rooms/private_steps.py``, on the states themselves."""
    if any(e.get(TO) != [seat] for e in taken_back):
        return False
    owing = game.to_move(before)
    if game.to_move(after) != owing or game.stage(after) != game.stage(before):
        return False
    others = [s for s in range(before.players) if s != seat]
    if any(game.view(after, v) != game.view(before, v) for v in [*others, None]):
        return False
    return all(
        (v not in owing or game.legal_actions(after, v) == game.legal_actions(before, v))
        and allowed(game, after, v) == allowed(game, before, v)
        for v in others
    )


def _last_step(game: Undoable, state: Any, seat: int) -> int | None:
    """The index in the journal of the step ``seat`` may take back, if any."""
    journal: Journal | None = getattr(state, "undo", None)
    if journal is None or game.finished(state):
        return None
    mine = [i for i, (s, _) in enumerate(journal.log) if s == seat]
    if not mine:
        return None
    last = mine[-1]
    if last != len(journal.log) - 1 and len(game.to_move(journal.base)) < 2:
        return None  # a sequential decision: another seat acted after her
    return last


def _rebuilt(
    game: Undoable, state: Any, seat: int, taken_back: list[Event] | None = None
) -> Any | None:
    """The state without ``seat``'s last undoable step; its events (replayed where it was
    taken) go into ``taken_back`` when given."""
    last = _last_step(game, state, seat)
    if last is None:
        return None
    journal: Journal = state.undo
    rebuilt = journal.base
    try:
        for i, (s, a) in enumerate(journal.log):
            if i != last:
                rebuilt = track(game, rebuilt, s, a, game.rules_apply(rebuilt, s, a)).state
            elif taken_back is not None:
                taken_back.extend(game.rules_apply(rebuilt, s, a).events)
    except IllegalAction:
        return None  # another seat's step depended on hers
    return rebuilt

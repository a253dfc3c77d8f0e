"""The pending-task stack: how an effect asks a seat something and how the flow comes back.

``state.stack`` holds plain JSON tasks, top last. Each has a ``kind`` registered here and a
``seat`` (who answers, or whom an automatic step concerns). Two sorts:

* a :class:`Question` waits for its seat: while it is on top, ``to_move`` is that seat and its
  ``options`` are that seat's whole ``legal_actions``. ``answer`` gets the task already popped;
  to ask again (a count still owed), push it back. A question with no options is *moot* and
  is dropped by :func:`settle` (e.g. an opponent with nothing in play told to sacrifice).
* an :class:`AutoStep` runs by itself when it reaches the top (the rest of a die's resolution,
  one seat's end-of-round effects, moving the season marker). It may push more tasks.

Fields under ``"secret"`` are shown to the task's seat only (``view.py``); ``"shown"`` (a list
of seats) widens that to the seats named. Everything else in a task is public.

To continue after an answer in a fixed order, push the continuation *first* and the question
on top of it (:func:`push_in_order` does it for a list in the order they should happen).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, cast

from engine.protocol import Action, Event
from engine.seasons.state import State, copy_json

Task = dict[str, Any]


class Question(ABC):
    kind: ClassVar[str]
    waits: ClassVar[bool] = True  # a seat owes it (``isinstance`` on an ABC is slow in a loop)

    @abstractmethod
    def options(self, state: State, task: Task) -> list[Action]: ...

    @abstractmethod
    def answer(self, state: State, task: Task, action: Action, events: list[Event]) -> None: ...

    def moot(self, state: State, task: Task, events: list[Event]) -> None:
        """Called when the question is dropped for having no options; most questions leave
        nothing behind, so by default nothing happens."""
        return None


class AutoStep(ABC):
    kind: ClassVar[str]
    waits: ClassVar[bool] = False

    @abstractmethod
    def run(self, state: State, task: Task, events: list[Event]) -> None: ...


TASKS: dict[str, Question | AutoStep] = {}


def task(cls: type[Question] | type[AutoStep]) -> Any:
    """Class decorator: register one task kind (its ``kind`` must be unique)."""
    if cls.kind in TASKS:
        raise ValueError(f"task kind {cls.kind!r} registered twice")
    TASKS[cls.kind] = cls()
    return cls


def make(kind: str, seat: int, secret: dict[str, Any] | None = None, **fields: Any) -> Task:
    t: Task = {"kind": kind, "seat": seat, **fields}
    if secret is not None:
        t["secret"] = secret
    return t


def push(state: State, t: Task) -> None:
    state.stack.append(t)


def ask(state: State, kind: str, seat: int, secret: dict[str, Any] | None = None,
        **fields: Any) -> None:
    """Push a question (or step) of ``kind`` for ``seat`` on top of the stack."""
    state.stack.append(make(kind, seat, secret, **fields))


def push_in_order(state: State, tasks: list[Task]) -> None:
    """``tasks[0]`` happens first: push them so that it ends on top."""
    state.stack.extend(reversed(tasks))


def top_question(state: State) -> tuple[Question, Task] | None:
    if not state.stack:
        return None
    t = state.stack[-1]
    q = TASKS[t["kind"]]
    return (q, t) if q.waits else None  # type: ignore[return-value]  # waits: a Question


# Called by settle before each automatic step and when the stack runs empty: the rules' check
# that pushes overflow discards (set by rules.py, which owns the reserve limit).
overflow_check: list[Callable[[State], bool]] = []


def settle(state: State, events: list[Event]) -> list[Action] | None:
    """Run automatic steps and drop moot questions until a seat owes an answer or all is done.
    Returns the options of the question left waiting (its seat's legal actions), if any."""
    while state.phase != "over":
        stack = state.stack  # a step may replace it (the match's end empties it)
        if not stack or not TASKS[stack[-1]["kind"]].waits:
            overflowing = False
            for check in overflow_check:  # _overflowing, inlined: this runs at every step
                if check(state):
                    overflowing = True
                    break
            if overflowing:
                continue
            if not stack:
                return None
            t = copy_json(stack.pop())  # shared with the previous state until now
            cast(AutoStep, TASKS[t["kind"]]).run(state, t, events)
            continue
        t = stack[-1]
        q = cast(Question, TASKS[t["kind"]])
        options = q.options(state, t)
        if options:
            return options
        stack.pop()
        q.moot(state, copy_json(t), events)
    return None

"""Answers worked out once per state: who owes a decision, and each seat's legal actions.

A state never changes once ``apply`` or ``setup`` returned it (the protocol's purity), so what
``to_move`` and ``legal_actions`` answer for it can be kept on the state itself and given again.
A game's ``State`` has a ``memo`` slot for this, ``None`` until the first answer, never copied,
dumped or compared. ``apply`` starts from a fresh copy, whose memo is empty, and may fill the
memo of the state it returns with what it already worked out (the pending question's options).

``listed`` is the other half: an action that is one of the legal actions remembered for its
seat needs none of ``apply``'s checks (an action is legal exactly when it is listed), so a
game's ``apply`` may skip them and go straight to the rule.

A test or tool that builds a position by hand and then changes it in place must do so before
asking anything of it (or set ``memo`` back to ``None``).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from operator import is_
from typing import Any, Protocol

from engine.protocol import Action

TO_MOVE = "to_move"
"""The memo's key for ``to_move``; a seat's legal actions are kept under the seat's number."""


class Remembers(Protocol):
    memo: dict[Any, Any] | None


def to_move(state: Remembers, work_out: Callable[[Any], frozenset[int]]) -> frozenset[int]:
    """``work_out(state)``, worked out once per state."""
    memo = state.memo
    if memo is None:
        worked_out = work_out(state)
        state.memo = {TO_MOVE: worked_out}
        return worked_out
    found: frozenset[int] | None = memo.get(TO_MOVE)
    if found is None:
        found = memo[TO_MOVE] = work_out(state)
    return found


def legal_actions(
    state: Remembers, seat: int, work_out: Callable[[Any, int], list[Action]]
) -> list[Action]:
    """``work_out(state, seat)``, worked out once per state and seat. The list is the caller's
    own (a copy); the actions in it are shared and must not be changed."""
    if type(seat) is not int:  # True and 1.0 hash like 1: never a memo key
        return work_out(state, seat)
    memo = state.memo
    if memo is None:
        memo = state.memo = {}
    found: list[Action] | None = memo.get(seat)
    if found is None:
        found = memo[seat] = work_out(state, seat)
    return found[:]


def remember(state: Remembers, seat: int, actions: list[Action]) -> None:
    """Record ``actions`` as ``seat``'s legal actions in ``state`` (worked out by ``apply``)."""
    if state.memo is None:
        state.memo = {}
    state.memo[seat] = actions


def listed(state: Remembers, seat: object, action: object) -> bool:
    """Is ``action`` one of the legal actions remembered for ``seat`` (same fields, same values,
    same JSON types)? ``False`` when none are remembered: then ``apply`` checks it in full."""
    memo = state.memo
    if memo is None or type(seat) is not int:
        return False
    known: list[Action] | None = memo.get(seat)
    if not known:
        return False
    # the usual case: a bot or a test passes one of the listed dicts (the scan in C: a long
    # list of options is common)
    if any(map(is_, known, repeat(action))):
        return True
    return any(option == action and same(option, action) for option in known)


def same(a: object, b: object) -> bool:
    """``a == b`` with the types equal too: Python takes ``True == 1`` and ``3.0 == 3``, a legal
    action does not (a ``card: true`` must not name card 1)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b

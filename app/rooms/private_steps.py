"""Which actions are a seat's private steps, and each viewer's numbering of the versions.

A seat's *private step* is an action nobody else can tell happened: every event of it is
addressed to that seat alone, and every other seat's and the spectator's ``state`` message is
the same after it as before (view, legal actions, undo, who owes, result, stage). Witch's
Brew's keep/unkeep while choosing roles and Whirling Witchcraft's blind production steps are
such steps, and so are Seasons' library-building steps (its view hides another seat's piles
until she confirms them, and they leave ``tick`` as it is): counting them would tell the others
something about a hidden hand. Nothing is declared per game: the test is on what the others
would be sent, so a step whose effect any view shows is public, and stays sound if a view
changes. An undo is judged like any action: ``engine.undo`` addresses its event to the seat
alone when what it takes back was such a step (by the same rule), and then it is one too.

So every action is visible to everyone (``None``) or to its actor only (``private_to``), and a
viewer's version counts the actions visible to her: a seat's own private steps move her own
version, never another seat's or a spectator's. The match version (one per action) stays the
store's and the concurrency guard's; nothing a client reads carries it while the match runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from engine.protocol import TO, Action, Event, Game, Undoes


@dataclass(slots=True)
class Faces:
    """What each viewer's ``state`` message shows of one state, computed once per viewer:
    her view, her legal actions, whether she may undo (``None``: a spectator)."""

    game: Game
    state: Any
    to_move: frozenset[int]
    _views: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    _legal: dict[int, list[Action]] = field(default_factory=dict)
    _undo: dict[int, bool] = field(default_factory=dict)

    def view(self, viewer: int | None) -> dict[str, Any]:
        found = self._views.get(viewer)
        if found is None:
            found = self._views[viewer] = self.game.view(self.state, viewer)
        return found

    def legal(self, viewer: int | None) -> list[Action]:
        if viewer is None or viewer not in self.to_move:
            return []
        found = self._legal.get(viewer)
        if found is None:
            found = self._legal[viewer] = self.game.legal_actions(self.state, viewer)
        return found

    def undo(self, viewer: int | None) -> bool:
        if viewer is None or not undoes(self.game):
            return False
        found = self._undo.get(viewer)
        if found is None:
            found = self._undo[viewer] = self.game.undo_allowed(self.state, viewer)
        return found


# Whether a game's class offers undo, asked once per class: the check against a runtime
# protocol walks its members on every call (every state message of every seat asked it).
_UNDOES: dict[type, bool] = {}


def undoes(game: Game) -> TypeGuard[Undoes]:
    kind = type(game)
    found = _UNDOES.get(kind)
    if found is None:
        found = _UNDOES[kind] = isinstance(game, Undoes)
    return found


def private_to(
    game: Game, before: Faces, after: Faces, seat: int, events: list[Event], players: int
) -> int | None:
    """``seat`` when its action turned ``before`` into ``after`` and nobody else can tell (see
    the module docstring); ``None`` when the action is visible to everyone."""
    if any(event.get(TO) != [seat] for event in events):
        return None
    if after.to_move != before.to_move or game.result(after.state) is not None:
        return None
    if game.stage(after.state) != game.stage(before.state):
        return None
    others = (*(s for s in range(players) if s != seat), None)
    # Cheapest first: views, then legal actions, then undo (which may replay the journal).
    if any(after.view(v) != before.view(v) for v in others):
        return None
    if any(after.legal(v) != before.legal(v) for v in others):
        return None
    if any(after.undo(v) != before.undo(v) for v in others):
        return None
    return seat


def viewer_version(version: int, hidden: tuple[int, ...], viewer: int | None) -> int:
    """``viewer``'s version at match ``version``: the actions visible to her, that is all of
    them less the private steps of the other seats (``hidden[s]``: seat s's private steps up to
    ``version``). A spectator (``None``) counts the public actions only."""
    own = hidden[viewer] if viewer is not None and viewer < len(hidden) else 0
    return version - sum(hidden) + own


def hidden_after(hidden: tuple[int, ...], players: int, private: int | None) -> tuple[int, ...]:
    """The per-seat private step counts after one more action (``private``: its seat, if it
    was a private step)."""
    counts = list(hidden) + [0] * (players - len(hidden))
    if private is not None:
        counts[private] += 1
    return tuple(counts)

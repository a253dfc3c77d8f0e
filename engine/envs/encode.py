"""One seat's view as a fixed-size vector of numbers (feature hashing), and what the seat sees
as an observation: the vector, the mask of its legal actions, and the raw view.

The encoding reads the seat's own ``view`` and nothing else, so it shows exactly what the browser
shows that seat (the view's leak rules are the observation's). The view is walked as a tree:

* a number at a path adds its value at ``hash(path)``; ``true`` adds 1, ``false`` nothing;
* a string (a card, an ingredient, a phase, ``"hidden"``) or ``null`` adds 1 at
  ``hash(path + "=" + value)``, as does every number or string in a list of plain values (a hand
  is a bag of cards);
* a list of objects is walked item by item with its position in the path, except the per-seat
  list (``players`` / ``seats``), whose position is made relative to the observing seat: the seat
  itself is always ``me``, the next one ``+1`` and so on; fields that name a seat (``seat``,
  ``leader``, ``first_player`` …) are turned relative the same way.

``hash`` is CRC-32 (stable across runs and machines) modulo :data:`SIZE`; two paths may share a
cell (hashing's usual trade: a fixed size for every game without a hand-written schema).
"""

from __future__ import annotations

import zlib
from functools import lru_cache
from typing import Any

import numpy as np

SIZE = 4096
SEAT_LISTS = frozenset({"players", "seats"})
SEAT_FIELDS = frozenset(
    {"seat", "leader", "start_player", "first_player", "chooser", "brewer", "decision_order"}
)


@lru_cache(maxsize=1 << 16)  # a game's paths and tokens repeat from view to view
def _cell(text: str) -> int:
    return zlib.crc32(text.encode()) % SIZE


class _Walker:
    def __init__(self, seat: int, players: int) -> None:
        self.seat = seat
        self.players = players
        self.out = np.zeros(SIZE, dtype=np.float32)

    def relative(self, other: int) -> str:
        gap = (other - self.seat) % self.players
        return "me" if gap == 0 else f"+{gap}"

    def token(self, path: str, value: Any) -> None:
        self.out[_cell(f"{path}={value}")] += 1.0

    def walk(self, node: Any, path: str, name: str) -> None:
        if isinstance(node, bool):
            self.out[_cell(path)] += float(node)
        elif isinstance(node, int) and name in SEAT_FIELDS and 0 <= node < self.players:
            self.token(path, self.relative(node))
        elif isinstance(node, (int, float)):
            self.out[_cell(path)] += float(node)
        elif node is None or isinstance(node, str):
            self.token(path, node)
        elif isinstance(node, dict):
            for key, value in node.items():
                self.walk(value, f"{path}/{key}", key)
        elif isinstance(node, list):
            self.walk_list(node, path, name)

    def walk_list(self, items: list[Any], path: str, name: str) -> None:
        if name in SEAT_LISTS and len(items) == self.players:
            for other, item in enumerate(items):
                self.walk(item, f"{path}/{self.relative(other)}", name)
        elif all(not isinstance(item, (dict, list)) for item in items):
            for item in items:
                if isinstance(item, int) and not isinstance(item, bool) and name in SEAT_FIELDS:
                    self.token(path, self.relative(item))
                else:
                    self.token(path, item)
        else:
            for i, item in enumerate(items):
                self.walk(item, f"{path}/{i}", name)


def encode(view: dict[str, Any], seat: int, players: int) -> np.ndarray:
    """The numeric observation of ``seat``'s view (``SIZE`` float32 values)."""
    walker = _Walker(seat, players)
    walker.walk(view, "", "")
    return walker.out


def mask(size: int, indices: list[int]) -> np.ndarray:
    out = np.zeros(size, dtype=np.int8)
    out[indices] = 1
    return out

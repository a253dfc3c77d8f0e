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


def encode(view: dict[str, Any], seat: int, players: int) -> np.ndarray:
    """The numeric observation of ``seat``'s view (``SIZE`` float32 values)."""
    out = np.zeros(SIZE, dtype=np.float32)
    cells: dict[int, float] = {}  # summed in Python, written once: numpy's item access is slow

    def add(text: str, amount: float) -> None:
        cell = _cell(text)
        cells[cell] = cells.get(cell, 0.0) + amount

    def relative(other: int) -> str:
        gap = (other - seat) % players
        return "me" if gap == 0 else f"+{gap}"

    def walk(node: Any, path: str, name: str) -> None:
        kind = type(node)
        if kind is dict:
            for key, value in node.items():
                walk(value, f"{path}/{key}", key)
        elif kind is list:
            if name in SEAT_LISTS and len(node) == players:
                for other, item in enumerate(node):
                    walk(item, f"{path}/{relative(other)}", name)
            elif all(type(item) not in (dict, list) for item in node):
                for item in node:
                    if type(item) is int and name in SEAT_FIELDS:
                        add(f"{path}={relative(item)}", 1.0)
                    else:
                        add(f"{path}={item}", 1.0)
            else:
                for i, item in enumerate(node):
                    walk(item, f"{path}/{i}", name)
        elif kind is bool:
            if node:
                add(path, 1.0)
        elif kind is int and name in SEAT_FIELDS and 0 <= node < players:
            add(f"{path}={relative(node)}", 1.0)
        elif kind is int or kind is float:
            if node:
                add(path, float(node))
        elif node is None or kind is str:
            add(f"{path}={node}", 1.0)

    walk(view, "", "")
    if cells:
        out[list(cells)] = list(cells.values())
    return out


def mask(size: int, indices: list[int]) -> np.ndarray:
    out = np.zeros(size, dtype=np.int8)
    out[indices] = 1
    return out

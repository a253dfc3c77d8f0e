"""The mechanical leak check of DESIGN.md, for any game.

Every seat's view and the spectator's have the same shape; what a seat may not see is replaced
in place by a placeholder. So: a field that differs between seat s's view and the spectator's
must look, to every other seat, exactly as it looks to the spectator.
"""

from __future__ import annotations

from typing import Any

Path = tuple[Any, ...]
PLACEHOLDERS = ("hidden", None)


def differences(a: Any, b: Any, path: Path = ()) -> list[Path]:
    """Paths where two views differ (a whole subtree when their shapes differ)."""
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        return [p for key in a for p in differences(a[key], b[key], (*path, key))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i in range(len(a)) for p in differences(a[i], b[i], (*path, i))]
    return [] if a == b else [path]


def at(view: Any, path: Path) -> Any:
    for key in path:
        view = view[key]
    return view


def assert_same_shape(a: Any, b: Any, path: Path = ()) -> None:
    """Same keys everywhere, except that a placeholder may stand for any subtree."""
    if a in PLACEHOLDERS or b in PLACEHOLDERS:
        return
    if isinstance(a, dict) or isinstance(b, dict):
        assert isinstance(a, dict) and isinstance(b, dict), path
        assert a.keys() == b.keys(), (path, set(a) ^ set(b))
        for key in a:
            assert_same_shape(a[key], b[key], (*path, key))


def assert_no_leaks(views: dict[int | None, dict[str, Any]]) -> None:
    """``views``: every seat's view and the spectator's (key ``None``) of one state."""
    spectator = views[None]
    seats = [s for s in views if s is not None]
    for seat in seats:
        assert_same_shape(views[seat], spectator)
        for path in differences(views[seat], spectator):
            for other in seats:
                if other != seat:
                    assert at(views[other], path) == at(spectator, path), (
                        f"seat {other} sees {path} differently from the spectator, "
                        f"yet it is seat {seat}'s secret"
                    )

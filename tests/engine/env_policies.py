"""Policies for ``tests/engine/test_envs.py``, importable as ``module:callable`` seats."""

from __future__ import annotations

from typing import Any

SEEN: list[dict[str, Any]] = []


def first_legal(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """The first legal action, after checking what a seat is handed."""
    mask = observation["action_mask"]
    assert all(mask[i] == 1 for i in info["legal_index"]), "the mask marks every legal action"
    assert int(mask.sum()) == len(info["legal_index"])
    index: int = info["legal_index"][0]
    return index


def out_of_range(observation: dict[str, Any], info: dict[str, Any]) -> int:
    """Never legal: the arena must refuse it."""
    return -1


NOT_CALLABLE = 3

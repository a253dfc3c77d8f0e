"""The match export, "coven-match" version 1 (docs/FAIRNESS.md): one JSON document per
finished match. These models are its contract (OpenAPI: ``GET /api/rooms/{code}/export``) and
what ``coven verify`` reads."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from app.messages import Fairness

FORMAT = "coven-match"
FORMAT_VERSION = 1
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024
"""Exports are posted whole to ``/api/verify`` and ``/api/replays`` (the request guard lets
these two paths past its usual body limit up to this size)."""
DOCUMENT_PATHS = frozenset({"/api/verify", "/api/replays"})


class ExportSeat(BaseModel):
    seat: int
    name: str
    bot: str | None = Field(description="the bot level of a bot seat, else null")


class ExportSetup(BaseModel):
    to_move: list[int]
    views_digest: str = Field(
        description="SHA-256 of the canonical JSON of every seat's view at the setup, then the "
        "spectator's: the deal the seed and the options gave"
    )


class ExportAction(BaseModel):
    model_config = ConfigDict(extra="ignore")

    step: int = Field(description="1 is the first action")
    seat: int
    action: dict[str, Any]
    bot: bool = False
    events: list[dict[str, Any]] = Field(
        description="every event of the step, private ones with their '@to' (the match is over)"
    )


class MatchExport(BaseModel):
    model_config = ConfigDict(extra="ignore")

    format: Literal["coven-match"]
    format_version: int
    game: str
    title: str = ""
    rules_version: str
    room: str = ""
    players: int = Field(ge=1, le=16)
    options: dict[str, Any]
    seats: list[ExportSeat]
    fairness: Fairness | None = Field(description="the seed proof, revealed; null before it")
    setup: ExportSetup
    actions: list[ExportAction]
    result: dict[str, Any]


def canonical(value: Any) -> bytes:
    """The JSON bytes digests are taken of: keys sorted, no spaces, ASCII."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def normal(value: Any) -> Any:
    """``value`` as it reads back from JSON (tuples become lists): what exports compare."""
    return json.loads(canonical(value))


def views_digest(game: Any, state: Any, players: int) -> str:
    views = [game.view(state, seat) for seat in range(players)] + [game.view(state, None)]
    return hashlib.sha256(canonical(views)).hexdigest()

"""The routes of the seed proof's second half (docs/FAIRNESS.md): a finished match's export,
its verification, and exports opened in the replay viewer."""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from app import wire
from app.api.deps import ServicesDep
from app.api.http import ERRORS, Code
from app.errors import CovenError
from app.fairness.document import MatchExport
from app.fairness.export import export_document, replay_log
from app.fairness.verify import Outcome, Unreadable, read, verify
from app.messages import ReplaySteps, ReplayTimeline
from app.replay import Replayed, replay, replays

router = APIRouter(responses=ERRORS)

KEPT = 16
"""Imported replays each worker keeps (least recently opened first out)."""


class VerifyAnswer(BaseModel):
    verified: bool
    step: int | None = Field(description="the step that differs (0: the setup); null: none")
    code: str = Field(description="'verified', or what failed: commitment, seed, setup, …")
    reason: str


class Imported(BaseModel):
    id: str = Field(description="open it at /replay/open#id=…; this worker keeps a few")
    game: str
    title: str
    last: int


class ImportedReplays:
    """Exports opened in the replay viewer, rebuilt through ``app.replay.replay``."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, Replayed] = OrderedDict()

    def add(self, built: Replayed) -> str:
        key = secrets.token_urlsafe(12)
        self._kept[key] = built
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return key

    def get(self, key: str) -> Replayed:
        built = self._kept.get(key)
        if built is None:
            raise CovenError(
                "import_not_found", "this opened export is gone: open the file again", status=404
            )
        self._kept.move_to_end(key)
        return built


IMPORTED = ImportedReplays()


def _not_an_export(exc: Unreadable) -> CovenError:
    return CovenError("not_an_export", str(exc), status=422)


async def _document(request: Request) -> MatchExport:
    try:
        return read(await request.body())
    except Unreadable as exc:
        raise _not_an_export(exc) from None


@router.get(
    "/api/rooms/{code}/export",
    response_model=MatchExport,
    tags=["room"],
    summary="The finished match as one versioned JSON document",
)
async def get_export(code: Code, coven: ServicesDep) -> Response:
    """Game, rules version, options, seats, the revealed seed proof, every action with its
    seat and events, the result ("coven-match" version 1; 409 ``not_finished`` before the
    end). ``coven verify FILE`` checks it anywhere."""
    built = await replays(coven.service).get(code)
    log = await coven.service.log(code)
    document = await asyncio.to_thread(export_document, code, log, built)
    name = f"coven-{document['game']}-{code[:8]}.json"
    return Response(
        wire.dumps(document),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.post("/api/verify", response_model=VerifyAnswer, tags=["replay"])
async def post_verify(request: Request) -> VerifyAnswer:
    """The body is an export: ``coven verify`` on the server. ``verified`` is true only when
    the commitment, the seed, the deal, every event and the result all match; else ``step``
    and ``reason`` say what differs first (422 ``not_an_export`` for another document)."""
    document = await _document(request)
    outcome: Outcome = await asyncio.to_thread(verify, document)
    return VerifyAnswer(**outcome.as_dict())


@router.post("/api/replays", response_model=Imported, status_code=201, tags=["replay"])
async def post_replay(request: Request) -> Imported:
    """Open an export in the replay viewer: it is replayed through the engine like a room's
    (``replay_broken`` when its actions do not replay, ``rules_version_unavailable``), kept
    by this worker for a while, and read like a room's replay at ``/api/replays/{id}``. It is
    not verified here: ``POST /api/verify`` does that."""
    document = await _document(request)
    log: dict[str, Any] = replay_log(document.model_dump(mode="json"))
    built = await asyncio.to_thread(replay, log)
    key = IMPORTED.add(built)
    return Imported(id=key, game=built.game.id, title=built.game.title, last=built.last)


@router.get("/api/replays/{key}", response_model=ReplayTimeline, tags=["replay"])
async def get_imported(key: str) -> Response:
    return Response(wire.dumps(IMPORTED.get(key).timeline), media_type="application/json")


@router.get("/api/replays/{key}/steps", response_model=ReplaySteps, tags=["replay"])
async def get_imported_steps(key: str, start: int = 0, count: int = 1) -> Response:
    built = IMPORTED.get(key)
    steps = await asyncio.to_thread(built.steps, start, count)
    return Response(wire.dumps({"steps": steps}), media_type="application/json")

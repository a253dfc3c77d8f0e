"""Liveness and readiness, for balancers and orchestrators (deploy/k8s/, deploy/Caddyfile).

- ``GET /livez``: the process answers (nothing else is asked: a database outage must not get
  every worker restarted);
- ``GET /readyz``: this worker should get traffic: the database answers, the bus (Redis)
  is reachable, and it is not draining (app/drain.py). 503 otherwise, saying why.

``/healthz`` (app/api/http.py) stays as it was: the database answers, with the socket count.
"""

from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.drain import Drain

log = logging.getLogger(__name__)

router = APIRouter(tags=["ops"])

# A readiness check waits at most this long for the database.
CHECK_SECONDS = 2.0


@router.get("/livez")
async def livez() -> dict[str, bool]:
    return {"ok": True}


@router.get("/readyz")
async def readyz(request: Request, coven: ServicesDep) -> JSONResponse:
    drain: Drain = request.app.state.drain
    failing: list[str] = []
    if drain.draining:
        failing.append("draining")
    else:
        try:
            async with asyncio.timeout(CHECK_SECONDS):
                await coven.service.repo.count_rooms()
        except Exception as exc:
            log.warning("readiness: the database failed (%s)", type(exc).__name__)
            failing.append("database")
        if getattr(coven.bus, "down", False):
            failing.append("bus")
    if failing:
        return JSONResponse(
            {"ok": False, "failing": failing}, status_code=503, headers={"retry-after": "1"}
        )
    return JSONResponse({"ok": True, "failing": []})

"""``GET /metrics``: the Prometheus text format, mounted only when ``COVEN_METRICS=1``.

With ``COVEN_METRICS_TOKEN`` set, a scrape must send ``Authorization: Bearer <token>``
(Prometheus: ``authorization: {credentials: …}`` in the scrape config); anything else gets
401 ``unauthorized`` and no numbers.
"""

from __future__ import annotations

import asyncio
import hmac

from fastapi import APIRouter, Request, Response

from app.errors import CovenError
from app.observability import metrics

router = APIRouter()


def _authorized(request: Request, token: str | None) -> bool:
    if token is None:
        return True
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    given_bytes, token_bytes = given.strip().encode(), token.encode()
    return scheme.lower() == "bearer" and hmac.compare_digest(given_bytes, token_bytes)


@router.get("/metrics", include_in_schema=False)
async def scrape(request: Request) -> Response:
    if not _authorized(request, request.app.state.coven.settings.metrics_token):
        raise CovenError("unauthorized", "this scrape needs the metrics token (Bearer)")
    # Reading every worker's files is blocking I/O: off the event loop.
    body, content_type = await asyncio.to_thread(metrics.render)
    return Response(body, media_type=content_type, headers={"cache-control": "no-store"})

"""``GET /api/rooms/{code}/log?since=N``: a client that missed versions reads only the actions
after the version it had — the same events the whole log holds for them — and no replay."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import httpx
import pytest

from app.settings import Settings
from tests.server.coven_serve import finished_log, start_bot_match
from tests.support.server import ThreadServer


@pytest.fixture
def quick_bots(settings: Settings) -> Iterator[ThreadServer]:
    with ThreadServer(dataclasses.replace(settings, bot_delay=0.005)) as running:
        yield running


async def test_the_log_since_a_version_holds_only_what_came_after(quick_bots: ThreadServer) -> None:
    url = quick_bots.url
    code = await start_bot_match(url, "test-guess", bots=2, options={"rounds": 6})
    whole = await finished_log(url, code, timeout=60)
    last = whole["version"]
    assert last > 3 and whole["replay"] is not None
    async with httpx.AsyncClient(base_url=url, timeout=20) as http:
        for since in (0, 1, last // 2, last - 1, last, last + 5):
            part = (await http.get(f"/api/rooms/{code}/log", params={"since": since})).json()
            assert part["version"] == last and part["finished"]
            assert part["events"] == [e for e in whole["events"] if e["version"] > since]
            assert part["replay"] is None, "a catch-up carries no replay record"
            assert part["fairness"] == whole["fairness"]
        for bad in ("-1", "x"):
            refused = await http.get(f"/api/rooms/{code}/log", params={"since": bad})
            assert refused.status_code == 422
            assert refused.json()["error"]["code"] == "validation_error", refused.text

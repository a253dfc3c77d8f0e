"""The page routes of ``app.pages``, without a browser or a database."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from types import SimpleNamespace

import httpx
import pytest
from fastapi import FastAPI

from app import pages
from app.errors import CovenError
from app.settings import Settings
from app.static_assets import static_assets


class _Rooms:
    """Just enough of the room service for the room page: one room exists."""

    async def room(self, code: str, *, cached: bool = False) -> object:
        if code != "AbC123xyz":
            raise CovenError("room_not_found", "no such room")
        return SimpleNamespace(game_id="whirling-witchcraft")


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    app = FastAPI()
    app.include_router(pages.router)
    app.state.coven = SimpleNamespace(settings=Settings(), service=_Rooms())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://coven.test") as client:
        yield client


async def test_lobby_and_room_pages(client: httpx.AsyncClient) -> None:
    lobby = await client.get("/")
    assert lobby.status_code == 200
    assert "/static/js/lobby.js" in lobby.text
    room = await client.get("/r/AbC123xyz")
    assert room.status_code == 200
    assert 'data-code="AbC123xyz"' in room.text
    version = static_assets().version
    assert f'<script type="module" src="/static/v/{version}/js/room.js">' in room.text
    # Its whole import tree and the game's renderer are preloaded, each once.
    preloads = re.findall(
        r'<link rel="modulepreload" href="/static/v/\w+/(js/[\w/.-]+)">', room.text
    )
    for module in ("js/room.js", "js/i18n.js", "js/table.js", "js/games/whirling-witchcraft.js"):
        assert module in preloads, module
    assert len(preloads) == len(set(preloads))


async def test_versioned_static_files_are_kept_for_good(client: httpx.AsyncClient) -> None:
    version = static_assets().version
    current = await client.get(f"/static/v/{version}/js/room.js")
    assert current.status_code == 200
    assert current.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert current.content == (await client.get("/static/js/room.js")).content
    # An older page's version: today's file, asked again next time.
    older = await client.get("/static/v/0123456789ab/js/room.js")
    assert older.status_code == 200 and older.headers["cache-control"] == "no-cache"
    assert (await client.get("/static/js/room.js")).headers["cache-control"] == "no-cache"
    assert (await client.get(f"/static/v/{version}/js/nothing.js")).status_code == 404


async def test_static_files_are_served_and_local(client: httpx.AsyncClient) -> None:
    for path in (
        "/static/js/client.js",
        "/static/js/games/whirling-witchcraft.js",
        "/static/css/coven.css",
        "/static/i18n/vi.json",
    ):
        assert (await client.get(path)).status_code == 200, path
    # Tables must work offline on a LAN: no CDN, no web font.
    for path in ("/", "/r/x", "/static/css/coven.css"):
        text = (await client.get(path)).text
        assert "https://" not in text and "http://" not in text.replace("http://www.w3.org", "")

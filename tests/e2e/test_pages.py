"""The page routes of ``app.pages``, without a browser or a database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace

import httpx
import pytest
from fastapi import FastAPI

from app import pages
from app.errors import CovenError
from app.settings import Settings


class _Rooms:
    """Just enough of the room service for the room page: one room exists."""

    async def room(self, code: str, *, cached: bool = False) -> object:
        if code != "AbC123xyz":
            raise CovenError("room_not_found", "no such room")
        return object()


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
    assert "/static/js/room.js" in room.text


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

"""The page routes of ``app.pages``, without a browser or a database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app import pages


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = FastAPI()
    app.include_router(pages.router)
    with TestClient(app) as client:
        yield client


def test_lobby_and_room_pages(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200
    assert "/static/js/lobby.js" in lobby.text
    room = client.get("/r/AbC123xyz")
    assert room.status_code == 200
    assert 'data-code="AbC123xyz"' in room.text
    assert "/static/js/room.js" in room.text


def test_static_files_are_served_and_local(client: TestClient) -> None:
    for path in (
        "/static/js/client.js",
        "/static/js/games/whirling-witchcraft.js",
        "/static/css/coven.css",
        "/static/i18n/vi.json",
    ):
        assert client.get(path).status_code == 200, path
    # Tables must work offline on a LAN: no CDN, no web font.
    for path in ("/", "/r/x", "/static/css/coven.css"):
        text = client.get(path).text
        assert "https://" not in text and "http://" not in text.replace("http://www.w3.org", "")


def test_catalog(client: TestClient) -> None:
    response = client.get("/api/games/whirling-witchcraft/catalog")
    assert response.status_code == 200
    data = response.json()
    assert {i["key"]: i["capacity"] for i in data["ingredients"]} == {
        "heart": 3,
        "mandrake": 4,
        "mushroom": 9,
        "spider": 9,
        "toad": 9,
    }
    assert len(data["recipes"]) == 60
    charm = data["recipes"]["R13"]
    assert charm["front"]["out"] == {"mushroom": 2}
    assert charm["turned"]["in"] == {"mushroom": 2}
    assert data["personalities"]["P12"]["recipe"]["front"]["in"] == {"mandrake": 3}


def test_catalog_of_an_unknown_game(client: TestClient) -> None:
    response = client.get("/api/games/chess/catalog")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"

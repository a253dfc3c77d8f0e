"""``GET /api/games/{id}/catalog``: static card data for a game's renderer."""

from __future__ import annotations

import httpx

from tests.support.server import ThreadServer


async def test_catalog(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        response = await http.get("/api/games/whirling-witchcraft/catalog")
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


async def test_catalog_of_an_unknown_game(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        response = await http.get("/api/games/chess/catalog")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"


async def test_a_game_without_a_catalog(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        response = await http.get("/api/games/test-guess/catalog")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "unknown_game"

"""The home page's tables in progress (issue 19, item 6): the rooms not finished where this
browser holds a seat token or its profile holds a seat, yours to play first. Runs on SQLite
and PostgreSQL (the ``server`` fixture)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.support.client import TIMEOUT, Client
from tests.support.server import ThreadServer

GAME = "test-guess"


async def open_table(http: httpx.AsyncClient, host: str, *others: str) -> tuple[str, list[Client]]:
    """A room hosted by ``host`` (this browser) with ``others`` seated; their clients."""
    made = await http.post("/api/rooms", json={"game": GAME, "name": host, "visibility": "private"})
    assert made.status_code == 201, made.text
    code: str = made.json()["room"]["code"]
    seated = [Client(str(http.base_url), made.json()["token"], 0)]
    for name in others:
        joined = await http.post(f"/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        seated.append(Client(str(http.base_url), joined.json()["token"], joined.json()["seat"]))
    return code, seated


async def start(host: Client, code: str) -> None:
    started = await host.http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text


async def act(player: Client, code: str, action: dict[str, Any], client_id: str) -> None:
    answer = await player.http.post(
        f"/api/rooms/{code}/actions", json={"action": action, "client_id": client_id}
    )
    assert answer.status_code == 200, answer.text


async def pick(player: Client, code: str, value: int, round_: int = 0) -> None:
    await act(player, code, {"type": "pick", "value": value}, f"pick-{player.seat}-{round_}")


def held(*seats: tuple[str, Client]) -> dict[str, Any]:
    return {"seats": [{"room": code, "token": client.token} for code, client in seats]}


async def test_tables_in_progress_yours_to_play_first(server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as http:
        # Bea's turn here: every seat picks at once.
        hers, (ada1, bea1) = await open_table(http, "Ada", "Bea")
        await start(ada1, hers)
        # Here Ada alone owes the call once both picked.
        waits, (ada2, bea2) = await open_table(http, "Ada", "Bea")
        await start(ada2, waits)
        await pick(ada2, waits, 1)
        await pick(bea2, waits, 2)
        # Bea's own room, waiting for players; and one she held a seat in that is over.
        lobby, (bea3,) = await open_table(http, "Bea")
        over, (ada4, bea4) = await open_table(http, "Ada", "Bea")
        await start(ada4, over)
        # Two rounds: both pick, then the round's caller (seat = round) calls.
        for round_, caller in enumerate((ada4, bea4)):
            await pick(ada4, over, 1, round_)
            await pick(bea4, over, 2, round_)
            await act(caller, over, {"type": "call", "guess": "high"}, f"call-{round_}")
        final = (await ada4.http.get(f"/api/rooms/{over}/state")).json()
        assert final["result"] is not None

        answer = await http.post(
            "/api/me/tables",
            json=held((hers, bea1), (waits, bea2), (lobby, bea3), (over, bea4)),
        )
        assert answer.status_code == 200, answer.text
        tables = answer.json()["tables"]
        # Newest first would be lobby, waits, hers: her turn comes first all the same.
        assert [t["table"]["code"] for t in tables] == [hers, waits, lobby]
        assert [(t["your_turn"], t["seat"], t["table"]["status"]) for t in tables] == [
            (True, 1, "playing"),
            (False, 1, "playing"),
            (False, 0, "open"),
        ]
        assert tables[0]["to_move"] == [0, 1]
        assert tables[1]["to_move"] == [0]
        assert [s["name"] for s in tables[0]["table"]["seats"]] == ["Ada", "Bea"]

        # A token counts only in its own room; garbage is ignored, never an error.
        mixed = await http.post(
            "/api/me/tables",
            json={
                "seats": [
                    {"room": waits, "token": bea1.token},
                    {"room": "no such room!", "token": "x"},
                ]
            },
        )
        assert mixed.status_code == 200 and mixed.json()["tables"] == []
        # A new visitor has nothing in progress.
        empty = await http.post("/api/me/tables", json={})
        assert empty.status_code == 200 and empty.json()["tables"] == []
        too_many = await http.post(
            "/api/me/tables", json={"seats": [{"room": hers, "token": "t"}] * 201}
        )
        assert too_many.status_code == 422
        for client in (ada1, bea1, ada2, bea2, bea3, ada4, bea4):
            await client.close()


async def test_a_profile_finds_its_seats_from_any_browser(server: ThreadServer) -> None:
    """Seats a profile holder takes are hers: another browser of hers, holding no token,
    lists them too."""
    origin = {"Origin": server.url}
    async with (
        httpx.AsyncClient(base_url=server.url, headers=origin, timeout=TIMEOUT) as bea,
        httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT) as ada,
    ):
        made = await bea.post("/api/profile", json={"name": "Bea"})
        assert made.status_code == 201, made.text
        code, (host,) = await open_table(ada, "Ada")
        joined = await bea.post(f"/api/rooms/{code}/join", json={"name": "Bea"})
        assert joined.status_code == 200, joined.text
        await start(host, code)
        tables = (await bea.post("/api/me/tables", json={})).json()["tables"]
        assert [(t["table"]["code"], t["seat"], t["your_turn"]) for t in tables] == [
            (code, 1, True)
        ]
        # Ada, a guest with no token sent, has nothing here.
        assert (await ada.post("/api/me/tables", json={})).json()["tables"] == []
        await host.close()

"""A profile's seat played from another of her browsers, on SQLite and PostgreSQL (issue 19).

Seat tokens live in one browser; a browser holding the same profile (here by a device link)
takes the seat with ``POST /api/rooms/{code}/seat-here``: a fresh token, the old one refused
from then on (its open socket closed as a bad token, its HTTP moves ``bad_token``), and the first
browser can take it back the same way. Every worker drops its copy of the room, not only those
with sockets in it. A deleted profile's seat is "a former player" (``former``) in the room's
seat list and in the live presence of a room already open.
"""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from app.settings import Settings
from app.store.db import make_engine
from tests.server.test_profiles import browser, code_of, join, new_room, rows
from tests.support.client import Client
from tests.support.server import ProcessServer, ThreadServer

EVIL = "https://evil.example"


@pytest.fixture
async def database(settings: Settings) -> AsyncIterator[Any]:
    """The server's database, to read what no route shows (the stored token hashes)."""
    engine = make_engine(settings.database_url, settings.database_schema)
    yield engine
    await engine.dispose()


async def device_link(holder: httpx.AsyncClient, other: httpx.AsyncClient) -> None:
    """``other`` comes to hold ``holder``'s profile by a one-time device link."""
    made = await holder.post("/api/profile/device-links")
    assert made.status_code == 201, made.text
    used = await other.post(
        "/api/device-links/use", json={"code": made.json()["url"].split("#", 1)[1]}
    )
    assert used.status_code == 200, used.text


async def closed_with(client: Client, seconds: float = 5) -> int | None:
    """The close code of ``client``'s socket, once the server has closed it."""
    assert client._reader is not None and client.ws is not None
    await asyncio.wait_for(asyncio.shield(client._reader), seconds)
    return client.ws.close_code


async def act_http(url: str, code: str, token: str) -> httpx.Response:
    """One legal move of the seat ``token`` holds, over HTTP."""
    async with httpx.AsyncClient(
        base_url=f"{url}/api/rooms/{code}", headers={"Authorization": f"Bearer {token}"}
    ) as http:
        state = await http.get("/state")
        if state.status_code != 200:
            return state
        body = state.json()
        action = {"action": body["legal"][0], "client_id": uuid.uuid4().hex}
        return await http.post("/actions", json={**action, "version": body["version"]})


def sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


async def stored_seats(database: Any, code: str) -> list[Any]:
    """(seat, token_hash, profile_id is set) of room ``code``, in seat order."""
    return await rows(
        database,
        "SELECT s.seat, s.token_hash, s.profile_id IS NOT NULL FROM seats s"
        " JOIN rooms r ON r.id = s.room_id WHERE r.code = :code ORDER BY s.seat",
        code=code,
    )


async def test_her_other_browser_takes_the_seat_and_the_first_one_can_take_it_back(
    server: ThreadServer, database: Any
) -> None:
    async with browser(server) as phone, browser(server) as laptop, browser(server) as bea:
        assert (await phone.post("/api/profile", json={"name": "Ana"})).status_code == 201
        code, phone_token = await new_room(phone, "Ana", rounds=3)  # seat 0 is her profile's
        await join(bea, code, "Bea")
        start = await phone.post(
            f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {phone_token}"}
        )
        assert start.status_code == 200, start.text
        await device_link(phone, laptop)
        # The laptop holds the profile, not the seat's token: it sees the seat is hers.
        held = await laptop.get(f"/api/rooms/{code}/profile-seats")
        assert held.status_code == 200 and held.json() == {"seats": [0]}
        assert (await bea.get(f"/api/rooms/{code}/profile-seats")).status_code == 401

        on_phone = await Client(server.url, phone_token, 0).connect(code)
        await on_phone.at_version(0)
        taken = await laptop.post(f"/api/rooms/{code}/seat-here", json={})
        assert taken.status_code == 200, taken.text
        laptop_token = taken.json()["token"]
        assert taken.json()["seat"] == 0 and laptop_token != phone_token
        assert [s["name"] for s in taken.json()["room"]["seats"]] == ["Ana", "Bea"]
        stored = await stored_seats(database, code)
        assert [tuple(r) for r in stored if r[2]] == [(0, sha(laptop_token), True)]  # a hash only
        # The phone's open socket is closed as a bad token (its page then watches) ...
        assert await closed_with(on_phone) == 4401
        await on_phone.close()
        # ... and its token acts no more, over HTTP or a new socket.
        refused = await act_http(server.url, code, phone_token)
        assert refused.status_code == 401 and code_of(refused) == "bad_token"
        again = await Client(server.url, phone_token).connect(code)
        assert await closed_with(again) == 4401
        assert [m["code"] for m in again.messages if m["type"] == "error"] == ["bad_token"]
        await again.close()

        # The laptop plays the seat: its socket is seat 0's, and a move of hers is taken.
        on_laptop = await Client(server.url, laptop_token, 0).connect(code)
        state = await on_laptop.at_version(0)
        assert state["seat"] == 0 and state["legal"]
        ack = await on_laptop.act(state["legal"][0], version=state["version"])
        assert ack["type"] == "ack", ack

        # The phone (same profile) takes it back with the same one click.
        back = await phone.post(f"/api/rooms/{code}/seat-here")
        assert back.status_code == 200, back.text
        assert await closed_with(on_laptop) == 4401
        await on_laptop.close()
        refused = await act_http(server.url, code, laptop_token)
        assert refused.status_code == 401 and code_of(refused) == "bad_token"
        async with httpx.AsyncClient(base_url=server.url) as http:
            view = await http.get(
                f"/api/rooms/{code}/state",
                headers={"Authorization": f"Bearer {back.json()['token']}"},
            )
        # Hers again, with the pick the laptop made in it.
        assert view.status_code == 200 and view.json()["seat"] == 0
        assert view.json()["view"]["picks"][0] not in (None, "hidden"), view.json()["view"]


async def test_only_her_own_seats_and_only_from_her_own_pages(
    server: ThreadServer, database: Any
) -> None:
    async with browser(server) as ana, browser(server) as bea, browser(server) as guest:
        await ana.post("/api/profile", json={"name": "Ana"})
        await bea.post("/api/profile", json={"name": "Bea"})
        code, ana_token = await new_room(ana, "Ana")
        bea_token = await join(bea, code, "Bea")
        bot = await ana.post(
            f"/api/rooms/{code}/bots",
            json={"level": "random"},
            headers={"Authorization": f"Bearer {ana_token}"},
        )
        assert bot.status_code == 200, bot.text
        before = [tuple(r) for r in await stored_seats(database, code)]

        # No profile: 401. Another profile's seat, or a seat number not hers: 404.
        nobody = await guest.post(f"/api/rooms/{code}/seat-here", json={})
        assert nobody.status_code == 401 and code_of(nobody) == "no_profile"
        for body in ({"seat": 0}, {"seat": 2}, {"seat": 7}):
            refused = await bea.post(f"/api/rooms/{code}/seat-here", json=body)
            assert refused.status_code == 404 and code_of(refused) == "no_profile_seat", body
        unknown = await bea.post("/api/rooms/NoSuchRoom123/seat-here", json={})
        assert unknown.status_code == 404 and code_of(unknown) == "room_not_found"
        bad = await bea.post(f"/api/rooms/{code}/seat-here", json={"seat": -1})
        assert bad.status_code == 422
        # Another site's page, with her cookie: refused before anything changes.
        forged = await bea.post(f"/api/rooms/{code}/seat-here", json={}, headers={"Origin": EVIL})
        assert forged.status_code == 403 and code_of(forged) == "bad_origin"
        assert [tuple(r) for r in await stored_seats(database, code)] == before
        assert before[1][1] == sha(bea_token)
        # Her own seat, by number, from her own page: a fresh token for it.
        mine = await bea.post(f"/api/rooms/{code}/seat-here", json={"seat": 1})
        assert mine.status_code == 200 and mine.json()["seat"] == 1
        after = [tuple(r) for r in await stored_seats(database, code)]
        assert after == [before[0], (1, sha(mine.json()["token"]), True), before[2]]
        # Before the start too: the old token no longer holds the seat (leaving needs it).
        left = await bea.post(
            f"/api/rooms/{code}/leave", headers={"Authorization": f"Bearer {bea_token}"}
        )
        assert left.status_code == 401 and code_of(left) == "bad_token"


async def test_a_deleted_profile_is_a_former_player_in_a_live_room(server: ThreadServer) -> None:
    async with browser(server) as ana, browser(server) as bea:
        await ana.post("/api/profile", json={"name": "Ana"})
        code, ana_token = await new_room(ana, "Ana", rounds=3)
        bea_token = await join(bea, code, "Bea")
        await ana.post(f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {ana_token}"})
        assert (await bea.get(f"/api/rooms/{code}")).json()["name"] == "Ana's table"
        watching = await Client(server.url, bea_token, 1).connect(code)
        await watching.at_version(0)
        # The room's copy in this worker holds her name now (the socket's presence shows it).
        await watching.until(
            lambda: any(
                m["type"] == "presence" and m["seats"][0]["name"] == "Ana"
                for m in watching.messages
            )
        )
        seen = len(watching.messages)
        assert (await ana.delete("/api/profile")).status_code == 204
        presence = await watching.next_of("presence", seen)
        assert presence["seats"][0]["former"] is True
        assert presence["seats"][0]["name"] == "A former player"
        assert presence["seats"][1]["former"] is False and presence["seats"][1]["name"] == "Bea"
        room = (await bea.get(f"/api/rooms/{code}")).json()
        assert room["name"] == "A former player's table"  # it was named after her
        assert [(s["name"], s["former"]) for s in room["seats"]] == [
            ("A former player", True),
            ("Bea", False),
        ]
        await watching.close()


# -- two workers -------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_worker_without_sockets_in_the_room_forgets_the_old_token(
    two_workers: tuple[ProcessServer, ProcessServer],
) -> None:
    """Worker B served the phone's moves over HTTP (so it holds the room's copy, with no socket
    there to hear the room's channel); the laptop takes the seat through worker A; B refuses
    the phone's token from then on."""
    a, b = two_workers
    host = f"127.0.0.1:{a.port}"
    on_a = httpx.AsyncClient(base_url=a.url, headers={"Origin": f"http://{host}"}, timeout=10)
    laptop = httpx.AsyncClient(base_url=a.url, headers={"Origin": f"http://{host}"}, timeout=10)
    async with on_a as phone, laptop:
        assert (await phone.post("/api/profile", json={"name": "Ana"})).status_code == 201
        code, phone_token = await new_room(phone, "Ana", rounds=5)
        bea_token = await join(phone, code, "Bea")
        await phone.post(
            f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {phone_token}"}
        )
        await device_link(phone, laptop)
        # B reads the room (and the phone's token) into its copy.
        assert (await act_http(b.url, code, phone_token)).status_code == 200
        assert (await act_http(b.url, code, bea_token)).status_code == 200
        taken = await laptop.post(f"/api/rooms/{code}/seat-here", json={})
        assert taken.status_code == 200, taken.text
        deadline = asyncio.get_running_loop().time() + 5
        while True:
            async with httpx.AsyncClient(base_url=b.url) as http:
                seen = await http.get(
                    f"/api/rooms/{code}/state",
                    headers={"Authorization": f"Bearer {phone_token}"},
                )
            if seen.status_code == 401:
                break
            assert asyncio.get_running_loop().time() < deadline, "B still trusts the old token"
            await asyncio.sleep(0.05)
        assert code_of(seen) == "bad_token"
        async with httpx.AsyncClient(base_url=b.url) as http:
            mine = await http.get(
                f"/api/rooms/{code}/state",
                headers={"Authorization": f"Bearer {taken.json()['token']}"},
            )
        assert mine.status_code == 200 and mine.json()["seat"] == 0

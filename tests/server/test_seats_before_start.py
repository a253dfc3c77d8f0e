"""Before the start the host can empty a bot's seat or an absent player's, and a player can
leave hers; the gaps fill with the next join and close up at the start (app/README.md,
"Seats"). Runs on SQLite and PostgreSQL (the ``server`` fixture)."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.support.client import Client, open_room
from tests.support.server import ThreadServer

GAME = "test-guess"


async def room(client: Client, code: str) -> dict[str, Any]:
    response = await client.http.get(f"/api/rooms/{code}")
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


def seated(info: dict[str, Any]) -> list[tuple[int, str]]:
    return [(s["seat"], s["name"]) for s in info["seats"]]


def error(response: Any) -> str:
    code: str = response.json()["error"]["code"]
    return code


async def test_the_host_removes_a_bot_and_the_next_join_fills_its_seat(
    server: ThreadServer,
) -> None:
    code, (host, bea) = await open_room(server.url, GAME, ["Ada", "Bea"])
    bot = await host.http.post(f"/api/rooms/{code}/bots", json={})
    assert bot.status_code == 200 and bot.json()["seat"] == 2
    removed = await host.http.delete(f"/api/rooms/{code}/seats/2")
    assert removed.status_code == 200, removed.text
    assert seated(removed.json()) == [(0, "Ada"), (1, "Bea")]
    again = await host.http.delete(f"/api/rooms/{code}/seats/2")
    assert again.status_code == 404 and error(again) == "no_such_seat"
    joined = await host.http.post(f"/api/rooms/{code}/join", json={"name": "Cy"})
    assert joined.json()["seat"] == 2
    # A gap fills first, and a bot is named after the seat it takes (no two share a name).
    assert (await bea.http.post(f"/api/rooms/{code}/leave")).status_code == 200
    refill = await host.http.post(f"/api/rooms/{code}/bots", json={})
    assert refill.json()["seat"] == 1
    assert seated(refill.json()["room"]) == [(0, "Ada"), (1, "Bot 2"), (2, "Cy")]
    await host.close()
    await bea.close()


async def test_an_absent_player_is_removed_a_connected_one_is_not(server: ThreadServer) -> None:
    code, (host, bea, cy) = await open_room(server.url, GAME, ["Ada", "Bea", "Cy"])
    await bea.connect(code)
    await bea.until(lambda: any(m["type"] == "presence" for m in bea.messages), what="presence")
    refused = await host.http.delete(f"/api/rooms/{code}/seats/1")
    assert refused.status_code == 409 and error(refused) == "seat_connected"
    # Cy never came: her seat is emptied, and Bea's page hears it at once.
    removed = await host.http.delete(f"/api/rooms/{code}/seats/2")
    assert removed.status_code == 200, removed.text
    await bea.until(
        lambda: any(
            m["type"] == "presence" and [s["seat"] for s in m["seats"]] == [0, 1]
            for m in bea.messages
        ),
        what="the room update",
    )
    # Her token holds no seat any more.
    gone = await cy.http.get(f"/api/rooms/{code}/state")
    assert gone.status_code == 401 and error(gone) == "bad_token"
    own = await host.http.delete(f"/api/rooms/{code}/seats/0")
    assert own.status_code == 409 and error(own) == "host_seat"
    for client in (host, bea, cy):
        await client.close()


async def test_only_the_host_removes_and_only_before_the_start(server: ThreadServer) -> None:
    code, (host, bea, cy) = await open_room(server.url, GAME, ["Ada", "Bea", "Cy"])
    by_guest = await bea.http.delete(f"/api/rooms/{code}/seats/2")
    assert by_guest.status_code == 403 and error(by_guest) == "not_host"
    anonymous = await Client(server.url).http.delete(f"/api/rooms/{code}/seats/2")
    assert anonymous.status_code == 401
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    late = await host.http.delete(f"/api/rooms/{code}/seats/2")
    assert late.status_code == 409 and error(late) == "already_started"
    late_leave = await cy.http.post(f"/api/rooms/{code}/leave")
    assert late_leave.status_code == 409 and error(late_leave) == "already_started"
    assert len((await room(host, code))["seats"]) == 3
    for client in (host, bea, cy):
        await client.close()


async def test_a_player_leaves_and_the_start_closes_the_gap(server: ThreadServer) -> None:
    code, (host, bea, cy) = await open_room(server.url, GAME, ["Ada", "Bea", "Cy"])
    await cy.connect(code)
    await cy.until(lambda: cy.state is None and bool(cy.messages), what="first message")
    await bea.connect(code)
    await bea.until(lambda: bool(bea.messages), what="first message")
    left = await bea.http.post(f"/api/rooms/{code}/leave")
    assert left.status_code == 200, left.text
    # Her open socket is closed as a lost seat: her page goes on as a spectator.
    assert bea.ws is not None
    await asyncio.wait_for(bea.ws.wait_closed(), 5)
    assert bea.ws.close_code == 4401
    assert seated(left.json()) == [(0, "Ada"), (2, "Cy")]
    host_leaves = await host.http.post(f"/api/rooms/{code}/leave")
    assert host_leaves.status_code == 409 and error(host_leaves) == "host_cannot_leave"
    spectator = await Client(server.url).http.post(f"/api/rooms/{code}/leave")
    assert spectator.status_code == 401
    # The match numbers its seats 0…n-1: Cy moves up to seat 1, and her open socket with her.
    started = await host.http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text
    assert seated(await room(host, code)) == [(0, "Ada"), (1, "Cy")]
    await cy.until(lambda: cy.state is not None, what="the first state")
    assert cy.state is not None and cy.state["seat"] == 1
    mine = await cy.http.get(f"/api/rooms/{code}/state")
    assert mine.status_code == 200 and mine.json()["seat"] == 1
    for client in (host, bea, cy):
        await client.close()


async def test_the_host_changes_the_seat_order_and_open_sockets_follow(
    server: ThreadServer,
) -> None:
    code, (host, bea, cy) = await open_room(server.url, GAME, ["Ada", "Bea", "Cy"])
    await cy.connect(code)
    await cy.until(lambda: bool(cy.messages), what="first message")
    moved = await host.http.post(f"/api/rooms/{code}/seats/2/move", json={"to": 1})
    assert moved.status_code == 200, moved.text
    assert seated(moved.json()) == [(0, "Ada"), (1, "Cy"), (2, "Bea")]
    await cy.until(lambda: {"type": "seat", "seat": 1} in cy.messages, what="Cy told her new seat")
    # To a free seat; the host's seat is hers; only the host; a seat that is empty.
    to_free = await host.http.post(f"/api/rooms/{code}/seats/2/move", json={"to": 3})
    assert seated(to_free.json()) == [(0, "Ada"), (1, "Cy"), (3, "Bea")]
    to_host = await host.http.post(f"/api/rooms/{code}/seats/1/move", json={"to": 0})
    assert to_host.status_code == 422 and error(to_host) == "bad_seat"
    by_guest = await bea.http.post(f"/api/rooms/{code}/seats/1/move", json={"to": 2})
    assert by_guest.status_code == 403 and error(by_guest) == "not_host"
    empty = await host.http.post(f"/api/rooms/{code}/seats/2/move", json={"to": 1})
    assert empty.status_code == 404 and error(empty) == "no_such_seat"
    # The start closes the gap: Bea (seat 3) plays as seat 2.
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    assert (await bea.http.get(f"/api/rooms/{code}/state")).json()["seat"] == 2
    late = await host.http.post(f"/api/rooms/{code}/seats/2/move", json={"to": 1})
    assert late.status_code == 409 and error(late) == "already_started"
    for client in (host, bea, cy):
        await client.close()

"""Limits that fit households and NAT (issue 23, item 5).

Every test client here comes from 127.0.0.1: three seats at one table are three people of one
house behind one address. A seat's chat is limited per socket and per seat, never per
address, so one of them flooding does not silence the others; spectators (anonymous) still
share an allowance per address. A ``client_id`` reused for another action is refused
(``client_id_reused``), the same action again stays a ``duplicate``. Forwarded addresses are
believed only from the proxies the operator names (``COVEN_TRUSTED_PROXIES``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.settings import Settings
from tests.server.hardening import sqlite_with
from tests.support.client import Client, open_room
from tests.support.server import ProcessServer, ThreadServer


def _chat_lines(client: Client, since: int) -> list[str]:
    return [m["text"] for m in client.messages[since:] if m["type"] == "chat"]


def _refusals(client: Client, code: str) -> int:
    return sum(m["type"] == "error" and m.get("code") == code for m in client.messages)


async def test_three_seats_on_one_address_one_flooding_chat_does_not_stop_the_others(
    tmp_path: Path,
) -> None:
    settings = sqlite_with(tmp_path)  # the default limits: 5 a socket, 10 a seat per 10 s
    with ThreadServer(settings) as server:
        code, (ana, bea, cat) = await open_room(server.url, "test-guess", ["Ana", "Bea", "Cat"])
        # Ana floods from two tabs (two sockets of her seat); Bea and Cat chat as usual.
        ana_again = Client(server.url, ana.token, 0)
        watcher = Client(server.url)  # a spectator, to read what the room gets
        for client in (ana, ana_again, bea, cat, watcher):
            await client.connect(code)
        await watcher.until(lambda: any(m["type"] == "presence" for m in watcher.messages))
        mark = len(watcher.messages)

        async def flood(client: Client, tab: str) -> None:
            for i in range(30):
                await client.send({"type": "chat", "text": f"flood {tab}{i}"})

        await asyncio.gather(flood(ana, "a"), flood(ana_again, "b"))
        for i in range(4):
            await bea.send({"type": "chat", "text": f"Bea {i}"})
            await cat.send({"type": "chat", "text": f"Cat {i}"})
        said = [f"{who} {i}" for who in ("Bea", "Cat") for i in range(4)]
        await watcher.until(
            lambda: set(said) <= set(_chat_lines(watcher, mark)), what="Bea's and Cat's lines"
        )

        # Every one of Ana's 60 lines is answered: said to the room, or refused to her.
        def answered() -> tuple[int, int]:
            refused = _refusals(ana, "rate_limited") + _refusals(ana_again, "rate_limited")
            return refused, sum(line.startswith("flood") for line in _chat_lines(watcher, mark))

        for _ in range(300):
            if sum(answered()) == 60:
                break
            await asyncio.sleep(0.1)
        assert sum(answered()) == 60, answered()
        lines = _chat_lines(watcher, mark)
        # Ana was stopped at her seat's allowance, Bea and Cat never refused.
        assert 0 < sum(line.startswith("flood") for line in lines) <= settings.chat_seat_burst
        assert _refusals(ana, "rate_limited") + _refusals(ana_again, "rate_limited") > 0
        assert _refusals(bea, "rate_limited") == _refusals(cat, "rate_limited") == 0
        assert [m for m in (*bea.messages, *cat.messages) if m["type"] == "error"] == []

        # Spectators are anonymous: theirs is one allowance per address, which a seat's
        # lines never use (Bea chats on while the house's spectators are cut off).
        spectators = [Client(server.url) for _ in range(3)]
        for client in spectators:
            await client.connect(code)
        for n, client in enumerate(spectators):
            for i in range(5):
                await client.send({"type": "chat", "text": f"watch {n}.{i}"})
        await bea.send({"type": "chat", "text": "Bea again"})
        await watcher.until(lambda: "Bea again" in _chat_lines(watcher, mark))

        def watched() -> tuple[int, int]:
            refused = sum(_refusals(client, "rate_limited") for client in spectators)
            return refused, sum(line.startswith("watch") for line in _chat_lines(watcher, mark))

        for _ in range(300):
            if sum(watched()) == 15:
                break
            await asyncio.sleep(0.1)
        refused, said_by_spectators = watched()
        assert refused + said_by_spectators == 15
        assert refused > 0 and said_by_spectators <= settings.chat_client_burst
        assert _refusals(bea, "rate_limited") == 0
        for client in (ana, ana_again, bea, cat, watcher, *spectators):
            await client.close()


async def _started(server: ThreadServer) -> tuple[str, Client, Client]:
    code, (a, b) = await open_room(server.url, "test-guess", ["A", "B"])
    for client in (a, b):
        await client.connect(code)
    assert (await a.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await a.at_version(0)
    return code, a, b


async def test_a_client_id_reused_for_another_action_is_refused_over_http(
    sqlite_server: ThreadServer,
) -> None:
    code, a, b = await _started(sqlite_server)
    url = f"/api/rooms/{code}/actions"
    first = {"action": {"type": "pick", "value": 1}, "client_id": "mine-1", "version": 0}
    ok = await a.http.post(url, json=first)
    assert ok.status_code == 200 and ok.json()["duplicate"] is False
    # The same action again: the same acknowledgement, marked duplicate.
    again = await a.http.post(url, json=first)
    assert again.status_code == 200, again.text
    assert again.json() == {**ok.json(), "duplicate": True}
    # Another action under that id: refused, and nothing changes.
    other = {**first, "action": {"type": "pick", "value": 2}}
    reused = await a.http.post(url, json=other)
    assert reused.status_code == 409, reused.text
    assert reused.json()["error"]["code"] == "client_id_reused"
    state = (await a.http.get(f"/api/rooms/{code}/state")).json()
    assert state["version"] == 1
    log = (await a.http.get(f"/api/rooms/{code}/log")).json()
    assert [e for e in log["events"] if e["type"] == "picked"] == [
        {"version": 1, "type": "picked", "seat": 0}
    ]
    # Another seat using it: client_id_taken, as before.
    taken = await b.http.post(url, json={**first, "action": {"type": "pick", "value": 3}})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "client_id_taken"
    for client in (a, b):
        await client.close()


async def test_a_client_id_reused_for_another_action_is_refused_over_the_socket(
    sqlite_server: ThreadServer,
) -> None:
    _, a, b = await _started(sqlite_server)
    ack = await a.act({"type": "pick", "value": 1}, version=0, client_id="sock-1")
    assert ack["type"] == "ack" and ack["duplicate"] is False
    same = await a.act({"type": "pick", "value": 1}, version=0, client_id="sock-1")
    assert same["type"] == "ack" and same["duplicate"] is True
    assert same["version"] == ack["version"]
    reused = await a.act({"type": "pick", "value": 3}, version=0, client_id="sock-1")
    assert reused["type"] == "error" and reused["code"] == "client_id_reused", reused
    # The table did not move for it: B's pick is the next version.
    assert (await b.act({"type": "pick", "value": 2}, version=1))["version"] == 2
    for client in (a, b):
        await client.close()


async def _room_statuses(url: str, addresses: list[str]) -> list[int]:
    statuses = []
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        for address in addresses:
            created = await http.post(
                "/api/rooms",
                json={"game": "test-guess", "name": "Host"},
                headers={"X-Forwarded-For": address},
            )
            statuses.append(created.status_code)
    return statuses


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
async def test_forwarded_addresses_count_only_from_named_proxies(
    tmp_path: Path, trusted: str | None
) -> None:
    """Two rooms per address (COVEN_ROOMS_BURST=2), six requests claiming three addresses.
    Not trusted (the default): every request is 127.0.0.1's, the third is refused. From a
    named proxy: each forwarded address has its own allowance."""
    env: dict[str, Any] = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_ROOMS_BURST": "2",
        "COVEN_ROOMS_PER_MINUTE": "1",
    }
    if trusted:
        env["COVEN_TRUSTED_PROXIES"] = trusted
    server = ProcessServer(env).start()
    try:
        statuses = await _room_statuses(
            server.url, ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2", "::1", "::1"]
        )
    finally:
        server.stop()
    if trusted:
        assert statuses == [201] * 6
    else:
        assert statuses == [201, 201, 429, 429, 429, 429]


def test_trusted_proxies_must_be_addresses_or_networks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COVEN_TRUSTED_PROXIES", "10.0.0.0/8, 192.168.1.7 ,::1")
    assert Settings.from_env().trusted_proxies == ("10.0.0.0/8", "192.168.1.7", "::1")
    for wrong in ("caddy", "10.0.0.1/8", "300.1.1.1"):
        monkeypatch.setenv("COVEN_TRUSTED_PROXIES", wrong)
        with pytest.raises(ValueError, match="COVEN_TRUSTED_PROXIES"):
            Settings.from_env()

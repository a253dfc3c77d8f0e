"""Web Push end to end over a real server: a seat opts in on a device, the host moves, and the
push reaches a push service stood up on 127.0.0.1 (tests/support/push_service.py), which checks
the server's VAPID signature and decrypts the payload as the browser would.

The room: Ana (seat 0, the host) and Bob (seat 1, the subscriber). Ana adds and ends her turn,
so it becomes Bob's."""

from __future__ import annotations

import asyncio
import base64
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.clock import SystemClock
from app.notify.vapid import load_or_make
from app.settings import Settings
from app.store.database import Database
from app.store.db import make_engine, migrate
from engine import registry
from tests.server.conftest import sqlite_settings
from tests.support.client import Client, open_room
from tests.support.push_service import Device, PushService
from tests.support.server import ThreadServer
from tests.support.turns import TurnsGame

TITLE = TurnsGame.title


@pytest.fixture(autouse=True)
def turns_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, TurnsGame.id, TurnsGame())


def push_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "webhook_allow_private": True,  # the push service is on 127.0.0.1
        "notify_sweep_seconds": 0.2,
        "notify_backoff": (0.2, 0.2),
        **overrides,
    }
    return sqlite_settings(tmp_path, **values)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(push_settings(tmp_path)) as running:
        yield running


@pytest.fixture
def push(server: ThreadServer) -> Iterator[PushService]:
    key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    with PushService(server_key=key) as service:
        yield service


def rows(tmp_path: Path, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "coven.db") as db:
        return db.execute(sql, args).fetchall()


async def opt_in(client: Client, code: str, device: Device, lang: str = "en") -> httpx.Response:
    return await client.http.post(
        f"/api/rooms/{code}/push", json={"subscription": device.subscription(), "lang": lang}
    )


async def act(client: Client, code: str, action: dict[str, Any]) -> None:
    response = await client.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": action, "client_id": f"c{time.monotonic_ns()}"},
    )
    assert response.status_code == 200, response.text


async def play_turn(client: Client, code: str) -> None:
    await act(client, code, {"type": "add", "value": 1})
    await act(client, code, {"type": "end"})


async def until(predicate: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def test_the_push_is_signed_encrypted_and_says_whose_turn(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    device = push.device()
    answer = await opt_in(bob, code, device)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"seat": 1, "subscribed": True}
    assert (await ana.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await play_turn(ana, code)

    (delivery,) = push.wait_for(device)
    assert delivery.problems == []
    assert delivery.status == 201
    assert delivery.payload == {
        "title": f"Your turn — {TITLE} with Ana",
        "body": "Open the table to play your move.",
        "url": f"/r/{code}",
        "tag": f"coven-{code}",
    }
    assert delivery.claims is not None and delivery.claims["aud"] == push.origin
    assert delivery.headers["ttl"] == str(24 * 3600)
    await until(
        lambda: rows(tmp_path, "SELECT outcome FROM notifications") == [("sent",)],
        "the notification recorded as sent",
    )
    # Once: nothing else reaches the device while the turn is Bob's.
    await asyncio.sleep(0.6)
    assert len(push.to(device)) == 1
    await ana.close()
    await bob.close()


async def test_the_push_speaks_the_devices_language(
    server: ThreadServer, push: PushService
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    device = push.device()
    assert (await opt_in(bob, code, device, lang="es-AR")).status_code == 200
    await ana.http.post(f"/api/rooms/{code}/start")
    await play_turn(ana, code)
    (delivery,) = push.wait_for(device)
    assert delivery.payload is not None
    assert delivery.payload["title"] == f"Te toca — {TITLE} con Ana"
    await ana.close()
    await bob.close()


async def test_a_subscription_the_service_says_is_gone_is_removed(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    gone, kept = push.device(status=410), push.device()
    assert (await opt_in(bob, code, gone)).status_code == 200
    assert (await opt_in(bob, code, kept)).status_code == 200
    assert len(rows(tmp_path, "SELECT id FROM push_subscriptions")) == 2
    await ana.http.post(f"/api/rooms/{code}/start")
    await play_turn(ana, code)

    push.wait_for(gone)
    push.wait_for(kept)
    await until(
        lambda: rows(tmp_path, "SELECT endpoint FROM push_subscriptions") == [(kept.endpoint,)],
        "the gone subscription deleted",
    )
    # (each outcome is recorded a moment after the service answered)
    await until(
        lambda: (
            sorted(str(o) for (o,) in rows(tmp_path, "SELECT outcome FROM notifications"))
            == ["gone", "sent"]
        ),
        "both outcomes recorded",
    )

    # Bob's next turn: only the device still subscribed hears of it.
    await play_turn(bob, code)
    await play_turn(ana, code)
    assert len(push.wait_for(kept, 2)) == 2
    await asyncio.sleep(0.5)
    assert len(push.to(gone)) == 1
    await ana.close()
    await bob.close()


async def test_a_seat_with_a_tab_in_view_gets_no_push(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    device = push.device()
    assert (await opt_in(bob, code, device)).status_code == 200
    await bob.connect(code)  # a socket counts as in view until its page says otherwise
    await bob.request({"type": "ping"}, "pong")  # (joined to the room by now)
    await ana.http.post(f"/api/rooms/{code}/start")
    await play_turn(ana, code)
    await until(
        lambda: (
            rows(tmp_path, "SELECT outcome, last_error FROM notifications")
            == [("skipped", "a tab is in view")]
        ),
        "the push skipped",
    )
    assert push.to(device) == []

    # Bob's page goes to the background: his next turn reaches the device.
    await bob.send({"type": "visible", "visible": False})
    await bob.request({"type": "ping"}, "pong")  # one socket's messages are handled in order
    await play_turn(bob, code)
    await play_turn(ana, code)
    (delivery,) = push.wait_for(device)
    assert delivery.problems == [] and delivery.status == 201
    await ana.close()
    await bob.close()


async def test_a_service_that_fails_is_tried_again(tmp_path: Path) -> None:
    with ThreadServer(push_settings(tmp_path, notify_backoff=(0.3, 0.3, 0.3))) as server:
        key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
        with PushService(server_key=key) as push:
            code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
            device = push.device(status=503)
            assert (await opt_in(bob, code, device)).status_code == 200
            await ana.http.post(f"/api/rooms/{code}/start")
            await play_turn(ana, code)
            push.wait_for(device, 2)  # a 503, then another try
            device.status = 201
            deliveries = push.wait_for(device, 3)
            assert [d.status for d in deliveries[:3]] == [503, 503, 201]
            await until(
                lambda: rows(tmp_path, "SELECT outcome FROM notifications") == [("sent",)],
                "the notification sent at last",
            )
            # The subscription stays: a failing service is not a gone subscription.
            assert len(rows(tmp_path, "SELECT id FROM push_subscriptions")) == 1
            await ana.close()
            await bob.close()


async def test_a_redirect_is_not_followed(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    elsewhere = push.device()
    device = push.device(status=307)
    device.location = elsewhere.endpoint
    assert (await opt_in(bob, code, device)).status_code == 200
    await ana.http.post(f"/api/rooms/{code}/start")
    await play_turn(ana, code)
    push.wait_for(device)
    await until(
        lambda: rows(tmp_path, "SELECT outcome FROM notifications") == [("failed",)],
        "the push given up",
    )
    (error,) = rows(tmp_path, "SELECT last_error FROM notifications")
    assert "redirect" in error[0]
    assert push.to(elsewhere) == []
    assert len(push.to(device)) == 1  # refused for good: not tried again
    assert len(rows(tmp_path, "SELECT id FROM push_subscriptions")) == 1
    await ana.close()
    await bob.close()


BAD_SUBSCRIPTIONS: list[tuple[str, Any]] = [
    ("not an object", "https://push.example/x"),
    ("no keys", {"endpoint": "https://push.example/x"}),
    ("not a URL", {"endpoint": "push.example/x", "keys": {}}),
    ("ftp", {"endpoint": "ftp://push.example/x", "keys": {}}),
    ("endpoint too long", {"endpoint": "https://push.example/" + "x" * 1000, "keys": {}}),
]


def _keys(device: Device, **change: str) -> dict[str, Any]:
    sub = device.subscription()
    sub["keys"] = {**sub["keys"], **change}
    return sub


async def test_a_malformed_subscription_is_refused_and_changes_nothing(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    device = push.device()
    point = device.p256dh
    cases = [
        *BAD_SUBSCRIPTIONS,
        ("p256dh compressed", _keys(device, p256dh="A" + point[1:44])),
        ("p256dh short", _keys(device, p256dh=point[:80])),
        ("p256dh off the curve", _keys(device, p256dh="BA" + "A" * 85)),
        ("p256dh not base64url", _keys(device, p256dh=point[:-2] + "+/")),
        ("auth of 15 bytes", _keys(device, auth="A" * 20)),
        ("auth missing", {"endpoint": device.endpoint, "keys": {"p256dh": point}}),
    ]
    for what, subscription in cases:
        answer = await bob.http.post(f"/api/rooms/{code}/push", json={"subscription": subscription})
        assert answer.status_code == 422, (what, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "bad_subscription", (what, error)
        assert error["message"], what
    assert rows(tmp_path, "SELECT id FROM push_subscriptions") == []

    # Who may opt in: a seat's token, not a spectator or a wrong token.
    anonymous = httpx.AsyncClient(base_url=server.url)
    spectator = await anonymous.post(
        f"/api/rooms/{code}/push", json={"subscription": device.subscription()}
    )
    assert spectator.status_code == 403 and spectator.json()["error"]["code"] == "spectator"
    wrong = await anonymous.post(
        f"/api/rooms/{code}/push",
        json={"subscription": device.subscription()},
        headers={"Authorization": "Bearer not-a-token"},
    )
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "bad_token"
    nowhere = await bob.http.post(
        "/api/rooms/AAAAAAAAAAAAAAAA/push", json={"subscription": device.subscription()}
    )
    assert nowhere.status_code == 404
    await anonymous.aclose()
    assert rows(tmp_path, "SELECT id FROM push_subscriptions") == []
    await ana.close()
    await bob.close()


async def test_a_private_or_plain_http_endpoint_is_refused_by_default(tmp_path: Path) -> None:
    with ThreadServer(sqlite_settings(tmp_path)) as server, PushService() as push:
        code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
        device = push.device()
        plain = await opt_in(bob, code, device)  # http://127.0.0.1:…
        assert plain.status_code == 422
        assert plain.json()["error"]["code"] == "bad_subscription"
        private = device.subscription()
        private["endpoint"] = private["endpoint"].replace("http://", "https://")
        refused = await bob.http.post(f"/api/rooms/{code}/push", json={"subscription": private})
        assert refused.status_code == 422
        assert refused.json()["error"]["code"] == "private_address"
        assert rows(tmp_path, "SELECT id FROM push_subscriptions") == []
        await ana.close()
        await bob.close()


async def test_opting_in_again_refreshes_and_opting_out_removes(
    server: ThreadServer, push: PushService, tmp_path: Path
) -> None:
    code, (ana, bob) = await open_room(server.url, "test-turns", ["Ana", "Bob"])
    device = push.device()
    assert (await opt_in(bob, code, device, lang="en")).status_code == 200
    assert (await opt_in(bob, code, device, lang="vi")).status_code == 200
    assert rows(tmp_path, "SELECT lang FROM push_subscriptions") == [("vi",)]
    out = await bob.http.request(
        "DELETE", f"/api/rooms/{code}/push", json={"endpoint": device.endpoint}
    )
    assert out.status_code == 200 and out.json() == {"seat": 1, "subscribed": False}
    assert rows(tmp_path, "SELECT id FROM push_subscriptions") == []
    # Opted out before the turn came: nothing reaches the device.
    await ana.http.post(f"/api/rooms/{code}/start")
    await play_turn(ana, code)
    await asyncio.sleep(1.0)
    assert push.to(device) == []
    await ana.close()
    await bob.close()


async def test_the_vapid_key_survives_a_restart(tmp_path: Path) -> None:
    settings = push_settings(tmp_path)
    with ThreadServer(settings) as server:
        first = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    with ThreadServer(settings) as server:
        again = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    assert again == first
    point = first.encode() + b"=" * (-len(first) % 4)
    raw = base64.urlsafe_b64decode(point)
    assert len(raw) == 65 and raw[0] == 4  # an uncompressed P-256 point
    assert rows(tmp_path, "SELECT name FROM server_keys") == [("vapid",)]


async def test_two_workers_starting_at_once_keep_one_key(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}"
    await asyncio.to_thread(migrate, url, None)
    workers = [Database(make_engine(url, None)) for _ in range(2)]
    try:
        keys = await asyncio.gather(*(load_or_make(db, SystemClock()) for db in workers))
    finally:
        for db in workers:
            await db.engine.dispose()
    assert keys[0].public_key == keys[1].public_key
    assert rows(tmp_path, "SELECT count(*) FROM server_keys") == [(1,)]


async def test_the_service_worker_is_served_at_the_root(server: ThreadServer) -> None:
    answer = httpx.get(f"{server.url}/sw.js")
    assert answer.status_code == 200
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "no-cache" in answer.headers["cache-control"]
    assert 'addEventListener("push"' in answer.text
    assert 'addEventListener("notificationclick"' in answer.text

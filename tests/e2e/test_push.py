"""Web Push in Chromium: the room page's opt-in, the service worker showing a push, and its click.

Bob (seat 1) opts in on his laptop: the browser's permission is granted to the context, the
button registers /sw.js. A Playwright context is an incognito profile, where Chromium has no
Push API (crbug.com/41124656: ``pushManager.subscribe`` fails; a normal profile without the
internet never answers), so the page says it could not reach its push service — and the test
subscribes through the server's API instead, with a device of the push service it stands up on
127.0.0.1 (tests/support/push_service.py). It becomes Bob's turn while no tab of his is open:
the server pushes, the stand-in checks the signature and decrypts the payload, and the test
hands that very payload to the service worker with the DevTools protocol
(``ServiceWorker.deliverPushMessage``, what the push service's delivery would be). The
notification is then shown.

The click: neither the DevTools protocol nor Playwright can click a notification (the
ServiceWorker domain delivers push, sync and periodic sync events only). So the test dispatches
a ``NotificationEvent("notificationclick")`` holding the shown notification in the service
worker, and records what its real handler asks of the browser (``clients.openWindow`` and
``WindowClient.focus`` are wrapped to note their calls: the browser refuses both to an event it
did not fire itself). With no tab on the table it opens ``/r/<code>``, which, opened, is Bob's
seat; with one, it focuses that tab instead.

Pictures: /tmp/shots/h2_*.png (laptop 1366×900, phone 375×812).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.conftest import CHROMIUM_ARGS
from tests.e2e.players import Player, assert_fits_the_screen, new_player, wait_until
from tests.support.push_service import Delivery, Device, PushService
from tests.support.server import ProcessServer

pytestmark = [
    pytest.mark.e2e,
    # Chromium's own words when the page asks an incognito profile for a subscription.
    pytest.mark.console_errors_allowed("does not support the Push API in incognito mode"),
]

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
SHOTS = Path("/tmp/shots")

REGISTRATION = "navigator.serviceWorker.getRegistration('/')"
NOTIFICATIONS_JS = f"""async () => {{
  const registration = await {REGISTRATION};
  const shown = registration ? await registration.getNotifications() : [];
  return shown.map((n) => ({{ title: n.title, body: n.body, tag: n.tag, data: n.data }}));
}}"""
# In the service worker: note what the click handler asks of the browser, then click.
CLICK_JS = """async () => {
  const asked = (self.__asked = []);
  self.clients.openWindow = async (url) => { asked.push(["open", url]); return null; };
  WindowClient.prototype.focus = async function () {
    asked.push(["focus", this.url]);
    return this;
  };
  const [notification] = await self.registration.getNotifications();
  if (!notification) return null;
  self.dispatchEvent(new NotificationEvent("notificationclick", { notification }));
  for (let i = 0; i < 100 && !asked.length; i += 1) await new Promise((r) => setTimeout(r, 20));
  return asked;
}"""


@pytest.fixture(scope="module")
def push_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that may push to 127.0.0.1 (where the stand-in push service is)."""
    db = tmp_path_factory.mktemp("push") / "push.db"
    server = ProcessServer(
        {
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
            "COVEN_WEBHOOK_ALLOW_PRIVATE": "1",
            "COVEN_BOT_DELAY": "0.05",
            "COVEN_NOTIFY_SWEEP_SECONDS": "0.2",
        }
    )
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def push_service(push_server: str) -> Iterator[PushService]:
    key = httpx.get(f"{push_server}/api/push/key").json()["public_key"]
    with PushService(server_key=key) as service:
        yield service


def bob_at_the_table(browser: Any, room: HostedRoom, token: str, **context: Any) -> Player:
    player = new_player(browser, "Bob", **context)
    player.page.context.grant_permissions(["notifications"], origin=room.url)
    player.page.goto(room.seat_url(token, 1))
    wait_until(player.page, "document.body.dataset.ready === '1'")
    player.page.wait_for_selector("#push-box[data-state]", state="attached")
    player.page.evaluate("document.getElementById('seats-panel').open = true")
    return player


def first_push(service: PushService, device: Device, room: HostedRoom) -> Delivery:
    """The push the server sends Bob's device once it is his turn (Ana moves till it is)."""
    rng = random.Random(7)
    deadline = time.monotonic() + 30
    while not service.to(device):
        assert time.monotonic() < deadline, "no push reached Bob's device"
        if 1 not in room.state()["to_move"]:
            room.play_moves([room.token], 1, rng)
        time.sleep(0.1)
    (delivery,) = service.wait_for(device)
    return delivery


def registration_id(player: Player, origin: str) -> tuple[Any, str]:
    cdp = player.page.context.new_cdp_session(player.page)
    found: list[dict[str, Any]] = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda e: found.extend(e["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 5
    while True:
        live = [r for r in found if r["scopeURL"] == f"{origin}/" and not r["isDeleted"]]
        if live:
            return cdp, live[-1]["registrationId"]
        assert time.monotonic() < deadline, f"no service worker registration for {origin}"
        player.page.wait_for_timeout(50)


def deliver(
    player: Player, cdp: Any, origin: str, registration: str, payload: dict[str, Any]
) -> None:
    """The push service's delivery, by the DevTools protocol. A worker that is starting (or was
    stopped while idle) may miss one: deliver again until a notification shows (its tag makes a
    second copy replace the first, so at most one is ever shown)."""
    for _ in range(10):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": registration, "data": json.dumps(payload)},
        )
        player.page.wait_for_timeout(1500)
        if player.page.evaluate(NOTIFICATIONS_JS):
            return


def shown(player: Player, count: int = 1) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 15
    while True:
        notes: list[dict[str, Any]] = player.page.evaluate(NOTIFICATIONS_JS)
        if len(notes) >= count:
            return notes
        assert time.monotonic() < deadline, f"{len(notes)} notifications shown"
        player.page.wait_for_timeout(50)


def click(player: Player) -> list[list[str]]:
    (worker,) = player.page.context.service_workers
    asked: list[list[str]] = worker.evaluate(CLICK_JS)
    return asked


def test_a_push_shows_on_bobs_device_and_its_click_opens_the_table(
    push_server: str, push_service: PushService, browser: Any
) -> None:
    room = HostedRoom(push_server, "seasons", seats=2, name="Ana")
    bob_token = room.join("Bob")
    bob = bob_at_the_table(browser, room, bob_token, viewport=LAPTOP)
    page = bob.page
    assert (
        page.inner_text("[data-testid=push-toggle]") == "Notify me on this device when it's my turn"
    )

    # The opt-in: the service worker is registered, whatever the browser's push service does.
    page.click("[data-testid=push-toggle]")
    wait_until(page, "window.coven.push.mode !== 'busy'", seconds=30)
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == f"{push_server}/"
    if page.evaluate("window.coven.push.mode") == "off":
        # Incognito Chromium: no push service. Said plainly, under the button.
        note = page.inner_text("[data-testid=push-note]")
        assert "could not reach its notification service" in note
        assert page.is_visible("[data-testid=push-toggle]")

    # Bob's device, subscribed as the page would, through the server's API.
    device = push_service.device()
    answer = httpx.post(
        f"{push_server}/api/rooms/{room.code}/push",
        json={"subscription": device.subscription(), "lang": "en"},
        headers={"Authorization": f"Bearer {bob_token}"},
    )
    assert answer.status_code == 200, answer.text

    # Bob leaves the table (no tab of his in view); it becomes his turn.
    page.goto(f"{push_server}/")
    room.start()
    delivery = first_push(push_service, device, room)
    assert delivery.problems == [] and delivery.status == 201
    payload = delivery.payload
    assert payload is not None
    assert payload["title"] == "Your turn — Seasons with Ana"
    assert payload["url"] == f"/r/{room.code}"

    # The push service's delivery, by the DevTools protocol: the service worker shows it.
    cdp, registration = registration_id(bob, push_server)
    deliver(bob, cdp, push_server, registration, payload)
    (note,) = shown(bob)
    assert note == {
        "title": "Your turn — Seasons with Ana",
        "body": "Open the table to play your move.",
        "tag": f"coven-{room.code}",
        "data": {"url": f"{push_server}/r/{room.code}"},
    }

    # Its click, with no tab on the table: the table opens (and the notification goes).
    assert click(bob) == [["open", f"{push_server}/r/{room.code}"]]
    assert shown(bob, 0) == []
    table = page.context.new_page()
    table.goto(f"{push_server}/r/{room.code}")
    wait_until(table, "Boolean(window.coven.page.mine && window.coven.page.state)")
    assert table.evaluate("window.coven.page.mine.seat") == 1

    # With a tab on the table, a click brings that tab forward instead of opening another.
    deliver(bob, cdp, push_server, registration, payload)
    shown(bob)
    assert click(bob) == [["focus", f"{push_server}/r/{room.code}"]]
    room.close()


def test_the_opt_in_on_laptop_and_phone(push_server: str, browser: Any) -> None:
    room = HostedRoom(push_server, "seasons", seats=2, name="Ana")
    bob_token = room.join("Bob")
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop = bob_at_the_table(browser, room, bob_token, viewport=LAPTOP)
    assert laptop.page.is_visible("[data-testid=push-toggle]")
    laptop.page.locator("#notify-panel").scroll_into_view_if_needed()
    laptop.page.screenshot(path=str(SHOTS / "h2_laptop.png"))

    phone = bob_at_the_table(
        browser, room, bob_token, viewport=PHONE, is_mobile=True, has_touch=True
    )
    phone.page.click("[data-testid=push-toggle]")
    wait_until(phone.page, "window.coven.push.mode !== 'busy'", seconds=30)
    phone.page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    assert_fits_the_screen(phone)
    phone.page.screenshot(path=str(SHOTS / "h2_phone.png"))

    # Spanish, and a spectator: no opt-in for someone without a seat.
    watcher = new_player(browser, "watcher", viewport=LAPTOP)
    watcher.page.goto(f"{push_server}/r/{room.code}?lang=es")
    wait_until(watcher.page, "document.body.dataset.ready === '1'")
    watcher.page.wait_for_timeout(300)
    assert watcher.page.locator("[data-testid=push-toggle]").count() == 0
    room.close()


def test_without_a_secure_context_the_panel_says_why(
    push_server: str, browser: Any, chromium_path: str
) -> None:
    # The same server by a name that is not localhost, over http: no secure context.
    port = push_server.rsplit(":", 1)[1]
    insecure = browser.browser_type.launch(
        executable_path=chromium_path,
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP coven.test 127.0.0.1"],
    )
    try:
        room = HostedRoom(push_server, "seasons", seats=2, name="Ana")
        bob_token = room.join("Bob")
        context = insecure.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        errors: list[str] = []
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"http://coven.test:{port}/r/{room.code}?lang=vi#seat=1&token={bob_token}")
        wait_until(page, "document.body.dataset.ready === '1'")
        assert page.evaluate("window.isSecureContext") is False
        page.wait_for_selector("#push-box[data-state=unsupported]", state="attached")
        page.evaluate("document.getElementById('seats-panel').open = true")
        assert page.inner_text("[data-testid=push-unsupported]").startswith(
            "Thông báo trên thiết bị này cần một địa chỉ an toàn"
        )
        assert page.locator("[data-testid=push-toggle]").count() == 0
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "h2_phone_not_secure.png"))
        assert errors == []
        room.close()
    finally:
        insecure.close()

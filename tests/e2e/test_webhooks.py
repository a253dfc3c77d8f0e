"""The host's chat webhook in Chromium (issue 20, item 5): the room page's Notifications panel
shows her the form (chat, address, Save / Remove), a refusal in words, and a saved webhook that
the match's first turn is posted to; a friend at the table sees no form and never the address.
The circle page shows its keeper the same form. Screenshots at 1366x900 and 375x812
(tests/e2e/artifacts/webhook-*.png).

The server allows private addresses here (``COVEN_WEBHOOK_ALLOW_PRIVATE=1``): the receiver
stands on 127.0.0.1."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.conftest import ROOT, _coven_command, _free_port
from tests.e2e.players import Player, assert_fits_the_screen, new_player, wait_until
from tests.support.server import wait_healthy
from tests.support.webhook_receiver import WebhookReceiver

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
TEXTS = {
    "bad_url": "That is not a valid web address (it must start with https://).",
    "on_ntfy": "Posting to ntfy.",
    "off": "Not posting to any chat yet.",
}


@pytest.fixture(scope="module")
def hook_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``coven serve`` that may post to 127.0.0.1, its outbox looking every 0.2 s."""
    port = _free_port()
    db = tmp_path_factory.mktemp("e2e-hooks") / "e2e.db"
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": "0.05",
        "COVEN_WEBHOOK_ALLOW_PRIVATE": "1",
        "COVEN_NOTIFY_SWEEP_SECONDS": "0.2",
    }
    process = subprocess.Popen(
        [*_coven_command(), "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, seconds=40)
        yield url
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def open_panel(player: Player) -> None:
    page = player.page
    wait_until(page, "document.getElementById('webhook-box').dataset.ready === '1'")
    page.evaluate("document.getElementById('seats-panel').open = true")
    assert page.locator("[data-testid=notify-panel]").is_visible()
    page.wait_for_selector("[data-testid=webhook-url]", state="visible")


def both_sizes(player: Player, artifacts: Path, name: str) -> None:
    page = player.page
    page.set_viewport_size(LAPTOP)
    page.locator("[data-testid=webhook-form]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{name}-laptop.png"))
    page.set_viewport_size(PHONE)
    assert_fits_the_screen(player)
    page.locator("[data-testid=webhook-form]").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"{name}-phone.png"))
    page.set_viewport_size(LAPTOP)


@pytest.mark.console_errors_allowed("422")
def test_the_host_sets_the_tables_webhook(browser: Any, hook_server: str, artifacts: Path) -> None:
    url = hook_server
    room = HostedRoom(url, "whirling-witchcraft", seats=3)
    friend_token = room.join("Bea")
    room.add_bots(1)
    secret = f"topic-{uuid.uuid4().hex}"
    with WebhookReceiver() as receiver:
        ana = new_player(browser, "Ana", viewport=LAPTOP)
        ana.page.goto(room.page_url("en"))
        open_panel(ana)
        form = ana.page.locator("[data-testid=webhook-form]")
        assert form.locator("[data-testid=webhook-status]").inner_text() == TEXTS["off"]
        assert form.locator("[data-testid=webhook-remove]").count() == 0
        both_sizes(ana, artifacts, "webhook-form")

        # A wrong address is refused in words, and nothing is stored.
        ana.page.fill("[data-testid=webhook-url]", "ftp://example.com/hook")
        ana.page.click("[data-testid=webhook-save]")
        error = form.locator("[data-testid=webhook-error]")
        error.filter(has_text=TEXTS["bad_url"]).wait_for()
        assert form.locator("[data-testid=webhook-status]").inner_text() == TEXTS["off"]
        assert "null" not in form.inner_text()
        assert room.http.get("/webhook").json() == {"set": False, "editable": True}
        both_sizes(ana, artifacts, "webhook-refused")

        # ntfy, with the receiver's address: saved, and shown as set.
        address = receiver.url(f"/{secret}")
        ana.page.select_option("[data-testid=webhook-format]", "ntfy")
        ana.page.fill("[data-testid=webhook-url]", address)
        ana.page.click("[data-testid=webhook-save]")
        form.locator("[data-testid=webhook-status]", has_text=TEXTS["on_ntfy"]).wait_for()
        assert error.inner_text() == ""
        assert room.http.get("/webhook").json()["url"] == address
        both_sizes(ana, artifacts, "webhook-saved")

        # A reload shows it as she left it.
        ana.page.reload()
        open_panel(ana)
        assert ana.page.input_value("[data-testid=webhook-url]") == address
        assert ana.page.input_value("[data-testid=webhook-format]") == "ntfy"

        # Bea, at the same table, sees no form and never the address.
        bea = new_player(browser, "Bea", viewport=LAPTOP)
        bea.page.goto(room.seat_url(friend_token, 1))
        bea.page.wait_for_selector("body[data-ready='1']")
        bea.page.wait_for_timeout(500)
        assert bea.page.locator("[data-testid=webhook-form]").count() == 0
        assert secret not in bea.page.content()

        # The match starts: everyone owes a personality, so the turn is posted.
        room.start()
        [post] = receiver.wait_for(lambda r: len(r) >= 1, what="the first turn's post")
        assert post.headers["click"] == f"{url}/r/{room.code}"
        assert "Whirling Witchcraft" in post.text and "Ana" in post.text, post.text

        # Removed: the form says so.
        ana.page.click("[data-testid=webhook-remove]")
        form.locator("[data-testid=webhook-status]", has_text=TEXTS["off"]).wait_for()
        assert room.http.get("/webhook").json() == {"set": False, "editable": True}
        ana.page.context.close()
        bea.page.context.close()
    room.close()


def test_the_keeper_sets_the_circles_webhook(
    browser: Any, hook_server: str, artifacts: Path
) -> None:
    url = hook_server
    ada = new_player(browser, "Ada", viewport=LAPTOP)
    made = ada.page.context.request.post(
        f"{url}/api/profile", data={"name": "Ada"}, headers={"Origin": url}
    )
    assert made.status == 201, made.text()
    circle = ada.page.context.request.post(
        f"{url}/api/circles", data={"name": "Thursday"}, headers={"Origin": url}
    ).json()["circle"]["public_id"]
    ada.page.goto(f"{url}/circles/{circle}?lang=es")
    ada.page.wait_for_selector("[data-testid=circle-webhook] [data-testid=webhook-url]")
    ada.page.fill("[data-testid=webhook-url]", "https://ntfy.example/coven-topic")
    # The page's poll redraws it now and then: what she types stays.
    ada.page.select_option("[data-testid=webhook-format]", "slack")
    assert ada.page.input_value("[data-testid=webhook-url]") == "https://ntfy.example/coven-topic"
    both_sizes(ada, artifacts, "webhook-circle")
    ada.page.context.close()

"""A profile's seat follows her to another device, in Chromium (issue 19).

Mira plays on her phone (the seat's token is in the phone's storage), keeps a profile there and
brings it to her laptop by a one-time device link. The laptop's home page lists the table; its
link takes the seat for the laptop at once, and the laptop plays a move by clicking. The
phone's page now watches and offers "play here"; one click takes the seat back, and the laptop
is offered the same. When she deletes her profile, her friend's room page (in Spanish) names
the seat "un antiguo jugador" live, on the seat list and on the table.
Pictures (laptop 1366×900, phone 375×812): tests/e2e/artifacts/seat-here-*.png.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, assert_fits_the_screen, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
SEND_JSON = """async ([method, path, body]) => {
  const response = await fetch(path, {
    method,
    headers: body === null ? {} : { "Content-Type": "application/json" },
    body: body === null ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}"""
# Marks a control that sends one of the legal actions (not one that only selects a card).
MARK_A_MOVE_JS = """
(() => {
  const legal = new Set(((window.coven.page.state || {}).legal || []).map((a) => a.type));
  const move = [...document.querySelectorAll('#table [data-action]')].find(
    (e) => legal.has(e.dataset.action) && !e.disabled && e.offsetParent !== null);
  if (move) move.dataset.e2e = 'move';
  return Boolean(move);
})()
"""
PLAYS_SEAT_0 = (
    "Boolean(window.coven.page.mine && window.coven.page.mine.seat === 0"
    " && window.coven.page.state && window.coven.page.state.seat === 0)"
)
SEAT_0_NAME = "document.querySelector('[data-testid=seat-0] .seat-name').textContent"
WATCHES = "window.coven.page.mine === null && Boolean(window.coven.page.state)"


def ready(player: Player, url: str) -> None:
    player.page.goto(url)
    wait_until(player.page, "document.body.dataset.ready === '1'")


def send(player: Player, method: str, path: str, body: Any = None) -> Any:
    """What the page's own fetch (its cookie, its Origin) gets."""
    return player.page.evaluate(SEND_JSON, [method, path, body])


def test_her_seat_follows_her_profile_to_another_device(
    coven_server: str, browser: Any, artifacts: Path
) -> None:
    room = HostedRoom(coven_server, "whirling-witchcraft", seats=2, name="Mira")
    bea_token = room.join("Bea")
    room.start()
    phone = new_player(browser, "Mira's phone", viewport=PHONE, is_mobile=True, has_touch=True)
    ready(phone, room.page_url("en"))
    wait_until(phone.page, PLAYS_SEAT_0)
    kept = send(
        phone,
        "POST",
        "/api/profile",
        {"name": "Mira", "seats": [{"room": room.code, "token": room.token}]},
    )
    assert kept["status"] == 201, kept
    link = send(phone, "POST", "/api/profile/device-links")["body"]["url"]
    ready(phone, f"{coven_server}/r/{room.code}")  # (a page knows the cookie from its load)
    wait_until(phone.page, PLAYS_SEAT_0)
    laptop = new_player(browser, "Mira's laptop", viewport=LAPTOP)
    ready(laptop, link)
    laptop.page.click("[data-testid=device-use]")
    laptop.page.wait_for_selector("[data-testid=device-done]")

    # Her laptop's home page lists the table, by her profile; its link takes the seat here.
    ready(laptop, f"{coven_server}/")
    entry = laptop.page.wait_for_selector(
        f"[data-testid=home-table][data-code='{room.code}'] a.room-link"
    )
    assert entry.get_attribute("href") == f"/r/{room.code}#here"
    with laptop.page.expect_navigation():
        entry.click()
    wait_until(laptop.page, "document.body.dataset.ready === '1'")
    wait_until(laptop.page, PLAYS_SEAT_0)
    assert "#" not in laptop.page.url
    laptop.page.wait_for_selector("[data-testid=seat-0] .badge.you")
    assert laptop.page.is_hidden("[data-testid=play-here]")
    laptop_token = laptop.page.evaluate("window.coven.page.mine.token")
    assert laptop_token != room.token
    # The phone's token stopped working: its page watches and offers the seat back.
    wait_until(phone.page, WATCHES)
    offer = phone.page.wait_for_selector("[data-testid=play-here-text]")
    assert offer.inner_text() == "Your seat (Mira) is now played on another device."
    lines = phone.page.inner_text("[data-testid=play-here]").splitlines()
    assert [line for line in lines[1:] if line.strip()] == [
        "Play here",
        "Your other device will then watch; it can take the seat back the same way.",
    ]
    assert phone.page.evaluate(f"localStorage.getItem('coven:seat:{room.code}')") is None
    assert_fits_the_screen(phone)
    shot(phone, artifacts, "seat-here-lost-phone")

    # The laptop plays a move of hers, by clicking (pick a card, then play it).
    laptop.page.click("#table [data-action=select-card]")
    wait_until(laptop.page, MARK_A_MOVE_JS)
    laptop.page.click("[data-e2e=move]")
    deadline = time.monotonic() + 10
    while 0 in room.state(laptop_token)["to_move"]:
        assert time.monotonic() < deadline, "the laptop's move never landed"
        time.sleep(0.1)
    assert room.state(bea_token)["to_move"] == [1]  # Bea still chooses; seat 0 has played

    # One click on the phone takes the seat back; the laptop watches and is offered the same.
    phone.page.click("[data-testid=play-here-button]")
    wait_until(phone.page, PLAYS_SEAT_0)
    assert phone.page.is_hidden("[data-testid=play-here]")
    wait_until(laptop.page, WATCHES)
    laptop.page.wait_for_selector("[data-testid=play-here-button]")
    # Opened again without the home page's link: the same offer, in words for a visit.
    ready(laptop, f"{coven_server}/r/{room.code}")
    text = laptop.page.wait_for_selector("[data-testid=play-here-text]").inner_text()
    assert text == "This is your seat (Mira): on this device you are only watching."
    assert laptop.page.evaluate("window.coven.page.mine") is None
    shot(laptop, artifacts, "seat-here-offer")

    # Her friend watches her own seat in Spanish; Mira deletes her profile: the seat is "un
    # antiguo jugador" at once, on the seat list and on the table, and "Mira" is gone.
    bea = new_player(browser, "Bea", viewport=PHONE, is_mobile=True, has_touch=True)
    ready(bea, f"{coven_server}/r/{room.code}?lang=es#seat=1&token={bea_token}")
    # (on a phone the seat list is folded once the match is on: read, not seen)
    wait_until(bea.page, f"{SEAT_0_NAME} === 'Mira'")
    assert send(laptop, "DELETE", "/api/profile")["status"] == 204
    wait_until(bea.page, f"{SEAT_0_NAME} === 'Un antiguo jugador'")
    wait_until(bea.page, "!document.querySelector('#table').innerText.includes('Mira')")
    assert "Un antiguo jugador" in bea.page.inner_text("#table")
    assert "former player" not in bea.page.inner_text("#room").lower()
    shot(bea, artifacts, "seat-here-former-phone-es")
    for player in (phone, laptop, bea):
        assert player.errors == [], player.errors
        player.page.context.close()
    room.close()

"""Profiles in Chromium: two guests play a whole match and each keeps a profile from its end
screen (the match and her seat become the profile's: she finds it in her history); one
registers a passkey, signs in with it on a second browser (Chromium's virtual authenticator,
through the DevTools protocol, holding the same passkey as a synced one would be), and brings
the profile to a third browser on a plain-http address by a one-time device link; then signs
out there and deletes the profile from another: the match still shows in her friend's history,
her seat as "a former player".

Passkeys need a secure page on a host name, so the passkey browsers use ``localhost``; the
device link's browser uses ``127.0.0.1`` (where the page offers no passkey at all).
Pictures (laptop 1366×900 and phone 375×812): tests/e2e/artifacts/profile-*.png.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import Player, new_player, shot, wait_until

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}
PROFILE_COOKIE = "coven_profile"
FETCH_JSON = """async (path) => {
  const response = await fetch(path);
  return { status: response.status, body: await response.json() };
}"""


def ready(player: Player, url: str) -> None:
    player.page.goto(url)
    wait_until(player.page, "document.body.dataset.ready === '1'")


def fetch_json(player: Player, path: str) -> Any:
    """What the page's own fetch (with its cookie) gets from ``path``."""
    return player.page.evaluate(FETCH_JSON, path)


def virtual_authenticator(player: Player) -> tuple[Any, str]:
    cdp = player.page.context.new_cdp_session(player.page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, made["authenticatorId"]


def play_to_the_end(room: HostedRoom, tokens: list[str], seconds: float = 60) -> None:
    """Every decision of the seats holding ``tokens``, each a random legal move, until the
    match is over."""
    rng = random.Random(19)
    deadline = time.monotonic() + seconds
    while room.state().get("result") is None:
        assert time.monotonic() < deadline, "the match did not end"
        room.play_moves(tokens, 10, rng)


def her_history(player: Player, public_id: str, seconds: float = 10) -> list[dict[str, Any]]:
    """Her matches as her profile's history lists them (recorded a moment after the end)."""
    deadline = time.monotonic() + seconds
    while True:
        page = fetch_json(player, f"/api/profiles/{public_id}/matches")
        assert page["status"] == 200, page
        if page["body"]["matches"] or time.monotonic() > deadline:
            matches: list[dict[str, Any]] = page["body"]["matches"]
            return matches
        time.sleep(0.2)


# Expected refusals (each asked on purpose below): no profile yet, a spent device link.
@pytest.mark.console_errors_allowed("status of 401", "status of 404")
def test_a_guest_keeps_a_profile_and_takes_it_to_other_browsers(
    coven_server: str, browser: Any, artifacts: Path
) -> None:
    secure = coven_server.replace("127.0.0.1", "localhost")
    room = HostedRoom(secure, "whirling-witchcraft", seats=2, name="Mira")
    lena_token = room.join("Lena")
    room.start()
    mira = new_player(browser, "Mira", viewport=LAPTOP)
    ready(mira, room.page_url("en"))
    lena = new_player(browser, "Lena", viewport=PHONE, is_mobile=True, has_touch=True)
    ready(lena, room.seat_url(lena_token, 1))
    assert mira.page.evaluate("document.body.dataset.profile") == "0"
    play_to_the_end(room, [room.token, lena_token])

    # The end screen: "keep a profile", her seat's name ready in the field.
    name = mira.page.wait_for_selector("[data-testid=game-over] [data-testid=keep-name]")
    assert name.input_value() == "Mira"
    shot(mira, artifacts, "profile-end-screen-keep")
    mira.page.set_viewport_size(PHONE)
    mira.page.locator("[data-testid=keep-profile]").scroll_into_view_if_needed()
    mira.page.screenshot(path=str(artifacts / "profile-end-screen-keep-phone.png"))
    mira.page.set_viewport_size(LAPTOP)
    mira.page.click("[data-testid=keep-profile-button]")
    kept = mira.page.wait_for_selector("[data-testid=kept-profile]")
    assert "Mira" in kept.inner_text()
    cookie = next(c for c in mira.page.context.cookies() if c["name"] == PROFILE_COOKIE)
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and cookie["path"] == "/"
    assert PROFILE_COOKIE not in mira.page.evaluate("document.cookie")  # no script reads it
    me = fetch_json(mira, "/api/profile")
    assert me["status"] == 200 and me["body"]["name"] == "Mira"
    public_id = me["body"]["public_id"]
    # The match just played is hers now (its seat was claimed with the profile).
    export = fetch_json(mira, "/api/profile/export")["body"]
    assert [(s["room"], s["seat"]) for s in export["seats"]] == [(room.code, 0)]
    assert mira.page.get_attribute("[data-testid=my-profile-link]", "href") == f"/p/{public_id}"
    # ... and she finds it in her history, with its replay's room.
    matches = her_history(mira, public_id)
    assert [m["code"] for m in matches] == [room.code]
    assert [s["seat"] for s in matches[0]["seats"] if s["you"]] == [0]
    mira.page.goto(f"{secure}/p/{public_id}")
    replay = mira.page.wait_for_selector("[data-testid=player-match] [data-testid=player-replay]")
    assert replay.get_attribute("href") == f"/r/{room.code}/replay"
    shot(mira, artifacts, "profile-history")
    # Her friend keeps one too, from her own end screen (on a phone).
    lena.page.wait_for_selector("[data-testid=game-over] [data-testid=keep-name]")
    lena.page.click("[data-testid=keep-profile-button]")
    lena.page.wait_for_selector("[data-testid=kept-profile]")
    lena_id = fetch_json(lena, "/api/profile")["body"]["public_id"]
    assert [m["code"] for m in her_history(lena, lena_id)] == [room.code]

    # Her profile page: a passkey for this profile (Chromium's virtual authenticator).
    cdp, authenticator = virtual_authenticator(mira)
    ready(mira, f"{secure}/profile")
    assert "Mira" in mira.page.inner_text("[data-testid=profile-hello]")
    mira.page.click("[data-testid=add-passkey]")
    wait_until(
        mira.page,
        "document.querySelector('[data-testid=passkey-count]').textContent.startsWith('1 ')",
    )
    shot(mira, artifacts, "profile-settings")
    credentials = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(credentials["credentials"]) == 1
    passkey = credentials["credentials"][0]
    assert passkey["isResidentCredential"] and passkey["rpId"] == "localhost"

    # A second browser holding the same passkey (as a synced one would be): the lobby offers
    # "sign in with a passkey", and one click signs her in.
    laptop = new_player(browser, "Mira's laptop", viewport=LAPTOP)
    other_cdp, other_authenticator = virtual_authenticator(laptop)
    other_cdp.send(
        "WebAuthn.addCredential", {"authenticatorId": other_authenticator, "credential": passkey}
    )
    ready(laptop, f"{secure}/")
    laptop.page.screenshot(path=str(artifacts / "profile-lobby-entry.png"))
    assert fetch_json(laptop, "/api/profile")["status"] == 401  # (asked once, on purpose)
    laptop.page.click("[data-testid=profile-entry] [data-testid=passkey-sign-in]")
    laptop.page.wait_for_selector("[data-testid=profile-settings-link]")
    wait_until(laptop.page, "document.body.dataset.profile === '1'")
    signed_in = fetch_json(laptop, "/api/profile")
    assert signed_in["status"] == 200 and signed_in["body"]["public_id"] == public_id
    laptop_cookie = next(c for c in laptop.page.context.cookies() if c["name"] == PROFILE_COOKIE)
    assert laptop_cookie["value"] != cookie["value"]  # a key of its own

    # A device link from her first browser, opened on a plain-http address in a third.
    mira.page.click("[data-testid=make-device-link]")
    link = mira.page.wait_for_selector("[data-testid=device-url]").input_value()
    assert link.startswith(f"{secure}/device#")
    assert mira.page.get_attribute("[data-testid=device-qr]", "src").startswith(
        "data:image/svg+xml"
    )
    shot(mira, artifacts, "profile-device-link")
    phone = new_player(browser, "Mira's phone", viewport=PHONE, is_mobile=True, has_touch=True)
    ready(phone, link.replace("localhost", "127.0.0.1"))
    question = phone.page.wait_for_selector("[data-testid=device-question]")
    assert "Mira" in question.inner_text()
    assert "#" not in phone.page.url  # the code left the address bar
    shot(phone, artifacts, "profile-device-question-phone")
    phone.page.click("[data-testid=device-use]")
    phone.page.wait_for_selector("[data-testid=device-done]")
    shot(phone, artifacts, "profile-device-done-phone")
    assert fetch_json(phone, "/api/profile")["body"]["public_id"] == public_id
    # On an IP address the page offers no passkey (it could not work), only settings.
    ready(phone, coven_server + "/profile")
    assert phone.page.query_selector("[data-testid=add-passkey]") is None
    shot(phone, artifacts, "profile-settings-phone")

    # Sign out of the phone only; then delete the profile from the laptop, with confirmation.
    phone.page.click("[data-testid=sign-out]")
    phone.page.wait_for_selector("[data-testid=no-profile]")
    shot(phone, artifacts, "profile-signed-out-phone")
    assert fetch_json(mira, "/api/profile")["status"] == 200
    ready(laptop, f"{secure}/profile")
    laptop.page.click("[data-testid=delete]")
    laptop.page.wait_for_selector("[data-testid=confirm-delete]")
    shot(laptop, artifacts, "profile-delete-confirm")
    laptop.page.click("[data-testid=delete-yes]")
    laptop.page.wait_for_selector("[data-testid=no-profile]")
    assert fetch_json(mira, "/api/profile")["status"] == 401  # every browser's hold is gone
    seats = httpx.get(f"{coven_server}/api/rooms/{room.code}").json()["seats"]
    assert [s["name"] for s in seats] == ["A former player", "Lena"]
    # Her friend's history still holds the match, Mira's seat as a former player.
    kept_match = her_history(lena, lena_id)
    assert [m["code"] for m in kept_match] == [room.code]
    former = {s["seat"]: s for s in kept_match[0]["seats"]}[0]
    assert former["former"] and former["public_id"] is None
    lena.page.goto(f"{secure}/p/{lena_id}")
    row = lena.page.wait_for_selector("[data-testid=player-match]").inner_text()
    assert "a former player" in row.lower() and "Lena" in row and "Mira" not in row
    shot(lena, artifacts, "profile-history-former-phone")
    # A used device link is worthless.
    stranger = new_player(browser, "stranger", viewport=PHONE)
    ready(stranger, link.replace("localhost", "127.0.0.1"))
    stranger.page.wait_for_selector("[data-testid=device-error]")
    shot(stranger, artifacts, "profile-device-used-phone")
    ready(stranger, coven_server + "/")  # a plain-http lobby: no passkey offered
    assert stranger.page.query_selector("[data-testid=passkey-sign-in]") is None
    assert stranger.page.query_selector("[data-testid=keep-profile-link]") is not None
    stranger.page.screenshot(path=str(artifacts / "profile-lobby-entry-phone.png"))
    for player in (mira, lena, laptop, phone, stranger):
        player.page.context.close()
    room.close()

"""Friends can reach the table: the invite link whole with a QR code that phones can read, the
secret rejoin link apart, names checked before sending, an unknown room link, no rematch
offered to a spectator.

The QR code is an SVG the server draws (``segno``, ``/r/{code}/invite.svg``); Debian's
``zbarimg`` (package ``zbar-tools``) decodes what Chromium shows of it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.server import wait_healthy

pytestmark = pytest.mark.e2e

ZBARIMG = shutil.which("zbarimg")
I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"


def english(key: str) -> str:
    text: str = json.loads((I18N / "en.json").read_text(encoding="utf-8"))[key]
    return text


def wait_until(page: Any, expression: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"{expression} never became true"
        time.sleep(0.05)


def new_page(browser: Any, **context: Any) -> tuple[Any, list[str]]:
    page = browser.new_context(**context).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    return page, errors


def decode(png: bytes, tmp_path: Path, name: str) -> str:
    assert ZBARIMG is not None
    path = tmp_path / f"{name}.png"
    path.write_bytes(png)
    done = subprocess.run(
        [ZBARIMG, "--quiet", "--raw", str(path)], capture_output=True, timeout=30, check=False
    )
    assert done.returncode == 0, f"zbarimg found no QR code in {name}: {done.stderr!r}"
    return done.stdout.decode("latin-1").rstrip("\n")


def invite_qr(page: Any) -> Any:
    """The waiting room's QR code, once its image has loaded."""
    wait_until(
        page,
        "(() => { const i = document.querySelector('[data-testid=invite-qr] img');"
        " return !!i && i.complete && i.naturalWidth > 0; })()",
    )
    return page.locator("[data-testid=invite-qr] img")


@pytest.mark.console_errors_allowed("422")
def test_invite_qr_rejoin_and_names(
    browser: Any, coven_server: str, tmp_path: Path, artifacts: Path
) -> None:
    host, host_errors = new_page(browser)
    posts: list[str] = []
    host.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    host.goto(f"{coven_server}/")
    wait_until(host, "document.body.dataset.ready === '1'")

    # A blank name (spaces, a zero-width space, a control) is refused before anything is sent.
    for blank in ("", "   ", "\u200b \u200b", "\u0007"):
        host.fill("[data-testid=host-name]", blank)
        host.click("[data-testid=create-room]")
        wait_until(host, "document.getElementById('create-error').textContent.length > 0")
        assert host.inner_text("#create-error") == english("lobby.name_blank")
    assert posts == []

    host.fill("[data-testid=host-name]", "Morgana")
    host.click("[data-testid=create-room]")
    host.wait_for_url("**/r/**")
    host.wait_for_selector("[data-testid=invite-qr] img")
    code = host.url.rsplit("/r/", 1)[1]
    invite = host.input_value("[data-testid=invite-link]")
    assert invite == f"{coven_server}/r/{code}"

    # The invite link whole (not cut), apart from the secret rejoin link.
    shown = host.locator("[data-testid=invite-url]")
    assert shown.inner_text() == invite and shown.get_attribute("href") == invite
    assert host.evaluate(
        "(() => { const e = document.querySelector('[data-testid=invite-url]');"
        " return e.scrollWidth <= e.clientWidth + 1; })()"
    )
    rejoin_box = host.locator("[data-testid=rejoin-box]")
    assert rejoin_box.is_visible()
    assert english("room.rejoin_title") in rejoin_box.inner_text()
    assert english("room.rejoin_warning") in rejoin_box.inner_text()
    rejoin = host.input_value("[data-testid=rejoin-link]")
    assert rejoin.startswith(invite + "#seat=0&token=")
    assert host.locator("[data-testid=invite-box] [data-testid=rejoin-link]").count() == 0
    # 127.0.0.1 reaches only this computer: the page says how friends can reach it.
    hint = host.locator("[data-testid=loopback-hint]")
    assert hint.is_visible() and "make lan" in hint.inner_text()

    # The QR code, as a phone sees it, holds the invite link and never the token.
    qr = invite_qr(host)
    assert qr.get_attribute("alt") == english("room.invite_qr")
    if ZBARIMG is not None:
        assert decode(qr.screenshot(), tmp_path, "invite") == invite

    host.screenshot(path=str(artifacts / "reach-waiting-room.png"), full_page=True)

    # A friend with a blank name is told before anything is sent; the server's refusal of a
    # name is shown in words (here one over 40 characters, past the field's own limit).
    friend, friend_errors = new_page(
        browser, locale="es-ES", viewport={"width": 390, "height": 844}, is_mobile=True
    )
    friend_posts: list[str] = []
    friend.on("request", lambda r: friend_posts.append(r.url) if r.method == "POST" else None)
    friend.goto(invite)
    wait_until(friend, "document.body.dataset.ready === '1'")
    assert friend.locator("[data-testid=rejoin-box]").is_hidden()
    # A visitor holding no seat yet: no turn-alert controls, and no "null" left in their place.
    assert friend.locator("[data-testid=turn-alerts]").count() == 0
    assert "null" not in friend.inner_text("[data-testid=room]")
    spanish = json.loads((I18N / "es.json").read_text(encoding="utf-8"))
    friend.fill("[data-testid=join-name]", " \u200b\u200e ")
    friend.click("[data-testid=join-button]")
    wait_until(friend, "document.querySelector('[data-testid=join-error]').textContent !== ''")
    assert friend.inner_text("[data-testid=join-error]") == spanish["lobby.name_blank"]
    assert friend_posts == []
    friend.evaluate("document.getElementById('join-name').value = 'W'.repeat(41)")
    friend.click("[data-testid=join-button]")
    wait_until(
        friend,
        "document.querySelector('[data-testid=join-error]').textContent !== ''"
        " && document.querySelector('[data-testid=join-error]').textContent !== "
        + json.dumps(spanish["lobby.name_blank"]),
    )
    assert friend.inner_text("[data-testid=join-error]") == spanish["lobby.name_refused"]
    assert len(friend_posts) == 1
    friend.screenshot(path=str(artifacts / "reach-phone-name-refused.png"), full_page=True)
    friend.fill("[data-testid=join-name]", "Circe")
    friend.click("[data-testid=join-button]")
    friend.wait_for_selector("[data-testid=rejoin-box]:not([hidden])")
    assert friend.evaluate("window.coven.missingKeys()") == []

    assert host_errors == [] and [e for e in friend_errors if "422" not in e] == []
    host.context.close()
    friend.context.close()


@contextlib.contextmanager
def serving(tmp_path: Path, *args: str, **env: str) -> Iterator[tuple[str, list[str]]]:
    """A ``coven serve`` of its own (``args`` added, ``env`` set): its local address and the
    lines it printed before it answered."""
    from tests.e2e.conftest import ROOT, _coven_command, _free_port

    port = _free_port()
    environment = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'own.db'}",
        "COVEN_PUBLIC_URL": "",
        **env,
    }
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*_coven_command(), "serve", "--port", str(port), "--log-level", "warning", *args],
            cwd=ROOT,
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            try:
                wait_healthy(url, process, seconds=40)
            except RuntimeError as exc:
                raise AssertionError(log.read_text()) from exc
            yield url, log.read_text().splitlines()
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def host_a_room(page: Any, url: str) -> str:
    """The host opens a room from the lobby at ``url``; the invite link the room page shows."""
    page.goto(f"{url}/")
    wait_until(page, "document.body.dataset.ready === '1'")
    page.fill("[data-testid=host-name]", "Morgana")
    page.click("[data-testid=create-room]")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("[data-testid=invite-qr] img")
    invite: str = page.input_value("[data-testid=invite-link]")
    return invite


def test_public_url_makes_every_link_absolute(browser: Any, tmp_path: Path) -> None:
    """Behind a proxy: COVEN_PUBLIC_URL is the base of the invite, the QR code and the rejoin
    link, whatever address the browser used."""
    with serving(tmp_path, COVEN_PUBLIC_URL="https://coven.example/") as (url, _):
        created = httpx.post(f"{url}/api/rooms", json={"game": "witchs-brew", "name": "Hex"})
        assert created.status_code == 201, created.text
        body = created.json()
        code = body["room"]["code"]
        page, errors = new_page(browser)
        page.goto(f"{url}/r/{code}#seat=0&token={body['token']}")
        page.wait_for_selector("[data-testid=invite-qr] img")
        invite = page.input_value("[data-testid=invite-link]")
        assert invite == f"https://coven.example/r/{code}"
        assert page.inner_text("[data-testid=invite-url]") == invite
        assert page.input_value("[data-testid=rejoin-link]").startswith(invite + "#seat=0&token=")
        assert page.locator("[data-testid=loopback-hint]").is_hidden()
        if ZBARIMG is not None:
            shot = invite_qr(page).screenshot()
            assert decode(shot, tmp_path, "public") == invite
        assert errors == []
        page.context.close()


def test_on_the_lan_the_invite_holds_the_address_friends_use(
    browser: Any, tmp_path: Path, artifacts: Path
) -> None:
    """``make lan`` (``coven serve --host 0.0.0.0``) prints where friends open Coven; the host
    opens that address, and her invite link and QR code hold it (no "this computer only")."""
    from app.lan import lan_addresses

    if not lan_addresses():
        pytest.skip("this machine has no network address")
    with serving(tmp_path, "--host", "0.0.0.0") as (_, printed):
        at = printed.index("Friends on your network open (and so should you, so invites work):")
        friends = printed[at + 1].strip()
        assert friends.startswith("http://") and "127.0.0.1" not in friends, printed
        page, errors = new_page(browser)
        invite = host_a_room(page, friends)
        assert invite.startswith(f"{friends}/r/")
        # Plain http off this computer: the page says why there are no notifications.
        page_text = page.inner_text("body")
        assert english("room.turn_notify_insecure") in page_text
        assert english("room.turn_notify_denied") not in page_text
        assert page.inner_text("[data-testid=invite-url]") == invite
        assert page.locator("[data-testid=loopback-hint]").is_hidden()
        if ZBARIMG is not None:
            shot = invite_qr(page).screenshot()
            assert decode(shot, tmp_path, "lan") == invite
        page.screenshot(path=str(artifacts / "reach-lan-invite.png"), full_page=True)
        # A friend's browser on the network opens the invite and takes a seat.
        friend, friend_errors = new_page(browser, viewport={"width": 390, "height": 844})
        friend.goto(invite)
        friend.fill("[data-testid=join-name]", "Circe")
        friend.click("[data-testid=join-button]")
        page.wait_for_selector("[data-testid=seat-1] >> text=Circe")
        assert errors == [] and friend_errors == []
        page.context.close()
        friend.context.close()


@pytest.mark.console_errors_allowed("404")
def test_unknown_room_link_says_so(browser: Any, coven_server: str) -> None:
    page, errors = new_page(browser, locale="vi-VN")
    response = page.goto(f"{coven_server}/r/NoSuchTable42")
    assert response is not None and response.status == 404
    wait_until(page, "document.body.dataset.ready === '1'")
    vietnamese = json.loads((I18N / "vi.json").read_text(encoding="utf-8"))
    box = page.locator("[data-testid=no-room]")
    assert vietnamese["room.not_found"] in box.inner_text()
    assert vietnamese["room.not_found_help"] in box.inner_text()
    assert page.get_attribute("[data-testid=no-room] a", "href") == "/"
    assert page.evaluate("window.coven.missingKeys()") == []
    # The 404 itself is the only thing the console reports.
    assert [e for e in errors if "404" not in e] == []
    page.context.close()


def test_invite_qr_is_an_image_of_an_existing_room(coven_server: str) -> None:
    created = httpx.post(f"{coven_server}/api/rooms", json={"game": "seasons", "name": "Hex"})
    code = created.json()["room"]["code"]
    image = httpx.get(f"{coven_server}/r/{code}/invite.svg")
    assert image.status_code == 200
    assert image.headers["content-type"] == "image/svg+xml"
    assert image.text.startswith("<svg ") and "<script" not in image.text
    # The page's CSP lets the room page show it (img-src 'self').
    csp = httpx.get(f"{coven_server}/r/{code}").headers["content-security-policy"]
    assert "img-src 'self'" in csp
    for unknown in ("NoSuchTable42", "not%20a%20code"):
        assert httpx.get(f"{coven_server}/r/{unknown}/invite.svg").status_code == 404


def test_spectators_are_not_offered_a_rematch(browser: Any, coven_server: str) -> None:
    page, errors = new_page(browser)
    page.goto(f"{coven_server}/")
    offered = page.evaluate(
        """async () => {
          const table = await import('/static/js/table.js');
          const screen = (mySeat) => table.endScreen(
            {root: document.body, seatName: (s) => `W${s}`, seatInfo: () => null,
             rematch() {}, mySeat: () => mySeat},
            {winners: [0], scores: [3, 1], placings: [1, 2]}, [0, 1],
            {words: {headline: 'h', reason: 'r', rematch: 'again', lobby: 'lobby'},
             line: () => []});
          const has = (node) => node.querySelector('[data-testid=rematch]') !== null;
          return {player: has(screen(1)), spectator: has(screen(null))};
        }"""
    )
    assert offered == {"player": True, "spectator": False}
    assert errors == []
    page.context.close()

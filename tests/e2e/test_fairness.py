"""The seed proof in Chromium against `coven serve` (docs/FAIRNESS.md): two players take their
seats from the room page (their browsers send their parts of the shuffle); the waiting room
shows the commitment and each her own part; bots play the match out; the end screen shows the
revealed seed and that her part went in, and downloads the export; the replay viewer's Verify
says verified for the real match and not verified for a tampered file opened in it. Laptop and
phone screenshots of the three."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.e2e.players import Player, new_player, shot, wait_until

GAME = "whirling-witchcraft"
LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}


def join(player: Player, server: str, code: str) -> None:
    page = player.page
    page.goto(f"{server}/r/{code}")
    page.fill("[data-testid=join-name]", player.name)
    page.click("[data-testid=join-button]")
    page.wait_for_selector("[data-testid=proof-your-part]")


def finish_with_bots(server: str, code: str, token: str) -> None:
    auth = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server, timeout=10) as http:
        assert http.post(f"/api/rooms/{code}/start", headers=auth).is_success
        for seat in range(3):
            handed = http.post(
                f"/api/rooms/{code}/bots", json={"level": "random", "seat": seat}, headers=auth
            )
            assert handed.is_success, handed.text
        deadline = time.monotonic() + 90
        while http.get(f"/api/rooms/{code}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots never finished the match"
            time.sleep(0.2)


def verify_answer(player: Player) -> dict[str, Any]:
    page = player.page
    wait_until(
        page,
        "document.querySelector('[data-testid=verify-answer]')?.dataset.verified !== undefined",
        60,
    )
    return {
        "verified": page.get_attribute("[data-testid=verify-answer]", "data-verified"),
        "text": page.inner_text("[data-testid=verify-answer]"),
    }


@pytest.mark.console_errors_allowed("422")  # the file that is no export, refused by the server
def test_the_shuffle_is_committed_revealed_and_verified(
    browser: Any, coven_server: str, artifacts: Path, tmp_path: Path
) -> None:
    with httpx.Client(base_url=coven_server, timeout=10) as http:
        created = http.post(
            "/api/rooms",
            json={"game": GAME, "name": "Agnes", "seats": 3, "visibility": "private"},
        )
        assert created.status_code == 201, created.text
    code, token = created.json()["room"]["code"], created.json()["token"]
    commitment = created.json()["room"]["fairness"]["commitment"]

    # Two players take seats in Chromium, one on a laptop, one on a phone.
    brigid = new_player(browser, "Brigid", viewport=LAPTOP)
    circe = new_player(browser, "Circe", viewport=PHONE, is_mobile=True, has_touch=True)
    join(brigid, coven_server, code)
    join(circe, coven_server, code)
    room = httpx.get(f"{coven_server}/api/rooms/{code}", timeout=10).json()
    listed = {c["seat"]: c for c in room["fairness"]["contributions"]}
    assert [listed[s]["by"] for s in (0, 1, 2)] == ["server", "player", "player"]
    for player, seat in ((brigid, 1), (circe, 2)):
        page = player.page
        wait_until(
            page,
            "document.querySelector('[data-testid=proof-parts]')?.textContent.includes('3 of 3')",
        )
        assert page.inner_text("[data-testid=proof-commitment]") == commitment
        own = page.evaluate(f"localStorage.getItem('coven-contribution:{code}')")
        assert own == listed[seat]["value"]
        assert page.inner_text("[data-testid=proof-your-part]") == own
        assert page.get_attribute("[data-testid=proof-in-mix]", "class").startswith("proof-ok")
    shot(brigid, artifacts, "fairness-waiting-laptop")
    shot(circe, artifacts, "fairness-waiting-phone")

    # They step away; bots play every seat to the end; they come back to the end screen.
    for player in (brigid, circe):
        player.page.goto("about:blank")
    finish_with_bots(coven_server, code, token)
    revealed = httpx.get(f"{coven_server}/api/rooms/{code}/log", timeout=10).json()["fairness"][
        "revealed"
    ]
    for player in (brigid, circe):
        page = player.page
        page.goto(f"{coven_server}/r/{code}")
        page.wait_for_selector("[data-testid=proof-revealed]")
        assert page.inner_text("[data-testid=proof-server-seed]") == revealed["server_seed"]
        assert page.inner_text("[data-testid=proof-match-seed]") == str(revealed["match_seed"])
        assert page.get_attribute("[data-testid=proof-in-mix]", "class").startswith("proof-ok")
        page.locator("[data-testid=proof-revealed]").scroll_into_view_if_needed()
    shot(brigid, artifacts, "fairness-end-laptop")
    shot(circe, artifacts, "fairness-end-phone")

    # The end screen downloads the export.
    with brigid.page.expect_download() as download:
        brigid.page.click("[data-testid=proof-download]")
    saved = tmp_path / "match.json"
    download.value.save_as(saved)
    document = json.loads(saved.read_text())
    assert document["format"] == "coven-match" and document["room"] == code
    assert document["fairness"]["revealed"] == revealed

    # "Check it" opens the replay and verifies the real match.
    for player in (brigid, circe):
        page = player.page
        page.click("[data-testid=proof-check]")
        page.wait_for_url(f"**/r/{code}/replay**")
        answer = verify_answer(player)
        assert answer["verified"] == "1", answer
        assert "Verified" in answer["text"]
        assert "null" not in page.inner_text("[data-testid=replay-proof]")
    shot(brigid, artifacts, "fairness-verified-laptop")
    shot(circe, artifacts, "fairness-verified-phone")

    # A tampered file (one contribution changed) opens in the viewer and does not verify.
    part = document["fairness"]["contributions"][1]
    part["value"] = ("0" if part["value"][0] != "0" else "1") + part["value"][1:]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(document))
    for player in (brigid, circe):
        page = player.page
        page.click("[data-testid=open-export]")
        page.wait_for_url("**/replay/open**")
        page.set_input_files("[data-testid=export-file]", str(tampered))
        wait_until(page, "document.getElementById('replay').dataset.shown === '0'", 30)
        assert "tampered.json" in page.inner_text("[data-testid=opened-file]")
        page.click("[data-testid=verify]")
        answer = verify_answer(player)
        assert answer["verified"] == "0", answer
        assert "Not verified" in answer["text"] and "parts" in answer["text"], answer
    shot(brigid, artifacts, "fairness-tampered-laptop")
    shot(circe, artifacts, "fairness-tampered-phone")

    # Something that is no export says so, in the page.
    junk = tmp_path / "junk.json"
    junk.write_text(json.dumps({"hello": "world"}))
    page = brigid.page
    page.goto(f"{coven_server}/replay/open")
    page.set_input_files("[data-testid=export-file]", str(junk))
    wait_until(page, "document.querySelector('[data-testid=open-error]').textContent !== ''")
    assert "not a Coven match export" in page.inner_text("[data-testid=open-error]")

"""Circles in Chromium (issue 19): Ada keeps a profile and starts a circle from her home page;
Bea opens its invite link in another browser, keeps a profile there and joins; a table Ada
opens for the circle shows on Bea's home page. Screenshots of each new screen at 1366x900
and 375x812 (tests/e2e/artifacts/circle-*.png)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.players import Player, assert_fits_the_screen, new_player, shot

LAPTOP = {"width": 1366, "height": 900}
PHONE = {"width": 375, "height": 812}


def keep_profile(player: Player, url: str) -> None:
    """A profile kept over the API from the player's own browser (its cookie jar), as the
    profile pages do."""
    made = player.page.context.request.post(
        f"{url}/api/profile", data={"name": player.name}, headers={"Origin": url}
    )
    assert made.status == 201, made.text()


def both_sizes(player: Player, artifacts: Path, name: str) -> None:
    """The page as it is, at a laptop's size and a phone's; nothing sticks out on the phone."""
    page = player.page
    page.set_viewport_size(LAPTOP)
    shot(player, artifacts, f"{name}-laptop")
    page.set_viewport_size(PHONE)
    assert_fits_the_screen(player)
    shot(player, artifacts, f"{name}-phone")
    page.set_viewport_size(LAPTOP)


def test_a_friend_joins_by_the_invite_link_and_finds_the_circle_table(
    browser: Any, coven_server: str, artifacts: Path
) -> None:
    url = coven_server
    ada = new_player(browser, "Ada", viewport=LAPTOP)
    bea = new_player(browser, "Bea", viewport=LAPTOP)

    # A new visitor sees the lobby as it always was.
    bea.page.goto(url)
    bea.page.wait_for_selector("body[data-ready='1']")
    assert bea.page.locator("[data-testid=home]").is_hidden()

    # Ada starts a circle from her home page.
    keep_profile(ada, url)
    ada.page.goto(url)
    ada.page.wait_for_selector("[data-testid=home-profile]")
    assert "Ada" in ada.page.inner_text("[data-testid=home-profile]")
    both_sizes(ada, artifacts, "circle-home-new")
    ada.page.fill("[data-testid=new-circle-name]", "Thursday witches")
    ada.page.click("[data-testid=create-circle]")
    ada.page.wait_for_url("**/circles/*")
    ada.page.wait_for_selector("[data-testid=circle-invite-link]")
    assert ada.page.inner_text("[data-testid=circle-name]") == "Thursday witches"
    link = ada.page.input_value("[data-testid=circle-invite-link]")
    assert "/c#" in link
    assert ada.page.locator("[data-testid=circle-invite-qr]").is_visible()
    both_sizes(ada, artifacts, "circle-page-keeper")

    # Bea opens it in her own browser: she keeps a profile and joins in one step.
    bea.page.goto(link)
    bea.page.wait_for_selector("[data-testid=invite-circle-name]")
    assert bea.page.inner_text("[data-testid=invite-circle-name]") == "Thursday witches"
    both_sizes(bea, artifacts, "circle-invite")
    bea.page.fill("[data-testid=invite-name]", "Bea")
    bea.page.click("[data-testid=join-circle]")
    bea.page.wait_for_url("**/circles/*")
    bea.page.wait_for_selector("[data-testid=circle-member] >> text=Bea")
    names = bea.page.locator("[data-testid=circle-member] .seat-name").all_inner_texts()
    assert names == ["Ada", "Bea"]
    # She came by the link, so her browser holds it too; she may not remove anyone.
    assert bea.page.input_value("[data-testid=circle-invite-link]") == link
    assert bea.page.locator("[data-testid=remove-member]").count() == 0
    both_sizes(bea, artifacts, "circle-page-member")

    # Ada opens a table for the circle.
    ada.page.reload()
    ada.page.wait_for_selector("[data-testid=circle-member] >> text=Bea")
    ada.page.click("[data-testid=open-circle-table]")
    ada.page.wait_for_selector("[data-testid=for-circle]:not([hidden])")
    assert "Thursday witches" in ada.page.inner_text("[data-testid=for-circle]")
    ada.page.fill("[data-testid=host-name]", "Ada")
    ada.page.click("[data-testid=create-room]")
    ada.page.wait_for_url("**/r/*")
    code = ada.page.url.rsplit("/r/", 1)[1].split("#")[0]

    # Bea's home page shows it with the circle, and takes her there.
    bea.page.goto(url)
    row = f"[data-testid=home-circle] [data-testid=circle-table][data-code='{code}']"
    bea.page.wait_for_selector(row)
    assert "Thursday witches" in bea.page.inner_text("[data-testid=home-circles]")
    both_sizes(bea, artifacts, "circle-home-member")
    bea.page.click(f"{row} a")
    bea.page.wait_for_url(f"**/r/{code}")

    # Ada's home: the table she sits at, and the circle.
    ada.page.goto(url)
    ada.page.wait_for_selector(f"[data-testid=home-table][data-code='{code}']")
    both_sizes(ada, artifacts, "circle-home-keeper")
    for player in (ada, bea):
        assert player.errors == []
        player.page.context.close()


# The refused look-up of the old link is the page's one failed request, on purpose.
@pytest.mark.console_errors_allowed("410")
def test_a_revoked_link_says_so(browser: Any, coven_server: str, artifacts: Path) -> None:
    url = coven_server
    ada = new_player(browser, "Ada", viewport=LAPTOP)
    keep_profile(ada, url)
    made = ada.page.context.request.post(
        f"{url}/api/circles", data={"name": "Full moon"}, headers={"Origin": url}
    )
    assert made.status == 201, made.text()
    old = made.json()["invite"]["url"]
    circle = made.json()["circle"]["public_id"]
    renewed = ada.page.context.request.post(
        f"{url}/api/circles/{circle}/invite", headers={"Origin": url}
    )
    assert renewed.status == 201, renewed.text()
    cy = new_player(browser, "Cy", viewport=PHONE)
    cy.page.goto(old)
    cy.page.wait_for_selector("[data-testid=invite-refused]")
    assert "new link" in cy.page.inner_text("[data-testid=invite-refused]")
    assert cy.page.locator("[data-testid=join-circle]").count() == 0
    shot(cy, artifacts, "circle-invite-revoked-phone")
    for player in (ada, cy):
        player.page.context.close()

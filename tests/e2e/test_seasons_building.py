"""Seasons in Chromium: another sorcerer's library building is hers alone (issue 22). While
she builds, the host's page shows her board "building libraries…" and all her cards in hand,
and her steps (a card placed, one taken back) send the page nothing: its version stays. Once
she confirms, the page shows what the rules make public: ready, 3 and 3 cards face down."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.players import new_player, shot, wait_until

pytestmark = pytest.mark.e2e

STATE = "(window.coven.page.state || {})"
LIBRARIES = '#table [data-testid="libraries-1"]'


def act(room: HostedRoom, token: str, action: dict[str, Any]) -> None:
    state = room.state(token)
    body = {"action": action, "client_id": uuid.uuid4().hex, "version": state["version"]}
    sent = room.http.post("/actions", json=body, headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 200, sent.text


def of_type(room: HostedRoom, token: str, kind: str) -> list[dict[str, Any]]:
    return [a for a in room.state(token)["legal"] if a["type"] == kind]


def test_another_seat_builds_unseen(browser: Any, coven_server: str, artifacts: Path) -> None:
    room = HostedRoom(coven_server, "seasons", seats=2, options={"level": "apprentice"})
    friend = room.join("Baba")
    room.start()
    host = new_player(browser, "host", viewport={"width": 1366, "height": 900})
    try:
        host.page.goto(room.page_url("en"))
        wait_until(host.page, f"{STATE}.view && {STATE}.view.phase === 'build'")
        host.page.locator('[data-testid="toggle-board-1"]').click()  # open Baba's board
        libraries = host.page.locator(LIBRARIES)
        libraries.wait_for(state="visible")
        assert libraries.inner_text().strip() == "building libraries…"
        version = host.page.evaluate(f"{STATE}.version")

        act(room, friend, of_type(room, friend, "to_library")[0])
        act(room, friend, of_type(room, friend, "to_library")[0])
        act(room, friend, {"type": "undo"})
        # A message of its own would come after those steps: the host's next one is her own.
        act(room, room.token, of_type(room, room.token, "to_library")[0])
        wait_until(host.page, f"{STATE}.version === {version + 1}")
        seen = host.page.evaluate(f"{STATE}.view.seats[1]")
        assert seen["library_counts"] == "hidden" and seen["hand_count"] == 9, seen
        assert libraries.inner_text().strip() == "building libraries…"
        assert "took back" not in host.page.locator("#log").text_content()
        shot(host, artifacts, "seasons-building-unseen")

        while not of_type(room, friend, "confirm_libraries"):
            act(room, friend, of_type(room, friend, "to_library")[0])
        act(room, friend, of_type(room, friend, "confirm_libraries")[0])
        wait_until(host.page, f"{STATE}.version === {version + 2}")
        libraries.wait_for(state="visible")
        assert libraries.inner_text().strip() == "libraries: II 3 · III 3"
        board = host.page.locator('#table [data-testid="board-1"]')
        assert "ready" in board.inner_text()
        assert "Baba has built the libraries" in host.page.locator("#log").text_content()
        assert host.errors == []
    finally:
        host.page.context.close()
        room.close()

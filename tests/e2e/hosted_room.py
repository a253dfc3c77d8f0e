"""A room set up over the HTTP API, for browser tests that need a table without clicking one
together: the host alone, bots added, the match started, the host's moves sent as random legal
actions. ``page_url(lang)`` opens it as the host (her personal link)."""

from __future__ import annotations

import random
import time
import uuid
from typing import Any

import httpx


class HostedRoom:
    def __init__(
        self, url: str, game: str, seats: int, options: dict[str, Any] | None = None
    ) -> None:
        self.url = url
        body = {"game": game, "name": "Ana", "visibility": "private", "seats": seats}
        created = httpx.post(
            f"{url}/api/rooms", json={**body, "options": options or {}}, timeout=10
        ).json()
        self.code: str = created["room"]["code"]
        self.token: str = created["token"]
        self.http = httpx.Client(
            base_url=f"{url}/api/rooms/{self.code}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
        )

    def page_url(self, lang: str) -> str:
        return f"{self.url}/r/{self.code}?lang={lang}#seat=0&token={self.token}"

    def start_with_bots(self, count: int, level: str = "random") -> None:
        for _ in range(count):
            self.http.post("/bots", json={"level": level}).raise_for_status()
        self.http.post("/start").raise_for_status()

    def hand_host_to_bot(self, level: str = "random") -> None:
        """A bot plays the host's seat too (she has no page open): the match plays itself."""
        self.http.post("/bots", json={"level": level, "seat": 0}).raise_for_status()

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.http.get("/state").json()
        return state

    def until_over(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while self.state().get("result") is None:
            assert time.monotonic() < deadline, "the bots' match did not end"
            time.sleep(0.2)

    def host_to_move(self, seconds: float = 20) -> dict[str, Any]:
        """The host's state once she owes a decision (the bots answer in between)."""
        deadline = time.monotonic() + seconds
        while True:
            state = self.state()
            assert state.get("result") is None, "the match ended before the table was seen"
            if 0 in state["to_move"] and state["legal"]:
                return state
            assert time.monotonic() < deadline, "the host never came to move"
            time.sleep(0.05)

    def play(self, moves: int, rng: random.Random) -> int:
        """The host plays ``moves`` random legal actions; the version she then sees."""
        for _ in range(moves):
            state = self.host_to_move()
            body = {
                "action": rng.choice(state["legal"]),
                "client_id": uuid.uuid4().hex,
                "version": state["version"],
            }
            self.http.post("/actions", json=body).raise_for_status()
        version: int = self.host_to_move()["version"]
        return version

    def close(self) -> None:
        self.http.close()

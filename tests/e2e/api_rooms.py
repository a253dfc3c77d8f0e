"""Rooms set up over the HTTP API, for browser tests that need a table without clicking one
together: a host (seat 0), perhaps a friend who joined, bots in other chairs, the match started;
moves sent as random legal actions, a chat line said over a seat's own socket.
``page_url(lang)`` opens the room as the host, ``seat_url(token, seat)`` as any seat's rejoin
link does."""

from __future__ import annotations

import json
import random
import time
import uuid
from typing import Any

import httpx
from websockets.sync.client import connect

from tests.support.client import LIMITS

MAX_PLAYERS = {"whirling-witchcraft": 5, "witchs-brew": 5, "seasons": 4}


class HostedRoom:
    def __init__(
        self,
        url: str,
        game: str,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
        name: str = "Ana",
    ) -> None:
        self.url = url
        body: dict[str, Any] = {"game": game, "name": name, "visibility": "private"}
        if seats is not None:
            body["seats"] = seats
        created = httpx.post(
            f"{url}/api/rooms", json={**body, "options": options or {}}, timeout=10
        ).json()
        self.code: str = created["room"]["code"]
        self.token: str = created["token"]
        self.http = httpx.Client(
            base_url=f"{url}/api/rooms/{self.code}",
            headers={"Authorization": f"Bearer {self.token}"},
            timeout=10,
            limits=LIMITS,
        )

    def page_url(self, lang: str) -> str:
        return f"{self.url}/r/{self.code}?lang={lang}#seat=0&token={self.token}"

    def seat_url(self, token: str, seat: int) -> str:
        """The room page as the seat's own rejoin link opens it."""
        return f"{self.url}/r/{self.code}#seat={seat}&token={token}"

    def join(self, name: str) -> str:
        """A friend takes the next free seat; her token."""
        joined = httpx.post(f"{self.url}/api/rooms/{self.code}/join", json={"name": name})
        assert joined.status_code < 300, joined.text
        token: str = joined.json()["token"]
        return token

    def add_bots(self, count: int, level: str = "random") -> None:
        for _ in range(count):
            self.http.post("/bots", json={"level": level}).raise_for_status()

    def start(self) -> None:
        self.http.post("/start").raise_for_status()

    def start_with_bots(self, count: int, level: str = "random") -> None:
        self.add_bots(count, level)
        self.start()

    def hand_host_to_bot(self, level: str = "random") -> None:
        """A bot plays the host's seat too (she has no page open): the match plays itself."""
        self.http.post("/bots", json={"level": level, "seat": 0}).raise_for_status()

    def state(self, token: str | None = None) -> dict[str, Any]:
        """The room's state as the host (or the seat holding ``token``) is shown it."""
        headers = {"Authorization": f"Bearer {token}"} if token else None
        state: dict[str, Any] = self.http.get("/state", headers=headers).json()
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

    def _act(self, state: dict[str, Any], rng: random.Random, token: str | None = None) -> bool:
        headers = {"Authorization": f"Bearer {token}"} if token else None
        body = {
            "action": rng.choice(state["legal"]),
            "client_id": uuid.uuid4().hex,
            "version": state["version"],
        }
        return self.http.post("/actions", json=body, headers=headers).status_code == 200

    def play(self, moves: int, rng: random.Random) -> int:
        """The host plays ``moves`` random legal actions; the version she then sees."""
        for _ in range(moves):
            assert self._act(self.host_to_move(), rng)
        version: int = self.host_to_move()["version"]
        return version

    def play_moves(self, tokens: list[str], count: int, rng: random.Random) -> int:
        """Up to ``count`` random legal moves for the seats holding ``tokens``, each when it may
        (the bots answer in between); how many were accepted."""
        accepted = 0
        for _ in range(count * 4):
            if accepted >= count:
                break
            for token in tokens:
                state = self.state(token)
                if not state.get("result") and state.get("legal"):
                    accepted += self._act(state, rng, token)
            time.sleep(0.05)
        return accepted

    def say(self, token: str, text: str) -> None:
        """One chat line from the seat holding ``token``, over its own socket; returns once the
        server has echoed it (so it has reached every page of the room)."""
        url = self.url.replace("http", "ws", 1) + f"/ws/rooms/{self.code}?token={token}"
        with connect(url, open_timeout=10) as socket:
            socket.send(json.dumps({"type": "chat", "text": text}))
            while True:
                message = json.loads(socket.recv(timeout=10))
                if message.get("type") == "error":
                    raise AssertionError(f"chat refused: {message}")
                if message.get("type") == "chat" and message.get("text") == text:
                    return

    def close(self) -> None:
        self.http.close()


class FriendsTable(HostedRoom):
    """The room-page tests' table: Morgana hosting, her friend Baba in seat 1, bots in every
    other chair of the game's largest table; started unless ``start`` is false."""

    def __init__(self, url: str, game: str, *, start: bool = True) -> None:
        super().__init__(url, game, name="Morgana")
        self.host_token = self.token
        self.friend_token = self.join("Baba")
        self.add_bots(MAX_PLAYERS[game] - 2)
        if start:
            self.start()

    def play_both(self, count: int, rng: random.Random) -> int:
        """Up to ``count`` random legal moves for the host and the friend."""
        return self.play_moves([self.host_token, self.friend_token], count, rng)

"""Tables set up over the HTTP API for the room-page browser tests: a host, a friend, bots in
every other chair, the match started; and a chat line said by a seat over its own socket."""

from __future__ import annotations

import json
import random
import time
import uuid
from dataclasses import dataclass

import httpx
from websockets.sync.client import connect

MAX_PLAYERS = {"whirling-witchcraft": 5, "witchs-brew": 5, "seasons": 4}


@dataclass(frozen=True)
class Table:
    server: str
    code: str
    host_token: str
    friend_token: str

    def page_url(self, token: str, seat: int) -> str:
        """The room page as the seat's own rejoin link opens it."""
        return f"{self.server}/r/{self.code}#seat={seat}&token={token}"


def _post(url: str, body: dict[str, object], token: str | None = None) -> dict[str, object]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = httpx.post(url, json=body, headers=headers, timeout=10)
    assert response.status_code < 300, response.text
    data: dict[str, object] = response.json()
    return data


def _token(data: dict[str, object]) -> str:
    token = data["token"]
    assert isinstance(token, str)
    return token


def bot_table(server: str, game: str, *, start: bool = True) -> Table:
    """A private room of `game` at its most players: the host (seat 0), a friend (seat 1) and
    bots; started unless `start` is false."""
    created = _post(
        f"{server}/api/rooms", {"game": game, "visibility": "private", "name": "Morgana"}
    )
    room = created["room"]
    assert isinstance(room, dict)
    code = str(room["code"])
    host = _token(created)
    friend = _token(_post(f"{server}/api/rooms/{code}/join", {"name": "Baba"}))
    for _ in range(MAX_PLAYERS[game] - 2):
        _post(f"{server}/api/rooms/{code}/bots", {"level": "random"}, host)
    if start:
        _post(f"{server}/api/rooms/{code}/start", {}, host)
    return Table(server, code, host, friend)


def say(table: Table, token: str, text: str) -> None:
    """One chat line from the seat holding `token`, over its own socket; returns once the
    server has echoed it (so it has reached every page of the room)."""
    url = table.server.replace("http", "ws", 1) + f"/ws/rooms/{table.code}?token={token}"
    with connect(url, open_timeout=10) as socket:
        socket.send(json.dumps({"type": "chat", "text": text}))
        while True:
            message = json.loads(socket.recv(timeout=10))
            if message.get("type") == "error":
                raise AssertionError(f"chat refused: {message}")
            if message.get("type") == "chat" and message.get("text") == text:
                return


def play_moves(table: Table, count: int, rng: random.Random) -> int:
    """Up to `count` legal moves, picked at random, for the two human seats over HTTP (the
    bots answer in between); returns how many were accepted."""
    accepted = 0
    for _ in range(count * 4):
        if accepted >= count:
            break
        for token in (table.host_token, table.friend_token):
            headers = {"Authorization": f"Bearer {token}"}
            state = httpx.get(
                f"{table.server}/api/rooms/{table.code}/state", headers=headers, timeout=10
            ).json()
            if state.get("result") or not state.get("legal"):
                continue
            body = {
                "action": rng.choice(state["legal"]),
                "client_id": uuid.uuid4().hex,
                "version": state["version"],
            }
            response = httpx.post(
                f"{table.server}/api/rooms/{table.code}/actions",
                json=body,
                headers=headers,
                timeout=10,
            )
            accepted += response.status_code == 200
        time.sleep(0.05)
    return accepted

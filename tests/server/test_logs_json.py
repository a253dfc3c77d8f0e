"""``COVEN_LOG_FORMAT=json`` (issue 23 item 2): ``coven serve`` writes one JSON object per log
line, each request and socket under its own id with its room's code, and never a seat token
or a rejoin link — driven by a join, moves over a socket, bad requests."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.coven_serve import CovenServe, refused_start
from tests.support.client import open_room

GAME = "whirling-witchcraft"


@pytest.fixture
def json_server(tmp_path: Path) -> Iterator[CovenServe]:
    env = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_LOG_FORMAT": "json",
        "COVEN_BOT_DELAY": "0",
    }
    server = CovenServe(env, tmp_path / "logs").start()
    try:
        yield server
    finally:
        server.stop()


def parsed(text: str) -> list[dict[str, Any]]:
    """Every line of ``text``, each of which must be one JSON object."""
    lines = []
    for raw in text.splitlines():
        if raw.strip():
            line = json.loads(raw)  # a line that is not JSON fails the test here
            assert isinstance(line, dict), raw
            lines.append(line)
    return lines


async def test_json_lines_carry_ids_and_rooms_and_no_secret(json_server: CovenServe) -> None:
    url = json_server.url
    code, seated = await open_room(url, GAME, ["Agnes", "Brigid"])
    tokens = [client.token for client in seated]
    assert all(tokens)
    for client in seated:
        await client.connect(code)  # ?token=… in the handshake's URL (outside clients do)
    started = await seated[0].http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200
    rng = random.Random(5)
    for client in seated:
        await client.at_version(0)
    moves = 0
    for _ in range(100):
        for client in seated:
            state, action = client.state, client.random_legal(rng)
            if state is None or action is None:
                continue
            answer = await client.act(action, version=state["version"])
            if answer["type"] == "ack":
                moves += 1
                for each in seated:
                    await each.synced()  # each reader's own version (private steps)
        if moves >= 6:
            break
    assert moves >= 6
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        # Bad requests: a wrong token, a malformed body, an unknown room, and a rejoin link
        # pasted with "?" instead of "#" (its token would reach the server).
        bad_token = await http.post(
            f"/api/rooms/{code}/actions",
            json={"action": {"type": "x"}, "client_id": "c1"},
            headers={"Authorization": "Bearer not-a-token"},
        )
        assert bad_token.status_code == 401
        malformed = await http.post(
            f"/api/rooms/{code}/actions",
            content=b"{not json",
            headers={"content-type": "application/json", "Authorization": f"Bearer {tokens[1]}"},
        )
        assert malformed.status_code == 400
        assert (await http.get("/api/rooms/NoSuchRoom1/log")).status_code == 404
        pasted = await http.get(f"/r/{code}?seat=1&token={tokens[1]}")
        assert pasted.status_code == 200
        traced = await http.get(f"/api/rooms/{code}", headers={"X-Request-ID": "edge-42-abc"})
        assert traced.status_code == 200
    for client in seated:
        await client.close()
    json_server.stop()

    raw = json_server.err()
    lines = parsed(raw)
    assert lines, "no log line at all"
    for line in lines:
        assert {"time", "level", "logger", "message"} <= line.keys(), line
    for token in tokens:
        assert token is not None and token not in raw  # neither in a line nor a traceback
    assert "token=[redacted]" in raw  # the handshakes' and the pasted link's token, replaced
    assert "coven.move" not in json_server.out()  # no OTEL_* variables: no trace printed

    in_room = [line for line in lines if line.get("room") == code]
    requests = [line for line in in_room if "request_id" in line]
    sockets = [line for line in in_room if "socket_id" in line]
    assert len(requests) >= 5, requests  # start, the bad ones, the page, the room
    assert len({line["request_id"] for line in requests}) == len(requests)  # one id each
    assert any("/actions" in line["message"] and "401" in line["message"] for line in requests)
    assert any(line["request_id"] == "edge-42-abc" for line in requests)  # the proxy's id kept
    # Each socket's handshake under its own id (and its other lines under the same one).
    assert len({line["socket_id"] for line in sockets}) == len(seated), sockets
    assert all(
        "WebSocket" in line["message"] or "connection" in line["message"] for line in sockets
    )


def test_an_unknown_log_format_stops_coven_serve_clearly(tmp_path: Path) -> None:
    said = refused_start(tmp_path, {"COVEN_LOG_FORMAT": "xml"})
    assert said.startswith("coven serve: COVEN_LOG_FORMAT must be 'text' or 'json'")

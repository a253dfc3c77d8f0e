"""Bad input gets a clear error code, the socket survives where it should, the match is
unchanged."""

from __future__ import annotations

import httpx
import pytest
import websockets

from tests.support.client import Client, open_room
from tests.support.server import ThreadServer


async def started_room(
    url: str, names: list[str] | None = None, spectator: bool = True
) -> tuple[str, list[Client], Client]:
    code, players = await open_room(url, "test-guess", names or ["A", "B"])
    watcher = Client(url)
    for client in [*players, watcher] if spectator else players:
        await client.connect(code)
    assert (await players[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    for client in players:
        await client.at_version(0)
    return code, players, watcher


async def close_all(*clients: Client) -> None:
    for client in clients:
        await client.close()


async def assert_unchanged(client: Client, code: str, version: int) -> None:
    state = (await client.http.get(f"/api/rooms/{code}/state")).json()
    assert state["version"] == version


async def test_malformed_json_and_huge_frames_leave_the_socket_open(
    sqlite_server: ThreadServer,
) -> None:
    _code, players, watcher = await started_room(sqlite_server.url)
    a = players[0]
    assert (await a.request("{not json", "error"))["code"] == "bad_json"
    assert (await a.request("x" * 20_000, "error"))["code"] == "frame_too_large"
    assert (await a.request({"type": "dance"}, "error"))["code"] == "unknown_message"
    assert (await a.request("[1, 2]", "error"))["code"] == "bad_message"
    assert (await a.request({"type": "act", "action": {}}, "error"))["code"] == "bad_message"
    assert (await a.request({"type": "ping"}, "pong"))["type"] == "pong"
    assert (await a.act({"type": "pick", "value": 0}))["type"] == "ack"
    await close_all(*players, watcher)


async def test_refused_actions_change_nothing(sqlite_server: ThreadServer) -> None:
    code, (a, b), watcher = await started_room(sqlite_server.url)

    unknown = await a.act({"type": "curse", "target": 1})
    assert (unknown["type"], unknown["code"]) == ("error", "unknown_action")
    assert unknown["client_id"]
    bad_value = await a.act({"type": "pick", "value": 9})
    assert bad_value["code"] == "bad_value"
    not_object = await a.act({"value": 1})
    assert not_object["code"] == "unknown_action"
    from_spectator = await watcher.act({"type": "pick", "value": 1})
    assert from_spectator["code"] == "spectator"
    ahead = await a.act({"type": "pick", "value": 1}, version=5)
    assert ahead["code"] == "bad_version"
    await assert_unchanged(watcher, code, 0)

    # Both pick: the step ends; now only seat 0 (the round's caller) owes a decision.
    assert (await a.act({"type": "pick", "value": 1}))["type"] == "ack"
    assert (await b.act({"type": "pick", "value": 2}, version=0))["type"] == "ack"
    await b.at_version(2)
    wrong_seat = await b.act({"type": "call", "guess": "high"})
    assert wrong_seat["code"] == "not_your_turn"
    # An action aimed at a step that is over is stale, even if it would be legal now.
    stale = await a.act({"type": "call", "guess": "high"}, version=1)
    assert stale["code"] == "stale_version"
    await assert_unchanged(watcher, code, 2)

    over_http = await b.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": {"type": "call", "guess": "low"}, "client_id": "x1"},
    )
    assert over_http.status_code == 409
    assert over_http.json() == {
        "error": {"code": "not_your_turn", "message": "seat 1 owes no decision now"}
    }
    async with httpx.AsyncClient(base_url=sqlite_server.url) as anonymous:
        no_token = await anonymous.post(
            f"/api/rooms/{code}/actions",
            json={"action": {"type": "call", "guess": "low"}, "client_id": "x2"},
        )
        assert (no_token.status_code, no_token.json()["error"]["code"]) == (403, "spectator")
    await assert_unchanged(watcher, code, 2)
    await close_all(a, b, watcher)


async def test_a_repeated_client_id_applies_once(server: ThreadServer) -> None:
    code, (a, b), watcher = await started_room(server.url)
    first = await a.act({"type": "pick", "value": 3}, client_id="same-click")
    again = await a.act({"type": "pick", "value": 3}, client_id="same-click")
    assert first == {"type": "ack", "client_id": "same-click", "version": 1, "duplicate": False}
    assert again == {"type": "ack", "client_id": "same-click", "version": 1, "duplicate": True}
    over_http = await a.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": {"type": "pick", "value": 3}, "client_id": "same-click"},
    )
    assert over_http.json() == {"client_id": "same-click", "version": 1, "duplicate": True}
    taken = await b.act({"type": "pick", "value": 0}, client_id="same-click")
    assert taken["code"] == "client_id_taken"
    await assert_unchanged(watcher, code, 1)
    await close_all(a, b, watcher)


async def test_simultaneous_choices_against_the_same_version_are_all_accepted(
    server: ThreadServer,
) -> None:
    _code, players, watcher = await started_room(server.url, ["A", "B", "C", "D"])
    for p in players:
        ack = await p.act({"type": "pick", "value": p.seat}, version=0)
        assert ack["type"] == "ack", ack
    state = await watcher.at_version(4)
    assert state["view"]["last_picks"] == [0, 1, 2, 3]
    await close_all(*players, watcher)


async def test_tokens_and_seats(sqlite_server: ThreadServer) -> None:
    url = sqlite_server.url
    code, players = await open_room(url, "test-guess", ["A"])
    host = players[0]
    async with httpx.AsyncClient(base_url=url) as http:
        bad = {"Authorization": "Bearer not-a-token"}
        response = await http.get(f"/api/rooms/{code}/state", headers=bad)
        assert (response.status_code, response.json()["error"]["code"]) == (401, "bad_token")
        response = await http.post(f"/api/rooms/{code}/start")
        assert (response.status_code, response.json()["error"]["code"]) == (401, "unauthorized")
        response = await host.http.post(f"/api/rooms/{code}/start")
        assert (response.status_code, response.json()["error"]["code"]) == (
            409,
            "not_enough_players",
        )
        response = await http.get(f"/api/rooms/{code}/state")
        assert (response.status_code, response.json()["error"]["code"]) == (409, "not_started")
        for name in ["B", "C", "D"]:
            assert (await http.post(f"/api/rooms/{code}/join", json={"name": name})).is_success
        full = await http.post(f"/api/rooms/{code}/join", json={"name": "E"})
        assert (full.status_code, full.json()["error"]["code"]) == (409, "room_full")
        guest = await http.post(f"/api/rooms/{code}/start", headers=bad)
        assert guest.json()["error"]["code"] == "bad_token"
        assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
        second = await host.http.post(f"/api/rooms/{code}/start")
        assert (second.status_code, second.json()["error"]["code"]) == (409, "already_started")
        late = await http.post(f"/api/rooms/{code}/join", json={"name": "F"})
        assert late.json()["error"]["code"] == "already_started"
        missing = await http.get("/api/rooms/nope")
        assert (missing.status_code, missing.json()["error"]["code"]) == (404, "room_not_found")

    ws_url = url.replace("http://", "ws://")
    async with websockets.connect(f"{ws_url}/ws/rooms/{code}?token=forged") as socket:
        assert '"bad_token"' in await socket.recv()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    await host.close()


async def test_http_errors_have_one_shape(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        cases = [
            (await http.post("/api/rooms", json={"game": "test-guess"}), 422, "validation_error"),
            (
                await http.post(
                    "/api/rooms", content=b"{oops", headers={"content-type": "application/json"}
                ),
                400,
                "bad_json",
            ),
            (
                await http.post("/api/rooms", json={"game": "chess", "name": "A"}),
                404,
                "unknown_game",
            ),
            (
                await http.post(
                    "/api/rooms",
                    json={"game": "test-guess", "name": "A", "options": {"rounds": 99}},
                ),
                422,
                "bad_options",
            ),
            (
                await http.post(
                    "/api/rooms",
                    content=b'{"name": "' + b"x" * 70_000 + b'"}',
                    headers={"content-type": "application/json"},
                ),
                413,
                "too_large",
            ),
            (await http.get("/api/nowhere"), 404, "not_found"),
        ]
        for response, status, code in cases:
            assert response.status_code == status, response.text
            body = response.json()
            assert set(body) == {"error"} and body["error"]["code"] == code
            assert isinstance(body["error"]["message"], str)


async def test_openapi_describes_every_route(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        schema = (await http.get("/openapi.json")).json()
        games = (await http.get("/api/games")).json()
    paths = schema["paths"]
    for path, method in [
        ("/api/games", "get"),
        ("/api/rooms", "post"),
        ("/api/rooms", "get"),
        ("/api/rooms/{code}", "get"),
        ("/api/rooms/{code}/join", "post"),
        ("/api/rooms/{code}/bots", "post"),
        ("/api/rooms/{code}/start", "post"),
        ("/api/rooms/{code}/state", "get"),
        ("/api/rooms/{code}/actions", "post"),
        ("/api/rooms/{code}/log", "get"),
        ("/healthz", "get"),
    ]:
        operation = paths[path][method]
        assert "200" in operation["responses"] or "201" in operation["responses"]
        assert "409" in operation["responses"]
    ids = {g["id"] for g in games}
    assert {"whirling-witchcraft", "test-guess"} <= ids
    guess = next(g for g in games if g["id"] == "test-guess")
    assert guess["options"]["properties"]["rounds"]["default"] == 2
    assert (guess["min_players"], guess["max_players"]) == (2, 4)
    whirling = next(g for g in games if g["id"] == "whirling-witchcraft")
    assert "right" in whirling["description"]


async def test_lobby_lists_open_public_rooms_only(sqlite_server: ThreadServer) -> None:
    url = sqlite_server.url
    public, _ = await open_room(url, "test-guess", ["A", "B"])
    private, _ = await open_room(url, "test-guess", ["C"], visibility="private")
    async with httpx.AsyncClient(base_url=url) as http:
        codes = [r["code"] for r in (await http.get("/api/rooms")).json()]
        assert public in codes and private not in codes
        assert (await http.get(f"/api/rooms/{private}")).status_code == 200
    assert len(private) >= 16  # 96 random bits, URL-safe


async def test_chat_is_shared_persisted_limited(sqlite_server: ThreadServer) -> None:
    code, players = await open_room(sqlite_server.url, "test-guess", ["A", "B"])
    a, b = players
    for client in players:
        await client.connect(code)
    mark = len(b.messages)
    await a.send({"type": "chat", "text": "  double, double  "})
    line = await b.next_of("chat", mark)
    assert (line["seat"], line["name"], line["text"]) == (0, "A", "double, double")
    assert (await a.request({"type": "chat", "text": "x" * 501}, "error"))["code"] == (
        "chat_too_long"
    )
    for i in range(4):
        await a.send({"type": "chat", "text": f"line {i}"})
    assert (await a.request({"type": "chat", "text": "one too many"}, "error"))["code"] == (
        "rate_limited"
    )
    late = Client(sqlite_server.url)
    await late.connect(code)
    await late.until(lambda: sum(m["type"] == "chat" for m in late.messages) == 5)
    await close_all(a, b, late)

"""The seed proof (app/fairness, docs/FAIRNESS.md) through a real server and real sockets: the
commitment and the contributions are public from the first message every seat gets, before a
card is dealt; the match seed follows from the secret and the contributions; the secret is in
no message and no endpoint until the match is over, and in the last state, the log and the
export after it."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from typing import Any

import httpx
import pytest

from tests.support.client import Client
from tests.support.server import ThreadServer
from tests.support.table import at_table, play_to_end, played, start

GAME = "whirling-witchcraft"


def seed_of(server_seed: str, contributions: list[dict[str, Any]]) -> int:
    """The documented derivation, written out again from docs/FAIRNESS.md."""
    message = json.dumps(
        [
            {"seat": c["seat"], "value": c["value"]}
            for c in sorted(contributions, key=lambda c: c["seat"])
        ],
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    digest = hmac.new(bytes.fromhex(server_seed), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 12


async def seated(url: str, mine: list[str | None]) -> tuple[str, list[Client], dict[str, Any]]:
    """A room whose seats brought ``mine`` (None: sent no contribution), and the create answer."""
    async with httpx.AsyncClient(base_url=url) as http:
        body: dict[str, Any] = {"game": GAME, "name": "Agnes", "options": {}}
        if mine[0] is not None:
            body["contribution"] = mine[0]
        created = await http.post("/api/rooms", json=body)
        assert created.status_code == 201, created.text
        code = created.json()["room"]["code"]
        clients = [Client(url, created.json()["token"], 0)]
        for n, value in enumerate(mine[1:], start=1):
            join: dict[str, Any] = {"name": f"Witch {n}"}
            if value is not None:
                join["contribution"] = value
            joined = await http.post(f"/api/rooms/{code}/join", json=join)
            assert joined.status_code == 200, joined.text
            clients.append(Client(url, joined.json()["token"], joined.json()["seat"]))
    return code, clients, created.json()


async def test_the_commitment_comes_first_and_the_seed_follows_from_it(
    server: ThreadServer,
) -> None:
    sqlite_server = server  # (both backends: SQLite and PostgreSQL)
    own = secrets.token_hex(16)
    code, players, created = await seated(sqlite_server.url, [own, None, secrets.token_hex(16)])
    proof = created["room"]["fairness"]
    assert proof["scheme"] == "coven-seed-1"
    assert len(proof["commitment"]) == 64 and proof["revealed"] is None
    assert proof["contributions"] == [{"seat": 0, "value": own, "by": "player"}]
    spectator = Client(sqlite_server.url)
    async with at_table(code, [*players, spectator]):
        # The first message every seat's socket gets (and a spectator's) already holds the
        # commitment and every contribution, before any card is dealt.
        for client in [*players, spectator]:
            await client.until(lambda c=client: bool(c.messages), what="a first message")
            first = client.messages[0]
            assert first["type"] == "presence", first
            assert first["fairness"]["commitment"] == proof["commitment"]
            assert first["fairness"]["revealed"] is None
        room = (await spectator.http.get(f"/api/rooms/{code}")).json()
        listed = room["fairness"]["contributions"]
        assert [c["seat"] for c in listed] == [0, 1, 2]
        assert [c["by"] for c in listed] == ["player", "server", "player"]
        assert listed[0]["value"] == own
        assert all(len(c["value"]) == 32 for c in listed)
        started = await start(players[0], code)
        assert started["fairness"]["commitment"] == proof["commitment"]
        assert started["fairness"]["revealed"] is None
        final = await play_to_end(players, spectator, random.Random(5))
        revealed = final["fairness"]["revealed"]
        assert revealed is not None
        # The commitment was SHA-256 of exactly these bytes, and the seed follows from them.
        digest = hashlib.sha256(
            bytes.fromhex(revealed["server_seed"]) + bytes.fromhex(revealed["salt"])
        )
        assert digest.hexdigest() == proof["commitment"]
        assert len(bytes.fromhex(revealed["server_seed"])) == 32
        assert len(bytes.fromhex(revealed["salt"])) == 16
        assert revealed["match_seed"] == seed_of(revealed["server_seed"], listed)
        log = (await spectator.http.get(f"/api/rooms/{code}/log")).json()
        assert log["replay"]["seed"] == revealed["match_seed"]
        assert log["fairness"]["revealed"] == revealed
        assert log["replay"]["rules_version"] == "2"


def leaks(texts: list[str], secret: dict[str, Any]) -> list[str]:
    return [
        t[:200]
        for t in texts
        if secret["server_seed"] in t or secret["salt"] in t or '"revealed":{' in t.replace(" ", "")
    ]


async def snapshot(url: str, code: str, players: list[Client]) -> list[str]:
    """Every GET a player, a spectator or a stranger can make about the room, as text."""
    texts = []
    async with httpx.AsyncClient(base_url=url) as http:
        for path in ("", "/log", "/replay", "/replay/steps?start=0&count=1", "/export", "/results"):
            texts.append((await http.get(f"/api/rooms/{code}{path}")).text)
        texts.append((await http.get("/api/rooms")).text)
        texts.append((await http.get(f"/api/rooms/{code}/state")).text)
    for p in players:
        texts.append((await p.http.get(f"/api/rooms/{code}/state")).text)
        texts.append((await p.http.get(f"/api/rooms/{code}")).text)
    return texts


async def test_the_secret_is_nowhere_until_the_match_ends(sqlite_server: ThreadServer) -> None:
    url = sqlite_server.url
    code, players, _ = await seated(url, [secrets.token_hex(16), secrets.token_hex(16)])
    spectator = Client(url)
    texts = await snapshot(url, code, players)  # before the start
    async with at_table(code, [*players, spectator]):
        texts.append((await players[0].http.post(f"/api/rooms/{code}/start")).text)
        texts += await snapshot(url, code, players)  # dealt, nothing played
        with pytest.raises(AssertionError, match="did not end"):
            await play_to_end(players, spectator, random.Random(8), max_steps=6)
        texts += await snapshot(url, code, players)  # in the middle
        final = await play_to_end(players, spectator, random.Random(9))
        secret = final["fairness"]["revealed"]
        assert secret is not None
        # Every socket message before the last state, of every seat and the spectator.
        for client in [*players, spectator]:
            for message in client.messages:
                if message.get("type") == "state" and message.get("result") is not None:
                    assert message["fairness"]["revealed"] == secret
                    continue
                texts.append(json.dumps(message, separators=(",", ":")))
        assert len(texts) > 40
        assert leaks(texts, secret) == []
        after = await snapshot(url, code, players)
        assert all(secret["server_seed"] in t for t in after[1:2]), "the log reveals it"
        assert secret["server_seed"] in after[4], "the export reveals it"
        assert secret["server_seed"] in after[0], "the room reveals it once finished"


async def test_a_seat_brings_or_changes_its_contribution_before_the_start(
    sqlite_server: ThreadServer,
) -> None:
    url = sqlite_server.url
    async with httpx.AsyncClient(base_url=url) as http:
        for bad in ("xyz", "ABCDEF" * 6, "00" * 15, "00" * 17):
            refused = await http.post(
                "/api/rooms", json={"game": GAME, "name": "A", "contribution": bad}
            )
            assert refused.status_code == 400, (bad, refused.text)
            assert refused.json()["error"]["code"] == "bad_contribution"
    code, players, created = await seated(url, [None, None])
    host = players[0]
    assert created["room"]["fairness"]["contributions"][0]["by"] == "server"
    async with httpx.AsyncClient(base_url=url) as http:
        bad_join = await http.post(
            f"/api/rooms/{code}/join", json={"name": "C", "contribution": "1"}
        )
        assert (bad_join.status_code, bad_join.json()["error"]["code"]) == (400, "bad_contribution")
        assert len((await http.get(f"/api/rooms/{code}")).json()["seats"]) == 2, "no seat taken"
        bot = await http.post(
            f"/api/rooms/{code}/bots",
            json={"level": "random"},
            headers={"Authorization": f"Bearer {host.token}"},
        )
        assert bot.status_code == 200, bot.text
        no_token = await http.post(
            f"/api/rooms/{code}/contribution", json={"contribution": "ab" * 16}
        )
        assert no_token.status_code == 401
    mine = secrets.token_hex(16)
    changed = await players[1].http.post(
        f"/api/rooms/{code}/contribution", json={"contribution": mine}
    )
    assert changed.status_code == 200, changed.text
    listed = changed.json()["fairness"]["contributions"]
    assert listed[1] == {"seat": 1, "value": mine, "by": "player"}
    assert listed[2]["by"] == "server", "a bot's part is drawn by the server"
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    late = await players[1].http.post(
        f"/api/rooms/{code}/contribution", json={"contribution": mine}
    )
    assert (late.status_code, late.json()["error"]["code"]) == (409, "already_started")
    for p in players:
        await p.close()


async def test_a_rematch_has_its_own_commitment_and_takes_parts_on_arrival(
    sqlite_server: ThreadServer,
) -> None:
    url = sqlite_server.url
    code, players, _ = await seated(url, [secrets.token_hex(16), secrets.token_hex(16)])
    old = (await played(code, players, Client(url), random.Random(6)))["fairness"]
    host, bea = (Client(url, p.token, p.seat) for p in players)
    pressed = await host.http.post(f"/api/rooms/{code}/rematch", json={"seats": "keep"})
    assert pressed.status_code == 200, pressed.text
    new = pressed.json()["code"]
    waiting = (await host.http.get(f"/api/rooms/{new}")).json()["fairness"]
    assert waiting["commitment"] != old["commitment"] and waiting["revealed"] is None
    bad = await bea.http.post(f"/api/rooms/{new}/arrive", json={"contribution": "nothex"})
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "bad_contribution")
    parts = [secrets.token_hex(16), secrets.token_hex(16)]
    for client, part in ((bea, parts[1]), (host, parts[0])):  # the host last: it starts
        arrived = await client.http.post(f"/api/rooms/{new}/arrive", json={"contribution": part})
        assert arrived.status_code == 200, arrived.text
    state = (await host.http.get(f"/api/rooms/{new}/state")).json()
    assert state["fairness"]["commitment"] == waiting["commitment"]
    assert [(c["value"], c["by"]) for c in state["fairness"]["contributions"]] == [
        (parts[0], "player"),
        (parts[1], "player"),
    ]
    assert state["fairness"]["revealed"] is None
    for client in (host, bea):
        await client.close()

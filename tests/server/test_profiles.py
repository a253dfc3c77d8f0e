"""Profiles over HTTP, on SQLite and PostgreSQL: keeping one with a name, the cookie that holds
it, rename, private, export, delete, sign out, claims of guest seats, device links, passkeys
(a software authenticator), and the Origin check on every state-changing request that carries
the cookie. The browser's secret appears in no URL, log line, JSON body or socket message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
import uuid
from collections.abc import AsyncIterator
from http.cookies import SimpleCookie
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.settings import Settings
from app.store.db import make_engine
from tests.server.conftest import sqlite_settings
from tests.support.authenticator import SoftPasskey
from tests.support.client import Client
from tests.support.server import ThreadServer

GAME = "test-guess"
EVIL = "https://evil.example"


def browser(server: ThreadServer, host: str | None = None) -> httpx.AsyncClient:
    """A browser on this server's pages: it keeps cookies and sends its page's Origin."""
    host = host or f"127.0.0.1:{server.port}"
    return httpx.AsyncClient(
        base_url=server.url,
        headers={"Origin": f"http://{host}", "Host": host},
        timeout=10,
    )


def code_of(response: httpx.Response) -> str:
    code: str = response.json()["error"]["code"]
    return code


def set_cookie(response: httpx.Response) -> SimpleCookie:
    cookie: SimpleCookie = SimpleCookie()
    cookie.load(response.headers["set-cookie"])
    return cookie


async def new_room(http: httpx.AsyncClient, name: str, rounds: int = 1) -> tuple[str, str]:
    created = await http.post(
        "/api/rooms",
        json={"game": GAME, "name": name, "visibility": "private", "options": {"rounds": rounds}},
    )
    assert created.status_code == 201, created.text
    return created.json()["room"]["code"], created.json()["token"]


async def join(http: httpx.AsyncClient, code: str, name: str) -> str:
    joined = await http.post(f"/api/rooms/{code}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    token: str = joined.json()["token"]
    return token


async def play_to_the_end(url: str, code: str, tokens: list[str]) -> None:
    """Random legal moves for every seat until the match has a result."""
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=f"{url}/api/rooms/{code}", timeout=10) as http:
        host = {"Authorization": f"Bearer {tokens[0]}"}
        assert (await http.post("/start", headers=host)).status_code == 200
        deadline = time.monotonic() + 20
        while True:
            for token in tokens:
                seat = {"Authorization": f"Bearer {token}"}
                state = (await http.get("/state", headers=seat)).json()
                if state["result"] is not None:
                    return
                if state["legal"]:
                    action = {
                        "action": rng.choice(state["legal"]),
                        "client_id": uuid.uuid4().hex,
                        "version": state["version"],
                    }
                    await http.post("/actions", json=action, headers=seat)
            assert time.monotonic() < deadline, "the match did not end"


@pytest.fixture
async def database(settings: Settings) -> AsyncIterator[Any]:
    """The server's database, for what a test must set up or read that no route does."""
    engine = make_engine(settings.database_url, settings.database_schema)
    yield engine
    await engine.dispose()


async def rows(engine: Any, sql: str, **params: Any) -> list[Any]:
    async with engine.begin() as connection:
        result = await connection.execute(text(sql), params)
        return list(result.all()) if result.returns_rows else []


# -- keeping a profile --------------------------------------------------------------------------


async def test_keeping_a_profile_takes_a_name_and_the_cookie_holds_it(
    server: ThreadServer,
) -> None:
    async with browser(server) as ana:
        assert code_of(await ana.get("/api/profile")) == "no_profile"
        kept = await ana.post("/api/profile", json={"name": "  Ana\u200b  "})
        assert kept.status_code == 201, kept.text
        profile = kept.json()
        assert profile["name"] == "Ana" and profile["listed"] is True
        assert len(profile["public_id"]) == 32 and int(profile["public_id"], 16) >= 0
        cookie = set_cookie(kept)["coven_profile"]
        secret = cookie.value
        assert len(secret) >= 43
        assert cookie["httponly"] is True
        assert cookie["samesite"].lower() == "lax"
        assert cookie["path"] == "/"
        assert cookie["secure"] == ""  # plain http: a Secure cookie would never come back
        assert int(cookie["max-age"]) >= 365 * 24 * 3600
        assert secret not in kept.text
        me = await ana.get("/api/profile")
        assert me.status_code == 200 and me.json() == profile
        # One profile per browser: a second "keep" does not silently replace the first.
        again = await ana.post("/api/profile", json={"name": "Ana again"})
        assert again.status_code == 409 and code_of(again) == "profile_held"
    async with browser(server) as stranger:
        # Another browser (no cookie) holds nothing; a made-up cookie holds nothing either.
        assert (await stranger.get("/api/profile")).status_code == 401
        stranger.cookies.set("coven_profile", "x" * 43)
        refused = await stranger.get("/api/profile")
        assert refused.status_code == 401 and code_of(refused) == "no_profile"
        # ... and the worthless cookie is taken away.
        assert 'coven_profile=""' in refused.headers["set-cookie"]


async def test_the_cookie_is_secure_under_https(tmp_path: Any) -> None:
    # Behind a TLS proxy (X-Forwarded-Proto from a trusted address), and with an https
    # COVEN_PUBLIC_URL, the page is https: the cookie never travels over plain http.
    with ThreadServer(sqlite_settings(tmp_path)) as server:
        async with browser(server) as ana:
            kept = await ana.post(
                "/api/profile", json={"name": "Ana"}, headers={"X-Forwarded-Proto": "https"}
            )
            assert kept.status_code == 201, kept.text
            assert set_cookie(kept)["coven_profile"]["secure"] is True
    public = sqlite_settings(tmp_path / "public", public_url="https://coven.example")
    (tmp_path / "public").mkdir()
    with ThreadServer(public) as server:
        async with browser(server) as bea:
            kept = await bea.post("/api/profile", json={"name": "Bea"})
            cookie = set_cookie(kept)["coven_profile"]
            assert cookie["secure"] is True and cookie["httponly"] is True


async def test_names_follow_the_seat_rules(server: ThreadServer) -> None:
    async with browser(server) as ana:
        for bad in ["\u200b\u200b", " ", "x" * 41, "\u202e"]:
            refused = await ana.post("/api/profile", json={"name": bad})
            assert refused.status_code == 422 and code_of(refused) == "bad_name", bad
            assert "set-cookie" not in refused.headers
        assert (await ana.get("/api/profile")).status_code == 401  # nothing half-made
        await ana.post("/api/profile", json={"name": "Ana"})
        refused = await ana.patch("/api/profile", json={"name": "\u0000"})
        assert refused.status_code == 422 and code_of(refused) == "bad_name"
        assert (await ana.get("/api/profile")).json()["name"] == "Ana"


async def test_rename_and_make_private(server: ThreadServer) -> None:
    async with browser(server) as ana:
        await ana.post("/api/profile", json={"name": "Ana"})
        renamed = await ana.patch("/api/profile", json={"name": "Ana la Bruja"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Ana la Bruja"
        hidden = await ana.patch("/api/profile", json={"listed": False})
        assert hidden.json()["listed"] is False and hidden.json()["name"] == "Ana la Bruja"
        me = (await ana.get("/api/profile")).json()
        assert me["listed"] is False and me["public_profiles"] is True
    async with browser(server) as stranger:
        refused = await stranger.patch("/api/profile", json={"name": "Mine"})
        assert refused.status_code == 401 and code_of(refused) == "no_profile"


# -- claims -------------------------------------------------------------------------------------


async def test_keeping_a_profile_claims_this_browsers_guest_seats_and_no_others(
    server: ThreadServer,
) -> None:
    async with browser(server) as ana, browser(server) as bea:
        first, first_token = await new_room(ana, "Ana")
        second, _ = await new_room(bea, "Bea")
        second_token = await join(ana, second, "Ana")
        bea_token = await join(bea, first, "Bea")
        seats = [
            {"room": first, "token": first_token},
            {"room": second, "token": second_token},
            {"room": second, "token": "not-a-token"},  # nothing
            {"room": second, "token": bea_token},  # Bea's token, but not for this room
        ]
        kept = await ana.post("/api/profile", json={"name": "Ana", "seats": seats})
        assert kept.status_code == 201, kept.text
        export = (await ana.get("/api/profile/export")).json()
        assert sorted((s["room"], s["seat"]) for s in export["seats"]) == sorted(
            [(first, 0), (second, 1)]
        )
        # Bea keeps a profile too and tries to claim Ana's seat with Ana's token: it stays Ana's.
        await bea.post("/api/profile", json={"name": "Bea"})
        stolen = await bea.post(
            "/api/profile/claim",
            json={
                "seats": [
                    {"room": first, "token": first_token},
                    {"room": first, "token": bea_token},
                ]
            },
        )
        assert stolen.status_code == 200 and stolen.json() == {"claimed": 1}
        bea_export = (await bea.get("/api/profile/export")).json()
        assert [(s["room"], s["seat"]) for s in bea_export["seats"]] == [(first, 1)]
        again = await bea.post(
            "/api/profile/claim", json={"seats": [{"room": first, "token": bea_token}]}
        )
        assert again.json() == {"claimed": 0}  # claimed already: nothing twice


async def test_a_profile_holders_new_seats_are_hers(server: ThreadServer) -> None:
    async with browser(server) as ana, browser(server) as bea:
        await ana.post("/api/profile", json={"name": "Ana"})
        mine, _ = await new_room(ana, "Ana")
        theirs, _ = await new_room(bea, "Bea")  # a guest's room: nobody's profile
        await join(ana, theirs, "Ana")
        seats = (await ana.get("/api/profile/export")).json()["seats"]
        assert sorted((s["room"], s["seat"]) for s in seats) == sorted([(mine, 0), (theirs, 1)])


async def test_claims_are_checked_input(server: ThreadServer) -> None:
    async with browser(server) as ana:
        await ana.post("/api/profile", json={"name": "Ana"})
        for body in (
            {"seats": [{"room": "x", "token": "bad\u0000"}]},
            {"seats": [{"room": "x"}]},
            {"seats": [{"room": "x", "token": "y"}] * 501},
            {"seats": "all"},
        ):
            refused = await ana.post("/api/profile/claim", json=body)
            assert refused.status_code == 422, refused.text


# -- the Origin check ----------------------------------------------------------------------------


async def test_a_request_from_another_site_is_refused_and_changes_nothing(
    server: ThreadServer,
) -> None:
    async with browser(server) as ana:
        await ana.post("/api/profile", json={"name": "Ana"})
        rooms_before = len((await ana.get("/api/rooms")).json())
        forged = [
            ("PATCH", "/api/profile", {"name": "Pwned"}, {"Origin": EVIL}),
            ("DELETE", "/api/profile", None, {"Origin": EVIL}),
            ("POST", "/api/profile/signout", None, {"Origin": "null"}),
            (
                "POST",
                "/api/profile/device-links",
                None,
                {"Origin": f"http://127.0.0.1:{server.port}.evil.example"},
            ),
            ("POST", "/api/rooms", {"game": GAME, "name": "Ana"}, {"Origin": EVIL}),
            # A form post from another site in an old browser: no Origin, a cross-site fetch.
            ("POST", "/api/profile/signout", None, {"Origin": "", "Sec-Fetch-Site": "cross-site"}),
        ]
        for method, path, body, headers in forged:
            request = ana.build_request(method, path, json=body, headers=headers)
            if headers.get("Origin") == "":
                del request.headers["Origin"]
            refused = await ana.send(request)
            assert refused.status_code == 403, (method, path, refused.text)
            assert code_of(refused) == "bad_origin"
        me = await ana.get("/api/profile")  # still held, still named Ana
        assert me.status_code == 200 and me.json()["name"] == "Ana"
        assert len((await ana.get("/api/rooms")).json()) == rooms_before
        # A browser that sends no Origin on a same-origin request says so another way.
        request = ana.build_request(
            "PATCH",
            "/api/profile",
            json={"name": "Ana B"},
            headers={"Sec-Fetch-Site": "same-origin"},
        )
        del request.headers["Origin"]
        assert (await ana.send(request)).status_code == 200
    async with httpx.AsyncClient(base_url=server.url, headers={"Origin": EVIL}) as guest:
        # Without the cookie nothing is ambient: a guest's request is not judged by Origin.
        created = await guest.post("/api/rooms", json={"game": GAME, "name": "Bea"})
        assert created.status_code == 201


async def test_the_origin_may_be_the_public_url(tmp_path: Any) -> None:
    settings = sqlite_settings(tmp_path, public_url="https://coven.example")
    with ThreadServer(settings) as server:
        async with httpx.AsyncClient(
            base_url=server.url, headers={"Origin": "https://coven.example"}
        ) as ana:
            kept = await ana.post("/api/profile", json={"name": "Ana"})
            assert kept.status_code == 201
            # (the Secure cookie is not sent back over this test's plain http: send it by hand)
            secret = set_cookie(kept)["coven_profile"].value
            renamed = await ana.patch(
                "/api/profile",
                json={"name": "Ana B"},
                headers={"Cookie": f"coven_profile={secret}"},
            )
            assert renamed.status_code == 200, renamed.text
            refused = await ana.patch(
                "/api/profile",
                json={"name": "X"},
                headers={
                    "Cookie": f"coven_profile={secret}",
                    "Origin": "http://coven.example:8080",
                },
            )
            assert refused.status_code == 403


# -- device links ---------------------------------------------------------------------------------


async def test_a_device_link_gives_the_profile_to_another_browser_once(
    server: ThreadServer,
) -> None:
    async with browser(server) as ana, browser(server) as phone, browser(server) as third:
        assert code_of(await phone.post("/api/profile/device-links")) == "no_profile"
        await ana.post("/api/profile", json={"name": "Ana"})
        made = await ana.post("/api/profile/device-links")
        assert made.status_code == 201, made.text
        link = made.json()
        assert link["url"].startswith(f"{server.url}/device#")
        assert link["svg"].startswith("<svg") and "</svg>" in link["svg"]
        assert 590 <= link["expires_at"] - time.time() <= 600
        code = link["url"].split("#", 1)[1]
        assert len(code) >= 22
        # The phone's page shows whose profile it is, without using the link.
        for _ in range(2):
            peek = await phone.post("/api/device-links/peek", json={"code": code})
            assert peek.status_code == 200 and peek.json() == {"name": "Ana"}
        used = await phone.post("/api/device-links/use", json={"code": code})
        assert used.status_code == 200, used.text
        assert used.json()["public_id"] == (await ana.get("/api/profile")).json()["public_id"]
        assert set_cookie(used)["coven_profile"]["httponly"] is True
        assert phone.cookies.get("coven_profile") != ana.cookies.get("coven_profile")
        assert (await phone.get("/api/profile")).json()["name"] == "Ana"
        # Used: worthless now, to anybody.
        for path in ("/api/device-links/use", "/api/device-links/peek"):
            spent = await third.post(path, json={"code": code})
            assert spent.status_code == 404 and code_of(spent) == "device_link_invalid"
        assert "set-cookie" not in spent.headers
        assert (await third.get("/api/profile")).status_code == 401
        browsers = (await ana.get("/api/profile/export")).json()["browsers"]
        assert sorted(b["via"] for b in browsers) == ["created", "device_link"]


async def test_an_expired_or_unknown_device_link_is_refused(
    server: ThreadServer, database: Any
) -> None:
    async with browser(server) as ana, browser(server) as phone:
        await ana.post("/api/profile", json={"name": "Ana"})
        code = (await ana.post("/api/profile/device-links")).json()["url"].split("#", 1)[1]
        # Ten minutes later (the row's clock moved back: the server reads the time itself).
        await rows(database, "UPDATE auth_challenges SET expires_at = expires_at - 601")
        for path in ("/api/device-links/peek", "/api/device-links/use"):
            late = await phone.post(path, json={"code": code})
            assert late.status_code == 410 and code_of(late) == "device_link_expired", path
        assert (await phone.get("/api/profile")).status_code == 401
        unknown = await phone.post("/api/device-links/use", json={"code": "A" * 22})
        assert unknown.status_code == 404 and code_of(unknown) == "device_link_invalid"
        empty = await phone.post("/api/device-links/use", json={"code": ""})
        assert empty.status_code == 422
        assert (await phone.get("/api/profile")).status_code == 401


async def test_guessing_device_link_codes_is_stopped(server: ThreadServer) -> None:
    # Codes are 128 random bits; still, one address gets 30 tries a minute, then 429.
    async with browser(server) as guesser:
        answers = [
            (
                await guesser.post("/api/device-links/peek", json={"code": f"guess{n:03d}"})
            ).status_code
            for n in range(31)
        ]
        assert answers == [404] * 30 + [429]
        refused = await guesser.post("/api/profile", json={"name": "Guesser"})
        assert refused.status_code == 429 and code_of(refused) == "rate_limited"
        assert "retry-after" in refused.headers


async def test_signing_out_forgets_this_browser_only(server: ThreadServer) -> None:
    async with browser(server) as ana, browser(server) as phone:
        await ana.post("/api/profile", json={"name": "Ana"})
        code = (await ana.post("/api/profile/device-links")).json()["url"].split("#", 1)[1]
        await phone.post("/api/device-links/use", json={"code": code})
        old_secret = phone.cookies.get("coven_profile")
        out = await phone.post("/api/profile/signout")
        assert out.status_code == 204
        assert 'coven_profile=""' in out.headers["set-cookie"]
        assert (await phone.get("/api/profile")).status_code == 401
        # The old secret is worthless even if a copy of the cookie survived.
        phone.cookies.set("coven_profile", old_secret or "")
        assert (await phone.get("/api/profile")).status_code == 401
        assert (await ana.get("/api/profile")).status_code == 200


# -- passkeys --------------------------------------------------------------------------------------


async def test_a_passkey_signs_the_profile_in_on_another_browser(server: ThreadServer) -> None:
    host = f"localhost:{server.port}"
    passkey = SoftPasskey(f"http://{host}")
    async with browser(server, host) as ana, browser(server, host) as laptop:
        assert code_of(await laptop.post("/api/profile/passkeys/options")) == "no_profile"
        profile = (await ana.post("/api/profile", json={"name": "Ana"})).json()
        options = (await ana.post("/api/profile/passkeys/options")).json()
        assert options["rp"]["id"] == "localhost"
        assert options["authenticatorSelection"]["residentKey"] == "required"
        added = await ana.post(
            "/api/profile/passkeys", json={"credential": passkey.create(options)}
        )
        assert added.status_code == 201 and added.json() == {"passkeys": 1}
        assert (await ana.get("/api/profile")).json()["passkeys"] == 1
        # The same answer again: its challenge is spent.
        twice = await ana.post(
            "/api/profile/passkeys", json={"credential": passkey.create(options)}
        )
        assert twice.status_code == 401 and code_of(twice) == "passkey_failed"

        login_options = (await laptop.post("/api/passkeys/login/options")).json()
        assert login_options["rpId"] == "localhost" and login_options["allowCredentials"] == []
        answer = passkey.get(login_options)
        signed_in = await laptop.post("/api/passkeys/login", json={"credential": answer})
        assert signed_in.status_code == 200, signed_in.text
        assert signed_in.json()["public_id"] == profile["public_id"]
        assert set_cookie(signed_in)["coven_profile"]["httponly"] is True
        assert (await laptop.get("/api/profile")).json()["name"] == "Ana"
        # A replayed answer (its challenge spent) signs nobody in.
        async with browser(server, host) as thief:
            replay = await thief.post("/api/passkeys/login", json={"credential": answer})
            assert replay.status_code == 401 and code_of(replay) == "passkey_failed"
            assert (await thief.get("/api/profile")).status_code == 401
        browsers = (await ana.get("/api/profile/export")).json()
        assert sorted(b["via"] for b in browsers["browsers"]) == ["created", "passkey"]
        assert [p["credential_id"] for p in browsers["passkeys"]] == [answer["id"]]


async def test_a_passkey_the_server_does_not_know_or_a_bad_signature_is_refused(
    server: ThreadServer,
) -> None:
    host = f"localhost:{server.port}"
    async with browser(server, host) as stranger:
        options = (await stranger.post("/api/passkeys/login/options")).json()
        unknown = SoftPasskey(f"http://{host}").get(options)
        refused = await stranger.post("/api/passkeys/login", json={"credential": unknown})
        assert refused.status_code == 404 and code_of(refused) == "passkey_unknown"
        assert "set-cookie" not in refused.headers
    passkey = SoftPasskey(f"http://{host}")
    async with browser(server, host) as ana, browser(server, host) as other:
        await ana.post("/api/profile", json={"name": "Ana"})
        options = (await ana.post("/api/profile/passkeys/options")).json()
        await ana.post("/api/profile/passkeys", json={"credential": passkey.create(options)})
        # Signed for another site (a phishing page relaying the challenge): refused.
        options = (await other.post("/api/passkeys/login/options")).json()
        phished = passkey.get(options, rp_id="evil.example")
        refused = await other.post("/api/passkeys/login", json={"credential": phished})
        assert refused.status_code == 401 and code_of(refused) == "passkey_failed"
        options = (await other.post("/api/passkeys/login/options")).json()
        signed_in = await other.post(
            "/api/passkeys/login", json={"credential": passkey.get(options)}
        )
        assert signed_in.status_code == 200, signed_in.text
        await other.post("/api/profile/signout")
        # A cloned authenticator whose counter did not move on: refused.
        passkey.sign_count -= 1
        options = (await other.post("/api/passkeys/login/options")).json()
        cloned = passkey.get(options)
        refused = await other.post("/api/passkeys/login", json={"credential": cloned})
        assert refused.status_code == 401 and code_of(refused) == "passkey_failed"
        # Garbage instead of a credential.
        for credential in ({}, {"response": {"clientDataJSON": "!!"}}, {"id": 3}):
            refused = await other.post("/api/passkeys/login", json={"credential": credential})
            assert refused.status_code == 401 and code_of(refused) == "passkey_failed"
        assert (await other.get("/api/profile")).status_code == 401


async def test_passkeys_need_a_host_name(server: ThreadServer) -> None:
    # An IP address cannot be a WebAuthn relying party: the page offers the device link there.
    async with browser(server) as ana:
        await ana.post("/api/profile", json={"name": "Ana"})
        for path in ("/api/profile/passkeys/options", "/api/passkeys/login/options"):
            refused = await ana.post(path)
            assert refused.status_code == 409 and code_of(refused) == "passkeys_unavailable"


# -- deleting a profile ----------------------------------------------------------------------------


async def test_deleting_a_profile_leaves_every_room_whole(
    server: ThreadServer, database: Any
) -> None:
    async with browser(server) as ana, browser(server) as bea, browser(server) as phone:
        code, ana_token = await new_room(ana, "Ana")
        bea_token = await join(bea, code, "Bea")
        await play_to_the_end(server.url, code, [ana_token, bea_token])
        chat = Client(server.url, ana_token, 0)
        await chat.connect(code)
        await chat.send({"type": "chat", "text": "gg"})
        await chat.until(lambda: any(m.get("type") == "chat" for m in chat.messages), what="chat")
        await chat.close()
        kept = await ana.post(
            "/api/profile", json={"name": "Ana", "seats": [{"room": code, "token": ana_token}]}
        )
        ana_id = kept.json()["public_id"]
        await bea.post(
            "/api/profile", json={"name": "Bea", "seats": [{"room": code, "token": bea_token}]}
        )
        link = (await ana.post("/api/profile/device-links")).json()["url"].split("#", 1)[1]
        await phone.post("/api/device-links/use", json={"code": link})
        log_before = (await bea.get(f"/api/rooms/{code}/log")).json()

        gone = await ana.delete("/api/profile")
        assert gone.status_code == 204
        assert 'coven_profile=""' in gone.headers["set-cookie"]
        assert (await ana.get("/api/profile")).status_code == 401
        assert (await phone.get("/api/profile")).status_code == 401  # every browser's key

        room = (await bea.get(f"/api/rooms/{code}")).json()
        assert [s["name"] for s in room["seats"]][1] == "Bea"
        assert room["seats"][0]["name"] == "A former player"
        assert (await bea.get(f"/api/rooms/{code}/log")).json()["events"] == log_before["events"]
        replay = await bea.get(f"/api/rooms/{code}/replay")
        assert replay.status_code == 200
        assert (await bea.get("/api/profile/export")).json()["seats"][0]["name"] == "Bea"
        seat_rows = await rows(
            database,
            "SELECT s.seat, s.name, s.profile_id, s.former FROM seats s JOIN rooms r "
            "ON r.id = s.room_id WHERE r.code = :code ORDER BY s.seat",
            code=code,
        )
        assert [(r[0], r[1], r[2] is None, bool(r[3])) for r in seat_rows] == [
            (0, "A former player", True, True),
            (1, "Bea", False, False),
        ]
        names = await rows(
            database,
            "SELECT c.name FROM chat c JOIN rooms r ON r.id = c.room_id WHERE r.code = :code",
            code=code,
        )
        assert [n[0] for n in names] == ["A former player"]
        left = await rows(database, "SELECT count(*) FROM profiles WHERE public_id = :p", p=ana_id)
        assert left[0][0] == 0
        # A former seat is not claimed back: deleting is for good.
        await ana.post(
            "/api/profile", json={"name": "Ana", "seats": [{"room": code, "token": ana_token}]}
        )
        assert (await ana.get("/api/profile/export")).json()["seats"] == []


# -- history: claims, privacy, deletion (app/results records finished matches) --------------------


async def until_recorded(http: httpx.AsyncClient, code: str) -> dict[str, Any]:
    """The room's results once the results reaction has recorded the finished match."""
    deadline = time.monotonic() + 15
    while True:
        results: dict[str, Any] = (await http.get(f"/api/rooms/{code}/results")).json()
        if results["recorded"]:
            return results
        assert time.monotonic() < deadline, "the finished match was never recorded"
        await asyncio.sleep(0.1)


async def history(http: httpx.AsyncClient, public_id: str) -> list[dict[str, Any]]:
    page = await http.get(f"/api/profiles/{public_id}/matches")
    assert page.status_code == 200, page.text
    matches: list[dict[str, Any]] = page.json()["matches"]
    return matches


async def test_a_claimed_guest_match_enters_the_profiles_history(server: ThreadServer) -> None:
    async with browser(server) as ana, browser(server) as bea:
        code, ana_token = await new_room(ana, "Ana")
        bea_token = await join(bea, code, "Bea")
        await play_to_the_end(server.url, code, [ana_token, bea_token])
        await until_recorded(ana, code)  # recorded while both were guests: unrated
        kept = await ana.post(
            "/api/profile", json={"name": "Ana", "seats": [{"room": code, "token": ana_token}]}
        )
        ana_id = kept.json()["public_id"]
        matches = await history(ana, ana_id)
        assert [m["code"] for m in matches] == [code]
        assert matches[0]["rated"] is False
        mine = [s for s in matches[0]["seats"] if s["you"]]
        assert [(s["seat"], s["public_id"]) for s in mine] == [(0, ana_id)]
        export = (await ana.get("/api/profile/export")).json()
        assert [(m["room"], m["seat"]) for m in export["matches"]] == [(code, 0)]
        assert export["ratings"] == []  # a match claimed later moves no rating
        # Her figures per game count it at once.
        place = next(s["place"] for s in matches[0]["seats"] if s["you"])
        games = (await ana.get(f"/api/profiles/{ana_id}")).json()["games"]
        assert [(g["game"], g["matches"], g["wins"], g["average_place"]) for g in games] == [
            (GAME, 1, int(place == 1), place)
        ]


async def test_a_private_profile_answers_only_its_owner(
    tmp_path: Any, server: ThreadServer
) -> None:
    async with browser(server) as ana, browser(server) as bea, browser(server) as guest:
        ana_id = (await ana.post("/api/profile", json={"name": "Ana"})).json()["public_id"]
        await bea.post("/api/profile", json={"name": "Bea"})
        assert (await bea.get(f"/api/profiles/{ana_id}")).status_code == 200
        await ana.patch("/api/profile", json={"listed": False})
        for other in (bea, guest):
            hidden = await other.get(f"/api/profiles/{ana_id}")
            assert hidden.status_code == 404 and code_of(hidden) == "profile_not_found"
            unknown = await other.get(f"/api/profiles/{'0' * 32}")
            assert unknown.status_code == 404 and unknown.json() == hidden.json()  # alike
        own = await ana.get(f"/api/profiles/{ana_id}")
        assert own.status_code == 200 and own.json()["profile"]["you"] is True
    # The operator's switch: nobody's page for others, each her own still.
    (tmp_path / "off").mkdir()
    with ThreadServer(sqlite_settings(tmp_path / "off", public_profiles=False)) as closed:
        async with browser(closed) as ana, browser(closed) as bea:
            ana_id = (await ana.post("/api/profile", json={"name": "Ana"})).json()["public_id"]
            assert (await ana.get("/api/profile")).json()["public_profiles"] is False
            assert (await bea.get(f"/api/profiles/{ana_id}")).status_code == 404
            assert (await ana.get(f"/api/profiles/{ana_id}")).status_code == 200


async def test_a_deleted_profiles_matches_still_show_for_the_others(server: ThreadServer) -> None:
    async with browser(server) as ana, browser(server) as bea:
        ana_id = (await ana.post("/api/profile", json={"name": "Ana"})).json()["public_id"]
        bea_id = (await bea.post("/api/profile", json={"name": "Bea"})).json()["public_id"]
        code, ana_token = await new_room(ana, "Ana")  # profile holders: their seats at once
        bea_token = await join(bea, code, "Bea")
        await play_to_the_end(server.url, code, [ana_token, bea_token])
        before = (await until_recorded(bea, code))["match"]
        assert before["rated"] is True  # two profiles sat in it
        assert (await bea.get(f"/api/profiles/{bea_id}")).json()["ratings"] != []

        assert (await ana.delete("/api/profile")).status_code == 204
        assert (await bea.get(f"/api/profiles/{ana_id}")).status_code == 404
        matches = await history(bea, bea_id)
        assert [m["code"] for m in matches] == [code]
        seats = {s["seat"]: s for s in matches[0]["seats"]}
        assert seats[0]["former"] is True and seats[0]["public_id"] is None
        assert seats[0]["name"] == "A former player"
        assert seats[0]["place"] == before["seats"][0]["place"]  # her place, kept
        assert seats[1]["name"] == "Bea" and seats[1]["public_id"] == bea_id
        after = (await bea.get(f"/api/rooms/{code}/results")).json()["match"]
        assert [s["place"] for s in after["seats"]] == [s["place"] for s in before["seats"]]
        assert (await bea.get(f"/api/profiles/{bea_id}")).json()["ratings"] != []


# -- the secret stays secret ----------------------------------------------------------------------


async def test_the_secret_is_in_no_url_log_line_body_or_socket_message(
    sqlite: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    seen_paths: list[str] = []
    server = ThreadServer(sqlite)
    app = server.server.config.app

    async def recording(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            seen_paths.append(scope["path"] + "?" + scope.get("query_string", b"").decode())
        await app(scope, receive, send)

    server.server.config.app = recording
    server.server.config.loaded_app = recording
    for name in ("uvicorn.access", "uvicorn.error", "app"):
        logger = logging.getLogger(name)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(caplog.handler)
    bodies: list[str] = []
    try:
        with server:
            async with browser(server) as ana, browser(server) as phone:
                code, token = await new_room(ana, "Ana")
                kept = await ana.post(
                    "/api/profile", json={"name": "Ana", "seats": [{"room": code, "token": token}]}
                )
                secrets = [kept.cookies["coven_profile"]]
                bodies.append(kept.text)
                bea = Client(server.url, await join(ana, code, "Bea"), 1)
                host = Client(server.url, token, 0)
                await host.connect(code)
                await bea.connect(code)
                bodies.append((await ana.get("/api/profile")).text)
                bodies.append((await ana.patch("/api/profile", json={"listed": False})).text)
                bodies.append((await ana.get("/api/profile/export")).text)
                bodies.append((await ana.post("/api/profile/claim", json={"seats": []})).text)
                made = await ana.post("/api/profile/device-links")
                bodies.append(made.text)
                link = made.json()["url"].split("#", 1)[1]
                bodies.append(
                    (await phone.post("/api/device-links/peek", json={"code": link})).text
                )
                used = await phone.post("/api/device-links/use", json={"code": link})
                bodies.append(used.text)
                secrets.append(used.cookies["coven_profile"])
                await play_to_the_end(server.url, code, [token, bea.token or ""])
                await host.until(lambda: bool(host.state and host.state["result"]), what="end")
                await bea.until(lambda: bool(bea.state and bea.state["result"]), what="end")
                messages = [json.dumps(m) for m in host.messages + bea.messages]
                await host.close()
                await bea.close()
    finally:
        for name in ("uvicorn.access", "uvicorn.error", "app"):
            logging.getLogger(name).removeHandler(caplog.handler)
    lines = [record.getMessage() for record in caplog.records]
    assert any("/api/device-links/use" in line for line in lines), "the access log was on"
    assert len(seen_paths) > 10 and messages and bodies
    link_code = link
    for secret in secrets:
        assert len(secret) >= 43
        for where, texts in (
            ("URL", seen_paths),
            ("log line", lines),
            ("JSON body", bodies),
            ("socket message", messages),
        ):
            assert not [t for t in texts if secret in t], f"the secret is in a {where}"
    # The device link's code travels in bodies only, never in a URL.
    assert not [p for p in seen_paths if link_code in p]

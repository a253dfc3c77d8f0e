"""Webhooks to group chats (issue 20, item 5): a table's host (or a circle's keeper) sets one,
and its turns and its result are posted there, once each, in the chat's own format, off the
move path, with retries; never to a private address unless the operator allows it, never
following a redirect, and the URL never shown to anyone but its setter.

Real servers (ThreadServer) post to a real receiver on 127.0.0.1
(tests/support/webhook_receiver.py), allowed by ``webhook_allow_private``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.settings import Settings
from engine import registry
from tests.server.conftest import sqlite_settings
from tests.support.client import TIMEOUT, Client, open_room
from tests.support.server import ThreadServer
from tests.support.turns import TurnsGame
from tests.support.webhook_receiver import Received, WebhookReceiver

GAME = "test-turns"
TITLE = "Turns (test game)"
# Long enough for several outbox sweeps (0.1 s) and back-off steps (0.2, 0.4 s): a post sent
# twice would show by then.
SETTLE = 1.5
DRIVER_TRACE = ("aiosqlite", "sqlalchemy", "asyncpg")


@pytest.fixture(autouse=True)
def turns_game(monkeypatch: pytest.MonkeyPatch) -> None:
    registry.games()
    monkeypatch.setitem(registry._GAMES, TurnsGame.id, TurnsGame())


def hook_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "webhook_allow_private": True,
        "notify_backoff": (0.2, 0.4),
        "notify_sweep_seconds": 0.1,
        "bot_delay": 0,
        **overrides,
    }
    return sqlite_settings(tmp_path, **values)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(hook_settings(tmp_path)) as running:
        yield running


@pytest.fixture
def receiver() -> Iterator[WebhookReceiver]:
    with WebhookReceiver() as running:
        yield running


def notifications(tmp_path: Path) -> list[dict[str, Any]]:
    """The outbox's rows, read from the server's SQLite file."""
    with sqlite3.connect(tmp_path / "coven.db") as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute("SELECT * FROM notifications ORDER BY id")]


async def set_hook(host: Client, code: str, url: str, fmt: str, **extra: Any) -> httpx.Response:
    return await host.http.put(
        f"/api/rooms/{code}/webhook", json={"url": url, "format": fmt, **extra}
    )


async def act(client: Client, code: str, action: dict[str, Any]) -> None:
    answer = await client.http.post(
        f"/api/rooms/{code}/actions",
        json={"action": action, "client_id": uuid.uuid4().hex},
    )
    assert answer.status_code == 200, answer.text


async def play_turn(client: Client, code: str, value: int) -> None:
    await act(client, code, {"type": "add", "value": value})
    await act(client, code, {"type": "end"})


async def short_match(
    server: ThreadServer,
    hooks: dict[str, tuple[str, str]] | None = None,
    *,
    names: tuple[str, str] = ("Ada", "Bea"),
) -> tuple[str, list[Client]]:
    """A room of the turns game (one round each), with ``hooks`` {format: (url, lang)} set on
    it by the host before the start; the match is started."""
    code, clients = await open_room(server.url, GAME, list(names), options={"rounds": 1})
    for fmt, (url, lang) in (hooks or {}).items():
        answer = await set_hook(clients[0], code, url, fmt, lang=lang)
        assert answer.status_code == 200, answer.text
    started = await clients[0].http.post(f"/api/rooms/{code}/start")
    assert started.status_code == 200, started.text
    return code, clients


async def close(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


def discord_text(text: str) -> str:
    """Discord's Markdown, links and mentions escaped, as a chat reads them back."""
    return "".join(f"\\{c}" if c in "\\*_~`|>#-+.![]()<:@" else c for c in text)


# -- posts for turns and for the end ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "lang"), [("discord", "en"), ("ntfy", "en"), ("slack", "es"), ("matrix", "vi")]
)
async def test_each_turn_and_the_end_are_posted_once_in_the_chats_format(
    server: ThreadServer, receiver: WebhookReceiver, fmt: str, lang: str
) -> None:
    url = receiver.url(f"/{fmt}/secret-{uuid.uuid4().hex}")
    code, (ada, bea) = await short_match(server, {fmt: (url, lang)})
    link = f"{server.url}/r/{code}"
    # Ada's turn is posted as the match starts; Bea's once Ada ends hers; then the end.
    await receiver.until(lambda r: len(r) >= 1, what="the first turn's post")
    await play_turn(ada, code, 1)
    await receiver.until(lambda r: len(r) >= 2, what="Bea's turn's post")
    await play_turn(bea, code, 2)
    await receiver.until(lambda r: len(r) >= 3, what="the end's post")
    await asyncio.sleep(SETTLE)
    posts = receiver.received()
    assert len(posts) == 3, [p.body for p in posts]  # each exactly once
    assert {p.method for p in posts} == {"POST"}
    assert {p.path for p in posts} == {url.removeprefix(f"http://127.0.0.1:{receiver.port}")}
    expected = {
        "en": [
            "Ada's turn — {t} with Ada and Bea",
            "Bea's turn — {t} with Ada and Bea",
            "Bea won {t} (Ada and Bea)",
        ],
        "es": [
            "Le toca a Ada — {t} con Ada y Bea",
            "Le toca a Bea — {t} con Ada y Bea",
            "Bea ganó {t} (Ada y Bea)",
        ],
        "vi": [
            "Đến lượt Ada — {t} với Ada và Bea",
            "Đến lượt Bea — {t} với Ada và Bea",
            "Bea thắng ván {t} (Ada và Bea)",
        ],
    }[lang]
    lines = sorted(line.format(t=TITLE) for line in expected)
    CHECKS[fmt](posts, lines, link)
    await close([ada, bea])


def check_discord(posts: list[Received], lines: list[str], link: str) -> None:
    for post in posts:
        assert post.headers["content-type"] == "application/json"
        assert set(post.json()) == {"content", "allowed_mentions"}
        assert post.json()["allowed_mentions"] == {"parse": []}  # no @everyone, ever
    contents = sorted(p.json()["content"] for p in posts)
    # Markdown's characters are escaped in Discord's text ("\(" shows as "(").
    assert contents == sorted(f"{discord_text(line)}\n{link}" for line in lines)


def check_slack(posts: list[Received], lines: list[str], link: str) -> None:
    for post in posts:
        assert post.headers["content-type"] == "application/json"
        assert set(post.json()) == {"text"}
    assert sorted(p.json()["text"] for p in posts) == sorted(f"{x}\n{link}" for x in lines)


def check_matrix(posts: list[Received], lines: list[str], link: str) -> None:
    for post in posts:
        assert post.headers["content-type"] == "application/json"
        assert set(post.json()) == {"text", "html"}
    assert sorted(p.json()["text"] for p in posts) == sorted(f"{x}\n{link}" for x in lines)
    anchor = f'<br><a href="{link}">{link}</a>'
    assert sorted(p.json()["html"] for p in posts) == sorted(f"{x}{anchor}" for x in lines)


def check_ntfy(posts: list[Received], lines: list[str], link: str) -> None:
    for post in posts:
        assert post.headers["content-type"] == "text/plain; charset=utf-8"
        assert post.headers["title"] == f"Coven: {TITLE}"
        assert post.headers["click"] == link
    assert sorted(p.text for p in posts) == lines
    tags = {p.text: p.headers["tags"] for p in posts}
    assert sorted(tags.values()) == ["hourglass_flowing_sand"] * 2 + ["trophy"]
    assert tags[next(x for x in lines if "won" in x)] == "trophy"


CHECKS = {
    "discord": check_discord,
    "slack": check_slack,
    "matrix": check_matrix,
    "ntfy": check_ntfy,
}


async def test_a_name_is_text_in_every_chat_never_markup_or_a_mention(
    server: ThreadServer, receiver: WebhookReceiver
) -> None:
    name = "<b>@everyone</b> [x](http://e.io)"
    rooms = []
    for fmt in ("discord", "slack", "matrix"):
        _, clients = await short_match(
            server, {fmt: (receiver.url(f"/{fmt}"), "en")}, names=(name, "Bea")
        )
        rooms.append(clients)
    posts = await receiver.until(lambda r: len(r) >= 3, what="each room's first turn")
    by_path = {p.path: p.json() for p in posts}
    line = f"{name}'s turn — {TITLE} with {name} and Bea"
    discord = by_path["/discord"]["content"]
    assert discord.startswith(discord_text(line) + "\n")
    assert "@everyone" not in discord.replace("\\@", "") and "](" not in discord
    assert by_path["/discord"]["allowed_mentions"] == {"parse": []}
    slack = by_path["/slack"]["text"]
    assert slack.startswith(line.replace("<", "&lt;").replace(">", "&gt;") + "\n")
    assert "<" not in slack and ">" not in slack
    html = by_path["/matrix"]["html"]
    assert html.startswith(line.replace("<", "&lt;").replace(">", "&gt;") + "<br>")
    assert "<b>" not in html
    for clients in rooms:
        await close(clients)


async def test_a_named_host_is_resolved_and_the_post_keeps_its_name(
    server: ThreadServer, receiver: WebhookReceiver
) -> None:
    """The sender resolves the name itself and posts to an address it checked; the receiver
    still sees the name it was given (``Host``), whichever of its addresses answered."""
    url = f"http://localhost:{receiver.port}/named"
    _, clients = await short_match(server, {"slack": (url, "en")})
    [post] = await receiver.until(lambda r: len(r) >= 1, what="the first turn's post")
    assert post.path == "/named"
    assert post.headers["host"] == f"localhost:{receiver.port}"
    assert post.json()["text"].startswith("Ada's turn")
    await close(clients)


# -- failures: retried, refused, never followed -------------------------------------------------


async def test_a_receiver_that_fails_gets_the_post_again(
    server: ThreadServer, tmp_path: Path
) -> None:
    with WebhookReceiver(answers=[500]) as flaky:
        _, clients = await short_match(server, {"slack": (flaky.url(), "en")})
        posts = await flaky.until(lambda r: len(r) >= 2, what="the post tried again")
        assert posts[0].body == posts[1].body  # the same post, after 500 then 200
        await asyncio.sleep(SETTLE)
        assert len(flaky.received()) == 2
        [row] = notifications(tmp_path)
        assert (row["outcome"], row["attempts"], row["done"]) == ("sent", 2, 1)
        await close(clients)


async def test_a_redirect_is_not_followed(server: ThreadServer, tmp_path: Path) -> None:
    with WebhookReceiver(answers=[302, 307, 308]) as moving:
        _, clients = await short_match(server, {"discord": (moving.url(), "en")})
        await moving.until(lambda r: len(r) >= 1, what="the first post")
        await asyncio.sleep(SETTLE)
        # Answered "go elsewhere": refused for good, not tried again, /followed never asked.
        assert [r.path for r in moving.received()] == ["/hook"]
        [row] = notifications(tmp_path)
        assert (row["outcome"], row["attempts"]) == ("failed", 1)
        assert "redirect" in row["last_error"]
        await close(clients)


async def test_a_receiver_that_refuses_is_not_asked_again(
    server: ThreadServer, tmp_path: Path
) -> None:
    with WebhookReceiver(answers=[404]) as gone:
        _, clients = await short_match(server, {"ntfy": (gone.url(), "en")})
        await gone.until(lambda r: len(r) >= 1, what="the first post")
        await asyncio.sleep(SETTLE)
        assert len(gone.received()) == 1
        [row] = notifications(tmp_path)
        assert (row["outcome"], row["last_error"]) == ("failed", "answered 404")
        await close(clients)


async def test_a_receiver_that_never_answers_is_left_alone(
    server: ThreadServer, tmp_path: Path
) -> None:
    """Each post waits 5 s at most; then the webhook's other posts are put off without a
    connection (no sending slot held for a dead chat server), and the URL is in no error."""
    with WebhookReceiver(hang=True) as dead:
        url = dead.url(f"/{uuid.uuid4().hex}")
        code, (ada, bea) = await short_match(server, {"discord": (url, "en")})
        await play_turn(ada, code, 1)
        await play_turn(bea, code, 2)  # the match ends whatever the receiver does
        await dead.until(lambda r: len(r) >= 3, what="the three posts, each left hanging")

        def put_off() -> bool:
            rows = notifications(tmp_path)
            return all(r["attempts"] >= 2 for r in rows)

        for _ in range(200):
            if put_off():
                break
            await asyncio.sleep(0.05)
        rows = notifications(tmp_path)
        assert len(rows) == 3 and put_off(), rows
        assert {r["last_error"] for r in rows} == {"the receiver did not answer lately"}
        assert len(dead.received()) == 3  # put off without a new connection
        assert not [r for r in rows if url.split("/")[-1] in (r["last_error"] or "")]
        await close([ada, bea])


# -- safe by default ----------------------------------------------------------------------------


PRIVATE = [
    "http://127.0.0.1:9/hook",
    "http://localhost:9/hook",
    "http://10.1.2.3/hook",
    "http://192.168.1.20/hook",
    "http://169.254.169.254/latest/meta-data",
    "http://[::1]/hook",
    "http://[fd00::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
]


async def test_a_private_address_is_refused_without_the_setting(tmp_path: Path) -> None:
    with ThreadServer(sqlite_settings(tmp_path)) as strict:  # the default: not allowed
        code, clients = await open_room(strict.url, GAME, ["Ada", "Bea"])
        host = clients[0]
        for url in PRIVATE:
            answer = await set_hook(host, code, url, "discord")
            assert answer.status_code == 422, (url, answer.text)
            error = answer.json()["error"]
            assert error["code"] == "private_address", (url, error)
            assert "COVEN_WEBHOOK_ALLOW_PRIVATE" in error["message"]
        for url in (
            "ftp://example.com/x",
            "example.com/hook",
            "https://user:pw@example.com/x",
            "http://example.com:99999/x",
            "",
        ):
            answer = await set_hook(host, code, url, "discord")
            assert answer.json()["error"]["code"] == "bad_url", (url, answer.text)
        answer = await set_hook(host, code, "https://example.com/hook", "telegram")
        assert answer.json()["error"]["code"] == "bad_format"
        # Nothing was stored.
        assert (await host.http.get(f"/api/rooms/{code}/webhook")).json() == {
            "set": False,
            "editable": True,
        }
        await close(clients)


async def test_the_address_is_checked_again_before_each_post(tmp_path: Path) -> None:
    """A webhook set while the operator allowed private addresses posts nothing once she no
    longer does (the same database, a server restarted without the setting)."""
    with WebhookReceiver() as inside:
        with ThreadServer(hook_settings(tmp_path)) as allowing:
            code, clients = await open_room(allowing.url, GAME, ["Ada", "Bea"])
            assert (await set_hook(clients[0], code, inside.url(), "slack")).status_code == 200
            await close(clients)
        with ThreadServer(hook_settings(tmp_path, webhook_allow_private=False)) as strict:
            host = Client(strict.url, clients[0].token, 0)
            assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
            for _ in range(100):
                rows = notifications(tmp_path)
                if rows and rows[0]["done"]:
                    break
                await asyncio.sleep(0.05)
            [row] = rows
            assert (row["outcome"], row["attempts"]) == ("failed", 1)
            assert row["last_error"].startswith("private_address")
            assert inside.received() == []
            await host.close()


# -- the URL is its setter's secret -------------------------------------------------------------


async def test_only_the_host_sets_and_sees_the_url(
    server: ThreadServer, receiver: WebhookReceiver, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    secret = f"secret-{uuid.uuid4().hex}"
    url = receiver.url(f"/{secret}")
    code, (ada, bea) = await open_room(server.url, GAME, ["Ada", "Bea"], options={"rounds": 1})
    spectator = Client(server.url)
    path = f"/api/rooms/{code}/webhook"
    body = {"url": url, "format": "discord"}
    # Bea is not the host; a spectator has no seat; a wrong token holds none.
    for who, status, error in ((bea, 403, "not_host"), (spectator, 401, "unauthorized")):
        answer = await who.http.put(path, json=body)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, error)
        answer = await who.http.delete(path)
        assert (answer.status_code, answer.json()["error"]["code"]) == (status, error)
    wrong = await spectator.http.put(path, json=body, headers={"Authorization": "Bearer nope"})
    assert wrong.json()["error"]["code"] == "bad_token"
    assert (await ada.http.put(path, json=body)).status_code == 200
    # The host gets it back; anyone else learns only that one is set.
    assert (await ada.http.get(path)).json() == {
        "set": True,
        "editable": True,
        "format": "discord",
        "lang": "en",
        "url": url,
    }
    assert (await bea.http.get(path)).json() == {"set": True, "editable": False}
    assert (await spectator.http.get(path)).json() == {"set": True, "editable": False}
    # Play the match with everyone watching: nothing anyone else receives carries the URL.
    await bea.connect(code)
    await spectator.connect(code)
    assert (await ada.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await play_turn(ada, code, 1)
    await play_turn(bea, code, 2)
    await receiver.until(lambda r: len(r) >= 3, what="three posts")
    await bea.until(lambda: bea.state is not None and bea.state["result"] is not None)
    seen = [json.dumps(m) for m in bea.messages + spectator.messages]
    for path_seen in (
        f"/api/rooms/{code}",
        "/api/rooms",
        f"/api/rooms/{code}/state",
        f"/api/rooms/{code}/log",
        f"/api/rooms/{code}/replay",
    ):
        seen.append((await bea.http.get(path_seen)).text)
        seen.append((await spectator.http.get(path_seen)).text)
    seen.append((await bea.http.post("/api/me/tables", json={})).text)
    seen.append((await bea.http.get(f"/r/{code}")).text)
    assert seen and not [s for s in seen if secret in s]
    # Nor any log line of the server, down to DEBUG (its requests, the sender's connections),
    # but for the database driver's own trace of every statement and its values (at DEBUG
    # alone: a server logs at INFO and above).
    lines = [r for r in caplog.records if not r.name.startswith(DRIVER_TRACE)]
    assert lines and not [r for r in lines if secret in r.getMessage()]
    # The match is over: no new webhook for it; the host may still remove hers.
    answer = await ada.http.put(path, json=body)
    assert (answer.status_code, answer.json()["error"]["code"]) == (409, "room_over")
    assert (await ada.http.delete(path)).status_code == 204
    assert (await ada.http.get(path)).json() == {"set": False, "editable": True}
    await close([ada, bea, spectator])


async def test_a_removed_webhook_gets_nothing_more(
    server: ThreadServer, receiver: WebhookReceiver, tmp_path: Path
) -> None:
    code, (ada, bea) = await short_match(server, {"matrix": (receiver.url(), "en")})
    await receiver.until(lambda r: len(r) >= 1, what="the first turn's post")
    assert (await ada.http.delete(f"/api/rooms/{code}/webhook")).status_code == 204
    await play_turn(ada, code, 1)
    await play_turn(bea, code, 2)
    await asyncio.sleep(SETTLE)
    assert len(receiver.received()) == 1
    # Set again (a new webhook), it speaks of turns that start from then on.
    code2, (cy, dee) = await short_match(server, names=("Cy", "Dee"))
    assert (await set_hook(cy, code2, receiver.url("/new"), "slack")).status_code == 200
    await play_turn(cy, code2, 1)
    posts = await receiver.until(lambda r: len(r) >= 2, what="Dee's turn")
    assert posts[1].json()["text"].startswith("Dee's turn")
    await close([ada, bea, cy, dee])


async def test_several_sets_at_once_leave_one_webhook(
    server: ThreadServer, receiver: WebhookReceiver
) -> None:
    code, (ada, bea) = await open_room(server.url, GAME, ["Ada", "Bea"], options={"rounds": 1})
    urls = [receiver.url(f"/{n}") for n in range(6)]
    answers = await asyncio.gather(*(set_hook(ada, code, url, "slack") for url in urls))
    assert [a.status_code for a in answers] == [200] * len(urls)
    assert (await ada.http.get(f"/api/rooms/{code}/webhook")).json()["url"] in urls
    assert (await ada.http.post(f"/api/rooms/{code}/start")).status_code == 200
    await receiver.until(lambda r: len(r) >= 1, what="the first turn's post")
    await asyncio.sleep(SETTLE)
    assert len(receiver.received()) == 1  # one webhook, one post
    await close([ada, bea])


async def test_on_each_database(settings: Settings, receiver: WebhookReceiver) -> None:
    """SQLite and PostgreSQL: sets at once (on PostgreSQL they race to insert), the posts of a
    whole match once each, and the removal."""
    fast = dataclasses.replace(
        settings,
        webhook_allow_private=True,
        notify_backoff=(0.2, 0.4),
        notify_sweep_seconds=0.1,
    )
    with ThreadServer(fast) as server:
        code, (ada, bea) = await open_room(server.url, GAME, ["Ada", "Bea"], options={"rounds": 1})
        urls = [receiver.url(f"/{n}") for n in range(6)]
        answers = await asyncio.gather(*(set_hook(ada, code, u, "discord") for u in urls))
        assert [a.status_code for a in answers] == [200] * len(urls), [a.text for a in answers]
        kept = (await ada.http.get(f"/api/rooms/{code}/webhook")).json()["url"]
        assert (await ada.http.post(f"/api/rooms/{code}/start")).status_code == 200
        await play_turn(ada, code, 1)
        await play_turn(bea, code, 2)
        await receiver.until(lambda r: len(r) >= 3, what="the match's three posts")
        await asyncio.sleep(SETTLE)
        posts = receiver.received()
        assert len(posts) == 3 and {p.path for p in posts} == {kept.split(str(receiver.port))[1]}
        assert (await ada.http.delete(f"/api/rooms/{code}/webhook")).status_code == 204
        assert (await bea.http.get(f"/api/rooms/{code}/webhook")).json() == {
            "set": False,
            "editable": False,
        }
        await close([ada, bea])


# -- a circle's webhook -------------------------------------------------------------------------


class Member:
    """A browser holding a profile: its cookie jar, and the Origin its pages send."""

    def __init__(self, url: str) -> None:
        self.http = httpx.AsyncClient(base_url=url, headers={"Origin": url}, timeout=TIMEOUT)

    async def keep_profile(self, name: str) -> Member:
        made = await self.http.post("/api/profile", json={"name": name})
        assert made.status_code == 201, made.text
        return self


async def test_a_circles_tables_post_to_its_webhook(
    server: ThreadServer, receiver: WebhookReceiver
) -> None:
    keeper = await Member(server.url).keep_profile("Ada")
    member = await Member(server.url).keep_profile("Bea")
    outsider = await Member(server.url).keep_profile("Cy")
    made = (await keeper.http.post("/api/circles", json={"name": "Thursday"})).json()
    circle, invite = made["circle"]["public_id"], made["invite"]["code"]
    joined = await member.http.post("/api/circle-invite/join", json={"code": invite})
    assert joined.status_code == 200, joined.text
    path = f"/api/circles/{circle}/webhook"
    url = receiver.url(f"/circle-{uuid.uuid4().hex}")
    body = {"url": url, "format": "ntfy", "lang": "es"}
    refused = await member.http.put(path, json=body)
    assert refused.json()["error"]["code"] == "not_circle_keeper"
    assert (await outsider.http.put(path, json=body)).json()["error"]["code"] == (
        "circle_not_found"
    )
    assert (await keeper.http.put(path, json=body)).status_code == 200
    assert (await keeper.http.get(path)).json()["url"] == url
    assert (await member.http.get(path)).json() == {"set": True, "editable": False}
    assert (await outsider.http.get(path)).status_code == 404
    assert url not in (await member.http.get(f"/api/circles/{circle}")).text
    # A table the member opens for the circle posts there (in the circle webhook's language).
    room = await member.http.post(
        "/api/rooms",
        json={
            "game": GAME,
            "name": "Bea",
            "visibility": "private",
            "options": {"rounds": 1},
            "circle": circle,
        },
    )
    assert room.status_code == 201, room.text
    code, token = room.json()["room"]["code"], room.json()["token"]
    async with httpx.AsyncClient(base_url=server.url) as guest:
        assert (
            await guest.post(f"/api/rooms/{code}/join", json={"name": "Dan"})
        ).status_code == 200
    host = Client(server.url, token, 0)
    assert (await host.http.post(f"/api/rooms/{code}/start")).status_code == 200
    [post] = await receiver.until(lambda r: len(r) >= 1, what="the circle table's first turn")
    assert post.text == f"Le toca a Bea — {TITLE} con Bea y Dan"
    assert post.headers["click"] == f"{server.url}/r/{code}"
    assert (await keeper.http.delete(path)).status_code == 204
    assert (await member.http.get(path)).json() == {"set": False, "editable": False}
    for client in (keeper, member, outsider):
        await client.http.aclose()
    await host.close()

"""Reaching the table: the room page by its link, the public base URL, the serve banner."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from app import lan
from app.settings import Settings
from tests.server.conftest import sqlite_settings
from tests.support.server import ROOT, ThreadServer, free_port

PUBLIC_META = re.compile(r'<meta name="coven-public-url" content="([^"]*)">')


async def _room(url: str) -> str:
    async with httpx.AsyncClient(base_url=url) as http:
        created = await http.post("/api/rooms", json={"game": "test-guess", "name": "Host"})
        assert created.status_code == 201, created.text
        code: str = created.json()["room"]["code"]
        return code


async def test_an_unknown_room_link_is_a_404_page(sqlite_server: ThreadServer) -> None:
    code = await _room(sqlite_server.url)
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        known = await http.get(f"/r/{code}")
        assert known.status_code == 200
        assert f'data-code="{code}"' in known.text
        for missing in ("NoSuchRoom123", "bad.code", "x" * 65, code[:-1] + "~"):
            page = await http.get(f"/r/{missing}")
            assert page.status_code == 404, missing
            assert page.headers["content-type"].startswith("text/html")
            assert 'data-testid="no-room"' in page.text
            assert 'data-i18n="room.not_found"' in page.text
            assert "room.js" not in page.text  # nothing tries to open a socket to it
            assert "content-security-policy" in page.headers


async def test_without_public_url_the_page_uses_the_browsers_address(
    sqlite_server: ThreadServer,
) -> None:
    code = await _room(sqlite_server.url)
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        for path in ("/", f"/r/{code}"):
            assert PUBLIC_META.search((await http.get(path)).text) is None


async def test_public_url_is_given_to_every_page(tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path, public_url="https://coven.example")
    with ThreadServer(settings) as server:
        code = await _room(server.url)
        async with httpx.AsyncClient(base_url=server.url) as http:
            for path in ("/", f"/r/{code}", "/r/NoSuchRoom"):
                found = PUBLIC_META.search((await http.get(path)).text)
                assert found is not None and found.group(1) == "https://coven.example", path


@pytest.mark.parametrize(
    ("raw", "url"),
    [
        ("https://coven.example/", "https://coven.example"),
        ("  http://192.168.1.20:8000 ", "http://192.168.1.20:8000"),
        ("https://example.org/coven/", "https://example.org/coven"),
        ("", None),
    ],
)
def test_public_url_setting(monkeypatch: pytest.MonkeyPatch, raw: str, url: str | None) -> None:
    monkeypatch.setenv("COVEN_PUBLIC_URL", raw)
    assert Settings.from_env().public_url == url


@pytest.mark.parametrize(
    "raw", ["coven.example", "ftp://coven.example", "https://", "https://x/?a=1", "https://x/#y"]
)
def test_a_public_url_that_is_not_an_origin_is_refused(
    monkeypatch: pytest.MonkeyPatch, raw: str
) -> None:
    monkeypatch.setenv("COVEN_PUBLIC_URL", raw)
    with pytest.raises(ValueError, match="COVEN_PUBLIC_URL"):
        Settings.from_env()


def test_lan_addresses_are_this_machines_and_reachable() -> None:
    addresses = lan.lan_addresses()
    assert len(addresses) == len(set(addresses))
    for address in addresses:
        assert not address.startswith("127.")
        # Each one is an address of this machine: a socket can bind to it.
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))


def test_lan_lookup_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[object] = []

    class Spy(socket.socket):
        def send(self, *args: object, **kwargs: object) -> int:
            sent.append(args)
            raise AssertionError("the LAN lookup must not send")

        def sendto(self, *args: object, **kwargs: object) -> int:
            sent.append(args)
            raise AssertionError("the LAN lookup must not send")

    monkeypatch.setattr(socket, "socket", Spy)
    lan.lan_addresses()
    assert sent == []


def test_banner_on_every_interface_names_the_lan_addresses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lan, "lan_addresses", lambda: ["192.168.1.20", "10.0.0.5"])
    text = "\n".join(lan.banner("0.0.0.0", 8000, None))
    assert "http://192.168.1.20:8000" in text and "http://10.0.0.5:8000" in text
    monkeypatch.setattr(lan, "lan_addresses", list)
    assert "No network address" in "\n".join(lan.banner("0.0.0.0", 8000, None))


def test_banner_on_loopback_says_friends_cannot_reach_it() -> None:
    text = "\n".join(lan.banner("127.0.0.1", 8000, None))
    assert "http://127.0.0.1:8000" in text and "make lan" in text
    public = "\n".join(lan.banner("127.0.0.1", 8000, "https://coven.example"))
    assert "https://coven.example" in public


def test_serve_on_every_interface_prints_where_friends_join(tmp_path: Path) -> None:
    """``make lan`` runs ``coven serve --host 0.0.0.0``: before serving, it prints this
    machine's LAN addresses with the port (or says it found none)."""
    port = free_port()
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'lan.db'}",
        "COVEN_PUBLIC_URL": "",
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(2)]
        text = "".join(lines)
        assert f"http://127.0.0.1:{port}" in lines[0]
        addresses = lan.lan_addresses()
        if addresses:
            assert "Friends on your network" in lines[1]
            listed = [process.stdout.readline().strip() for _ in addresses]
            assert listed == [f"http://{a}:{port}" for a in addresses]
        else:
            assert "No network address" in text
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_serve_refuses_a_bad_public_url(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env={
            **os.environ,
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bad.db'}",
            "COVEN_PUBLIC_URL": "coven.example",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "COVEN_PUBLIC_URL must look like" in done.stderr
    assert "Traceback" not in done.stderr

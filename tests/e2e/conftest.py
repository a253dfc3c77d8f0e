"""Browser tests: a real ``coven serve`` subprocess driven by Debian's Chromium (Playwright).

Chromium is never downloaded (``playwright install`` needs the network): the tests use
``/usr/bin/chromium``. Without it they skip on a developer machine and FAIL under ``CI=true``.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.server import wait_healthy

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("COVEN_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--no-sandbox",
    "--disable-gpu",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _coven_command() -> list[str]:
    script = Path(sys.executable).with_name("coven")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "app.cli"]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        message = f"Chromium not found at {CHROMIUM} (apt-get install -y chromium)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("playwright (python) is not installed")
        pytest.skip("playwright (python) is not installed")
    return CHROMIUM


@pytest.fixture(scope="module")
def coven_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``coven serve`` on a free port, SQLite in a temp dir, bots without delay."""
    port = _free_port()
    db = tmp_path_factory.mktemp("e2e") / "e2e.db"
    env = {
        **os.environ,
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}",
        "COVEN_BOT_DELAY": "0.05",
        # Bot answers are paced to a share of this (app/rooms/pacing.py): short, so that whole
        # matches of greedy bots end quickly (0.05 s + 0.05 s a greedy answer).
        "COVEN_BOT_BUDGET_MS": "100",
        "COVEN_SWEEP_SECONDS": "1",
        # No balancer to wait for at the end: stop without the drain's pause (app/drain.py).
        "COVEN_DRAIN_SECONDS": "0",
    }
    log = (tmp_path_factory.getbasetemp() / "coven-serve.log").open("wb")
    process = subprocess.Popen(
        [*_coven_command(), "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, process, seconds=90)
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
        log.close()


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[object]:
    # Module scope: the sync API runs its own event loop while open, which must be gone
    # before any asyncio test of another module runs.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "console_errors_allowed(*texts): console errors holding one of `texts` are expected "
        "(a 404 page, a refused form); any other fails the test",
    )


@pytest.fixture(autouse=True)
def no_console_error(request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Every browser test: each console error and uncaught page error of any page the test's
    contexts open fails it (after the test, so its own asserts speak first). Tests that expect
    one name it with ``@pytest.mark.console_errors_allowed("404")``."""
    if "browser" not in request.fixturenames:
        yield []
        return
    browser = request.getfixturevalue("browser")
    errors: list[str] = []
    original = browser.new_context

    def new_context(**options: Any) -> Any:
        context = original(**options)
        context.on(
            "console",
            lambda m: (
                errors.append(f"console: {m.text} ({m.location['url']})")
                if m.type == "error"
                else None
            ),
        )
        context.on("weberror", lambda e: errors.append(f"pageerror: {e.error}"))
        return context

    browser.new_context = new_context
    try:
        yield errors
    finally:
        del browser.new_context  # the instance attribute: the class's method again
    marker = request.node.get_closest_marker("console_errors_allowed")
    allowed = marker.args if marker else ()
    unexpected = [e for e in errors if not any(text in e for text in allowed)]
    assert unexpected == [], f"console errors during {request.node.name}: {unexpected}"


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS

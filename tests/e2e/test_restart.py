"""The browser through a restart of its server (issue 23, item 3; app/drain.py).

A table is open in Chromium; its ``coven serve`` gets SIGTERM and drains: the page's socket is
closed with 1012 ("service restart"), the page says it is reconnecting — never an error — and,
with its back-off and jitter (static/js/client.js), comes back by itself to the server started
again on the same address, the table as it was. (Several workers behind a proxy: the page lands
on another one the same way; tests/server/test_rolling_restart.py proves that part.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.api_rooms import HostedRoom
from tests.e2e.conftest import ROOT, _coven_command, _free_port
from tests.e2e.players import new_player, shot, wait_until
from tests.support.server import wait_healthy

# Every socket's close code, and every error the page shows, kept for the test to read.
WATCH_JS = """
(() => {
  window.e2eCloses = [];
  window.e2eErrors = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("close", (event) => window.e2eCloses.push(event.code));
    }
  };
  document.addEventListener("DOMContentLoaded", () => {
    const box = document.getElementById("toasts");
    if (!box) return;
    new MutationObserver(() => {
      for (const node of box.querySelectorAll("[data-kind=error]")) {
        window.e2eErrors.push(node.textContent);
      }
    }).observe(box, { childList: true, subtree: true });
  });
})();
"""


class Serve:
    """``coven serve`` on a fixed port and SQLite file, to stop and start again."""

    def __init__(self, tmp: Path) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.env = {
            **os.environ,
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp / 'restart.db'}",
            "COVEN_BOT_DELAY": "0.05",
            "COVEN_DRAIN_SECONDS": "1",
        }
        self.log = (tmp / "coven-serve.log").open("ab")
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [*_coven_command(), "serve", "--port", str(self.port), "--log-level", "warning"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        wait_healthy(self.url, self.process, seconds=60)

    def terminate(self) -> float:
        """SIGTERM; the seconds until the process is gone."""
        assert self.process is not None
        began = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)
        return time.monotonic() - began

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.log.close()


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Serve]:
    server = Serve(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.close()


def _connection(page: Any) -> str:
    status: str = page.evaluate("document.body.dataset.connection || ''")
    return status


# While no server listens the browser itself logs each refused try (the page logs nothing).
@pytest.mark.console_errors_allowed("ERR_CONNECTION_REFUSED")
def test_the_page_comes_back_by_itself_after_a_restart_and_shows_no_error(
    browser: Any, serve: Serve, artifacts: Path
) -> None:
    room = HostedRoom(serve.url, "whirling-witchcraft")
    room.start_with_bots(2)
    ana = new_player(browser, "Ana", viewport={"width": 1366, "height": 900})
    ana.page.add_init_script(WATCH_JS)
    ana.page.goto(room.page_url("en"))
    wait_until(ana.page, "document.body.dataset.connection === 'open'", 30)
    before = room.state()["version"]

    assert serve.terminate() < 25
    # Closed with 1012 by the draining server, and saying so in words, not as an error.
    wait_until(ana.page, "window.e2eCloses.includes(1012)", 10)
    wait_until(ana.page, "document.body.dataset.connection === 'reconnecting'", 10)
    shot(ana, artifacts, "restart-reconnecting-laptop", full_page=False)
    serve.start()
    # Back by itself (its back-off reaches 10 s between tries at most), the table as it was.
    wait_until(ana.page, "document.body.dataset.connection === 'open'", 40)
    assert room.state()["version"] >= before
    assert ana.page.evaluate("window.e2eErrors") == []
    assert [e for e in ana.errors if "ERR_CONNECTION_REFUSED" not in e] == []
    ana.page.context.close()

"""The ``coven`` command: migrate, and serve's refusal of workers without a shared bus."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.support.server import ROOT


def coven(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_migrate_creates_every_table(tmp_path: Path) -> None:
    db = tmp_path / "coven.db"
    done = coven("migrate", env={"COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{db}"})
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("select name from sqlite_master where type='table'")}
    assert {"rooms", "seats", "matches", "actions", "chat", "alembic_version"} <= tables


def test_serve_refuses_several_workers_without_redis(tmp_path: Path) -> None:
    done = coven(
        "serve",
        "--workers",
        "2",
        env={
            "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'c.db'}",
            "COVEN_REDIS_URL": "",
        },
    )
    assert done.returncode == 2
    assert "COVEN_REDIS_URL" in done.stderr

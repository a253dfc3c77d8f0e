"""docker-compose.yml: PostgreSQL, Redis and two Coven workers behind a proxy, with health checks.

No Docker engine runs on our machines, so the file is checked as data; where a compose CLI is
installed, it must also accept the file (`config -q` needs no engine).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_two_workers_behind_a_proxy_on_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    workers = [s for s in services.values() if "COVEN_REDIS_URL" in s.get("environment", {})]
    assert len(workers) >= 2
    for worker in workers:
        env = worker["environment"]
        assert env["COVEN_DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert "healthz" in " ".join(worker["healthcheck"]["test"])
    for name in ("postgres", "redis"):
        assert "healthcheck" in services[name]
    proxies = [s for s in services.values() if "caddy" in s.get("image", "")]
    assert proxies and proxies[0]["ports"]
    assert (ROOT / "Dockerfile").exists()


def test_a_compose_cli_accepts_the_file_where_one_is_installed() -> None:
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        probe = subprocess.run([*command, "version"], capture_output=True, text=True)
        if probe.returncode != 0:  # the docker client without its compose plugin
            continue
        run = subprocess.run(
            [*command, "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr

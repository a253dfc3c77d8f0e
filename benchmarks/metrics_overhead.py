"""What metrics cost: moves/s flat out with ``COVEN_METRICS=1`` against without (issue 23).

    python benchmarks/metrics_overhead.py                   # SQLite, 3 pairs of 15 s runs
    python benchmarks/metrics_overhead.py --pairs 5 --duration 20 --rooms 30
    python benchmarks/metrics_overhead.py --database-url postgresql+asyncpg://… --redis-url redis://…

Each run is ``benchmarks/load.py --think 0`` (its own fresh ``coven serve``, R rooms of random
players acting the instant they may); metrics on and off alternate ABBA (on, off, off, on, …)
so the machine's other load falls on both alike. Prints one JSON line: each run's actions/s and
fan-out p50/p99, the mean of each mode and the ratio on/off (1.0: no cost).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def run_load(args: argparse.Namespace, metrics: bool) -> dict[str, Any]:
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "load.py"),
        "--think",
        "0",
        "--idle-sockets",
        "0",
        "--duration",
        str(args.duration),
        "--rooms",
        str(args.rooms),
        "--game",
        args.game,
    ]
    if args.database_url:
        command += ["--database-url", args.database_url]
    if args.redis_url:
        command += ["--redis-url", args.redis_url]
    env = {**os.environ, "COVEN_METRICS": "1" if metrics else "0"}
    env.pop("COVEN_METRICS_TOKEN", None)
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "metrics": metrics,
        "actions_per_second": report["actions_per_second"],
        "fanout_p50_ms": report["fanout_p50_ms"],
        "fanout_p99_ms": report["fanout_p99_ms"],
        "errors": report["errors"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=3, help="runs of each mode")
    parser.add_argument("--duration", type=float, default=15.0, help="seconds of play per run")
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--game", default="whirling-witchcraft")
    parser.add_argument("--database-url")
    parser.add_argument("--redis-url")
    args = parser.parse_args()
    # ABBA: on, off, off, on, on, off, …
    order = [(i // 2 + i % 2) % 2 == 0 for i in range(2 * args.pairs)]
    runs = []
    for metrics in order:
        runs.append(run_load(args, metrics))
        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    on = [r["actions_per_second"] for r in runs if r["metrics"]]
    off = [r["actions_per_second"] for r in runs if not r["metrics"]]
    print(
        json.dumps(
            {
                "runs": runs,
                "on_actions_per_second": round(statistics.mean(on), 1),
                "off_actions_per_second": round(statistics.mean(off), 1),
                "ratio_on_off": round(statistics.mean(on) / statistics.mean(off), 3),
            }
        )
    )


if __name__ == "__main__":
    main()

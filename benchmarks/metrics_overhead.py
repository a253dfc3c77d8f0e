"""What metrics cost: moves/s flat out with ``COVEN_METRICS=1`` against without (issue 23).

    python benchmarks/metrics_overhead.py                   # SQLite, 3 pairs of 15 s runs
    python benchmarks/metrics_overhead.py --pairs 5 --duration 20 --rooms 30
    python benchmarks/metrics_overhead.py --database-url postgresql+asyncpg://… --redis-url redis://…
    python benchmarks/metrics_overhead.py --calls 20000      # the move path's calls alone, µs/move

Each run is ``benchmarks/load.py --think 0`` (its own fresh ``coven serve``, R rooms of random
players acting the instant they may); metrics on and off alternate ABBA (on, off, off, on, …)
so the machine's other load falls on both alike. Prints one JSON line: each run's actions/s,
fan-out p50/p99 and server CPU per action, and for actions/s and CPU per action the median of
each mode and their ratio on/off (1.0: no cost). On a shared machine the CPU per action is the
steadier figure: a busy neighbour slows a run's actions/s, not what each action costs.
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
        "server_cpu_ms_per_action": report["server_cpu_ms_per_action"],
        "errors": report["errors"],
    }


def calls_cost(moves: int) -> dict[str, Any]:
    """What the move path calls for one move (arrival, applied, committed, the game's counter,
    published, fan-out), timed alone over ``moves`` moves, metrics off and then on, as
    ``coven serve`` runs them (multiprocess: a value is a write to a memory-mapped file)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="coven-bench-metrics-") as directory:
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = directory
        return _time_calls(moves)


def _time_calls(moves: int) -> dict[str, Any]:
    import time

    sys.path.insert(0, str(ROOT))
    from app.observability import metrics, move_watch

    def one(version: int) -> None:
        since = move_watch.arrived()
        move_watch.stage("applied", since)
        move_watch.stage("committed", since)
        metrics.move_committed("whirling-witchcraft")
        move_watch.published("ROOM", "whirling-witchcraft", version, since)
        with move_watch.fan_out("ROOM", version):
            pass

    result: dict[str, Any] = {"moves": moves}
    for mode in ("off", "on"):
        if mode == "on":
            metrics.enable()
        started = time.perf_counter()
        for version in range(moves):
            one(version)
        result[f"{mode}_us_per_move"] = round((time.perf_counter() - started) * 1e6 / moves, 2)
    return result


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
    parser.add_argument("--calls", type=int, default=0, help="time the move path's calls alone")
    args = parser.parse_args()
    if args.calls:
        print(json.dumps(calls_cost(args.calls)))
        return
    # ABBA: on, off, off, on, on, off, …
    order = [(i // 2 + i % 2) % 2 == 0 for i in range(2 * args.pairs)]
    runs = []
    for metrics in order:
        runs.append(run_load(args, metrics))
        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    summary: dict[str, Any] = {"runs": runs}
    for figure in ("actions_per_second", "server_cpu_ms_per_action"):
        on = statistics.median(r[figure] for r in runs if r["metrics"])
        off = statistics.median(r[figure] for r in runs if not r["metrics"])
        summary[figure] = {
            "on": round(on, 2),
            "off": round(off, 2),
            "ratio_on_off": round(on / off, 3),
        }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()

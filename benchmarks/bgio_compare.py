"""Coven against boardgame.io 0.50.2, side by side, interleaved, on one machine (issue 12).

    python benchmarks/bgio_compare.py                          # 5 rounds, 1x4 and 50x4 on SQLite
    python benchmarks/bgio_compare.py --rounds 5 --shapes 1x4,50x4 --pg-one --pg-redis --pg-rooms
    python benchmarks/bgio_compare.py --rounds 1 --no-extras   # a quick look

Copies the boardgame.io harness (``/work/shared/bench/bgio``, or ``--bgio``) into a temporary
directory, runs ``npm ci`` there once, then for every round and every shape runs
boardgame.io (``run.sh R P``: in memory) and then Coven (``benchmarks/hidden_picks.py``) on
the same game and load, each against a fresh server. Shapes ``RxP`` run on SQLite with one
worker; ``--pg-one`` adds ``50x4`` on PostgreSQL + Redis with one worker, ``--pg-redis`` with two
workers sharing one port (a match's sockets land on either), ``--pg-rooms`` with two workers
each on its own port and every socket of a match on one of them, as the proxy's hash of
``/ws/rooms/{code}`` routes them in ``deploy/Caddyfile`` (each Coven run in a fresh schema).
Prints, per shape, the medians over the rounds of the paired ratios Coven / boardgame.io
(moves/s, p99, server CPU per move) and every raw figure; a run whose checks fail on either
side is reported and left out of the ratios.

Extras (unless ``--no-extras``): the same flat-out load on each of the product's games
(``benchmarks/load.py --think 0``, SQLite one worker, and PostgreSQL + Redis two workers with
``--pg-redis`` or ``--pg-rooms``), ``benchmarks/idle_sockets.py`` (KiB per idle socket, 2,000
spectators joining one room) and ``benchmarks/bgio_idle.js`` (boardgame.io's KiB per idle
socket).
The last line on stdout is one JSON object with everything.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import stat
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BGIO = Path("/work/shared/bench/bgio")
PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"
PG_ONE = "50x4 postgresql+redis 1 worker"


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                value: dict[str, Any] = json.loads(line)
                return value
            except ValueError:
                return None
    return None


def prepare_bgio(source: Path, tmp: Path) -> Path:
    """The harness copied out of ``../shared`` (it writes logs beside itself), ``npm ci``."""
    target = tmp / "bgio"
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("node_modules", "logs", "data"))
    for path in [target, *target.rglob("*")]:
        path.chmod(path.stat().st_mode | stat.S_IWUSR)
    shutil.copy(ROOT / "benchmarks" / "bgio_idle.js", target / "bgio_idle.js")
    log(f"npm ci in {target} …")
    subprocess.run(
        ["npm", "ci", "--no-audit", "--no-fund"],
        cwd=target,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return target


def run_bgio(harness: Path, matches: int, players: int, timeout: float) -> dict[str, Any]:
    done = subprocess.run(
        ["bash", "run.sh", str(matches), str(players), "--timeout", str(int(timeout))],
        cwd=harness,
        capture_output=True,
        text=True,
    )
    out = last_json(done.stdout) or {"checks_ok": False, "error": done.stderr[-500:]}
    if out.get("server_cpu_s") is not None and out.get("moves"):
        out["server_cpu_ms_per_move"] = round(out["server_cpu_s"] * 1000 / out["moves"], 3)
    return out


def run_coven(
    matches: int,
    players: int,
    workers: int,
    timeout: float,
    route: str = "spread",
    server_root: Path | None = None,
) -> dict[str, Any]:
    """Coven's side; ``workers`` 0: SQLite, one worker; N: PostgreSQL + Redis, N workers, a
    match's sockets on any worker (``spread``) or all on one (``room``). ``server_root``: serve
    that checkout's code instead (the same load generator: ``--before``)."""
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "hidden_picks.py"),
        "--matches",
        str(matches),
        "--players",
        str(players),
        "--timeout",
        str(timeout),
    ]
    if workers:
        command += ["--workers", str(workers), "--database-url", PG_URL, "--redis-url", REDIS_URL]
        command += ["--route", route]
    env = dict(os.environ)
    if server_root is not None:
        env["COVEN_BENCH_SERVER_ROOT"] = str(server_root)
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    return last_json(done.stdout) or {"checks_ok": False, "error": done.stderr[-500:]}


GAMES = ("whirling-witchcraft", "witchs-brew", "seasons")


def run_game(game: str, pg: bool, seconds: float, route: str = "spread") -> dict[str, Any]:
    """The same shape (50 × 4, flat out) on one of the product's games: ``benchmarks/load.py``
    (every player sends a random legal action the instant it may)."""
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "load.py"),
        "--game",
        game,
        "--rooms",
        "50",
        "--players",
        "4",
        "--think",
        "0",
        "--duration",
        str(seconds),
        "--idle-sockets",
        "0",
    ]
    env = dict(os.environ)
    schema = None
    if pg:
        schema = f"bench_{uuid.uuid4().hex[:10]}"
        sql(f'CREATE SCHEMA "{schema}"')
        env["COVEN_DATABASE_SCHEMA"] = schema
        command += ["--workers", "2", "--database-url", PG_URL, "--redis-url", REDIS_URL]
        command += ["--route", route]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    finally:
        if schema:
            sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    out = last_json(done.stdout) or {"error": done.stderr[-500:]}
    out["backend"] = f"postgresql+redis, 2 workers ({route})" if pg else "sqlite, 1 worker"
    out["game"] = game
    return out


def sql(statement: str) -> None:
    import asyncio

    sys.path.insert(0, str(ROOT))
    from benchmarks.hidden_picks import pg_schema

    asyncio.run(pg_schema(PG_URL, statement))


def run_idle(spectators: int, sockets: int) -> dict[str, Any]:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "idle_sockets.py"),
            "--sockets",
            str(sockets),
            "--spectators",
            str(spectators),
            "--limit",
            "60",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return last_json(done.stdout) or {"error": done.stderr[-500:]}


def run_bgio_idle(harness: Path, sockets: int) -> dict[str, Any]:
    done = subprocess.run(
        ["node", "bgio_idle.js", "--sockets", str(sockets)],
        cwd=harness,
        capture_output=True,
        text=True,
    )
    return last_json(done.stdout) or {"error": done.stderr[-500:]}


def median(values: list[float]) -> float | None:
    return round(statistics.median(values), 3) if values else None


# What each side's medians are given for: (name, key in the benchmark's output).
FIGURES = (
    ("moves_per_s", "moves_per_s"),
    ("p50_ms", "p50_ms"),
    ("p99_ms", "p99_ms"),
    ("cpu_ms_per_move", "server_cpu_ms_per_move"),
    ("pg_backends_cpu_ms_per_move", "pg_backends_cpu_ms_per_move"),
    ("pg_shared_cpu_ms_per_move", "pg_shared_cpu_ms_per_move"),
    ("redis_cpu_ms_per_move", "redis_cpu_ms_per_move"),
    # Until the server went quiet after the last move (results recordings included).
    ("cpu_settled_ms_per_move", "server_cpu_settled_ms_per_move"),
    ("pg_backends_cpu_settled_ms_per_move", "pg_backends_cpu_settled_ms_per_move"),
)
RATIOS = (
    ("moves_per_s", "moves_per_s"),
    ("p99_ms", "p99_ms"),
    ("cpu_ms_per_move", "server_cpu_ms_per_move"),
)

Round = dict[str, dict[str, Any]]  # side ("bgio", "coven", "before") → its output


def paired(rounds: list[Round], top: str, bottom: str, key: str) -> float | None:
    """The median over the rounds of ``top``'s ``key`` ÷ ``bottom``'s, both checks passed."""
    values = [
        r[top][key] / r[bottom][key]
        for r in rounds
        if r[top].get(key) is not None and r[bottom].get(key)
    ]
    return median(values)


def summarise(label: str, rounds: list[Round]) -> dict[str, Any]:
    sides = [s for s in ("bgio", "coven", "before") if all(s in r for r in rounds)]
    good = [r for r in rounds if all(r[s].get("checks_ok") for s in sides)]
    ratios = {
        f"{top}_over_{bottom}": {name: paired(good, top, bottom, key) for name, key in RATIOS}
        for top, bottom in (("coven", "bgio"), ("before", "bgio"), ("coven", "before"))
        if top in sides and bottom in sides
    }
    medians = {
        side: {
            name: median([r[side][key] for r in good if r[side].get(key) is not None])
            for name, key in FIGURES
        }
        for side in sides
    }
    return {
        "shape": label,
        "rounds_ok": len(good),
        "rounds": len(rounds),
        "ratio_coven_over_bgio": ratios["coven_over_bgio"],
        "ratios": ratios,
        "medians": medians,
        "failed": [r for r in rounds if r not in good],
    }


def cost_against(
    raw: dict[str, list[Round]], base: str, label: str, side: str
) -> dict[str, float | None]:
    """``label``'s CPU per move ÷ ``base``'s (paired by round, one side): the worker(s); the
    worker(s) with the server's PostgreSQL backends and Redis."""
    server, total, settled = [], [], []
    for mine, theirs in zip(raw[label], raw[base], strict=True):
        a, b = mine.get(side, {}), theirs.get(side, {})
        if not (a.get("checks_ok") and b.get("checks_ok") and b.get("server_cpu_ms_per_move")):
            continue
        server.append(a["server_cpu_ms_per_move"] / b["server_cpu_ms_per_move"])
        parts = ("server_cpu_ms_per_move", "pg_backends_cpu_ms_per_move", "redis_cpu_ms_per_move")
        if all(a.get(k) is not None and b.get(k) is not None for k in parts):
            total.append(sum(a[k] for k in parts) / sum(b[k] for k in parts))
        key = "server_cpu_settled_ms_per_move"
        if a.get(key) is not None and b.get(key):
            settled.append(a[key] / b[key])
    return {
        "server": median(server),
        "server_pg_redis": median(total),
        "server_settled": median(settled),
    }


def load_average() -> str:
    try:
        return "/".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--shapes", default="1x4,50x4", help="RxP on SQLite, one worker")
    parser.add_argument(
        "--pg-redis", action="store_true", help="also 50x4 on PostgreSQL + Redis, two workers"
    )
    parser.add_argument(
        "--pg-one", action="store_true", help="also 50x4 on PostgreSQL + Redis, one worker"
    )
    parser.add_argument(
        "--pg-rooms",
        action="store_true",
        help="also 50x4 on PostgreSQL + Redis, two workers, each match's sockets on one worker",
    )
    parser.add_argument("--bgio", type=Path, default=BGIO, help="the boardgame.io harness")
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--no-extras", action="store_true")
    parser.add_argument("--game-seconds", type=float, default=15)
    parser.add_argument(
        "--games", default=",".join(GAMES), help="the product's games measured in the extras"
    )
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--idle-sockets", type=int, default=2000)
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout (e.g. a git worktree of an earlier commit): its server runs "
        "each shape too, in the same round under the same load generator, before or after "
        "this one's by turns",
    )
    parser.add_argument(
        "--raw-out", type=Path, help="append each round's figures here as they come (JSON lines)"
    )
    args = parser.parse_args()

    shapes: list[tuple[str, int, int, int, str]] = []
    for shape in filter(None, args.shapes.split(",")):
        r, p = (int(x) for x in shape.lower().split("x"))
        shapes.append((f"{r}x{p} sqlite 1 worker", r, p, 0, "spread"))
    if args.pg_one:
        shapes.append((PG_ONE, 50, 4, 1, "spread"))
    if args.pg_redis:
        shapes.append(("50x4 postgresql+redis 2 workers", 50, 4, 2, "spread"))
    if args.pg_rooms:
        shapes.append(("50x4 pg+redis 2 workers by room", 50, 4, 2, "room"))

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    raw: dict[str, list[Round]] = {s[0]: [] for s in shapes}
    loads: list[str] = [load_average()]
    with tempfile.TemporaryDirectory(prefix="bgio-compare-") as tmp:
        harness = prepare_bgio(args.bgio, Path(tmp))
        for round_ in range(1, args.rounds + 1):
            for label, r, p, workers, route in shapes:
                result: Round = {"bgio": run_bgio(harness, r, p, args.timeout)}
                order = [("coven", None), ("before", args.before)]
                if args.before is None:
                    order = order[:1]
                elif round_ % 2 == 0:
                    order.reverse()
                for side, root in order:
                    result[side] = run_coven(r, p, workers, args.timeout, route, root)
                raw[label].append(result)
                if args.raw_out is not None:
                    with args.raw_out.open("a") as out:
                        out.write(json.dumps({"round": round_, "shape": label, **result}) + "\n")
                log(
                    f"round {round_} {label}: "
                    + " | ".join(
                        f"{side} {out.get('moves_per_s')} moves/s p99 {out.get('p99_ms')} ms "
                        f"CPU {out.get('server_cpu_ms_per_move')} ms/move "
                        f"(until quiet {out.get('server_cpu_settled_ms_per_move')}) "
                        f"ok={out.get('checks_ok')}"
                        for side, out in result.items()
                    )
                )
            loads.append(load_average())
        if not args.no_extras:
            extras: dict[str, Any] = {"bgio_idle": run_bgio_idle(harness, args.idle_sockets)}
            log(f"bgio idle: {json.dumps(extras['bgio_idle'])}")
    summary = [summarise(label, rounds) for label, rounds in raw.items()]
    # Two workers against one (PostgreSQL + Redis), paired by round: what a move costs.
    costs: dict[str, dict[str, dict[str, float | None]]] = {}
    if PG_ONE in raw:
        for label, *_, workers, _route in shapes:
            if workers > 1:
                sides = ["coven", "before"] if args.before is not None else ["coven"]
                costs[label] = {side: cost_against(raw, PG_ONE, label, side) for side in sides}
    if args.no_extras:
        extras = {}
    else:
        extras["games"] = []
        for game in args.games.split(","):
            extras["games"].append(run_game(game, False, args.game_seconds))
            if args.pg_redis:
                extras["games"].append(run_game(game, True, args.game_seconds))
            if args.pg_rooms:
                extras["games"].append(run_game(game, True, args.game_seconds, "room"))
        log(f"games: {json.dumps(extras['games'])}")
        extras["idle"] = run_idle(args.spectators, args.idle_sockets)
        log(f"idle: {json.dumps(extras['idle'])}")

    print(f"Coven / boardgame.io 0.50.2 (in memory), {started}, medians of paired rounds")
    print(f"load average during the rounds: {' '.join(loads)} (2 shared cores: noisy)")
    print(f"{'shape':34} {'ok':>5} {'moves/s':>8} {'p99':>6} {'CPU/move':>9}")
    for s in summary:
        for pair, ratio in s["ratios"].items():
            print(
                f"{s['shape']:34} {s['rounds_ok']:>2}/{s['rounds']:<2} "
                + " ".join(
                    f"{(ratio[k] if ratio[k] is not None else float('nan')):>8.2f}x"
                    for k in ("moves_per_s", "p99_ms", "cpu_ms_per_move")
                )
                + f"  {pair.replace('_over_', ' / ')}"
            )
        for side, m in s["medians"].items():
            print(
                f"    {side:6} moves/s {m['moves_per_s']}  p50 {m['p50_ms']} ms  "
                f"p99 {m['p99_ms']} ms  CPU per move: server {m['cpu_ms_per_move']} ms"
                + (
                    f", PostgreSQL backends {m['pg_backends_cpu_ms_per_move']} ms (shared "
                    f"processes {m['pg_shared_cpu_ms_per_move']} ms), Redis "
                    f"{m['redis_cpu_ms_per_move']} ms"
                    if m.get("pg_backends_cpu_ms_per_move") is not None
                    else ""
                )
                + (
                    f"; until quiet (recordings included): server "
                    f"{m['cpu_settled_ms_per_move']} ms, PostgreSQL backends "
                    f"{m['pg_backends_cpu_settled_ms_per_move']} ms"
                    if m.get("cpu_settled_ms_per_move") is not None
                    else ""
                )
            )
    for label, by_side in costs.items():
        for side, cost in by_side.items():
            print(
                f"CPU per move, {label} / one worker ({side}): server {cost['server']}x, "
                f"server + PostgreSQL backends + Redis {cost['server_pg_redis']}x, "
                f"server until quiet {cost['server_settled']}x"
            )
    for w in extras.get("games", []):
        print(
            f"{w['game']} 50x4 flat out, {w.get('backend')}: "
            f"{w.get('actions_per_second')} actions/s, p99 {w.get('fanout_p99_ms')} ms, "
            f"CPU {w.get('server_cpu_ms_per_action')} ms/action"
        )
    if "idle" in extras:
        i = extras["idle"]
        print(
            f"idle sockets: {i.get('kib_per_idle_socket')} KiB each ({i.get('idle_sockets')}; "
            f"boardgame.io {extras.get('bgio_idle', {}).get('kib_per_idle_socket')} KiB); "
            f"{i.get('spectators')} spectators into one room: all hold the state after "
            f"{i.get('spectators_all_hold_state_s')} s ({i.get('spectators_joined_within_5s')} "
            f"within 5 s, {i.get('spectators_joined_in_limit')} within "
            f"{i.get('spectators_limit_s')} s)"
        )
    print(
        json.dumps(
            {
                "date": started,
                "load_average": loads,
                "summary": summary,
                "two_workers_over_one": costs,
                "raw": raw,
                "extras": extras,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

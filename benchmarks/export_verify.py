"""How large a match export is and how long ``coven verify`` takes, per game and seat count.

Random bots play whole matches through the engine (no server); each is given a seed proof the
way the server draws one, replayed by app/replay.py and exported by app/fairness/export.py
(tests/support/exports.py), then written as JSON and verified by app/fairness/verify.py.
Prints one line per game and seat count: actions, export size, time to build the export and
time to verify it (medians).

    python -m benchmarks.export_verify [--matches 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from app.fairness.verify import parse, verify
from tests.support.exports import engine_export

CASES = [("whirling-witchcraft", 5), ("witchs-brew", 5), ("seasons", 4)]


def one(game_id: str, players: int) -> tuple[int, int, float, float]:
    started = time.perf_counter()
    document = engine_export(game_id, players)
    text = json.dumps(document, separators=(",", ":"))
    built = time.perf_counter() - started
    started = time.perf_counter()
    outcome = verify(parse(json.loads(text)))
    verified = time.perf_counter() - started
    assert outcome.verified, outcome.text()
    return len(document["actions"]), len(text.encode()), built, verified


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=3)
    args = parser.parse_args()
    for game_id, players in CASES:
        runs = [one(game_id, players) for _ in range(args.matches)]
        print(
            f"{game_id} × {players}: actions {statistics.median(r[0] for r in runs):.0f}, "
            f"export {statistics.median(r[1] for r in runs) / 1024:.0f} KiB, "
            f"played, replayed and exported in {statistics.median(r[2] for r in runs):.2f} s, "
            f"verified in {statistics.median(r[3] for r in runs):.2f} s "
            f"(median of {args.matches})"
        )


if __name__ == "__main__":
    main()

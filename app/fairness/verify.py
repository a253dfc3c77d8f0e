"""``coven verify``: an exported match checked from its document alone, with no server and no
database (docs/FAIRNESS.md). In order: the file is a "coven-match" export of a version this
Coven reads; its rules version is one this installation has; the revealed seed and salt give
the commitment; the revealed seed and the contributions give the match seed; the engine, set
up with that seed and the options, deals what the export says; every action, applied in
turn, is legal and gives exactly the events recorded; the last one ends the match with the
recorded result. The first thing that differs is reported with its step."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any, TextIO

from pydantic import ValidationError

from app.fairness import seeds
from app.fairness.document import (
    FORMAT,
    FORMAT_VERSION,
    MatchExport,
    normal,
    views_digest,
)
from engine import registry
from engine.protocol import IllegalAction

MAX_ACTIONS = 20_000
SHOWN = 160  # characters of a differing value shown in a reason


class Unreadable(Exception):
    """Not an export this Coven can read (bad JSON, another format, an unknown version, a
    malformed document): ``coven verify`` exits 2."""


@dataclass(frozen=True, slots=True)
class Outcome:
    verified: bool
    step: int | None  # the step that differs (0: the setup); None: before any step
    code: str  # "verified" or what failed: commitment, seed, setup, action, events, result…
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "step": self.step,
            "code": self.code,
            "reason": self.reason,
        }

    def text(self) -> str:
        if self.verified:
            return f"verified: {self.reason}"
        where = f"step {self.step}: " if self.step is not None else ""
        return f"not verified ({self.code}): {where}{self.reason}"


def _short(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def read(text: str | bytes) -> MatchExport:
    """The export in ``text``, or ``Unreadable`` saying why not."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise Unreadable(f"not JSON ({exc})") from None
    return parse(data)


def parse(data: Any) -> MatchExport:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Unreadable(f'not a Coven match export (no "format": "{FORMAT}")')
    version = data.get("format_version")
    if version != FORMAT_VERSION:
        raise Unreadable(
            f"unknown format_version {version!r}: this Coven reads version {FORMAT_VERSION}"
        )
    try:
        document = MatchExport.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise Unreadable(f"a malformed export: {where}: {first.get('msg', 'invalid')}") from None
    if len(document.actions) > MAX_ACTIONS:
        raise Unreadable(f"exports hold at most {MAX_ACTIONS} actions")
    return document


def _fail(code: str, reason: str, step: int | None = None) -> Outcome:
    return Outcome(False, step, code, reason)


def _proof(document: MatchExport) -> Outcome | int:
    """The seed checks: the match seed, or what failed."""
    proof = document.fairness
    if proof is None:
        return _fail("no_proof", "the export carries no seed proof (a match from before it)")
    revealed = proof.revealed
    if revealed is None:
        return _fail("not_revealed", "the server seed is not revealed in this export")
    if not seeds.is_hex(revealed.server_seed, seeds.SEED_BYTES) or not seeds.is_hex(
        revealed.salt, seeds.SALT_BYTES
    ):
        return _fail("commitment", "the revealed seed or salt is not 32 / 16 bytes of hex")
    if seeds.commitment(revealed.server_seed, revealed.salt) != proof.commitment:
        return _fail(
            "commitment",
            "SHA-256 of the revealed server seed and salt is not the commitment published "
            f"before the deal ({proof.commitment})",
        )
    seats = sorted(c.seat for c in proof.contributions)
    if seats != list(range(document.players)):
        return _fail(
            "contributions", f"there must be one contribution per seat, 0–{document.players - 1}"
        )
    bad = [c.seat for c in proof.contributions if not seeds.is_contribution(c.value)]
    if bad:
        return _fail("contributions", f"seat {bad[0]}'s contribution is not 16 bytes of hex")
    derived = seeds.match_seed(
        revealed.server_seed, [(c.seat, c.value) for c in proof.contributions]
    )
    if derived != revealed.match_seed:
        return _fail(
            "seed",
            "HMAC-SHA256 of the contributions under the revealed seed gives match seed "
            f"{derived}, not the {revealed.match_seed} the export says was dealt with",
        )
    return derived


def verify(document: MatchExport) -> Outcome:
    """Check ``document`` (see the module's docstring). Pure: no server, no database."""
    try:
        game = registry.get(document.game)
    except IllegalAction:
        return _fail("unknown_game", f"this Coven has no game {document.game!r}")
    available = registry.rules_versions(game)
    if document.rules_version not in available:
        return _fail(
            "rules_version_unavailable",
            f"the match was played under {game.title} rules version {document.rules_version}; "
            f"this Coven has version {', '.join(sorted(available))} and cannot replay it",
        )
    seed = _proof(document)
    if isinstance(seed, Outcome):
        return seed
    if [s.seat for s in document.seats] != list(range(document.players)):
        return _fail("seats", f"the seats must be 0–{document.players - 1}, in order")
    try:
        state = game.setup(document.players, seed, document.options)
    except IllegalAction as exc:
        return _fail("setup", f"the options are refused: {exc.code}: {exc}", 0)
    if views_digest(game, state, document.players) != document.setup.views_digest:
        return _fail(
            "setup",
            "the deal from this seed and these options is not the one recorded "
            "(an option, the seed or the deal was changed)",
            0,
        )
    if sorted(game.to_move(state)) != sorted(document.setup.to_move):
        return _fail("setup", "who moves first is not the one recorded", 0)
    for number, entry in enumerate(document.actions, start=1):
        if entry.step != number:
            return _fail(
                "steps", f"step {entry.step} is listed where step {number} belongs", number
            )
        if game.result(state) is not None:
            return _fail("action", "the match was already over before this action", number)
        try:
            moved = game.apply(state, entry.seat, entry.action)
        except IllegalAction as exc:
            return _fail(
                "action",
                f"seat {entry.seat}'s action {_short(entry.action)} is refused by the rules "
                f"({exc.code}: {exc})",
                number,
            )
        state = moved.state
        got = normal(list(moved.events))
        if got != entry.events:
            differs = next(
                (i for i, (a, b) in enumerate(zip(got, entry.events, strict=False)) if a != b),
                min(len(got), len(entry.events)),
            )
            mine = got[differs] if differs < len(got) else None
            theirs = entry.events[differs] if differs < len(entry.events) else None
            return _fail(
                "events",
                f"event {differs + 1} differs: the export says {_short(theirs)}, the engine "
                f"gives {_short(mine)}",
                number,
            )
    result = game.result(state)
    last = len(document.actions)
    if result is None:
        return _fail("result", "the actions do not end the match", last)
    if normal(result.as_dict()) != document.result:
        return _fail(
            "result",
            f"the result is {_short(normal(result.as_dict()))}, the export says "
            f"{_short(document.result)}",
            last,
        )
    return Outcome(
        True,
        None,
        "verified",
        f"{game.title}, {last} actions: the commitment, the seed, the deal, every event and "
        "the result match",
    )


def verify_text(text: str | bytes) -> Outcome:
    """``read`` then ``verify`` (``Unreadable`` passes through)."""
    return verify(read(text))


def command(path: str, out: TextIO, err: TextIO) -> int:
    """``coven verify PATH`` (``-``: standard input): 0 verified, 1 not verified (the first
    step that differs, and why), 2 not an export this Coven reads (never a traceback)."""
    try:
        if path == "-":
            text: str | bytes = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as file:
                text = file.read()
    except OSError as exc:
        print(f"coven verify: cannot read {path}: {exc.strerror or exc}", file=err)
        return 2
    try:
        outcome = verify_text(text)
    except Unreadable as exc:
        print(f"coven verify: {path}: {exc}", file=err)
        return 2
    print(outcome.text(), file=out)
    return 0 if outcome.verified else 1

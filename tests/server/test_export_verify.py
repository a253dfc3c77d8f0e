"""The match export, its verification and its import (app/fairness, docs/FAIRNESS.md), from a
match played through a real server and real sockets: the export verifies (through the pure
function, ``POST /api/verify`` and ``coven verify``); changing one action, one option, the
revealed seed or one contribution fails at the right step with a clear reason; files that are
no export, or of an unknown version, exit 2 with a message and no traceback."""

from __future__ import annotations

import copy
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.errors import CovenError
from app.fairness.export import replay_log
from app.fairness.verify import Unreadable, parse, read, verify
from app.replay import replay
from app.settings import Settings
from engine import registry
from tests.support.client import Client, open_room
from tests.support.exports import engine_export
from tests.support.server import ThreadServer
from tests.support.table import at_table, play_to_end, played, start

GAME = "whirling-witchcraft"
OPTIONS = {"personalities": "choose"}  # each witch is dealt personalities: the setup shows it


@pytest.fixture
async def exported(sqlite_server: ThreadServer) -> tuple[str, dict[str, Any]]:
    code, players = await open_room(sqlite_server.url, GAME, ["Agnes", "Brigid"], options=OPTIONS)
    spectator = Client(sqlite_server.url)
    async with at_table(code, [*players, spectator]):
        await start(players[0], code)
        early = await spectator.http.get(f"/api/rooms/{code}/export")
        assert (early.status_code, early.json()["error"]["code"]) == (409, "not_finished")
        await play_to_end(players, spectator, random.Random(3))
        got = await spectator.http.get(f"/api/rooms/{code}/export")
        assert got.status_code == 200, got.text
        assert "attachment" in got.headers["content-disposition"]
        return code, got.json()


def changed(document: dict[str, Any], change: Any) -> dict[str, Any]:
    tampered = copy.deepcopy(document)
    change(tampered)
    return tampered


def flip(hex_text: str, at: int = 5) -> str:
    return hex_text[:at] + ("0" if hex_text[at] != "0" else "1") + hex_text[at + 1 :]


async def test_an_export_verifies_and_each_change_fails_where_it_is(
    sqlite_server: ThreadServer, exported: tuple[str, dict[str, Any]]
) -> None:
    _, document = exported
    assert document["format"] == "coven-match" and document["format_version"] == 1
    assert document["game"] == GAME
    assert document["rules_version"] == registry.rules_version(registry.get(GAME))
    assert document["options"]["personalities"] == "choose"
    assert [s["name"] for s in document["seats"]] == ["Agnes", "Brigid"]
    assert document["fairness"]["revealed"]["match_seed"] > 0
    actions = document["actions"]
    assert len(actions) > 20 and all({"seat", "action", "events"} <= a.keys() for a in actions)

    outcome = verify(parse(document))
    assert outcome.verified, outcome.text()
    assert outcome.text().startswith("verified")

    # One action: a later step given an earlier step's action (refused, or other events).
    k = len(actions) // 2
    other = next(a for a in actions[:k] if a["action"] != actions[k - 1]["action"])
    bad_action = verify(
        parse(changed(document, lambda d: d["actions"][k - 1].update(action=other["action"])))
    )
    assert (bad_action.verified, bad_action.step) == (False, k), bad_action.text()
    assert bad_action.code in ("action", "events") and str(k) in bad_action.text()

    # One option: the deal is not the recorded one (step 0).
    bad_option = verify(
        parse(changed(document, lambda d: d["options"].update(personalities="initiates")))
    )
    assert (bad_option.verified, bad_option.step, bad_option.code) == (False, 0, "setup")
    assert "option" in bad_option.reason

    # The revealed seed: the commitment published before the deal no longer matches.
    def new_seed(d: dict[str, Any]) -> None:
        d["fairness"]["revealed"]["server_seed"] = flip(d["fairness"]["revealed"]["server_seed"])

    bad_seed = verify(parse(changed(document, new_seed)))
    assert (bad_seed.verified, bad_seed.step, bad_seed.code) == (False, None, "commitment")
    assert "commitment" in bad_seed.reason

    # One contribution: the match seed no longer follows from them.
    def new_part(d: dict[str, Any]) -> None:
        part = d["fairness"]["contributions"][1]
        part["value"] = flip(part["value"])

    bad_part = verify(parse(changed(document, new_part)))
    assert (bad_part.verified, bad_part.code) == (False, "seed"), bad_part.text()
    assert "contributions" in bad_part.reason

    # One event: that step.
    def new_event(d: dict[str, Any]) -> None:
        d["actions"][3]["events"].append({"type": "invented"})

    bad_event = verify(parse(changed(document, new_event)))
    assert (bad_event.verified, bad_event.step, bad_event.code) == (False, 4, "events")

    # The result.
    bad_result = verify(parse(changed(document, lambda d: d["result"].update(winners=[9]))))
    assert (bad_result.verified, bad_result.code, bad_result.step) == (
        False,
        "result",
        len(actions),
    )

    # Another rules version than this installation has: it says it cannot.
    other_rules = verify(parse(changed(document, lambda d: d.update(rules_version="0"))))
    assert (other_rules.verified, other_rules.code) == (False, "rules_version_unavailable")
    with pytest.raises(CovenError) as refused:
        replay(replay_log(changed(document, lambda d: d.update(rules_version="0"))))
    assert refused.value.code == "rules_version_unavailable"

    # The same answers from the server (the replay viewer's Verify button).
    async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=60) as http:
        ok = await http.post("/api/verify", json=document)
        assert ok.status_code == 200, ok.text
        assert ok.json()["verified"] is True
        no = await http.post("/api/verify", json=changed(document, new_part))
        assert no.json() == {**bad_part.as_dict()}
        not_one = await http.post("/api/verify", json={"format": "something else"})
        assert (not_one.status_code, not_one.json()["error"]["code"]) == (422, "not_an_export")


async def test_an_export_opens_in_the_replay_viewer(
    sqlite_server: ThreadServer, exported: tuple[str, dict[str, Any]]
) -> None:
    code, document = exported
    async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=60) as http:
        body = json.dumps(document)
        opened = await http.post(
            "/api/replays", content=body, headers={"content-type": "application/json"}
        )
        assert opened.status_code == 201, opened.text
        key = opened.json()["id"]
        mine = (await http.get(f"/api/replays/{key}")).json()
        room = (await http.get(f"/api/rooms/{code}/replay")).json()
        assert mine["steps"] == room["steps"] and mine["result"] == room["result"]
        step = (await http.get(f"/api/replays/{key}/steps", params={"start": 0, "count": 3})).json()
        theirs = (
            await http.get(f"/api/rooms/{code}/replay/steps", params={"start": 0, "count": 3})
        ).json()
        assert step == theirs
        # A tampered file opens too (its seed is what it says), and Verify then says what is wrong.
        tampered = changed(
            document, lambda d: d["fairness"]["contributions"][0].update(value="ab" * 16)
        )
        assert (await http.post("/api/replays", json=tampered)).status_code == 201
        gone = await http.get("/api/replays/nothing-here")
        assert (gone.status_code, gone.json()["error"]["code"]) == (404, "import_not_found")
        broken = changed(document, lambda d: d["actions"][2].update(action={"type": "nonsense"}))
        refused = await http.post("/api/replays", json=broken)
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "replay_broken")


def run_verify(path: Path | str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app.cli", "verify", str(path)],
        capture_output=True,
        text=True,
        input=stdin,
        timeout=120,
    )


async def test_coven_verify_exit_codes(
    exported: tuple[str, dict[str, Any]], tmp_path: Path
) -> None:
    _, document = exported
    good = tmp_path / "match.json"
    good.write_text(json.dumps(document))
    done = run_verify(good)
    assert (done.returncode, done.stdout.split(":")[0]) == (0, "verified"), done.stderr
    tampered = tmp_path / "tampered.json"
    tampered.write_text(
        json.dumps(changed(document, lambda d: d["options"].update(personalities="initiates")))
    )
    failed = run_verify(tampered)
    assert failed.returncode == 1
    assert failed.stdout.startswith("not verified (setup): step 0:"), failed.stdout
    cases = {
        "not JSON": "{this is not json",
        'not a Coven match export (no "format": "coven-match")': json.dumps([1, 2, 3]),
        "unknown format_version 2": json.dumps({**document, "format_version": 2}),
        "a malformed export: actions": json.dumps({**document, "actions": "none"}),
    }
    for said, text in cases.items():
        path = tmp_path / "other.json"
        path.write_text(text)
        out = run_verify(path)
        assert out.returncode == 2, (said, out.stdout, out.stderr)
        assert said in out.stderr and "Traceback" not in out.stderr, out.stderr
    missing = run_verify(tmp_path / "nowhere.json")
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    piped = run_verify("-", stdin=json.dumps(document))
    assert piped.returncode == 0, piped.stderr


def test_unreadable_documents_say_why() -> None:
    with pytest.raises(Unreadable, match="not JSON"):
        read(b"\xff\xfe")
    with pytest.raises(Unreadable, match="unknown format_version None"):
        parse({"format": "coven-match"})


async def test_a_match_played_under_other_rules_says_it_cannot_replay(
    sqlite: Settings, sqlite_server: ThreadServer
) -> None:
    """A match that recorded a rules version this server lacks: its replay and its export say
    so (rules_version_unavailable), never a half replay."""
    code, players = await open_room(sqlite_server.url, GAME, ["Agnes", "Brigid"])
    await played(code, players, Client(sqlite_server.url), random.Random(4))
    path = sqlite.database_url.split("///", 1)[1]
    with sqlite3.connect(path) as db:
        recorded = db.execute("SELECT rules_version FROM matches").fetchall()
        assert recorded == [(registry.rules_version(registry.get(GAME)),)]
        db.execute("UPDATE matches SET rules_version = '0'")
    async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=60) as http:
        for what in ("replay", "export"):
            refused = await http.get(f"/api/rooms/{code}/{what}")
            assert refused.status_code == 409, refused.text
            assert refused.json()["error"]["code"] == "rules_version_unavailable"
            assert "version 0" in refused.json()["error"]["message"]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("whirling-witchcraft", 3, {"production": "initiative"}),
        ("witchs-brew", 4, {"variant_blocked_roles": True}),
        ("seasons", 2, {"level": "magician"}),
    ],
)
def test_every_game_exports_and_verifies_and_a_changed_option_shows(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """Through the engine alone (no server): each game's export verifies after a JSON round
    trip, and the same file with the options at their defaults does not."""
    document = json.loads(json.dumps(engine_export(game, players, options)))
    outcome = verify(parse(document))
    assert outcome.verified, outcome.text()
    plain = verify(parse(changed(document, lambda d: d.update(options={}))))
    assert not plain.verified and plain.code in ("setup", "action", "events", "result"), plain


async def test_the_contract_is_in_the_openapi_schema(sqlite_server: ThreadServer) -> None:
    async with httpx.AsyncClient(base_url=sqlite_server.url) as http:
        schema = (await http.get("/openapi.json")).json()
    paths = schema["paths"]
    for path in ("/api/rooms/{code}/export", "/api/verify", "/api/replays", "/api/replays/{key}"):
        assert path in paths, path
    assert "/api/rooms/{code}/contribution" in paths
    models = schema["components"]["schemas"]
    assert {"MatchExport", "Fairness", "VerifyAnswer", "SeedContribution"} <= models.keys()
    assert "fairness" in models["RoomInfo"]["properties"]
    assert "contribution" in models["CreateRoom"]["properties"]


async def test_a_long_match_is_verified_past_the_usual_body_limit(
    sqlite_server: ThreadServer,
) -> None:
    """A Witch's Brew export is far over the 64 KiB every other body is held to: the verify and
    import routes take it, the others still refuse such a body."""
    document = engine_export("witchs-brew", 5)
    body = json.dumps(document).encode()
    assert len(body) > 64 * 1024
    headers = {"content-type": "application/json"}
    async with httpx.AsyncClient(base_url=sqlite_server.url, timeout=120) as http:
        checked = await http.post("/api/verify", content=body, headers=headers)
        assert checked.status_code == 200, checked.text
        assert checked.json()["verified"] is True
        assert (await http.post("/api/replays", content=body, headers=headers)).status_code == 201
        other = await http.post("/api/rooms", content=body, headers=headers)
        assert (other.status_code, other.json()["error"]["code"]) == (413, "too_large")

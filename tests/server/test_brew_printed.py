"""Witch's Brew's printed potion values on a real `coven serve`: a file that breaks the
rulebook's facts stops the start with a message saying what is wrong; a good one lets a host
open a printed table, which lays out the box's cards, while the other tables keep the
reconstruction; without a file the lobby offers no printed values and refuses them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from engine.brew import cards
from tests.support.server import ROOT, free_port, wait_healthy

EXAMPLE = Path(cards.__file__).with_name("printed_values.example.json")


def _env(tmp_path: Path, printed: Path | None) -> dict[str, str]:
    env = {**os.environ, "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}"}
    env.pop("COVEN_BREW_PRINTED_VALUES", None)
    if printed is not None:
        env["COVEN_BREW_PRINTED_VALUES"] = str(printed)
    return env


def _serve(tmp_path: Path, printed: Path | None) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(port), "--log-level", "warning"],
        cwd=ROOT,
        env=_env(tmp_path, printed),
    )
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, process, seconds=40)
    return process, url


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    process.wait(timeout=15)


def _potion_values(http: httpx.Client) -> list[str]:
    games = {g["id"]: g for g in http.get("/api/games").json()}
    enum: list[str] = games["witchs-brew"]["options"]["properties"]["potion_values"]["enum"]
    return enum


def _start(http: httpx.Client, options: dict[str, Any]) -> httpx.Response:
    created = http.post(
        "/api/rooms",
        json={"game": "witchs-brew", "name": "Ana", "seats": 3, "options": options},
    )
    if created.status_code != 201:
        return created
    code, token = created.json()["room"]["code"], created.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(2):
        assert http.post(
            f"/api/rooms/{code}/bots", json={"level": "random"}, headers=auth
        ).is_success
    return http.post(f"/api/rooms/{code}/start", headers=auth)


def test_a_wrong_file_stops_the_start_saying_what_is_wrong(tmp_path: Path) -> None:
    box = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    box["stacks"]["iron"][6]["vp"] = 1  # the bottom iron card worth less than the ones above
    wrong = tmp_path / "box.json"
    wrong.write_text(json.dumps(box), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=_env(tmp_path, wrong),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert f"COVEN_BREW_PRINTED_VALUES: {wrong}: iron: values must not decrease" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_file_stops_the_start(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env=_env(tmp_path, tmp_path / "nowhere.json"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "COVEN_BREW_PRINTED_VALUES: cannot read" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_host_opens_a_printed_table_where_the_operator_loaded_the_box(tmp_path: Path) -> None:
    process, url = _serve(tmp_path, EXAMPLE)
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            assert _potion_values(http) == ["reconstruction", "printed"]
            catalog = http.get("/api/games/witchs-brew/catalog").json()
            assert [len(s["cards"]) for s in catalog["printed_stacks"]] == [7, 7, 7, 5, 5]

            started = _start(http, {"potion_values": "printed"})
            assert started.status_code == 200, started.text
            view = started.json()["view"]
            assert view["options"]["potion_values"] == "printed"
            # (the two cheapest cards of a stack are worth the same: either lies on top)
            tops = [s["top"]["id"] for s in view["stacks"]]
            assert all(t.startswith(f"{s}-p") for s, t in zip(cards.STACK_IDS, tops, strict=True))

            plain = _start(http, {}).json()["view"]
            assert "potion_values" not in plain["options"]
            tops = [s["top"]["id"] for s in plain["stacks"]]
            reconstruction = [{c.id for c in cards.STACK_BY_ID[s].cards} for s in cards.STACK_IDS]
            assert all(t in ids for t, ids in zip(tops, reconstruction, strict=True)), tops
    finally:
        _stop(process)


def test_without_a_file_printed_values_are_neither_offered_nor_taken(tmp_path: Path) -> None:
    process, url = _serve(tmp_path, None)
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            assert _potion_values(http) == ["reconstruction"]
            assert http.get("/api/games/witchs-brew/catalog").json()["printed_stacks"] == []
            refused = _start(http, {"potion_values": "printed"})
            assert refused.status_code == 422, refused.text
            error = refused.json()["error"]
            assert error["code"] == "bad_options"
            assert "COVEN_BREW_PRINTED_VALUES" in error["message"]
    finally:
        _stop(process)

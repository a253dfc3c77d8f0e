"""OpenTelemetry traces of the move path (issue 23 item 2): a move makes the spans
``coven.move`` → ``coven.move.apply``, ``coven.move.commit`` and, in the hub's task, the
same trace's ``coven.move.fan_out``, with the room, game, seat and version as attributes and
never a token; ``coven serve`` turns them on from the standard ``OTEL_*`` variables."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from app.observability import tracing
from tests.server.conftest import sqlite_settings
from tests.server.coven_serve import CovenServe, finished_log, refused_start, start_bot_match
from tests.support.client import open_room
from tests.support.server import ThreadServer


@pytest.fixture
def spans(tmp_path: Path) -> Iterator[tuple[ThreadServer, InMemorySpanExporter]]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.use(provider)
    try:
        with ThreadServer(sqlite_settings(tmp_path)) as server:
            yield server, exporter
    finally:
        tracing.stop()


def _named(found: list[ReadableSpan], name: str) -> list[ReadableSpan]:
    return [s for s in found if s.name == name]


async def test_a_move_makes_its_spans(spans: tuple[ThreadServer, InMemorySpanExporter]) -> None:
    server, exporter = spans
    code, seated = await open_room(server.url, "test-guess", ["Agnes", "Brigid"])
    for client in seated:
        await client.connect(code)
    assert (await seated[0].http.post(f"/api/rooms/{code}/start")).status_code == 200
    await seated[1].at_version(0)
    action = seated[1].random_legal(random.Random(3))
    assert action is not None
    exporter.clear()
    ack = await seated[1].act(action, version=0)
    assert ack["type"] == "ack"
    await seated[0].at_version(ack["version"])
    for client in seated:
        await client.close()

    found = list(exporter.get_finished_spans())
    moves = _named(found, "coven.move")
    assert len(moves) == 1, [s.name for s in found]
    move = moves[0]
    assert move.context is not None
    attributes = dict(move.attributes or {})
    assert attributes["coven.room"] == code
    assert attributes["coven.game"] == "test-guess"
    assert attributes["coven.seat"] == 1
    assert attributes["coven.version"] == ack["version"]
    assert attributes["coven.by_bot"] is False
    for name in ("coven.move.apply", "coven.move.commit"):
        (child,) = _named(found, name)
        assert child.parent is not None and child.parent.span_id == move.context.span_id
    # The fan-out ran in the hub's task, after the move returned: still the move's trace.
    trace_id = move.context.trace_id
    fan_outs = _named(found, "coven.move.fan_out")
    (fan_out,) = [s for s in fan_outs if s.context is not None and s.context.trace_id == trace_id]
    assert fan_out.parent is not None and fan_out.parent.span_id == move.context.span_id
    assert dict(fan_out.attributes or {})["coven.version"] == ack["version"]
    tokens = {client.token for client in seated}
    for span in found:
        for value in (span.attributes or {}).values():
            assert str(value) not in tokens
            assert "token" not in str(value)


def _json_objects(text: str) -> list[dict[str, Any]]:
    """The JSON objects in ``text`` (the console exporter's spans), skipping anything else."""
    decoder = json.JSONDecoder()
    found: list[dict[str, Any]] = []
    at = 0
    while (start := text.find("{", at)) != -1:
        try:
            value, end = decoder.raw_decode(text, start)
        except ValueError:
            at = start + 1
            continue
        if isinstance(value, dict):
            found.append(value)
        at = end
    return found


def test_otel_variables_turn_traces_on(tmp_path: Path) -> None:
    """``OTEL_TRACES_EXPORTER=console`` and ``OTEL_SERVICE_NAME`` on ``coven serve``: each move
    of a bot match is one committed ``coven.move`` span of that service."""
    env = {
        "COVEN_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'coven.db'}",
        "COVEN_BOT_DELAY": "0",
        "COVEN_BOT_PACE": "0",
        "OTEL_TRACES_EXPORTER": "console",
        "OTEL_SERVICE_NAME": "coven-trace-test",
        "OTEL_BSP_SCHEDULE_DELAY": "200",
    }
    server = CovenServe(env, tmp_path / "logs").start()
    try:
        code = asyncio.run(start_bot_match(server.url))
        log = asyncio.run(finished_log(server.url, code))
    finally:
        server.stop()  # flushes the spans still batched
    printed = [s for s in _json_objects(server.out()) if "context" in s and "name" in s]
    moves = [s for s in printed if s["name"] == "coven.move"]
    committed = [s for s in moves if "coven.version" in s["attributes"]]
    assert len(committed) == len(log["replay"]["actions"]), (len(committed), len(moves))
    assert {s["attributes"]["coven.room"] for s in committed} == {code}
    assert all(s["resource"]["attributes"]["service.name"] == "coven-trace-test" for s in printed)
    names = {s["name"] for s in printed}
    assert {"coven.move.apply", "coven.move.commit"} <= names


@pytest.mark.parametrize(
    ("variables", "said"),
    [
        ({"OTEL_TRACES_EXPORTER": "zipkin"}, "no exporter 'zipkin'"),
        (
            {"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"},
            "http/protobuf only",
        ),
    ],
)
def test_a_wrong_otel_setting_stops_coven_serve_clearly(
    tmp_path: Path, variables: dict[str, str], said: str
) -> None:
    assert said in refused_start(tmp_path, variables)

"""A finished match as a "coven-match" document (``GET /api/rooms/{code}/export``), built
from its log and its replay (app/replay.py): the same engine run the replay page shows."""

from __future__ import annotations

from typing import Any

from app.fairness.document import FORMAT, FORMAT_VERSION, normal, views_digest
from app.replay import Replayed


def export_document(code: str, log: dict[str, Any], built: Replayed) -> dict[str, Any]:
    """The document of a finished match: ``log`` is ``RoomService.log``, ``built`` its replay."""
    record = log["replay"]
    timeline = built.timeline
    setup = built.checkpoints[0]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": record["game"],
        "title": timeline["title"],
        "rules_version": record.get("rules_version", "1"),
        "room": code,
        "players": record["players"],
        "options": record["options"],
        "seats": [{"seat": s["seat"], "name": s["name"], "bot": s["bot"]} for s in record["seats"]],
        "fairness": log.get("fairness"),
        "setup": {
            "to_move": timeline["steps"][0]["to_move"],
            "views_digest": views_digest(built.game, setup, built.players),
        },
        "actions": [
            {
                "step": step["step"],
                "seat": step["seat"],
                "action": step["action"],
                "bot": step["bot"],
                "events": normal(step["events"]),
            }
            for step in timeline["steps"][1:]
        ],
        "result": normal(timeline["result"]),
    }


def replay_log(document: dict[str, Any]) -> dict[str, Any]:
    """An export read back as the log ``app.replay.replay`` rebuilds a replay from (the seed
    it says it was dealt with; ``coven verify`` checks that seed)."""
    fairness = document.get("fairness") or {}
    revealed = fairness.get("revealed") or {}
    return {
        "replay": {
            "game": document["game"],
            "rules_version": document["rules_version"],
            "seed": revealed.get("match_seed", 0),
            "players": document["players"],
            "options": document["options"],
            "seats": [{**s, "former": False} for s in document["seats"]],
            "actions": [
                {"version": a["step"], "seat": a["seat"], "action": a["action"], "bot": a["bot"]}
                for a in document["actions"]
            ],
        }
    }

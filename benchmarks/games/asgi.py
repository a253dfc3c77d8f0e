"""ASGI entry point for benchmark workers: the product app plus the benchmark's game."""

from __future__ import annotations

from app.main import create_app
from benchmarks.games.hidden_picks import register

register()
app = create_app()

"""Run a Coven server with the test game registered (for subprocess tests).

Usage: python -m tests.support.serve PORT   (settings from COVEN_* env)
"""

from __future__ import annotations

import sys

import uvicorn

from app.cli import uvicorn_options
from app.main import create_app
from app.settings import Settings
from tests.support.guess import register


def main() -> None:
    register()
    port = int(sys.argv[1])
    uvicorn.run(
        create_app(),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        # As ``coven serve`` runs: trusted proxies, the bounded graceful shutdown (drain).
        **uvicorn_options(Settings.from_env()),
    )


if __name__ == "__main__":
    main()

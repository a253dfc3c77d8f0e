"""Run a Coven server with the test game registered (for subprocess tests).

Usage: python -m tests.support.serve PORT   (settings from COVEN_* env)
"""

from __future__ import annotations

import sys

import uvicorn

from app.cli import WS_MAX_SIZE, WS_PROTOCOL
from app.main import create_app
from tests.support.guess import register


def main() -> None:
    register()
    port = int(sys.argv[1])
    uvicorn.run(
        create_app(),
        host="127.0.0.1",
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws=WS_PROTOCOL,
        log_level="warning",
    )


if __name__ == "__main__":
    main()

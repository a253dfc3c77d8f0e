"""Where the workers of one ``coven serve`` write their metrics, chosen before any of them
imports ``prometheus_client`` (which picks its file-backed values only if
``PROMETHEUS_MULTIPROC_DIR`` is set when it is first imported): so this module must not
import it."""

from __future__ import annotations

import atexit
import os
import shutil
import signal
import tempfile
import threading
from types import FrameType

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def prepare_multiprocess_dir() -> str:
    """For ``coven serve`` before its workers start (before anything imports a metric's value
    class): the operator's ``PROMETHEUS_MULTIPROC_DIR`` (she empties it before the first
    process starts), else a fresh directory of this run, removed when the run ends."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        os.makedirs(given, exist_ok=True)
        return given
    made = tempfile.mkdtemp(prefix="coven-metrics-")
    os.environ[MULTIPROC_ENV] = made
    atexit.register(shutil.rmtree, made, True)
    # uvicorn ends a SIGTERM'd server by raising SIGTERM again with the handler it found
    # before it started: make that handler an exit that still runs the cleanup above.
    main = threading.current_thread() is threading.main_thread()
    if main and signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _exit)
    return made


def _exit(signum: int, _: FrameType | None) -> None:
    raise SystemExit(128 + signum)

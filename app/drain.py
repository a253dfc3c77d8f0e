"""A graceful drain on SIGTERM: the worker leaves a rolling restart without dropping a move.

What happens, in order (``Drain.run``), before uvicorn's own shutdown and Coven's lifespan
end take over:

1. at once, the worker is *draining*: ``/readyz`` answers 503 (the balancer stops sending it
   new sockets and requests) and a new room socket is closed at once with 1012 ("service
   restart"), with no error message: its client reconnects and lands on another worker;
2. for ``drain_seconds`` (``COVEN_DRAIN_SECONDS``) it goes on serving: the balancer's health
   check has time to see the 503 before the sockets come back (in Kubernetes the preStop
   sleep does this job, deploy/k8s/);
3. each room socket finishes the message it is handling (a move in flight is committed,
   acknowledged and fanned out), gets what is queued for it, and is closed with 1012; its
   client reconnects with back-off and jitter (static/js/client.js) to another worker and
   re-syncs from the committed state. An action sent after the server stopped reading was
   never acknowledged: the client sends it again under the same ``client_id`` (applied once);
4. uvicorn's shutdown follows (the signal is handed to it): the listener closes, HTTP
   requests in flight finish (``timeout_graceful_shutdown``), the lifespan closes bots, hub,
   bus and store. HTTP moves keep being served until then: the database and the bus are
   still there, and a move a late balancer sends here is better committed than bounced.

A worker's sockets are closed within ``SOCKETS_SECONDS`` whatever they do; with the
defaults the worker is gone well within Kubernetes' grace period (deploy/k8s/).

A signal belongs to the process: the handler is installed from the lifespan (in the main
thread; a server run in another thread, as in some tests, keeps uvicorn's handler) and
hands over to the handler it replaced (uvicorn's), which it puts back at shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)

# Close code of a socket whose worker is going away (RFC 6455 registry: "Service Restart").
CLOSE_RESTART = 1012
# At most this long for the sockets to finish what they are doing and close.
SOCKETS_SECONDS = 10.0

Handler = Callable[[int, FrameType | None], Any] | int | signal.Handlers | None


class Drain:
    """This app's drain: whether it is draining, and the step that closes its sockets."""

    def __init__(self, delay: float, close_sockets: Callable[[], Awaitable[None]]) -> None:
        self.delay = delay
        self.close_sockets = close_sockets
        self.draining = False
        self.since: float | None = None  # monotonic time the drain began
        self._task: asyncio.Task[None] | None = None
        self._previous: Handler = None
        self._installed = False

    async def run(self) -> None:
        """Steps 1–3 (see the module's docstring)."""
        self.begin()
        log.warning("draining: not ready; sockets close in %.1f s", self.delay)
        await asyncio.sleep(self.delay)
        try:
            async with asyncio.timeout(SOCKETS_SECONDS):
                await self.close_sockets()
        except TimeoutError:
            log.warning("draining: sockets still open after %.0f s", SOCKETS_SECONDS)
        log.warning("draining: sockets closed after %.1f s", time.monotonic() - (self.since or 0))

    def begin(self) -> None:
        if not self.draining:
            self.draining = True
            self.since = time.monotonic()

    # -- the signal -------------------------------------------------------------------------

    def install(self) -> None:
        """Take SIGTERM (from the lifespan's start, inside uvicorn's ``serve``)."""
        if threading.current_thread() is not threading.main_thread():
            return
        loop = asyncio.get_running_loop()

        def on_term(sig: int, frame: FrameType | None) -> None:
            if self._task is not None:
                self._hand_over(sig, frame)  # a second SIGTERM: stop now
                return
            self.begin()  # not ready from the next request on (a flag: safe in a handler)
            loop.call_soon_threadsafe(self._start, sig, frame)

        self._previous = signal.signal(signal.SIGTERM, on_term)
        self._installed = True

    def _start(self, sig: int, frame: FrameType | None) -> None:
        async def drain_then_stop() -> None:
            try:
                await self.run()
            except Exception:
                log.exception("draining failed; stopping now")
            finally:
                self._hand_over(sig, frame)

        self._task = asyncio.get_running_loop().create_task(drain_then_stop(), name="drain")

    def _hand_over(self, sig: int, frame: FrameType | None) -> None:
        previous = self._previous
        if callable(previous):
            previous(sig, frame)
        else:  # no Python handler before ours (not under uvicorn): the default action
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.raise_signal(sig)

    async def close(self) -> None:
        """At the lifespan's end: give SIGTERM back to the handler it had."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        if self._installed and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, self._previous or signal.SIG_DFL)
            self._installed = False

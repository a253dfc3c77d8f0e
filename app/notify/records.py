"""What the outbox holds and what a sender answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class NewNotification:
    """A notification to write, once per ``key`` (the reaction and the sweep write the same)."""

    key: str
    channel: str  # "push" | "webhook"
    target: int  # the push subscription's or the webhook's id
    room_id: int
    payload: dict[str, Any]
    send_after: float


@dataclass(frozen=True, slots=True)
class Notification:
    """A notification this worker claimed and now sends."""

    id: int
    key: str
    channel: str
    target: int
    room_id: int
    payload: dict[str, Any]
    attempts: int  # tries before this one


@dataclass(frozen=True, slots=True)
class Sent:
    pass


@dataclass(frozen=True, slots=True)
class Retry:
    """Failed for now (a time-out, a 5xx, a 429): tried again later, with back-off."""

    error: str
    # Seconds the receiver asked us to wait (Retry-After), if it did.
    after: float | None = None


@dataclass(frozen=True, slots=True)
class Gone:
    """The target is no more (a push subscription answered 404/410): the sender removed it."""

    error: str


@dataclass(frozen=True, slots=True)
class Refused:
    """Failed for good (the receiver refused it: a 4xx, a redirect, a private address): not
    tried again."""

    error: str


@dataclass(frozen=True, slots=True)
class Skip:
    """Not sent, and rightly so (a tab of that seat is in view; the seat moved meanwhile)."""

    reason: str


Outcome = Sent | Retry | Gone | Refused | Skip


class Sender(Protocol):
    channel: str

    async def start(self) -> None: ...

    async def send(self, note: Notification) -> Outcome:
        """Send ``note`` once; never raise for the receiver's failures (answer ``Retry``)."""
        ...

    async def close(self) -> None: ...

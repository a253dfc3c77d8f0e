"""Errors as values with codes. Every refusal the server makes is a ``CovenError``."""

from __future__ import annotations

from typing import Any

from engine.protocol import IllegalAction

# The HTTP status for each code the server itself raises; engine codes default to 422,
# except the few that say "not now" rather than "never".
STATUS: dict[str, int] = {
    "bad_request": 400,
    "bad_json": 400,
    "bad_options": 422,
    "validation_error": 422,
    "unauthorized": 401,
    "bad_token": 401,
    "not_host": 403,
    "spectator": 403,
    "not_found": 404,
    "room_not_found": 404,
    "unknown_game": 404,
    "room_full": 409,
    "already_started": 409,
    "not_started": 409,
    "not_enough_players": 409,
    "match_over": 409,
    "not_your_turn": 409,
    "stale_version": 409,
    "bad_version": 409,
    "client_id_taken": 409,
    "client_id_reused": 409,
    "seat_connected": 409,
    "no_such_seat": 404,
    "host_seat": 409,
    "host_cannot_leave": 409,
    "bad_seat": 422,
    "busy": 409,
    "frame_too_large": 413,
    "chat_too_long": 413,
    "rate_limited": 429,
    "too_many_sockets": 429,
    "too_large": 413,
    "too_deep": 422,
    "bad_text": 422,
    "bad_number": 422,
    "bad_origin": 403,
    "unknown_bot": 422,
    # fairness (app/fairness): seed proof, export, verify
    "bad_contribution": 400,
    "rules_version_unavailable": 409,
    "not_an_export": 422,
    "import_not_found": 404,
    # rematches (app/rooms/rematch.py)
    "not_finished": 409,
    "no_rematch": 404,
    # profiles (app/profiles)
    "no_profile": 401,
    "profile_held": 409,
    "profile_not_found": 404,
    "bad_name": 422,
    "device_link_invalid": 404,
    "device_link_expired": 410,
    "passkey_unknown": 404,
    "passkey_failed": 401,
    "passkeys_unavailable": 409,
    # circles (app/circles): to anyone but its members a circle does not exist (404)
    "circle_not_found": 404,
    "circle_member_not_found": 404,
    "circle_invite_invalid": 404,
    "circle_invite_revoked": 410,
    "not_circle_keeper": 403,
    "circle_full": 409,
    "too_many_circles": 409,
    "bad_circle_name": 422,
}


class CovenError(Exception):
    def __init__(
        self, code: str, message: str, status: int | None = None, retry_after: float | None = None
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status if status is not None else STATUS.get(code, 422)
        # Seconds until a rate-limited request may succeed (HTTP Retry-After).
        self.retry_after = retry_after

    @classmethod
    def from_illegal(cls, exc: IllegalAction) -> CovenError:
        return cls(exc.code, exc.message)

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}

"""Every HTTP body and WebSocket message, as Pydantic models (the OpenAPI schema comes from
here). Handlers take and return these; nothing below the handlers knows about them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.text import check_json, check_machine_text, display_name


def _action(value: dict[str, Any]) -> dict[str, Any]:
    check_json(value, "action")
    return value


def _options(value: dict[str, Any]) -> dict[str, Any]:
    check_json(value, "options")
    return value


def _client_id(value: str) -> str:
    check_machine_text(value, "client_id")
    return value


# Names are cleaned for display (raw input may be longer: invisible characters go).
DisplayName = Annotated[str, Field(min_length=1, max_length=200), AfterValidator(display_name)]
Action = Annotated[dict[str, Any], AfterValidator(_action)]
ClientId = Annotated[str, Field(min_length=1, max_length=100), AfterValidator(_client_id)]


class ErrorDetail(BaseModel):
    code: str = Field(description="stable, machine-readable: room_full, stale_version, …")
    message: str


class ErrorBody(BaseModel):
    error: ErrorDetail


class GameInfo(BaseModel):
    id: str
    title: str
    min_players: int
    max_players: int
    description: str = Field("", description="one or two sentences for the lobby (English)")
    options: dict[str, Any] = Field(description="JSON schema of the game's setup options")


class SeedContribution(BaseModel):
    seat: int
    value: str = Field(description="16 bytes as 32 lowercase hex digits")
    by: Literal["player", "server"] = Field(
        description="'player': her browser drew it; 'server': drawn for a bot or a client "
        "that sent none"
    )


class SeedRevealed(BaseModel):
    server_seed: str = Field(description="the secret seed, 32 bytes hex")
    salt: str = Field(description="16 bytes hex")
    match_seed: int = Field(description="the engine's seed derived from the two (52 bits)")


class Fairness(BaseModel):
    """The seed proof (docs/FAIRNESS.md): ``commitment`` = SHA-256(server_seed ‖ salt), public
    from the room's creation; ``match_seed`` = the first 52 bits of HMAC-SHA256(server_seed,
    canonical JSON of the contributions sorted by seat); ``revealed`` is null until the match
    is over."""

    scheme: Literal["coven-seed-1"]
    commitment: str
    contributions: list[SeedContribution]
    revealed: SeedRevealed | None


CONTRIBUTION = Field(
    default=None,
    description="this seat's part of the match seed: 16 random bytes as 32 lowercase hex "
    "digits (crypto.getRandomValues); omitted: the server draws one (400 bad_contribution for "
    "another format)",
)


class SeatInfo(BaseModel):
    seat: int
    name: str
    bot: str | None = Field(description="bot level for a bot seat, else null")
    away: bool = Field(description="a bot is playing for this player until they act again")
    connected: bool
    former: bool = Field(
        default=False,
        description="the profile that held this seat was deleted: show it as a former player",
    )
    for_good: bool = Field(
        default=False, description="its time ran out and it was handed to a bot for good"
    )


class RoomInfo(BaseModel):
    code: str
    game: str
    title: str
    name: str
    visibility: Literal["public", "private"]
    status: Literal["open", "playing", "finished"]
    options: dict[str, Any]
    seat_count: int
    min_players: int
    max_players: int
    turn_seconds: float | None
    clock_rule: Literal["move", "seat"] = Field(
        default="move", description="what happens when a seat's time runs out"
    )
    pace: Literal["none", "live", "correspondence"] = Field(
        default="none", description="correspondence: 12 hours or more per move"
    )
    seats: list[SeatInfo]
    spectators: int
    created_at: float
    rematch_by: Literal["host", "anyone"] = Field(
        default="host", description="who may start a rematch once the match is over"
    )
    rematch: str | None = Field(
        default=None,
        description="GET /api/rooms/{code} only: the new room, once Play again was pressed",
    )
    fairness: Fairness | None = Field(
        default=None, description="the seed proof; null for a room made before it existed"
    )


class CreateRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    visibility: Literal["public", "private"] = "public"
    options: Annotated[dict[str, Any], AfterValidator(_options)] = Field(default_factory=dict)
    name: DisplayName = Field(description="the host's name (cleaned for display, ≤ 40)")
    turn_seconds: float | None = Field(
        default=None,
        gt=0,
        le=3 * 86400,
        description=(
            "time per move: live (seconds or minutes) or correspondence (12 h = 43200, "
            "1 day = 86400, 3 days = 259200); none: no clock"
        ),
    )
    clock_rule: Literal["move", "seat"] = Field(
        default="move",
        description=(
            "when a seat's time runs out: 'move' (a bot plays that turn, the seat stays the "
            "player's) or 'seat' (the seat is handed to a bot for good)"
        ),
    )
    seats: int | None = Field(
        default=None, ge=1, le=16, description="how many seats (default: the game's maximum)"
    )
    rematch_by: Literal["host", "anyone"] = Field(
        default="host", description="who may start a rematch once the match is over"
    )
    circle: str | None = Field(
        default=None,
        max_length=64,
        description="a circle's public id: the table is opened for it (its creator must be a "
        "member); its members find it on their home page",
    )
    contribution: str | None = CONTRIBUTION


class JoinRoom(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: DisplayName = Field(description="cleaned for display, ≤ 40 characters")
    contribution: str | None = CONTRIBUTION


class Contribute(BaseModel):
    model_config = ConfigDict(extra="forbid")

    contribution: str = Field(description="16 random bytes as 32 lowercase hex digits")


class AddBot(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str = "random"
    seat: int | None = Field(
        default=None,
        ge=0,
        description="hand this (disconnected) player's seat to a bot; omit to fill a free seat",
    )


class MoveSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")

    to: int = Field(ge=0, le=15, description="the seat to exchange places with (may be free)")


class SeatToken(BaseModel):
    seat: int
    token: str = Field(description="bearer token for this seat; shown once, keep it")


class RoomWithSeat(BaseModel):
    room: RoomInfo
    seat: int
    token: str


class BotSeat(BaseModel):
    room: RoomInfo
    seat: int


class SubmitAction(BaseModel):
    model_config = ConfigDict(extra="forbid")

    action: Action
    client_id: ClientId
    version: int | None = Field(default=None, ge=0)


class ActionAck(BaseModel):
    client_id: str
    version: int = Field(description="the acting seat's own version this action produced")
    duplicate: bool = Field(description="true when this client_id had already been applied")


class StateMessage(BaseModel):
    type: Literal["state"] = "state"
    version: int = Field(
        description="this reader's own version: the actions she may see (another seat's "
        "private steps are not counted)"
    )
    public_version: int = Field(
        default=0, description="the public actions so far (what presence messages carry)"
    )
    seat: int | None = Field(description="whose view this is; null for a spectator")
    view: dict[str, Any]
    to_move: list[int]
    legal: list[dict[str, Any]]
    undo: bool = Field(default=False, description='whether this seat may send {"type": "undo"} now')
    events: list[dict[str, Any]]
    result: dict[str, Any] | None
    fairness: Fairness | None = Field(
        default=None, description="the seed proof; its secret only once the match is over"
    )


class LogEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    version: int
    type: str


class Replay(BaseModel):
    game: str
    rules_version: str = "1"
    seed: int
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]


class MatchLog(BaseModel):
    version: int
    finished: bool
    events: list[LogEntry]
    replay: Replay | None = Field(description="the whole match, once it is over")
    fairness: Fairness | None = None


class ReplayStepInfo(BaseModel):
    step: int = Field(description="0 is the setup; step n is the match after its n-th action")
    version: int
    seat: int | None = Field(description="who acted (null at step 0)")
    bot: bool
    action: dict[str, Any] | None
    events: list[dict[str, Any]] = Field(description="every event, private ones with '@to'")
    to_move: list[int]


class ReplayTimeline(BaseModel):
    game: str
    title: str
    players: int
    options: dict[str, Any]
    seats: list[dict[str, Any]]
    last: int = Field(description="the last step (the number of actions)")
    steps: list[ReplayStepInfo]
    result: dict[str, Any]


class ReplayViews(BaseModel):
    step: int
    views: list[dict[str, Any]] = Field(description="every seat's view, by seat")
    spectator: dict[str, Any]
    to_move: list[int]
    result: dict[str, Any] | None = Field(description="set at the last step only")


class ReplaySteps(BaseModel):
    steps: list[ReplayViews]


class Health(BaseModel):
    ok: bool
    sockets: int


# -- WebSocket, client → server -------------------------------------------------------------


class ActMessage(BaseModel):
    type: Literal["act"]
    action: Action
    client_id: ClientId
    version: int | None = Field(default=None, ge=0)


class ChatIn(BaseModel):
    type: Literal["chat"]
    text: str


class Ping(BaseModel):
    type: Literal["ping"]


# -- WebSocket, server → client (besides StateMessage) --------------------------------------


class AckMessage(BaseModel):
    type: Literal["ack"] = "ack"
    client_id: str
    version: int
    duplicate: bool


class ErrorMessage(BaseModel):
    type: Literal["error"] = "error"
    code: str
    message: str
    client_id: str | None = None


class ChatOut(BaseModel):
    type: Literal["chat"] = "chat"
    seat: int | None
    name: str
    text: str
    at: float


class PresenceMessage(BaseModel):
    type: Literal["presence"] = "presence"
    version: int | None = Field(
        description="latest public version known (a seat's private steps not counted); "
        "null before start"
    )
    status: str
    seats: list[SeatInfo]
    spectators: int
    fairness: Fairness | None = Field(
        default=None, description="the commitment and contributions (never the secret)"
    )

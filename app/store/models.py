"""The tables. Snapshots are the game's own ``dump()``; the action log replays a match."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class RoomRow(Base):
    __tablename__ = "rooms"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    game_id: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(80))
    visibility: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # open (seats filling) → playing → finished
    status: Mapped[str] = mapped_column(String(16), index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    turn_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    # The rematch (app/rooms/rematch.py): who may press "Play again" ("host" | "anyone"), and
    # the host's standing choice for it, which applies when another player presses: seats
    # "keep" | "rotate", players who do not come in time replaced by a "bot" or "leave_out".
    rematch_by: Mapped[str] = mapped_column(String(8), default="host", server_default="host")
    rematch_seats: Mapped[str] = mapped_column(String(8), default="keep", server_default="keep")
    rematch_absent: Mapped[str] = mapped_column(String(16), default="bot", server_default="bot")
    # What happens when a seat's turn clock runs out (issue 20): "move" (a bot plays the
    # overdue turn, the seat stays the player's) | "seat" (the seat is handed to a bot for good).
    clock_rule: Mapped[str] = mapped_column(String(8), default="move", server_default="move")
    # The seed proof's commitment, SHA-256(server_seed ‖ salt) hex (app/fairness/seeds.py),
    # public from the room's creation; the secret itself is in ``room_seeds``. NULL: a room made
    # before migration 0008 (no proof).
    seed_commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)


class RoomSeedRow(Base):
    """A room's secret server seed and salt (hex), drawn when the room is made: read only to
    start its match, which keeps them until it ends (``MatchRow.server_seed``)."""

    __tablename__ = "room_seeds"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    server_seed: Mapped[str] = mapped_column(String(64))
    salt: Mapped[str] = mapped_column(String(32))


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(80))
    # sha256 hex of the bearer token; NULL for a bot seat.
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    bot_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # A human seat a bot plays for (turn clock ran out, or the host handed it over);
    # cleared the moment the player acts again.
    away: Mapped[bool] = mapped_column(Boolean, default=False)
    # The bot level that plays for an away seat (the host's choice when handing it over);
    # NULL: "random" (the turn clock's stand-in).
    away_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The profile that holds this seat (NULL: a guest or a bot). Set when a profile holder
    # takes the seat, or when a guest keeps a profile and claims the seats of this browser.
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="SET NULL"), nullable=True, index=True
    )
    # True once the profile that held this seat was deleted: shown as "a former player".
    former: Mapped[bool] = mapped_column(Boolean, default=False)
    # With ``away``: the turn clock's "seat" rule handed it to a bot for good; the player's
    # token still shows her the table, but she can no longer act nor take the seat back.
    for_good: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # This seat's part of the match seed (16 bytes, hex) and who drew it: "player" (her
    # browser) or "server" (a bot, or a client that sent none). Public.
    contribution: Mapped[str | None] = mapped_column(String(32), nullable=True)
    contribution_by: Mapped[str | None] = mapped_column(String(8), nullable=True)


class MatchRow(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), unique=True)
    game_id: Mapped[str] = mapped_column(String(64))
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    snapshot: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    stage: Mapped[str] = mapped_column(String(200))
    # When the current stage began (epoch seconds); kept for rows older than ``owing_since``.
    stage_since: Mapped[float] = mapped_column(Float)
    # Per seat, the version that seat's latest action produced (0: none yet): the stale-version
    # rule accepts an older version only from a seat that has not acted since it.
    acted: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    # Per seat, when it began to owe the decision it owes now (epoch seconds; null: owes
    # none): the turn clock. Written in the same version-guarded UPDATE as the snapshot.
    owing_since: Mapped[list[float | None] | None] = mapped_column(JSON, nullable=True)
    # The earliest time a seat's turn clock runs out (epoch seconds by the server's clock;
    # NULL: no clock, or nobody owes a decision). Written with ``owing_since``; the bot sweep
    # finds overdue matches by it, so a clock days long needs nothing in memory.
    due_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)
    # Set by the results reaction in the transaction that writes the match's result row
    # (app/results/ledger.py): the sweep finds the finished matches still unrecorded by the
    # partial index ``ix_matches_unrecorded`` (see the end of this module).
    recorded: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # The version of the game's rules and data the match is played under (engine.registry).
    rules_version: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # The room's secret seed and salt (hex), kept with the match: revealed once it is over.
    # NULL: a match without a seed proof (started before migration 0008).
    server_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)
    seed_salt: Mapped[str | None] = mapped_column(String(32), nullable=True)


class ActionRow(Base):
    """Append-only. ``version`` is the match version this action produced; ``stage`` is the
    stage it was applied in (so the stage at version v is the ``stage`` of row v + 1)."""

    __tablename__ = "actions"
    __table_args__ = (
        UniqueConstraint("match_id", "client_id"),
        UniqueConstraint("match_id", "version"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_id: Mapped[str] = mapped_column(String(100))
    stage: Mapped[str] = mapped_column(String(200))
    # Every event of the step, addressed ones included; views filter them per seat.
    events: Mapped[list[Any]] = mapped_column(JSON)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[float] = mapped_column(Float)
    # The seat this action is visible to alone, a private step (app/rooms/private_steps.py);
    # null: everyone sees it. Each viewer's version counts the actions visible to her.
    private_to: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(80))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)


# --- Profiles, history and ratings (issue 19). A guest plays without any of these rows. ---


class ProfileRow(Base):
    """A player who chose to be remembered. No e-mail, no password: a browser holds it by a
    secret (``profile_keys``), a passkey or a one-time device link brings it to another."""

    __tablename__ = "profiles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # What URLs and other players see (128 random bits): never the row id, never guessable.
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    # False: a private profile, listed nowhere (leaderboards, circles' tables, search).
    listed: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[float] = mapped_column(Float)


class ProfileKeyRow(Base):
    """One browser's hold on a profile: the sha256 of the secret in its HttpOnly cookie."""

    __tablename__ = "profile_keys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # How it was obtained: "created", "device_link", "passkey".
    via: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    last_used_at: Mapped[float] = mapped_column(Float)


class PasskeyRow(Base):
    """A WebAuthn credential registered to a profile."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), index=True
    )
    # base64url of the credential id and of its COSE public key.
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[str] = mapped_column(Text)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class AuthChallengeRow(Base):
    """A WebAuthn challenge or a one-time device link, kept in the database so that any
    worker can check it; used once, then deleted, and worthless after ``expires_at``."""

    __tablename__ = "auth_challenges"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # sha256 hex of the challenge (or of the device link's code).
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    # "passkey_register" | "passkey_login" | "device_link"
    purpose: Mapped[str] = mapped_column(String(24))
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), nullable=True, index=True
    )
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class MatchResultRow(Base):
    """A finished match as history keeps it: written once, after the match ended, by the
    results reaction (never by the move path)."""

    __tablename__ = "match_results"

    match_id: Mapped[int] = mapped_column(
        ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str] = mapped_column(String(64), index=True)
    players: Mapped[int] = mapped_column(Integer)
    finished_at: Mapped[float] = mapped_column(Float, index=True)
    # Whether it moved ratings (at least two distinct profiles when it ended).
    rated: Mapped[bool] = mapped_column(Boolean, default=False)


class MatchPlayerRow(Base):
    """One seat of a finished match: who sat there, where they placed, their game's figures."""

    __tablename__ = "match_players"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        Index("ix_match_players_profile_finished", "profile_id", "finished_at"),
        Index("ix_match_players_profile_game", "profile_id", "game_id", "finished_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match_results.match_id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    # NULL: a guest, a bot, or a deleted profile (``former``).
    profile_id: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="SET NULL"), nullable=True
    )
    name: Mapped[str] = mapped_column(String(80))
    bot_level: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # True once the profile that sat here was deleted: shown as "a former player".
    former: Mapped[bool] = mapped_column(Boolean, default=False)
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The game's own figures for this seat (``Game.statistics``), e.g. {"potions_brewed": 4}.
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Copied from the match so a profile's history is one index range.
    game_id: Mapped[str] = mapped_column(String(64))
    finished_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A profile's OpenSkill (Plackett–Luce) rating in one game."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_game_ordinal", "game_id", "ordinal"),)

    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    # mu - 3 sigma, kept so the leaderboard is one index range.
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


# --- Circles: groups of friends (issue 19). A circle holds profiles; a room may be opened
# "for" one, which its members then find on their home page. ---


class CircleRow(Base):
    __tablename__ = "circles"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # What URLs show (128 random bits), never the row id.
    public_id: Mapped[str] = mapped_column(String(32), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    # The keeper: renames, removes members, renews the invite link. NULL once that profile
    # was deleted; the longest-standing member keeps the circle then (app/circles).
    created_by: Mapped[int | None] = mapped_column(
        ForeignKey("profiles.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[float] = mapped_column(Float)


class CircleMemberRow(Base):
    __tablename__ = "circle_members"

    circle_id: Mapped[int] = mapped_column(
        ForeignKey("circles.id", ondelete="CASCADE"), primary_key=True
    )
    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    joined_at: Mapped[float] = mapped_column(Float)


class CircleInviteRow(Base):
    """A circle's standing invite link, as the sha256 of its code. Renewing it revokes the
    row (kept, so the old link answers "revoked" rather than "unknown") and adds a new one:
    at most one row of a circle has ``revoked_at`` NULL."""

    __tablename__ = "circle_invites"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[float] = mapped_column(Float)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class CircleRoomRow(Base):
    """A table opened "for a circle": its members find it on their home page and the circle's
    page. A row of its own rather than a column of ``rooms``: the room layer never reads it,
    and on SQLite adding a column with a foreign key to ``rooms`` would mean rebuilding it."""

    __tablename__ = "circle_rooms"

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    circle_id: Mapped[int] = mapped_column(ForeignKey("circles.id", ondelete="CASCADE"), index=True)


# --- Rematches (issue 19): "Play again" opens one new room for a finished table. ---


class RematchRow(Base):
    """The rematch of a finished room: its primary key is the old room, so there is at most one,
    and two players pressing at once land in the same new room. The new match starts when every
    invited person has come (``arrived``) or, at ``deadline``, without those who did not."""

    __tablename__ = "rematches"
    __table_args__ = (Index("ix_rematches_waiting", "started", "deadline"),)

    room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True
    )
    new_room_id: Mapped[int] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), unique=True
    )
    # "keep" | "rotate", and "bot" | "leave_out" (what the deadline does to who did not come).
    seats: Mapped[str] = mapped_column(String(8))
    absent: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[float] = mapped_column(Float)
    deadline: Mapped[float] = mapped_column(Float)
    # The seat rows (``seats.id``, which a seat keeps when the host reorders the waiting room)
    # of the new room whose player came.
    arrived: Mapped[list[int]] = mapped_column(JSON)
    # Done: the new match started, or it was left to its host (nobody came).
    started: Mapped[bool] = mapped_column(Boolean, default=False)


# --- History's running figures (issue 19): what a profile's page shows per game, kept up to
# date as matches are recorded and seats claimed, so her page never adds up her whole past. ---


class ProfileGameTotalsRow(Base):
    """A profile's matches of one game added up: one row per ``match_players`` row she holds
    of that game. Written in the transaction that writes those rows (the results ledger) or
    gives them to her (a claim); her rows go with the profile."""

    __tablename__ = "profile_game_totals"

    profile_id: Mapped[int] = mapped_column(
        ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    matches: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)  # first places, shared or not
    place_sum: Mapped[int] = mapped_column(Integer)
    # Per figure of the game's ``statistics``: its sum, and how many matches recorded it (the
    # per-match average divides by that, not by ``matches``).
    figure_sums: Mapped[dict[str, float]] = mapped_column(JSON)
    figure_counts: Mapped[dict[str, int]] = mapped_column(JSON)


# The results sweep's range: finished matches not yet recorded (normally none, or the few
# ending this second), however many matches ever finished. Only the last move of a match and
# its recording change these columns, so every other move stays a HOT update on PostgreSQL.
UNRECORDED = MatchRow.finished.is_(True) & MatchRow.recorded.is_(False)
Index(
    "ix_matches_unrecorded",
    MatchRow.id,
    postgresql_where=UNRECORDED,
    sqlite_where=UNRECORDED,
)


# --- Play across days (issue 20): Web Push subscriptions, webhooks and the notifications
# waiting to be sent. Reactions write them after a commit; the move path never does. ---


class ServerKeyRow(Base):
    """A key the server makes once and keeps (the VAPID key pair of Web Push): the first
    worker to start writes it, every other one reads the same row."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[float] = mapped_column(Float)


class PushSubscriptionRow(Base):
    """One device's Web Push subscription for one seat (a seat opts in per device)."""

    __tablename__ = "push_subscriptions"
    __table_args__ = (UniqueConstraint("seat_id", "endpoint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    endpoint: Mapped[str] = mapped_column(String(1000))
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    # The language the device's page was in: the push is written in it.
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[float] = mapped_column(Float)


class WebhookRow(Base):
    """A table's or a circle's webhook to a group chat. The URL is a secret of whoever set it:
    no API shows it to anyone else."""

    __tablename__ = "webhooks"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[int | None] = mapped_column(
        ForeignKey("rooms.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    circle_id: Mapped[int | None] = mapped_column(
        ForeignKey("circles.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    url: Mapped[str] = mapped_column(String(2000))
    # "discord" | "slack" | "matrix" | "ntfy"
    format: Mapped[str] = mapped_column(String(16))
    lang: Mapped[str] = mapped_column(String(8))
    # Where the posts' links point: COVEN_PUBLIC_URL, else the origin its setter's page used.
    link_base: Mapped[str] = mapped_column(String(300))
    created_at: Mapped[float] = mapped_column(Float)


class NotificationRow(Base):
    """One notification to send (a push to one subscription, a post to one webhook). ``key``
    makes it once: the reaction after a commit and the sweep after a crash write the same key.
    A worker claims a row (``claimed_until``) before sending it, so two workers never both do."""

    __tablename__ = "notifications"
    __table_args__ = (Index("ix_notifications_pending", "done", "send_after"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    # "push" | "webhook"; ``target`` is the subscription's or the webhook's id.
    channel: Mapped[str] = mapped_column(String(16))
    target: Mapped[int] = mapped_column(Integer)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), index=True)
    # What to say: {"kind": "turn" | "reminder" | "end", ...} (app/notify/messages.py).
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    send_after: Mapped[float] = mapped_column(Float)
    claimed_until: Mapped[float] = mapped_column(Float, default=0.0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    # True once sent, skipped (no longer due: the seat moved, a tab was visible) or given up.
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    # "sent" | "skipped" | "gone" | "failed" (NULL while pending).
    outcome: Mapped[str | None] = mapped_column(String(16), nullable=True)
    last_error: Mapped[str | None] = mapped_column(String(300), nullable=True)
    created_at: Mapped[float] = mapped_column(Float)
    sent_at: Mapped[float | None] = mapped_column(Float, nullable=True)

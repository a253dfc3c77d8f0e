"""Rematch routes: "Play again", the players coming over, the host's rules. Thin handlers over
``app.rooms.rematch``; the seat token is the bearer token, as everywhere in a room."""

from __future__ import annotations

import time
from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from app.api.deps import ServicesDep, TokenDep
from app.api.http import ERRORS, Code
from app.store.rematches import Rematch, RematchRules

router = APIRouter(responses=ERRORS, tags=["rematch"])

Seats = Literal["keep", "rotate"]
Absent = Literal["bot", "leave_out"]
Who = Literal["host", "anyone"]


class RematchChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seats: Seats | None = Field(
        default=None, description="the host's choice: each seat kept, or everyone one seat on"
    )
    absent: Absent | None = Field(
        default=None,
        description="the host's choice for who has not come by the deadline: a bot, or left out",
    )


class RematchRulesChange(RematchChoice):
    rematch_by: Who | None = Field(default=None, description="who may press Play again")


class RematchInfo(BaseModel):
    rematch_by: Who
    seats: Seats
    absent: Absent
    code: str | None = Field(description="the new room, once Play again was pressed")
    deadline: float | None = Field(
        description="when whoever has not come is replaced or left out (epoch seconds)"
    )
    started: bool = Field(description="the new match has started (or was left to its host)")
    waiting_seconds: float | None = Field(
        description="this room is a rematch waiting for its players: its match starts by itself "
        "once they are in, or at the latest in this many seconds"
    )


class Arrived(BaseModel):
    code: str
    seat: int = Field(description="your seat in the new room (your token holds it)")


def _info(rules: RematchRules, rematch: Rematch | None, waiting: Rematch | None) -> RematchInfo:
    return RematchInfo.model_validate(
        {
            "rematch_by": rules.by,
            "seats": rematch.seats if rematch is not None else rules.seats,
            "absent": rematch.absent if rematch is not None else rules.absent,
            "code": rematch.new_code if rematch is not None else None,
            "deadline": rematch.deadline if rematch is not None else None,
            "started": rematch.started if rematch is not None else False,
            "waiting_seconds": (
                max(0.0, waiting.deadline - time.time()) if waiting is not None else None
            ),
        }
    )


@router.get("/api/rooms/{code}/rematch", response_model=RematchInfo)
async def get_rematch(code: Code, coven: ServicesDep) -> RematchInfo:
    """Who may start a rematch and with what choice, and the new room once it exists."""
    return _info(*await coven.rematches.look(code))


@router.post("/api/rooms/{code}/rematch", response_model=RematchInfo)
async def press_rematch(
    code: Code, coven: ServicesDep, token: TokenDep, body: RematchChoice | None = None
) -> RematchInfo:
    """Play again: the new room for this finished table (the same one if it exists already).
    The host's ``seats``/``absent`` apply; another player's press uses the room's rules."""
    choice = body or RematchChoice()
    await coven.rematches.press(code, token, seats=choice.seats, absent=choice.absent)
    return _info(*await coven.rematches.look(code))


@router.put("/api/rooms/{code}/rematch/rules", response_model=RematchInfo)
async def change_rematch_rules(
    code: Code, body: RematchRulesChange, coven: ServicesDep, token: TokenDep
) -> RematchInfo:
    """The host: who may press Play again, and her standing choice for it."""
    await coven.rematches.change_rules(
        code, token, by=body.rematch_by, seats=body.seats, absent=body.absent
    )
    return _info(*await coven.rematches.look(code))


class Arrive(BaseModel):
    model_config = ConfigDict(extra="forbid")

    contribution: str | None = Field(
        default=None,
        description="her browser's part of the new room's shuffle: 16 random bytes as 32 "
        "lowercase hex digits (docs/FAIRNESS.md); 400 bad_contribution for another format",
    )


@router.post("/api/rooms/{code}/arrive", response_model=Arrived)
async def arrive(
    code: Code, coven: ServicesDep, token: TokenDep, body: Arrive | None = None
) -> Arrived:
    """A player of the finished table comes to its rematch with her old token: her seat here.
    The match starts once every person has come."""
    part = body.contribution if body is not None else None
    return Arrived(code=code, seat=await coven.rematches.arrive(code, token, part))

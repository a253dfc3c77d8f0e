"""Room options for a Seasons match."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.seasons import readings


class SeasonsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: Literal["apprentice", "magician", "master"] = Field(
        "apprentice",
        description=(
            "'apprentice': cards 1–30, pre-built sets of 9 (the rulebook's first level); "
            "'master': cards 1–50, 9 dealt and drafted; 'magician': cards 1–30 with the draft "
            "(a public variant, not in our rulebook)."
        ),
    )
    edition: Literal[1, 2] = Field(
        2, description="Balance of Ishtar (#5) and Idol of the Familiar (#43): 1st or 2nd edition."
    )
    first_player: int | None = Field(
        None, ge=0, le=3, description="seat of the first player; null: drawn at random"
    )
    score_floor: bool = Field(
        readings.SCORE_FLOOR_DEFAULT,
        description="floor the final score at 0 (as Board Game Arena); the rulebook has none",
    )
    exchange_exactly_two: bool = Field(
        False, description="Bonus 1 exchanges exactly 2 tokens (printed) instead of 1 or 2"
    )

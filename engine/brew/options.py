"""Room options for a Witch's Brew match."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.brew import readings


class BrewOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    variant_blocked_roles: bool = Field(
        False,
        description=(
            "The rulebook's variant for 3 or 4 players: each set, 2 (3 players) or 1 (4 players) "
            "roles of an unused colour are turned up and nobody may keep them; after all 12 have "
            "been turned up they are shuffled again. Not available with 5 players."
        ),
    )
    thief_favor: Literal["exempt", "buy"] = Field(
        readings.THIEF_FAVOR_DEFAULT,
        description=(
            "The Cutpurse's and Begging Monk's favor, unknown in the sources: 'exempt' (the favor "
            "taker is spared the theft) or 'buy' (she may buy the top shelf card at its price, "
            "without taking anything from anyone)."
        ),
    )

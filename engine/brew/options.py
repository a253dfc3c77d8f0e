"""Room options for a Witch's Brew match."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
)

from engine.brew import cards, readings


def _offered_values(schema: dict[str, Any]) -> None:
    """The lobby offers the printed values only where the operator loaded them."""
    if cards.printed_stacks() is None and "enum" in schema:
        schema["enum"] = ["reconstruction"]


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
    potion_values: Literal["reconstruction", "printed"] = Field(
        "reconstruction",
        description=(
            "The potion cards' costs, values and ravens: 'reconstruction' (ours: the printed "
            "ones are not public) or 'printed' (the box's, where the server's operator loaded "
            "them from a file, COVEN_BREW_PRINTED_VALUES)."
        ),
        json_schema_extra=_offered_values,
    )

    @field_validator("potion_values")
    @classmethod
    def _printed_loaded(cls, value: str) -> str:
        cards.stacks_for(value)  # (a ValueError: this server has no printed values)
        return value

    @model_serializer(mode="wrap")
    def _only_printed_said(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # A table of the reconstruction keeps the options it always had (its state, views and
        # recorded playthroughs unchanged); a printed table says so in its options.
        dumped: dict[str, Any] = handler(self)
        if dumped.get("potion_values") == "reconstruction":
            del dumped["potion_values"]
        return dumped

"""Room options for a Whirling Witchcraft match."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# Rooms opened before the erratum of 2026-12 stored this option (the lobby sends every option).
# The reading it chose is gone from the sheet; switched off it means nothing and is dropped, so
# those rooms can still start a rematch.
RETIRED = "flask_of_insight_symmetric"


class WhirlingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    personalities: Literal["initiates", "choose"] = Field(
        "initiates",
        description=(
            "'initiates': every witch is an Initiate (the rulebook's mode for new players); "
            "'choose': each witch is dealt 2 other personalities and keeps 1, in secret."
        ),
    )
    production: Literal["simultaneous", "initiative"] = Field(
        "simultaneous",
        description=(
            "'simultaneous': every witch brews at once on a hidden sheet (keeps the game at its "
            "30 minutes); 'initiative': as at a real table, production is open and the witches "
            "brew one after another from the lowest initiative, each seeing what the earlier "
            "ones did."
        ),
    )
    flasks_as_converted: bool = Field(
        False,
        description=(
            "The three Flasks (R16-R18) as read before the erratum of 2026-12: R16 makes a toad "
            "instead of a spider, R17 and R18 lack their fixed cube (sheet question 4)."
        ),
    )
    spider_summoning_one_way: bool = Field(
        False,
        description="Reading of R24 Spider Summoning as one-way like its siblings (question 5).",
    )

    @model_validator(mode="before")
    @classmethod
    def _drop_retired(cls, data: Any) -> Any:
        if isinstance(data, dict) and RETIRED in data:
            if data[RETIRED] is not False:
                raise ValueError(
                    f"{RETIRED} is retired: the printed Flask of Insight is confirmed (2026-12); "
                    "the earlier reading is flasks_as_converted"
                )
            data = {k: v for k, v in data.items() if k != RETIRED}
        return data

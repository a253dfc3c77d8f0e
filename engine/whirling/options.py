"""Room options for a Whirling Witchcraft match."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class WhirlingOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    personalities: Literal["initiates", "choose"] = Field(
        "initiates",
        description=(
            "'initiates': every witch is an Initiate (the rulebook's mode for new players); "
            "'choose': each witch is dealt 2 other personalities and keeps 1, in secret."
        ),
    )
    flask_of_insight_symmetric: bool = Field(
        False,
        description="Reading of R16 Flask of Insight without its extra toad (sheet question 4).",
    )
    spider_summoning_one_way: bool = Field(
        False,
        description="Reading of R24 Spider Summoning as one-way like its siblings (question 5).",
    )

"""A WarpWar game's own options, as the GM chooses them (``GameSetup.options_json``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.mapgen import MapSpec
from engine.warpwar.state import MapKnowledge, Scenario, Visibility


class WarpWarOptions(BaseModel):
    """The scenario, who sees what, the map (the classic one, or one generated from a
    ``MapSpec`` with ``map_seed``, the game's seed when None) and the game-turn limit."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: Scenario = Scenario.BASIC
    visibility: Visibility = Visibility.OPEN
    map_knowledge: MapKnowledge = MapKnowledge.FULL
    map: Literal["classic"] | MapSpec = "classic"
    map_seed: int | None = None
    turn_limit: int | None = Field(None, ge=1)

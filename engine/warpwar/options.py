"""A WarpWar game's own options, as the GM chooses them (``GameSetup.options_json``; the
console's ``--scenario``, ``--visibility``, ``--map``, ``--map-seed``, ``--hexes``, ``--size``,
``--turn-limit`` and ``--option key=value`` name them)."""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.warpwar.mapgen import MapSpec
from engine.warpwar.state import MapKnowledge, Scenario, Visibility


class WarpWarOptions(BaseModel):
    """The scenario, who sees what, the map and the game-turn limit. The map: the classic one
    (two players), one generated for the game's players (``"generated"``, of ``hexes`` hexes or
    ``size`` "WIDTHxHEIGHT", else the generator's default size), or one generated from a whole
    ``MapSpec``; each generated with ``map_seed``, the game's seed when None."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: Scenario = Scenario.BASIC
    visibility: Visibility = Visibility.OPEN
    map_knowledge: MapKnowledge = MapKnowledge.FULL
    map: Literal["classic", "generated"] | MapSpec = "classic"
    map_seed: int | None = None
    hexes: int | None = None
    size: str | None = Field(None, pattern=r"^\d+x\d+$")
    turn_limit: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _sized_maps_are_generated(self) -> Self:
        if self.map != "generated" and (self.hexes is not None or self.size is not None):
            raise ValueError("hexes and size are for a generated map: add map=generated")
        if self.map == "classic" and self.map_seed is not None:
            raise ValueError("map_seed is for a generated map: add map=generated")
        return self

    def map_spec(self, name: str, players: int) -> MapSpec | None:
        """The map to generate for ``players`` (named ``name`` when the options do not name
        it); None for the classic map. ValueError: a size that does not fit them."""
        if self.map == "classic":
            return None
        if self.map != "generated":
            return self.map
        width, height = (int(side) for side in self.size.split("x")) if self.size else (None, None)
        return MapSpec(name=name, players=players, hexes=self.hexes, width=width, height=height)

"""Star maps: hexes, stars with their basic economic value, warplines, and the players' ends.

A map is plain data; the derived look-ups (adjacency restricted to the map, warpline ends)
are computed once per map object and cached, since movement asks them constantly.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.warpwar.hexgrid import HexId, adjacency


class Star(BaseModel):
    model_config = ConfigDict(frozen=True)

    hex: HexId
    name: str
    value: int = Field(ge=0, description="Basic economic value in Build Points")


class Warpline(BaseModel):
    """A warpline joins two stars; it is walked end to end for 1 MP (rules V)."""

    model_config = ConfigDict(frozen=True)

    a: HexId
    b: HexId


class HomeStars(BaseModel):
    """A player's end of the map: three starting stars, the middle one first (the Basic Base)."""

    model_config = ConfigDict(frozen=True)

    stars: tuple[HexId, HexId, HexId]

    @property
    def middle(self) -> str:
        return self.stars[0]


class StarMap(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    hexes: tuple[HexId, ...] = Field(description="Every hex on the map, sorted")
    stars: tuple[Star, ...]
    warplines: tuple[Warpline, ...]
    homes: tuple[HomeStars, ...] = Field(description="One end of the map per player slot")
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> StarMap:
        on_map = set(self.hexes)
        star_hexes = {s.hex for s in self.stars}
        if len(on_map) != len(self.hexes) or len(star_hexes) != len(self.stars):
            raise ValueError("a hex or a star is listed twice")
        if len({s.name.lower() for s in self.stars}) != len(self.stars):
            raise ValueError("two stars share a name")
        joined = {frozenset((w.a, w.b)) for w in self.warplines}
        if len(joined) != len(self.warplines) or any(len(pair) == 1 for pair in joined):
            raise ValueError("a warpline is listed twice or joins a star to itself")
        for star in self.stars:
            if star.hex not in on_map:
                raise ValueError(f"star {star.name} at {star.hex} is off the map")
        for line in self.warplines:
            if line.a not in star_hexes or line.b not in star_hexes:
                raise ValueError(f"warpline {line.a}-{line.b} does not join two stars")
        for home in self.homes:
            for hex_ in home.stars:
                if hex_ not in star_hexes:
                    raise ValueError(f"home star {hex_} is not a star")
        return self

    @cached_property
    def hex_set(self) -> frozenset[str]:
        return frozenset(self.hexes)

    @cached_property
    def star_at(self) -> dict[str, Star]:
        return {s.hex: s for s in self.stars}

    @cached_property
    def star_named(self) -> dict[str, Star]:
        return {s.name.lower(): s for s in self.stars}

    @cached_property
    def warpline_ends(self) -> dict[str, tuple[str, ...]]:
        """For each star, the stars at the far end of its warplines."""
        ends: dict[str, list[str]] = {s.hex: [] for s in self.stars}
        for line in self.warplines:
            ends[line.a].append(line.b)
            ends[line.b].append(line.a)
        return {k: tuple(sorted(v)) for k, v in ends.items()}

    @cached_property
    def adjacency(self) -> dict[str, tuple[str, ...]]:
        return adjacency(self.hexes)

    def is_star(self, hex_: str) -> bool:
        return hex_ in self.star_at

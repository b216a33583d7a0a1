"""Warpships and Systemships: their records, tech level and notation (rules IV).

A ship's record in the rules' notation shows built values and, once damaged, ``{built}current``:

    W4: TL0 PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1
"""

from __future__ import annotations

from functools import cached_property

from pydantic import BaseModel, Field

from engine.warpwar.components import NOTATION_ORDER, Attr, Attributes, design_cost
from engine.warpwar.hexgrid import HexId
from engine.warpwar.orders import DEFAULT_DAMAGE_PRIORITY, CombatOrder, EcmPolicy

TURNS_PER_TECH_LEVEL = 6


def tech_level_for_turn(turn: int) -> int:
    """ "Ships built on turns 1-6 are TL 0, those built during turns 7-12 are TL 1, ..." """
    return (turn - 1) // TURNS_PER_TECH_LEVEL


def ship_uid(owner: str, name: str) -> str:
    """Game-wide key of a ship: names (W3, S20) are per player, as the counters are."""
    return f"{owner}.{name}"


class Ship(BaseModel):
    name: str = Field(pattern=r"^[WS]\d{1,5}$")
    owner: str
    tech_level: int = Field(ge=0)
    built_turn: int = Field(ge=0)
    warp_generator: bool
    repair_bay: bool = False
    built: Attributes
    current: Attributes
    location: HexId = Field(description="Hex the ship is in (a carried Systemship: its carrier's)")
    carried_by: str | None = Field(None, description="uid of the carrying Warpship")
    carrying: list[str] = Field(default_factory=list, description="uids of carried Systemships")
    cargo: int = Field(0, ge=0, description="BP in Holds")
    damage_priority: tuple[Attr, ...] = DEFAULT_DAMAGE_PRIORITY
    ecm_policy: EcmPolicy = EcmPolicy.MINIMISE_DAMAGE
    standing_order: CombatOrder | None = None

    @cached_property
    def uid(self) -> str:
        # Worked out once per ship object (an engine step reads it hundreds of times): a ship's
        # owner and name never change once it is built. The cache is no field (pydantic leaves
        # cached properties out of validation, equality and dumps).
        return ship_uid(self.owner, self.name)

    @property
    def is_warpship(self) -> bool:
        return self.warp_generator

    @property
    def movement_points(self) -> int:
        """One half of present PD, rounded up."""
        return (self.current.PD + 1) // 2

    @property
    def hold_capacity(self) -> int:
        return self.current.H * 10

    @property
    def free_hold(self) -> int:
        return self.hold_capacity - self.cargo

    @property
    def free_racks(self) -> int:
        return self.current.SR - len(self.carrying)

    @property
    def destroyed(self) -> bool:
        """All attributes but the Warp Generator and Repair Bay at zero."""
        return self.current.total() == 0

    def value(self) -> int:
        """Current total BP value."""
        return design_cost(self.current, self.tech_level, self.warp_generator, self.repair_bay)

    def record(self) -> str:
        """The ship record in the rules' notation."""
        parts = [f"{self.name}: TL{self.tech_level}"]
        built_amounts, amounts = self.built.amounts(), self.current.amounts()
        for attr in NOTATION_ORDER:
            built = built_amounts[attr]
            if built == 0:
                continue
            now = amounts[attr]
            parts.append(f"{attr.value}={built}" if now == built else f"{attr.value}={{{built}}}{now}")
        if self.repair_bay:
            parts.append("R=1")
        if self.cargo:
            parts.append(f"cargo={self.cargo}")
        if self.carrying:
            parts.append("carrying " + ",".join(uid.split(".", 1)[1] for uid in self.carrying))
        return " ".join(parts)

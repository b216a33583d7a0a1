"""Ship attributes and what they cost (rules IV, "Ship attributes" and the BP schedule).

    1 BP = 1 PD, 1 B, 1 S, 1 T, 3 M, 1 E, 1 C, 6 SH, (2 + TL) A, 1 H (10 BP capacity), 1 SR
    5 BP = a Warp Generator (WG) or a Repair Bay (R)

The Warp Generator and the Repair Bay are not counted attributes: they never take damage and
explode when everything else is gone, so they are flags on the ship rather than fields here.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.copying import updated

WARP_GENERATOR_COST = 5
REPAIR_BAY_COST = 5
MISSILES_PER_BP = 3
SHELLS_PER_BP = 6
HOLD_CAPACITY = 10
ARMOR_REPAIRED_PER_BP = 2
MAX_SHELLS_PER_CANNON = 3


class Attr(StrEnum):
    """Damageable attributes, by the rules' abbreviations."""

    PD = "PD"
    B = "B"
    S = "S"
    T = "T"
    M = "M"
    C = "C"
    SH = "SH"
    E = "E"
    A = "A"
    H = "H"
    SR = "SR"


NOTATION_ORDER: tuple[Attr, ...] = tuple(Attr)
"""Order in ship records; it matches the rules' W4, W7, S20, S35 and S55 records exactly."""

HITS_TO_DESTROY_ONE: dict[Attr, int] = dict.fromkeys(Attr, 1)
"""What one effective hit removes from each attribute (rules VI, "Recording ship damage")."""
HITS_TO_DESTROY_ONE[Attr.M] = MISSILES_PER_BP
HITS_TO_DESTROY_ONE[Attr.SH] = SHELLS_PER_BP


class Attributes(BaseModel):
    """Amounts of each attribute. Used for built values, current values and repair amounts."""

    model_config = ConfigDict(frozen=True)

    PD: int = Field(0, ge=0)
    B: int = Field(0, ge=0)
    S: int = Field(0, ge=0)
    T: int = Field(0, ge=0)
    M: int = Field(0, ge=0)
    C: int = Field(0, ge=0)
    SH: int = Field(0, ge=0)
    E: int = Field(0, ge=0)
    A: int = Field(0, ge=0)
    H: int = Field(0, ge=0)
    SR: int = Field(0, ge=0)

    def get(self, attr: Attr) -> int:
        # An Attr is the field's name itself (a StrEnum), so no look-up of .value is needed.
        value: int = getattr(self, attr)
        return value

    def replace(self, **changes: int) -> Attributes:
        return updated(self, changes)

    def amounts(self) -> dict[str, int]:
        """Every amount by its attribute's name (do not change it). The fields are all the model
        holds: one read for them all, where reading each of eleven fields costs several times a
        plain object's attribute (see ``copying``)."""
        fields: dict[str, int] = self.__dict__
        return fields

    def total(self) -> int:
        """Sum of all amounts; zero means nothing is left but the WG and R."""
        return sum(self.amounts().values())

    def items(self) -> list[tuple[Attr, int]]:
        return [(a, self.get(a)) for a in NOTATION_ORDER]


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def armor_per_bp(tech_level: int) -> int:
    """1 BP builds (2 + tech level) points of Armor."""
    return 2 + tech_level


def attributes_cost(attrs: Attributes, tech_level: int) -> int:
    """BP to build these attributes at this tech level (Missiles, Shells and Armor by the lot)."""
    return (
        _one_bp_each(attrs)
        + ceil_div(attrs.M, MISSILES_PER_BP)
        + ceil_div(attrs.SH, SHELLS_PER_BP)
        + ceil_div(attrs.A, armor_per_bp(tech_level))
    )


def attributes_worth(attrs: Attributes, tech_level: int) -> Fraction:
    """What these attributes are worth, exactly: Missiles, Shells and Armor are bought by the lot,
    and a part-lot (one Missile left of a lot of 3) is worth its share of the lot's BP, not the
    whole BP (docs/rules-interpretations.md, 78)."""
    return (
        _one_bp_each(attrs)
        + Fraction(attrs.M, MISSILES_PER_BP)
        + Fraction(attrs.SH, SHELLS_PER_BP)
        + Fraction(attrs.A, armor_per_bp(tech_level))
    )


def _one_bp_each(attrs: Attributes) -> int:
    """The attributes bought one point for 1 BP."""
    return attrs.PD + attrs.B + attrs.S + attrs.T + attrs.C + attrs.E + attrs.H + attrs.SR


def hull_cost(warp_generator: bool, repair_bay: bool) -> int:
    return WARP_GENERATOR_COST * warp_generator + REPAIR_BAY_COST * repair_bay


def design_cost(attrs: Attributes, tech_level: int, warp_generator: bool, repair_bay: bool) -> int:
    """The BP a new ship costs: its attributes plus a Warp Generator and Repair Bay if fitted."""
    return attributes_cost(attrs, tech_level) + hull_cost(warp_generator, repair_bay)


def repair_cost(amounts: Attributes) -> int:
    """BP to restore these amounts. "One BP builds just as much for repair as for original
    building, with the exception of Armor, which is repaired at a cost of 1 BP per 2 points of
    Armor, regardless of tech level." Missiles and Shells are resupply, priced separately."""
    return (
        amounts.PD
        + amounts.B
        + amounts.S
        + amounts.T
        + amounts.C
        + amounts.E
        + ceil_div(amounts.A, ARMOR_REPAIRED_PER_BP)
        + amounts.H
        + amounts.SR
    )

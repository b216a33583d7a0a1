"""Orders as data: a player's fleet (before turn 1, when the players build their own), their
movement orders (sequence 2) and combat orders (sequence 4), and what became of each line."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.lta.fleet import Design

SMALL_ARMS = 0
"""The item number that names a Zeppelin's Small Arms in a fire order (they take no slot)."""


class MoveOrder(BaseModel):
    """One Zeppelin's move, one letter per Movement Point: F ahead one hex, L and R turn one hex
    side, U and D climb or descend one step. Empty: it stays where it is."""

    model_config = ConfigDict(frozen=True)

    ship: str
    steps: str = Field("", pattern=r"^[FLRUD]*$", max_length=12)


class MovementOrders(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["movement"] = "movement"
    player: str
    initiative: Literal["first", "last"] | None = None
    """Read only from the player who chooses this turn (interpretation 8)."""
    moves: tuple[MoveOrder, ...] = ()


class FireOrder(BaseModel):
    """Fire one weapon, Passengers or Small Arms (item 0), or drop one Bombs, at a target."""

    model_config = ConfigDict(frozen=True)

    ship: str
    item: int = Field(ge=0)
    target: str


class CombatOrders(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: Literal["combat"] = "combat"
    player: str
    fire: tuple[FireOrder, ...] = ()


class BuildOrders(BaseModel):
    """A player's fleet, mailed before turn 1 when the players build their own."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["build"] = "build"
    player: str
    ships: tuple[Design, ...] = ()


Submission = Annotated[MovementOrders | CombatOrders | BuildOrders, Field(discriminator="kind")]


class OrderResult(BaseModel):
    """The fate of one order line: done, cut short, or refused, in a sentence."""

    model_config = ConfigDict(frozen=True)

    player: str
    phase: str
    index: int
    ok: bool
    note: str

"""Typed events: everything that happens, each with the players entitled to see it. No event
carries a die's value: those are only in each player's own roll log (engine/lta/dice.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.lta.tables import Damage


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    visible_to: tuple[str, ...]


class DiceCommitted(Event):
    """The SHA-256 of every player's seed, published before any die is used."""

    kind: Literal["dice-committed"] = "dice-committed"
    commitments: dict[str, str]


class InitiativeDecided(Event):
    kind: Literal["initiative"] = "initiative"
    winner: str
    chooser: str


class PlayOrder(Event):
    kind: Literal["play-order"] = "play-order"
    choice: Literal["first", "last"]
    order: tuple[str, ...]


class Moved(Event):
    """A Zeppelin's place after its orders or the wind (a map update)."""

    kind: Literal["moved"] = "moved"
    ship: str
    cause: str
    hex: str
    facing: str
    altitude: int


class ShotFired(Event):
    kind: Literal["shot"] = "shot"
    ship: str
    item: int
    weapon: str
    target: str
    hit: bool
    result: Damage | Literal["bombed"] | None = None


class DamageTaken(Event):
    """Damage that is not a shot's: fire, a cargo hit's blowout, gas and altitude lost."""

    kind: Literal["damage"] = "damage"
    ship: str
    what: str


class Fate(Event):
    kind: Literal["fate"] = "fate"
    ship: str
    status: str
    cause: str


class Repaired(Event):
    kind: Literal["repaired"] = "repaired"
    ship: str
    what: str


class GameOver(Event):
    kind: Literal["game-over"] = "game-over"
    winners: tuple[str, ...]
    reason: str


class DiceRevealed(Event):
    """Every player's seed, at the end, so every roll can be recomputed and every hash checked."""

    kind: Literal["dice-revealed"] = "dice-revealed"
    seeds: dict[str, int]


AnyEvent = Annotated[
    DiceCommitted
    | InitiativeDecided
    | PlayOrder
    | Moved
    | ShotFired
    | DamageTaken
    | Fate
    | Repaired
    | GameOver
    | DiceRevealed,
    Field(discriminator="kind"),
]

"""The whole game state: frozen pydantic data that round-trips through JSON exactly. Each step
returns a new state; nothing is changed in place."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.lta.dice import Roll
from engine.lta.hexmap import MAX_ALTITUDE, Arc, Facing
from engine.lta.tables import CLASSES, ENGINE_SPEED, Cargo, ShipClass, Weapon

RULES_VERSION = 1


class Scenario(StrEnum):
    FLEET_BATTLE = "fleet-battle"
    CONVOY = "convoy"


class Phase(StrEnum):
    """Where the game waits: for every player's fleet before turn 1 (when the players build
    their own), for movement orders (sequence 2), for combat orders (sequence 4), or nothing more
    (the game is over)."""

    BUILD = "build"
    MOVEMENT = "movement"
    COMBAT = "combat"
    OVER = "over"


class Status(StrEnum):
    FLYING = "flying"
    DESTROYED = "destroyed"
    """Blowout, a bomb, or all its gas gone."""
    CRASHED = "crashed"
    """Came down to altitude 0 (interpretation 9)."""
    DEPARTED = "departed"
    """Left the map (interpretation 10)."""


class Item(BaseModel):
    """One thing in a cargo slot (a weapon is cargo too), numbered in the order the ship was built
    so orders can name it: ``FIRE Kaiser 2 AT Victoria``."""

    model_config = ConfigDict(frozen=True)

    key: int = Field(ge=1)
    kind: Weapon | Cargo
    arc: Arc | None = None
    shots: int | None = None
    """Shots left: a weapon's own, or an Ammo cargo's; None for everything else."""
    ammo_for: Weapon | None = None
    """Which cannon an Ammo cargo feeds."""


class Airship(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    owner: str
    cls: ShipClass
    cost: int
    items: tuple[Item, ...]
    small_arms: bool
    col: int
    row: int
    facing: Facing
    altitude: int = Field(ge=0, le=MAX_ALTITUDE)
    gas: int
    gas_max: int
    engine_hits: int = 0
    steering_hit: bool = False
    punctures: tuple[int, ...] = ()
    """Each open puncture's gas loss per turn (1 minor, 2 major, 3 critical)."""
    on_fire: bool = False
    status: Status = Status.FLYING
    exit_edge: Literal["N", "E", "S", "W"] | None = None

    @property
    def flying(self) -> bool:
        return self.status is Status.FLYING

    @property
    def position(self) -> tuple[int, int]:
        return self.col, self.row

    @property
    def move_points(self) -> int:
        """Base speed plus an Engine cargo's +1 each, less one per Engine Hit, never below 0."""
        engines = sum(1 for i in self.items if i.kind is Cargo.ENGINE)
        return max(0, CLASSES[self.cls].move + ENGINE_SPEED * engines - self.engine_hits)

    def count(self, kind: Weapon | Cargo) -> int:
        return sum(1 for i in self.items if i.kind == kind)

    def item(self, key: int) -> Item | None:
        return next((i for i in self.items if i.key == key), None)


class PlayerState(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    side: str
    """Who fights with whom: the player's own id in a fleet battle; "convoy" or "raiders"."""
    seed: int
    """Secret until the game is over."""
    commitment: str
    rolls: tuple[Roll, ...] = ()


class Initiative(BaseModel):
    """This turn's initiative (rules: "Initiative")."""

    model_config = ConfigDict(frozen=True)

    ranking: tuple[str, ...]
    """Players from the highest roll to the lowest, ties re-rolled."""
    winner: str
    chooser: str
    """Who decides first or last: the winner on turn 1, the previous turn's winner after."""
    order: tuple[str, ...] = ()
    """The order of play once the chooser's choice is known (movement orders processed)."""
    choice: Literal["first", "last"] | None = None


class GameState(BaseModel):
    model_config = ConfigDict(frozen=True)

    rules_version: int = RULES_VERSION
    game_id: str
    scenario: Scenario
    turn: int = 1
    """0 while the fleets are being built."""
    phase: Phase = Phase.MOVEMENT
    turn_limit: int
    players: tuple[PlayerState, ...]
    ships: tuple[Airship, ...]
    """While the fleets are built: each player's ready-made fleet, flown by whoever sends none."""
    initiative: Initiative
    convoy_cargo: int = 0
    """Bulk Cargo the convoy started with (convoy scenario)."""
    winners: tuple[str, ...] = ()
    ended: str = ""
    """Why the game ended, when it has."""

    def player(self, player_id: str) -> PlayerState:
        return next(p for p in self.players if p.id == player_id)

    def ship(self, ship_id: str) -> Airship | None:
        return next((s for s in self.ships if s.id == ship_id), None)

    def in_play(self) -> list[str]:
        """Players with a Zeppelin still flying, in seat order."""
        return [p.id for p in self.players if any(s.owner == p.id and s.flying for s in self.ships)]

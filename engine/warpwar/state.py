"""The whole game state: plain pydantic data that round-trips through JSON exactly.

The engine never mutates a state it was given: each step works on a copy (``clone``) and
returns the new state.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.copying import copy_model
from engine.warpwar.hexgrid import HexId
from engine.warpwar.orders import Rearrange
from engine.warpwar.ships import Ship
from engine.warpwar.starmap import StarMap

RULES_VERSION = 1
BASE_COST = 30


class Scenario(StrEnum):
    """Rules II: Basic (40 BP, +8 a turn, one Base) or Advanced (all rules, three Bases)."""

    BASIC = "basic"
    ADVANCED = "advanced"


class Visibility(StrEnum):
    """Rules VII. OPEN: non-refereed, moves and builds seen, BP and attributes secret.
    BLIND: refereed, players know only what their own ships and Bases have seen."""

    OPEN = "open"
    BLIND = "blind"


class MapKnowledge(StrEnum):
    """Whether players start knowing the whole map, or only the stars they have explored."""

    FULL = "full"
    EXPLORED = "explored"


class PlayerSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
    name: str


class GameConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    scenario: Scenario = Scenario.ADVANCED
    visibility: Visibility = Visibility.OPEN
    map_knowledge: MapKnowledge = MapKnowledge.FULL
    players: tuple[PlayerSpec, ...] = Field(min_length=2, max_length=8)
    turn_limit: int | None = Field(None, ge=1, description="Game-turns before the game is scored")


class Player(BaseModel):
    id: str
    name: str
    home: tuple[HexId, ...]
    eliminated: bool = False
    warpships_named: int = Field(0, description="Highest W number given so far")
    systemships_named: int = Field(0, description="Highest S number given so far")


class Base(BaseModel):
    """A Base on a star: complete (stockpiles BP, builds ships) or under construction."""

    star: HexId
    owner: str
    stockpile: int = Field(0, ge=0)
    invested: int = Field(BASE_COST, ge=0, le=BASE_COST)

    @property
    def complete(self) -> bool:
        return self.invested >= BASE_COST


class StarControl(BaseModel):
    """Who owns a star and since which game-turn (income starts the turn after). Frozen: a change
    of owner stores a new one, so state copies can share them."""

    model_config = ConfigDict(frozen=True)

    owner: str
    since_turn: int


class Combat(BaseModel):
    star: HexId
    round: int = Field(1, description="The next round to fight")
    quiet_rounds: int = Field(0, description="Consecutive rounds with no damage past Screens")


class PendingRearrange(BaseModel):
    """A rearrangement order waiting for the end of combat, with its index in the submission."""

    index: int
    order: Rearrange


class Stage(StrEnum):
    ORDERS = "orders"
    COMBAT = "combat"
    OVER = "over"


class Sighting(BaseModel):
    """What a player knows of an enemy ship: who, where, when. Never its attributes."""

    model_config = ConfigDict(frozen=True)

    ship: str
    owner: str
    hex: HexId
    turn: int


class Knowledge(BaseModel):
    """Everything a player has learnt of others and of the map; views read only this, through
    ``knowledge.known_to``. Open games keep only ``stars`` here: everything else they know is
    the state itself."""

    stars: list[HexId] = Field(default_factory=list, description="Stars known (sorted)")
    sightings: dict[str, Sighting] = Field(default_factory=dict)
    bases: dict[HexId, str] = Field(default_factory=dict, description="Enemy Bases seen, by owner")
    owners: dict[HexId, str] = Field(default_factory=dict, description="Star owners last seen")


class GameState(BaseModel):
    rules_version: int = RULES_VERSION
    config: GameConfig
    seed: int
    map: StarMap
    players: list[Player]
    turn: int = 1
    active: int = Field(0, description="Index in players of whose player-turn it is")
    stage: Stage = Stage.ORDERS
    ships: dict[str, Ship] = Field(default_factory=dict)
    bases: dict[HexId, Base] = Field(default_factory=dict)
    control: dict[HexId, StarControl] = Field(default_factory=dict)
    star_pools: dict[HexId, int] = Field(
        default_factory=dict, description="BP mined this Build event at Baseless stars, not yet in Holds"
    )
    combats: list[Combat] = Field(default_factory=list)
    rearrangement: list[PendingRearrange] = Field(default_factory=list)
    knowledge: dict[str, Knowledge] = Field(default_factory=dict)
    winners: list[str] = Field(default_factory=list)

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    def player(self, player_id: str) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise KeyError(player_id)

    def clone(self) -> GameState:
        """A copy that shares nothing changeable with this state (see ``copying``)."""
        return copy_model(self)

    def ships_at(self, hex_: str) -> list[Ship]:
        """Ships in a hex, carried Systemships included, sorted by uid for determinism."""
        return sorted((s for s in self.ships.values() if s.location == hex_), key=lambda s: s.uid)

    def own_ships(self, player_id: str) -> list[Ship]:
        return sorted((s for s in self.ships.values() if s.owner == player_id), key=lambda s: s.uid)

"""Typed events: everything that happens, each with the players entitled to see it.

Reports and replays are made from these; wording lives with the reports, not here.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.components import Attributes
from engine.warpwar.orders import CombatOrder


class Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int
    player_turn: str = Field(description="Whose player-turn it happened in")
    visible_to: tuple[str, ...] = Field(
        description="Players entitled to see this event, sorted; empty for the referee's record only"
    )
    redacted: bool = Field(False, description="A copy with secrets blanked for players not entitled to them")


class PlayerTurnBegan(Event):
    kind: Literal["player-turn-began"] = "player-turn-began"


class BPCollected(Event):
    """Income from a star: ``where`` says whether it went to a Base, into Holds, or was lost."""

    kind: Literal["bp-collected"] = "bp-collected"
    star: str
    amount: int
    where: Literal["base", "holds", "lost", "star"]


class HoldLoaded(Event):
    kind: Literal["hold-loaded"] = "hold-loaded"
    ship: str
    star: str
    amount: int = Field(description="Negative when unloaded")


class ShipScrapped(Event):
    kind: Literal["ship-scrapped"] = "ship-scrapped"
    ship: str
    star: str
    bp: int


class ShipBuilt(Event):
    kind: Literal["ship-built"] = "ship-built"
    ship: str
    star: str
    record: str
    cost: int


class BaseBuilt(Event):
    """BP put into a Base under construction; ``complete`` once it reaches 30."""

    kind: Literal["base-built"] = "base-built"
    star: str
    owner: str
    invested: int
    complete: bool


class ShipRepaired(Event):
    kind: Literal["ship-repaired"] = "ship-repaired"
    ship: str
    amounts: Attributes
    missiles: int = 0
    shells: int = 0
    cost: int
    record: str


class ShipMoved(Event):
    """A ship's path this movement event (hexes in order, warpline jumps included)."""

    kind: Literal["ship-moved"] = "ship-moved"
    ship: str
    path: tuple[str, ...]
    mp_used: int
    stopped_by: str | None = Field(None, description="Why the move ended early, if it did")


class ShipSighted(Event):
    """An enemy ship seen at a hex (blind games: from a hex where the viewer has a presence)."""

    kind: Literal["ship-sighted"] = "ship-sighted"
    ship: str
    owner: str
    hex: str


class SystemshipTransferred(Event):
    """A Systemship dropped (carrier -> None), picked up (None -> carrier) or moved between racks."""

    kind: Literal["systemship-transferred"] = "systemship-transferred"
    systemship: str
    star: str
    from_ship: str | None
    to_ship: str | None


class StarOwnerChanged(Event):
    kind: Literal["star-owner-changed"] = "star-owner-changed"
    star: str
    owner: str | None
    previous: str | None


class CombatBegan(Event):
    kind: Literal["combat-began"] = "combat-began"
    star: str
    sides: dict[str, tuple[str, ...]] = Field(description="Ships present, by player")


class Shot(BaseModel):
    """One weapon's fire in a round, as the rules' examples read the CRT."""

    model_config = ConfigDict(frozen=True)

    firer: str
    weapon: Literal["beam", "missile", "cannon"]
    target: str
    row: str = Field(description="e.g. ATTACK (0, +1)")
    column: str
    difference: int
    ecm: int = Field(0, description="Effective ECM against this Missile (after tech levels)")
    result: str
    hits: int


class DamageTaken(BaseModel):
    model_config = ConfigDict(frozen=True)

    ship: str
    hits: int
    absorbed: int
    effective: int
    losses: Attributes
    cargo_lost: int = 0
    record: str


class CombatRoundResolved(Event):
    kind: Literal["combat-round"] = "combat-round"
    star: str
    round: int
    orders: dict[str, CombatOrder] = Field(description="Orders as revealed to both sides")
    shots: tuple[Shot, ...]
    damage: tuple[DamageTaken, ...]
    destroyed: tuple[str, ...]
    escaped: tuple[str, ...]
    order_notes: dict[str, str] = Field(default_factory=dict, description="Orders adjusted, and why")


class ShipDestroyed(Event):
    kind: Literal["ship-destroyed"] = "ship-destroyed"
    ship: str
    hex: str
    cause: str


class ShipRetreated(Event):
    kind: Literal["ship-retreated"] = "ship-retreated"
    ship: str
    star: str
    to: str


class CombatEnded(Event):
    kind: Literal["combat-ended"] = "combat-ended"
    star: str
    rounds: int
    reason: Literal["destroyed", "retreated", "withdrawal", "mutual"]
    holder: str | None = Field(description="The player left at the star, if any")


class BaseDestroyed(Event):
    kind: Literal["base-destroyed"] = "base-destroyed"
    star: str
    owner: str
    by: str
    stockpile: int
    recovered: int


class PlayerEliminated(Event):
    kind: Literal["player-eliminated"] = "player-eliminated"
    player: str


class GameOver(Event):
    kind: Literal["game-over"] = "game-over"
    winners: tuple[str, ...]
    reason: str


AnyEvent = Annotated[
    PlayerTurnBegan
    | BPCollected
    | HoldLoaded
    | ShipScrapped
    | ShipBuilt
    | BaseBuilt
    | ShipRepaired
    | ShipMoved
    | ShipSighted
    | SystemshipTransferred
    | StarOwnerChanged
    | CombatBegan
    | CombatRoundResolved
    | ShipDestroyed
    | ShipRetreated
    | CombatEnded
    | BaseDestroyed
    | PlayerEliminated
    | GameOver,
    Field(discriminator="kind"),
]

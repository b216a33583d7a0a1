"""Typed orders: what a player can tell the engine (rules III-VI).

These are the engine's input models. The e-mail order language is parsed into them elsewhere;
the engine checks every order against the state and reports, per order, whether it was carried
out, partly carried out or refused, and why.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.warpwar.components import MAX_SHELLS_PER_CANNON, Attr, Attributes
from engine.warpwar.hexgrid import HexId

ShipId = Annotated[str, Field(pattern=r"^[WS]\d{1,5}$", description="A ship's own name, e.g. W3 or S20")]
ShipRef = Annotated[
    str, Field(min_length=2, description="A ship anywhere: 'W3' for one's own, 'P2.W3' fully")
]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- Standing decisions made after orders are revealed (issue: the owner cannot be asked) ---


class EcmPolicy(StrEnum):
    """How a ship spreads its powered ECM over the Missiles that attack it.

    MINIMISE_DAMAGE: the allocation that leaves the least damage (searched exactly).
    FIRST_COME: all ECM against the first incoming Missile, then the next (order of launch).
    EVEN: the same number of points against every incoming Missile, leftovers to the first.
    """

    MINIMISE_DAMAGE = "minimise-damage"
    FIRST_COME = "first-come"
    EVEN = "even"


DEFAULT_DAMAGE_PRIORITY: tuple[Attr, ...] = (
    Attr.A,
    Attr.H,
    Attr.SH,
    Attr.M,
    Attr.SR,
    Attr.E,
    Attr.T,
    Attr.C,
    Attr.S,
    Attr.B,
    Attr.PD,
)
"""Where hits go unless the owner says otherwise: Armor first (that is what it is for), then
cargo space and ammunition, then weapons and defences, and Power/Drive last so a damaged ship
can still retreat and limp home."""


# --- Combat ---


class Tactic(StrEnum):
    ATTACK = "ATTACK"
    DODGE = "DODGE"
    RETREAT = "RETREAT"


class MissileShot(Frozen):
    """One Missile through one Tube: its target and its own drive setting (1 or more)."""

    target: ShipRef
    drive: int = Field(ge=1, le=99)


class CombatOrder(Frozen):
    """One ship's order for one combat round (rules VI, combat round sequence step 1).

    Power used is drive + beam + screen + ecm + one per Missile fired + one per Cannon fired.
    """

    tactic: Tactic
    drive: int = Field(0, ge=0)
    beam: int = Field(0, ge=0)
    beam_target: ShipRef | None = None
    screen: int = Field(0, ge=0)
    ecm: int = Field(0, ge=0)
    missiles: tuple[MissileShot, ...] = ()
    cannons: tuple[Annotated[int, Field(ge=1, le=MAX_SHELLS_PER_CANNON)], ...] = Field(
        (), description="Shells fired by each Cannon used this round"
    )
    cannon_target: ShipRef | None = None
    pick_up: tuple[ShipId, ...] = ()
    drop: tuple[ShipId, ...] = ()
    retreat_to: HexId | None = None
    damage_priority: tuple[Attr, ...] | None = Field(None, description="This round only")
    ecm_policy: EcmPolicy | None = Field(None, description="This round only")

    def power(self) -> int:
        return self.drive + self.beam + self.screen + self.ecm + len(self.missiles) + len(self.cannons)


# --- The Build event (rules III (a)-(c), IV) ---


class LoadHold(Frozen):
    """Load BP from the Base at the ship's star into its Holds (Build event, step a)."""

    kind: Literal["load"] = "load"
    ship: ShipId
    amount: int = Field(ge=1)


class UnloadHold(Frozen):
    """Unload BP from the ship's Holds into the Base stockpile at its star (step a)."""

    kind: Literal["unload"] = "unload"
    ship: ShipId
    amount: int = Field(ge=1)


class Scrap(Frozen):
    kind: Literal["scrap"] = "scrap"
    ship: ShipId


class BuildShip(Frozen):
    """Build a Warpship (warp=True) or Systemship at a Base; the name is chosen if not given."""

    kind: Literal["build"] = "build"
    at: HexId
    warp: bool
    design: Attributes
    repair_bay: bool = False
    name: ShipId | None = None


class BuildBase(Frozen):
    """Put BP from the Holds of ships at a star into a Base there (30 BP, over several turns)."""

    kind: Literal["base"] = "base"
    at: HexId
    amount: int = Field(ge=1)


class Repair(Frozen):
    """Restore attributes up to their built values, at a Base or from a Repair Bay ship."""

    kind: Literal["repair"] = "repair"
    ship: ShipId
    amounts: Attributes
    repair_bay: ShipId | None = Field(None, description="Pay from this Repair Bay ship's Hold or star BP")


class Resupply(Frozen):
    kind: Literal["resupply"] = "resupply"
    ship: ShipId
    missiles: int = Field(0, ge=0)
    shells: int = Field(0, ge=0)
    repair_bay: ShipId | None = None


# --- The Movement event (rules V) ---


class HexStep(Frozen):
    """Move to an adjacent hex (1 MP)."""

    kind: Literal["hex"] = "hex"
    to: HexId


class WarplineStep(Frozen):
    """Jump along the warpline from the current star to the star at its other end (1 MP)."""

    kind: Literal["warp"] = "warp"
    to: HexId


class DropStep(Frozen):
    """Drop a carried Systemship at the current star (1 MP). Planned drops in blind games are
    carried out even when the Warpship is stopped at that star by enemy ships."""

    kind: Literal["drop"] = "drop"
    systemship: ShipId


class PickUpStep(Frozen):
    kind: Literal["pickup"] = "pickup"
    systemship: ShipId


MoveStep = Annotated[HexStep | WarplineStep | DropStep | PickUpStep, Field(discriminator="kind")]


class Move(Frozen):
    kind: Literal["move"] = "move"
    ship: ShipId
    steps: tuple[MoveStep, ...] = Field(min_length=1)


# --- Standing settings ---


class SetDamagePriority(Frozen):
    """Where hits go, first to last; an attribute named again takes one hit per earlier mention."""

    kind: Literal["damage-priority"] = "damage-priority"
    ship: ShipId
    priority: tuple[Attr, ...] = Field(max_length=4 * len(Attr))


class SetEcmPolicy(Frozen):
    kind: Literal["ecm-policy"] = "ecm-policy"
    ship: ShipId
    policy: EcmPolicy


class SetStandingCombatOrder(Frozen):
    """The order a ship follows in any combat round for which its owner sent none."""

    kind: Literal["standing-order"] = "standing-order"
    ship: ShipId
    order: CombatOrder | None


# --- Systemship rearrangement after combat (rules III, VI) ---


class Rearrange(Frozen):
    """Free after combat: drop a Systemship (carrier given, to None), pick one up, or transfer it."""

    kind: Literal["rearrange"] = "rearrange"
    systemship: ShipId
    to: ShipId | None = Field(description="The Warpship to carry it, or None to leave it at the star")


TurnOrder = Annotated[
    LoadHold
    | UnloadHold
    | Scrap
    | BuildShip
    | BuildBase
    | Repair
    | Resupply
    | Move
    | SetDamagePriority
    | SetEcmPolicy
    | SetStandingCombatOrder
    | Rearrange,
    Field(discriminator="kind"),
]


class TurnOrders(Frozen):
    """Everything one player orders for one player-turn."""

    player: str
    orders: tuple[TurnOrder, ...] = ()


class RoundOrders(Frozen):
    """One side's orders for one combat round at one star, keyed by the ship's own name."""

    player: str
    star: HexId
    round: int = Field(ge=1)
    ships: dict[ShipId, CombatOrder] = Field(default_factory=dict)


class OrderStatus(StrEnum):
    DONE = "done"
    PARTIAL = "partial"
    REFUSED = "refused"


class OrderResult(Frozen):
    """What became of one order: ``index`` is its position in the submitted list."""

    index: int
    status: OrderStatus
    reason: str = ""

"""The Build event (rules III, "Build" (a)-(c); IV, "Ship building").

    (a) Receive new Build Points ... Load or unload system BPs into Holds.
    (b) Scrap old ships at bases and add Build Points to base stockpiles.
    (c) Build new ships and Bases, repair and resupply old ships.

Income is collected before this (``economy.collect_income``). Orders are carried out step by
step in the rules' order, whatever order they were written in, and within a step in the order
given. Standing settings (damage priority, ECM policy, standing combat order) come last, so a
ship built this turn can be given them. At the end, BP mined at Baseless stars go into Holds
(``economy.bank_star_pools``), so the driver calls this even when a player sends no orders.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel

from engine.warpwar.components import (
    ARMOR_REPAIRED_PER_BP,
    MISSILES_PER_BP,
    NOTATION_ORDER,
    SHELLS_PER_BP,
    Attr,
    Attributes,
    attributes_worth,
    ceil_div,
    design_cost,
    hull_cost,
)
from engine.warpwar.context import Step
from engine.warpwar.economy import bank_star_pools
from engine.warpwar.events import (
    BaseBuilt,
    HoldLoaded,
    ShipBuilt,
    ShipRepaired,
    ShipScrapped,
    SystemshipTransferred,
)
from engine.warpwar.orders import (
    DEFAULT_DAMAGE_PRIORITY,
    BuildBase,
    BuildShip,
    LoadHold,
    OrderResult,
    OrderStatus,
    Repair,
    Resupply,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    TurnOrder,
    UnloadHold,
)
from engine.warpwar.ownership import claim
from engine.warpwar.ships import Ship, ship_uid, tech_level_for_turn
from engine.warpwar.state import BASE_COST, Base, GameState, Scenario, Visibility

STEP_OF_ORDER: dict[type[BaseModel], int] = {
    LoadHold: 0,
    UnloadHold: 0,
    Scrap: 1,
    BuildShip: 2,
    BuildBase: 2,
    Repair: 2,
    Resupply: 2,
    SetDamagePriority: 3,
    SetEcmPolicy: 3,
    SetStandingCombatOrder: 3,
}
NOT_A_BUILD_ORDER = len(STEP_OF_ORDER)
MAX_SHIP_NUMBER = 99999
SCRAP_DIVISOR = 2

REPAIR_RULE = (
    "rules IV, Repair and resupply: a ship must be on a Base star hex or on a Star hex with a "
    "Repair Bay-equipped Warpship present"
)
BUILD_RULE = "rules IV: ships may be built and scrapped only at Bases"
HOLDS_RULE = "rules IV, Holds: BP are loaded and unloaded at a Base during the Build event"


class OrderError(Exception):
    """An order that cannot be carried out at all; its message is the reason the player reads."""


def run_build_event(step: Step, orders: list[tuple[int, TurnOrder]]) -> list[OrderResult]:
    """Carry out the active player's Build event orders; one result per index given."""
    event = BuildEvent(step)
    in_rules_order = sorted(orders, key=lambda item: STEP_OF_ORDER.get(type(item[1]), NOT_A_BUILD_ORDER))
    results = [event.carry_out(index, order) for index, order in in_rules_order]
    bank_star_pools(step)
    return sorted(results, key=lambda r: r.index)


class Purse(Protocol):
    """Where a repair or resupply is paid from."""

    key: str

    def available(self) -> int: ...

    def pay(self, amount: int) -> None: ...

    def describe(self) -> str: ...


class BasePurse:
    """A Base's stockpile: "A player builds or repairs by expending Build Points from Base stockpiles"."""

    def __init__(self, base: Base) -> None:
        self.base = base
        self.key = f"base:{base.star}"

    def available(self) -> int:
        return self.base.stockpile

    def pay(self, amount: int) -> None:
        self.base.stockpile -= amount

    def describe(self) -> str:
        return f"the Base at {self.base.star}"


class RepairBayPurse:
    """ "A ship with a Repair Bay may use BPs in Hold or from Star." The star's BP are spent first:
    they are lost at the end of the Build event unless some Hold has room for them."""

    def __init__(self, state: GameState, bay: Ship) -> None:
        self.state = state
        self.bay = bay
        self.key = f"bay:{bay.uid}"

    def available(self) -> int:
        return self.state.star_pools.get(self.bay.location, 0) + self.bay.cargo

    def pay(self, amount: int) -> None:
        star = self.bay.location
        from_star = min(amount, self.state.star_pools.get(star, 0))
        if from_star:
            self.state.star_pools[star] -= from_star
        self.bay.cargo -= amount - from_star

    def describe(self) -> str:
        return f"{self.bay.name}'s Hold and the BP mined at {self.bay.location}"


class BuildEvent:
    """One player's Build event: checks and carries out each order, one at a time."""

    def __init__(self, step: Step) -> None:
        self.step = step
        self.state = step.state
        self.player = step.active_id
        self.basic = self.state.config.scenario is Scenario.BASIC
        self.completed_now: set[str] = set()
        self.ammunition_credit: dict[tuple[str, Attr], int] = {}

    def carry_out(self, index: int, order: TurnOrder) -> OrderResult:
        try:
            shortfall = self.dispatch(order)
        except OrderError as refusal:
            return OrderResult(index=index, status=OrderStatus.REFUSED, reason=str(refusal))
        if shortfall:
            return OrderResult(index=index, status=OrderStatus.PARTIAL, reason=shortfall)
        return OrderResult(index=index, status=OrderStatus.DONE)

    def dispatch(self, order: TurnOrder) -> str:
        """Carry out one order; returns what was left undone ("" when nothing), or raises OrderError
        before changing anything."""
        match order:
            case LoadHold():
                return self.load(order)
            case UnloadHold():
                return self.unload(order)
            case Scrap():
                return self.scrap(order)
            case BuildShip():
                return self.build_ship(order)
            case BuildBase():
                return self.build_base(order)
            case Repair():
                return self.repair(order)
            case Resupply():
                return self.resupply(order)
            case SetDamagePriority():
                return self.set_damage_priority(order)
            case SetEcmPolicy():
                self.own_ship(order.ship).ecm_policy = order.policy
                return ""
            case SetStandingCombatOrder():
                self.own_ship(order.ship).standing_order = order.order
                return ""
            case _:
                raise OrderError(f"a {order.kind} order is not carried out in the Build event (rules III)")

    # --- look-ups that refuse ---

    def own_ship(self, name: str) -> Ship:
        ship = self.state.ships.get(ship_uid(self.player, name))
        if ship is None:
            raise OrderError(f"you have no ship {name}")
        return ship

    def own_base(self, star: str, doing: str, rule: str) -> Base:
        """The player's complete Base at ``star``, working since before this Build event."""
        base = self.state.bases.get(star)
        if base is None or base.owner != self.player:
            raise OrderError(f"{doing} at {star}: there is no Base of yours there ({rule})")
        if not base.complete:
            raise OrderError(
                f"{doing} at {star}: the Base there is under construction ({base.invested}/{BASE_COST} BP)"
            )
        if star in self.completed_now:
            raise OrderError(
                f"{doing} at {star}: the Base there was completed this Build event and works from the next"
            )
        return base

    def warpship_with_holds(self, name: str, doing: str) -> Ship:
        if self.basic:
            raise OrderError("Holds are not used in the Basic scenario (rules II)")
        ship = self.own_ship(name)
        if not ship.is_warpship:
            raise OrderError(f"{name} cannot {doing}: Systemships may not have Holds (rules IV, Holds)")
        return ship

    # --- (a) Holds ---

    def load(self, order: LoadHold) -> str:
        ship = self.warpship_with_holds(order.ship, "load BP")
        base = self.own_base(ship.location, f"{ship.name} cannot load BP", HOLDS_RULE)
        if ship.free_hold <= 0:
            raise OrderError(
                f"{ship.name} has no free Hold space ({ship.hold_capacity} BP capacity, {ship.cargo} carried)"
            )
        if base.stockpile == 0:
            raise OrderError(f"the Base at {base.star} has no BP to load")
        amount = min(order.amount, base.stockpile, ship.free_hold)
        base.stockpile -= amount
        ship.cargo += amount
        self.emit_hold(ship, amount)
        if amount < order.amount:
            return f"loaded {amount} of {order.amount} BP: {self.load_limit(ship, base)}"
        return ""

    @staticmethod
    def load_limit(ship: Ship, base: Base) -> str:
        if ship.free_hold == 0:
            return f"{ship.name}'s Holds are full"
        return f"the Base at {base.star} has no more BP"

    def unload(self, order: UnloadHold) -> str:
        ship = self.warpship_with_holds(order.ship, "unload BP")
        base = self.own_base(ship.location, f"{ship.name} cannot unload BP", HOLDS_RULE)
        if ship.cargo == 0:
            raise OrderError(f"{ship.name} carries no BP")
        amount = min(order.amount, ship.cargo)
        ship.cargo -= amount
        base.stockpile += amount
        self.emit_hold(ship, -amount)
        if amount < order.amount:
            return f"unloaded {amount} of {order.amount} BP: that is all {ship.name} carried"
        return ""

    def emit_hold(self, ship: Ship, amount: int) -> None:
        self.step.emit(
            self.step.event(HoldLoaded, (self.player,), ship=ship.uid, star=ship.location, amount=amount)
        )

    # --- (b) Scrapping ---

    def scrap(self, order: Scrap) -> str:
        """ "Ships may be scrapped for 1/2 their current total BP value" (``scrap_value``) "only at
        Bases during the Build event". BP in its Holds go to the Base; Systemships it carries are
        set down at the star, not scrapped with it."""
        ship = self.own_ship(order.ship)
        base = self.own_base(ship.location, f"{ship.name} cannot be scrapped", BUILD_RULE)
        value = scrap_value(ship)
        for uid in list(ship.carrying):
            self.set_down(ship, self.state.ships[uid])
        if ship.cargo:
            base.stockpile += ship.cargo
            self.emit_hold(ship, -ship.cargo)
            ship.cargo = 0
        self.step.remove(ship)
        base.stockpile += value
        self.emit_seen(
            base.star,
            self.step.event(ShipScrapped, (self.player,), ship=ship.uid, star=base.star, bp=value),
            {"bp": 0},
        )
        return ""

    def set_down(self, carrier: Ship, systemship: Ship) -> None:
        carrier.carrying.remove(systemship.uid)
        systemship.carried_by = None
        viewers = self.step.observers(carrier.location, self.player)
        self.step.emit(
            self.step.event(
                SystemshipTransferred,
                viewers,
                systemship=systemship.uid,
                star=carrier.location,
                from_ship=carrier.uid,
                to_ship=None,
            )
        )

    def emit_seen(self, star: str, event: ShipBuilt | ShipScrapped, secret: dict[str, int | str]) -> None:
        """ "All moves and builds are 'seen' (but BP and ship attributes are still secret)": the
        owner gets the event, the others who see the star get it with the ``secret`` fields blanked."""
        self.step.emit(event)
        others = tuple(v for v in self.step.observers(star, self.player) if v != self.player)
        self.step.emit_redacted(event, others, **secret)

    # --- (c) Building ships ---

    def build_ship(self, order: BuildShip) -> str:
        base = self.own_base(order.at, "cannot build a ship", BUILD_RULE)
        self.check_design(order)
        name = self.name_for(order)
        tech_level = 0 if self.basic else tech_level_for_turn(self.state.turn)
        cost = design_cost(order.design, tech_level, order.warp, order.repair_bay)
        if cost > base.stockpile:
            raise OrderError(f"{name} would cost {cost} BP but the Base at {base.star} has {base.stockpile}")
        base.stockpile -= cost
        self.count_name(name)
        ship = Ship(
            name=name,
            owner=self.player,
            tech_level=tech_level,
            built_turn=self.state.turn,
            warp_generator=order.warp,
            repair_bay=order.repair_bay,
            built=order.design,
            current=order.design,
            location=base.star,
        )
        self.step.add(ship)
        built = self.step.event(
            ShipBuilt,
            (self.player,),
            ship=ship.uid,
            star=base.star,
            record=ship.record(),
            cost=cost,
        )
        self.emit_seen(base.star, built, {"record": "", "cost": 0})
        if self.state.config.visibility is Visibility.BLIND:
            self.step.sight(ship, base.star, self.step.observers(base.star, self.player))
        return ""

    def check_design(self, order: BuildShip) -> None:
        design = order.design
        if design.total() == 0:
            raise OrderError(
                "a ship needs at least one attribute besides its Warp Generator and Repair Bay: "
                "with nothing else it would be destroyed (rules VI)"
            )
        if not order.warp and (design.H or design.SR or order.repair_bay):
            raise OrderError(
                "Systemships may not have Holds, Systemship Racks, or Repair Bays (rules IV, Systemships)"
            )
        if self.basic and (design.H or order.repair_bay):
            raise OrderError("Holds and Repair Bays are not used in the Basic scenario (rules II)")

    def name_for(self, order: BuildShip) -> str:
        """The name given if it is free, else the next W or S number (as on the counter sheet)."""
        letter = "W" if order.warp else "S"
        if order.name is not None:
            if not order.name.startswith(letter):
                kind = "Warpship" if order.warp else "Systemship"
                raise OrderError(
                    f"a {kind} cannot be named {order.name}: Warpships are W1, W2..., Systemships S1, S2..."
                )
            if ship_uid(self.player, order.name) in self.state.ships:
                raise OrderError(f"you already have a ship named {order.name}")
            return order.name
        player = self.state.player(self.player)
        number = (player.warpships_named if order.warp else player.systemships_named) + 1
        while ship_uid(self.player, f"{letter}{number}") in self.state.ships:
            number += 1
        if number > MAX_SHIP_NUMBER:
            raise OrderError(f"no {letter} numbers are left: give the ship a free name")
        return f"{letter}{number}"

    def count_name(self, name: str) -> None:
        """Numbers only go up, so a name is never given twice by the engine."""
        player = self.state.player(self.player)
        number = int(name[1:])
        if name.startswith("W"):
            player.warpships_named = max(player.warpships_named, number)
        else:
            player.systemships_named = max(player.systemships_named, number)

    # --- (c) Building Bases ---

    def build_base(self, order: BuildBase) -> str:
        """ "Each Base costs 30 BP. These BP need not all be spent in the same turn, but they must be
        brought in Holds to the star on which the Base is to be built." The star's own BP of this
        turn are still in its pool, not in Holds, so "BP received from a star may not be used to
        build a Base at that star in the turn they were received" holds by construction."""
        star = order.at
        base = self.check_base_site(star)
        carriers = sorted(
            (s for s in self.step.ships_at(star) if s.owner == self.player and s.cargo > 0),
            key=lambda s: (-s.cargo, s.uid),
        )
        available = sum(s.cargo for s in carriers)
        if available == 0:
            raise OrderError(
                f"no ship of yours at {star} has BP in its Holds: a Base's BP must be brought in Holds, "
                "and BP received from a star may not build a Base there the turn they are received "
                "(rules IV, Bases)"
            )
        invested = base.invested if base is not None else 0
        amount = min(order.amount, BASE_COST - invested, available)
        self.unload_into_base(carriers, amount)
        if base is None:
            base = Base(star=star, owner=self.player, stockpile=0, invested=0)
            self.state.bases[star] = base
            self.step.touched.add(star)
            claim(self.step, star, self.player)
        base.invested += amount
        if base.complete:
            self.completed_now.add(star)
        self.emit_base(base)
        if amount < order.amount:
            limit = (
                "the Base is complete" if base.complete else f"your ships there carried only {available} BP"
            )
            return f"put {amount} of {order.amount} BP into the Base at {star}: {limit}"
        return ""

    def check_base_site(self, star: str) -> Base | None:
        """The player's Base under construction at ``star``, None for a new one, or OrderError."""
        if self.basic:
            raise OrderError("Base construction is not used in the Basic scenario (rules II)")
        if not self.state.map.is_star(star):
            raise OrderError(f"{star} is not a star: Bases are built on stars (rules IV, Bases)")
        base = self.state.bases.get(star)
        if base is not None and base.owner != self.player:
            raise OrderError(
                f"there is already a Base at {star}: only one Base may be built on each star hex (rules IV)"
            )
        if base is not None and base.complete:
            raise OrderError(f"your Base at {star} is already complete")
        control = self.state.control.get(star)
        if control is not None and control.owner != self.player:
            raise OrderError(
                f"{star} is owned by {control.owner}: a Base is built on a star you own (rules IV)"
            )
        return base

    @staticmethod
    def unload_into_base(carriers: list[Ship], amount: int) -> None:
        """From the fullest Hold first."""
        left = amount
        for ship in carriers:
            taken = min(left, ship.cargo)
            ship.cargo -= taken
            left -= taken

    def emit_base(self, base: Base) -> None:
        """Others who see the star see the building, not the BP in it until the Base is complete."""
        built = self.step.event(
            BaseBuilt,
            (self.player,),
            star=base.star,
            owner=self.player,
            invested=base.invested,
            complete=base.complete,
        )
        self.step.emit(built)
        others = tuple(v for v in self.step.observers(base.star, self.player) if v != self.player)
        self.step.emit_redacted(built, others, invested=base.invested if base.complete else 0)

    # --- (c) Repair and resupply ---

    def purse_for(self, ship: Ship, bay_name: str | None, doing: str) -> Purse:
        star = ship.location
        if bay_name is None:
            return BasePurse(self.own_base(star, f"{ship.name} cannot be {doing}", self.repair_hint(star)))
        if self.basic:
            raise OrderError("Repair Bays are not used in the Basic scenario (rules II)")
        bay = self.own_ship(bay_name)
        if not bay.repair_bay:
            raise OrderError(f"{bay.name} has no Repair Bay")
        if bay.location != star or not self.state.map.is_star(star):
            raise OrderError(f"{bay.name} is not at the same star as {ship.name} ({REPAIR_RULE})")
        return RepairBayPurse(self.state, bay)

    def repair_hint(self, star: str) -> str:
        bays = [s.name for s in self.step.ships_at(star) if s.owner == self.player and s.repair_bay]
        if bays and self.state.map.is_star(star):
            return f"name the Repair Bay ship to pay: {', '.join(bays)}"
        return REPAIR_RULE

    def repair(self, order: Repair) -> str:
        """ "A ship can be repaired PARTIALLY or WHOLLY up to its original strength in each
        attribute, BUT NO MORE." What the BP cannot pay for is left, in record order (PD first)."""
        ship = self.own_ship(order.ship)
        if order.amounts.M or order.amounts.SH:
            raise OrderError(
                "Missiles and Shells are resupplied, not repaired: use a Resupply order (rules IV)"
            )
        purse = self.purse_for(ship, order.repair_bay, "repaired")
        asked = {a: n for a, n in order.amounts.items() if n}
        wanted = {a: min(n, missing) for a, n in asked.items() if (missing := self.missing(ship, a)) > 0}
        notes = [self.cap_note(ship, a, n) for a, n in asked.items() if n > wanted.get(a, 0)]
        if not wanted:
            raise OrderError(f"nothing to repair: {'; '.join(notes) or 'the order names no attribute'}")
        done, cost = affordable_repair(wanted, purse.available())
        if cost == 0:
            raise OrderError(f"no BP to pay for the repair: {purse.describe()} has none")
        purse.pay(cost)
        ship.current = ship.current.replace(**{a.value: ship.current.get(a) + n for a, n in done.items()})
        repaired = Attributes(**{a.value: n for a, n in done.items()})
        self.emit_repaired(ship, repaired, 0, 0, cost)
        if done != wanted:
            notes.append(f"{purse.describe()} could pay only {cost} BP")
        return "; ".join(notes)

    @staticmethod
    def missing(ship: Ship, attr: Attr) -> int:
        return ship.built.get(attr) - ship.current.get(attr)

    def cap_note(self, ship: Ship, attr: Attr, asked: int) -> str:
        built = ship.built.get(attr)
        return (
            f"{attr.value} is {self.missing(ship, attr)} below its built {built}, not {asked}: "
            "never repaired to over its original strength (rules IV)"
        )

    def resupply(self, order: Resupply) -> str:
        """ "One BP replaces up to 3 Missiles or up to 6 Shells. A ship may not be resupplied with more
        Missiles or Shells than it originally carried. Fractions of BPs left over after resupply
        are not saved. However, one BP CAN be used to resupply (for instance) 3 ships with one
        Missile each": the leftover of a BP is kept, per payer, until the end of this Build event."""
        ship = self.own_ship(order.ship)
        if order.missiles == 0 and order.shells == 0:
            raise OrderError("the order names no Missiles or Shells")
        purse = self.purse_for(ship, order.repair_bay, "resupplied")
        missiles = min(order.missiles, ship.built.M - ship.current.M)
        shells = min(order.shells, ship.built.SH - ship.current.SH)
        if missiles == 0 and shells == 0:
            raise OrderError(
                f"{ship.name} has its full stock (M={ship.built.M}, SH={ship.built.SH}): a ship may not be "
                "resupplied with more than it originally carried (rules IV)"
            )
        got_missiles, bp_missiles = self.buy_ammunition(purse, Attr.M, missiles, MISSILES_PER_BP)
        got_shells, bp_shells = self.buy_ammunition(purse, Attr.SH, shells, SHELLS_PER_BP)
        if got_missiles == 0 and got_shells == 0:
            raise OrderError(f"no BP to pay for the resupply: {purse.describe()} has none")
        ship.current = ship.current.replace(M=ship.current.M + got_missiles, SH=ship.current.SH + got_shells)
        self.emit_repaired(ship, Attributes(), got_missiles, got_shells, bp_missiles + bp_shells)
        if (got_missiles, got_shells) != (order.missiles, order.shells):
            return (
                f"resupplied {got_missiles} of {order.missiles} Missiles and {got_shells} of {order.shells} "
                f"Shells: at most the original stock, as far as {purse.describe()} could pay"
            )
        return ""

    def buy_ammunition(self, purse: Purse, attr: Attr, wanted: int, per_bp: int) -> tuple[int, int]:
        """Missiles or Shells from the payer's leftover of an earlier BP, then from whole BP;
        returns (rounds supplied, BP spent)."""
        key = (purse.key, attr)
        credit = self.ammunition_credit.get(key, 0)
        from_credit = min(wanted, credit)
        rest = wanted - from_credit
        bp = min(ceil_div(rest, per_bp), purse.available())
        bought = min(rest, bp * per_bp)
        purse.pay(bp)
        self.ammunition_credit[key] = credit - from_credit + bp * per_bp - bought
        return from_credit + bought, bp

    def emit_repaired(self, ship: Ship, amounts: Attributes, missiles: int, shells: int, cost: int) -> None:
        self.step.emit(
            self.step.event(
                ShipRepaired,
                (self.player,),
                ship=ship.uid,
                amounts=amounts,
                missiles=missiles,
                shells=shells,
                cost=cost,
                record=ship.record(),
            )
        )

    # --- Standing settings ---

    def set_damage_priority(self, order: SetDamagePriority) -> str:
        """Attributes not named follow in the default order. Naming one again spreads the hits
        (damage.placements: ``PD S SH PD S SH`` takes one hit in each before a second in any)."""
        ship = self.own_ship(order.ship)
        rest = tuple(a for a in DEFAULT_DAMAGE_PRIORITY if a not in order.priority)
        ship.damage_priority = (*order.priority, *rest)
        return ""


def scrap_value(ship: Ship) -> int:
    """Half the ship's current total BP value, rounded down once over the whole ship, where a
    part-lot of Missiles, Shells or Armor counts as its share of the lot's BP
    (docs/rules-interpretations.md, 78): W1 with PD=4 M=1 is worth 5 + 4 + 1/3, and scraps for 4."""
    worth = attributes_worth(ship.current, ship.tech_level) + hull_cost(ship.warp_generator, ship.repair_bay)
    return worth // SCRAP_DIVISOR


def affordable_repair(wanted: dict[Attr, int], funds: int) -> tuple[dict[Attr, int], int]:
    """As much of ``wanted`` as ``funds`` BP pay for, in record order, and its cost. "One BP builds
    just as much for repair as for original building, with the exception of Armor, which is
    repaired at a cost of 1 BP per 2 points of Armor, regardless of tech level." """
    done: dict[Attr, int] = {}
    cost = 0
    for attr in NOTATION_ORDER:
        want = wanted.get(attr, 0)
        if not want:
            continue
        per_bp = ARMOR_REPAIRED_PER_BP if attr is Attr.A else 1
        units = min(want, (funds - cost) * per_bp)
        if units:
            done[attr] = units
            cost += ceil_div(units, per_bp)
    return done, cost

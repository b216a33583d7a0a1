"""Checking orders against the game as the player knows it (issue 3: "each order is checked against
what the player knows of the current state ... route length vs movement points, BP available at
that Base, capacity limits, powering rules").

Only the player's ``PlayerView`` is read, never the whole state: the checker may tell a player
nothing the engine would not. The engine stays the final authority, so the checker is cautious:

- an **error** is an order the engine would refuse, a Move with a step the engine would not take,
  or a combat line the engine would have to change; the acknowledgement lists the line and does
  not submit it;
- a **warning** is an order the engine would carry out only in part (not enough BP, Hold space or
  stock) or whose outcome hangs on what the player cannot know (enemy ships seen at a star may
  still be there); the order is submitted.

Turn orders are walked in the engine's own order (``build.STEP_OF_ORDER``: Holds, scrapping,
building and repair, standing settings; then Moves; then the rearrangement after combat) on a
copy of the player's own ships and Bases, so BP spent by one order are not there for the next.
An order with an error changes nothing, as it will not be submitted.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from engine.core.orderblock import Problem
from engine.warpwar.build import STEP_OF_ORDER, affordable_repair, scrap_value
from engine.warpwar.combat import transfer_needs
from engine.warpwar.components import MISSILES_PER_BP, SHELLS_PER_BP, Attr, ceil_div, design_cost
from engine.warpwar.hexgrid import adjacent
from engine.warpwar.lang.parser import ParsedOrders
from engine.warpwar.lang.printer import combat_order_text, order_text
from engine.warpwar.orders import (
    BuildBase,
    BuildShip,
    CombatOrder,
    DropStep,
    HexStep,
    LoadHold,
    Move,
    PickUpStep,
    Rearrange,
    Repair,
    Resupply,
    RoundOrders,
    Scrap,
    SetDamagePriority,
    SetEcmPolicy,
    SetStandingCombatOrder,
    Tactic,
    TurnOrder,
    TurnOrders,
    UnloadHold,
    WarplineStep,
)
from engine.warpwar.ships import Ship, ship_uid
from engine.warpwar.state import BASE_COST, Base, Scenario, Stage
from engine.warpwar.views import CombatView, PlayerView

Severity = Literal["error", "warning"]

# --- Every message the checker writes (docs/players.md lists them; each is pinned by a test) ---

GAME_OVER = "the game is over: no more orders are taken"
NOT_YOUR_TURN = (
    "it is {active}'s player-turn now: these orders are checked against the game as you see it now"
)
COMBAT_UNDER_WAY = "combat is being fought: turn orders are taken again once it has ended"
WRONG_GAME = "these orders are for game {written}, but this is game {game}"
WRONG_PLAYER = "these orders are signed by {written}, but you are {player}"
WRONG_TURN = "these orders are for turn {written}, but it is turn {turn}"
NO_SHIP = "you have no ship {ship}"
BUILT_LATER = (
    "{ship} is built in this Build event, after Holds are loaded and ships scrapped (rules III, Build "
    "(a)-(c)): it can be {doing} from your next turn"
)
NOT_AT_YOUR_BASE = (
    "{ship} is at {where}, where you have no Base: {doing} needs a Base of yours there (rules IV)"
)
NO_BASE_AT = "you have no Base at {where}: ships are built only at your Bases (rules IV)"
BASE_UNFINISHED = "the Base at {where} is still being built ({invested}/{cost} BP): it works once complete"
BASE_COMPLETED_NOW = "the Base at {where} is completed this turn: it works from your next turn"
HOLDS_BASIC = "Holds are not used in the Basic scenario (rules II)"
SYSTEMSHIP_HOLDS = "{ship} is a Systemship: Systemships have no Holds (rules IV, Holds)"
NO_FREE_HOLD = "{ship} has no free Hold space: it can carry {capacity} BP and has {cargo}"
BASE_EMPTY = "the Base at {where} has no BP left to load"
LOAD_PARTLY = "{ship} will load only {amount} of {asked} BP: {limit}"
NO_CARGO = "{ship} carries no BP to unload"
UNLOAD_PARTLY = "{ship} will unload only {amount} of {asked} BP: that is all it carries"
DESIGN_EMPTY = "a ship needs at least one attribute besides its Warp Generator and Repair Bay (rules VI)"
SYSTEMSHIP_DESIGN = "Systemships may not have Holds, Systemship Racks or Repair Bays (rules IV, Systemships)"
BASIC_DESIGN = "Holds and Repair Bays are not used in the Basic scenario (rules II)"
WRONG_LETTER = "a {kind} cannot be named {name}: Warpships are W1, W2 ..., Systemships S1, S2 ..."
NAME_TAKEN = "you already have a ship named {name}"
BUILD_TOO_DEAR = "{name} would cost {cost} BP, but the Base at {where} has {have} BP left at that point"
BASES_BASIC = "Base construction is not used in the Basic scenario (rules II)"
NOT_A_STAR = "{where} is not a star you know of: Bases are built on stars (rules IV, Bases)"
BASE_TAKEN = "there is already a Base at {where}: only one Base may be built on each star (rules IV)"
BASE_DONE = "your Base at {where} is already complete"
STAR_NOT_YOURS = "{where} is owned by {owner}: a Base is built on a star you own (rules IV)"
NO_BP_IN_HOLDS = (
    "no ship of yours at {where} has BP in its Holds: a Base's BP must be brought there in Holds "
    "(rules IV, Bases)"
)
BASE_PARTLY = "only {amount} of {asked} BP will go into the Base at {where}: {limit}"
AMMUNITION_IN_REPAIR = "Missiles and Shells are resupplied, not repaired: use RESUPPLY {ship} with M= and SH="
CANNOT_REPAIR_HERE = (
    "{ship} cannot be {doing} at {where}: it must be at a Base of yours, or name a Repair Bay ship there "
    "with FROM (rules IV, Repair and resupply)"
)
REPAIR_BAYS_BASIC = "Repair Bays are not used in the Basic scenario (rules II)"
NO_REPAIR_BAY = "{bay} has no Repair Bay"
BAY_ELSEWHERE = (
    "{bay} is not at the same star as {ship}: a Repair Bay works on ships at its own star (rules IV)"
)
NOTHING_TO_REPAIR = "{ship} has nothing to repair there: its {attrs} are at their built values"
REPAIR_CAPPED = (
    "{ship}'s {attr} is only {missing} below its built {built}: it is repaired by {missing}, not {asked} "
    "(never above the original strength, rules IV)"
)
NO_BP_TO_PAY = "there are no BP to pay for this: {payer} has none left"
PAID_PARTLY = "{payer} can pay only {cost} BP of it: {ship} gets {got}"
NOTHING_TO_RESUPPLY = "{ship} has its full stock (M={missiles}, SH={shells}): nothing to resupply"
RESUPPLY_CAPPED = (
    "{ship} will get {missiles} Missiles and {shells} Shells: never more than it was built with (rules IV)"
)
CARRIED_CANNOT_MOVE = "{ship} is carried by {carrier}: it moves only with its carrier (rules IV)"
SYSTEMSHIP_CANNOT_MOVE = "{ship} is a Systemship: it moves only when a Warpship carries it (rules IV)"
PD_ZERO = "{ship} has PD=0 and cannot move (rules V)"
TOO_FEW_MP = (
    "{ship} has {mp} Movement Points (half its PD of {pd}, rounded up) but this move needs {needed}: "
    "1 per hex, per warpline jump, per pick-up or drop (rules V)"
)
OFF_MAP = "{ship} cannot go to {to}: there is no such hex on the map"
NOT_ADJACENT = (
    "{ship} cannot move from {here} to {to}: they are not next to each other (one hex per MP, rules V)"
)
JUMP_NOT_FROM_STAR = (
    "{ship} cannot jump from {here}: warplines are entered only at the star at either end (rules V)"
)
NO_WARPLINE = "{ship} cannot jump from {here} to {to}: no warpline you know of joins them (rules V)"
ENEMY_BASE_FIRST_TURN = (
    "{ship} may not enter {where}: ships may not move onto an enemy Base star on the first turn"
)
ENEMY_STOP = "{ship} will stop at {where}: enemy ships seen there"
DROP_NOT_AT_STAR = "{ship} cannot drop {systemship} at {here}: Systemships are dropped at stars (rules IV)"
NOT_CARRYING = "{ship} cannot drop {systemship}: it is not carrying it"
PICKUP_NOT_AT_STAR = (
    "{ship} cannot pick up {systemship} at {here}: Systemships are picked up at stars (rules IV)"
)
IS_A_WARPSHIP = "{systemship} is a Warpship: only Systemships ride in Systemship Racks (rules IV)"
CARRIER_IS_SYSTEMSHIP = "{ship} is a Systemship: only Warpships carry Systemships (rules IV)"
NOT_THERE = "{systemship} is at {there}, not at {where} where {ship} is"
ALREADY_CARRIED = "{systemship} is carried by {carrier}: {doing}"
NO_FREE_RACK = "{ship} has no free Systemship Rack (SR={racks}, carrying {carried})"
NOTHING_TO_DROP = "{systemship} is not carried: there is nothing to drop"
REARRANGE_NOT_AT_STAR = "{systemship} is at {there}: Systemships are rearranged only at a star (rules III)"
STANDING_WARNING = "standing order: {problem}; in combat the engine cuts it down to what the ship has then"
NO_COMBAT = "you have no combat at {where}"
WRONG_ROUND = "the combat at {where} is at round {round}, not round {written}"
NOT_IN_COMBAT = "{ship} is not in the combat at {where}"
CARRIED_IN_COMBAT = "{ship} is carried by {carrier}: it takes no part in the round (rules IV)"
SYSTEMSHIP_RETREAT = "{ship} is a Systemship: Systemships may never RETREAT (rules IV); use DODGE"
PD_ZERO_RETREAT = (
    "{ship} has PD=0 and cannot RETREAT: a Warpship whose PD is reduced to zero may not move (rules V); "
    "use DODGE"
)
OVER_CAPACITY = "{ship} has {attr}={have}: it cannot power {attr}={wanted} (rules VI)"
NO_TARGET = "{ship}'s {weapon} needs a target: name an enemy ship after the tactic"
NOT_AN_ENEMY_HERE = (
    "{ship}'s {weapon} is aimed at {target}, which is not an enemy ship in this combat ({enemies})"
)
WEAPON_MIX = "{ship} cannot fire Missiles or Cannons in a round when Beams or Screens are powered (rules IV)"
TOO_MANY_MISSILES = "{ship} can launch at most {most} Missiles this round: it has T={tubes} and M={missiles}"
TOO_MANY_CANNONS = "{ship} fires {wanted} Cannons but has C={cannons}"
TOO_MANY_SHELLS = "{ship} fires {wanted} Shells but has SH={shells}"
OVER_POWER = (
    "{ship} uses {power} power (D+B+S+E, plus 1 per Missile and per Cannon fired) but has PD={pd} (rules VI)"
)
TRANSFER_NEEDS = "{ship} can pick up or drop Systemships only with {needs} (rules VI)"
TOO_MANY_TRANSFERS = (
    "{ship} can pick up or drop only {racks} Systemships a round: one per undamaged rack (rules VI)"
)
RETREAT_NOT_ADJACENT = "{ship} can retreat only to a hex next to {where}, not to {to}"

MESSAGES: tuple[str, ...] = tuple(
    value for name, value in sorted(globals().items()) if name.isupper() and isinstance(value, str)
)
"""Every template above, for the players' guide and the test that pins each one."""


# --- What the checker finds, and what it foresees ---


@dataclass(frozen=True)
class Finding:
    """A problem with one order (``index`` in the submitted list), before line numbers are added."""

    index: int
    message: str
    severity: Severity = "error"


@dataclass(frozen=True)
class Built:
    name: str
    star: str
    cost: int
    record: str


@dataclass(frozen=True)
class Repaired:
    ship: str
    cost: int
    record: str


@dataclass(frozen=True)
class Scrapped:
    ship: str
    star: str
    bp: int


@dataclass(frozen=True)
class Banked:
    """BP mined at a Baseless star this Build event: stowed in Holds, the rest lost."""

    star: str
    stowed: int
    lost: int


@dataclass(frozen=True)
class Moved:
    ship: str
    path: tuple[str, ...]
    mp: int
    used: int
    stopped_at: str | None


@dataclass
class Simulation:
    """The player's own ships and Bases after the orders, as far as the player can foresee."""

    view: PlayerView
    ships: dict[str, Ship]
    bases: dict[str, Base]
    pools: dict[str, int]
    findings: list[Finding] = field(default_factory=list)
    built: list[Built] = field(default_factory=list)
    repaired: list[Repaired] = field(default_factory=list)
    scrapped: list[Scrapped] = field(default_factory=list)
    banked: list[Banked] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    claimed: set[str] = field(default_factory=set)


class CheckError(Exception):
    """An order that will not be carried out as written; its message is the player's."""


# --- The public checks ---


def check_turn(parsed: ParsedOrders, view: PlayerView) -> tuple[Problem, ...]:
    """Game checks for the turn orders of ``parsed``, beyond syntax, against the player's view."""
    problems = list(check_header(parsed, view))
    orders = parsed.turn.orders
    if orders:
        problems += _stage_problems(view)
    for finding in simulate(parsed.turn, view).findings:
        line = parsed.turn_lines[finding.index] if finding.index < len(parsed.turn_lines) else None
        text = order_text(orders[finding.index])
        problems.append(Problem(line=line, text=text, message=finding.message, severity=finding.severity))
    return tuple(sorted(problems, key=_reading_order))


def check_header(parsed: ParsedOrders, view: PlayerView) -> tuple[Problem, ...]:
    """The header must name this game, this player and this turn (when it names them at all)."""
    header = parsed.header
    problems = []
    if header.game is not None and header.game.lower() != view.game_id.lower():
        problems.append(WRONG_GAME.format(written=header.game, game=view.game_id))
    if header.player is not None and header.player.lower() not in _names_of(view):
        problems.append(WRONG_PLAYER.format(written=header.player, player=view.player))
    if header.turn is not None and header.turn not in (view.turn, orders_turn(view)):
        problems.append(WRONG_TURN.format(written=header.turn, turn=orders_turn(view)))
    return tuple(Problem(line=None, text="", message=message) for message in problems)


def check_rounds(parsed: ParsedOrders, view: PlayerView) -> tuple[Problem, ...]:
    """Each ship line of each COMBAT section against the ship's current attributes and the combat."""
    problems: list[Problem] = []
    for orders, lines in zip(parsed.rounds, parsed.round_lines, strict=False):
        problems += _check_section(orders, lines, view)
    return tuple(sorted(problems, key=_reading_order))


def simulate(turn: TurnOrders, view: PlayerView) -> Simulation:
    """Walk the orders in the engine's order over a copy of the player's own position."""
    sim = Simulation(
        view=view,
        ships={s.name: s.model_copy(deep=True) for s in view.own_ships},
        bases={b.star: b.model_copy() for b in view.own_bases},
        pools=dict(view.star_pools),
    )
    walker = _Orders(sim)
    indexed = list(enumerate(turn.orders))
    build_orders = [(i, o) for i, o in indexed if not isinstance(o, Move | Rearrange)]
    for index, order in sorted(
        build_orders, key=lambda item: STEP_OF_ORDER.get(type(item[1]), len(STEP_OF_ORDER))
    ):
        walker.carry_out(index, order)
    walker.bank_pools()
    moves = [(i, o) for i, o in indexed if isinstance(o, Move)]
    last_move = {move.ship: index for index, move in moves}
    for index, move in moves:
        if last_move[move.ship] == index:
            walker.carry_out(index, move)
    for index, rearrange in indexed:
        if isinstance(rearrange, Rearrange):
            walker.carry_out(index, rearrange)
    sim.findings = sorted(
        (_built_later(finding, turn.orders[finding.index], sim) for finding in sim.findings),
        key=lambda f: f.index,
    )
    return sim


_BEFORE_BUILDING = {LoadHold: "loaded", UnloadHold: "unloaded", Scrap: "scrapped"}


def _built_later(finding: Finding, order: TurnOrder, sim: Simulation) -> Finding:
    """An order of the Build event's steps (a) and (b) for a ship built in step (c) of the same
    event finds no ship, as in the engine: say why, rather than that the ship does not exist."""
    doing = _BEFORE_BUILDING.get(type(order))
    if doing is None or not isinstance(order, LoadHold | UnloadHold | Scrap):
        return finding
    if finding.message != NO_SHIP.format(ship=order.ship) or order.ship not in {b.name for b in sim.built}:
        return finding
    return Finding(finding.index, BUILT_LATER.format(ship=order.ship, doing=doing))


def orders_turn(view: PlayerView) -> int:
    """The game-turn of the player's next player-turn: this one if it has not been played yet."""
    order = [p.id for p in view.players]
    if view.player not in order or view.active_player not in order:
        return view.turn
    mine, active = order.index(view.player), order.index(view.active_player)
    played = mine < active or (mine == active and view.stage is not Stage.ORDERS)
    return view.turn + 1 if played else view.turn


def _reading_order(problem: Problem) -> tuple[int, int]:
    return (problem.line or 0, 0 if problem.severity == "error" else 1)


def _names_of(view: PlayerView) -> set[str]:
    me = next((p for p in view.players if p.id == view.player), None)
    return {view.player.lower()} | ({me.name.lower()} if me is not None else set())


def _stage_problems(view: PlayerView) -> list[Problem]:
    if view.stage is Stage.OVER:
        return [Problem(line=None, text="", message=GAME_OVER)]
    if view.stage is Stage.COMBAT:
        return [Problem(line=None, text="", message=COMBAT_UNDER_WAY, severity="warning")]
    if view.active_player != view.player:
        return [
            Problem(
                line=None,
                text="",
                message=NOT_YOUR_TURN.format(active=view.active_player),
                severity="warning",
            )
        ]
    return []


# --- The map as the player knows it ---


class _Map:
    def __init__(self, view: PlayerView) -> None:
        self.hexes = frozenset(view.hexes)
        self.stars = {s.hex: s for s in view.stars}
        self.warpline_ends: dict[str, set[str]] = {}
        for a, b in view.warplines:
            self.warpline_ends.setdefault(a, set()).add(b)
            self.warpline_ends.setdefault(b, set()).add(a)
        self.enemies_at: dict[str, list[str]] = {}
        for sighting in view.enemy_ships:
            self.enemies_at.setdefault(sighting.hex, []).append(sighting.ship)
        self.player = view.player

    def where(self, hex_: str) -> str:
        star = self.stars.get(hex_)
        return f"{star.name} ({hex_})" if star is not None else hex_

    def is_star(self, hex_: str) -> bool:
        return hex_ in self.stars

    def enemy_base(self, hex_: str) -> bool:
        star = self.stars.get(hex_)
        return star is not None and star.base_owner not in (None, self.player)


def where(view: PlayerView, hex_: str) -> str:
    """A hex as players read it: "Babylon (2223)" for a star they know, else the number."""
    return _Map(view).where(hex_) if any(s.hex == hex_ for s in view.stars) else hex_


# --- Turn orders, one by one ---


class _Orders:
    def __init__(self, sim: Simulation) -> None:
        self.sim = sim
        self.view = sim.view
        self.map = _Map(sim.view)
        self.basic = sim.view.scenario is Scenario.BASIC
        self.completed_now: set[str] = set()
        self.credit: dict[tuple[str, Attr], int] = {}
        self.index = 0

    def carry_out(self, index: int, order: TurnOrder) -> None:
        self.index = index
        try:
            self.dispatch(order)
        except CheckError as rejected:
            self.sim.findings.append(Finding(index, str(rejected)))

    def warn(self, message: str) -> None:
        self.sim.findings.append(Finding(self.index, message, "warning"))

    def dispatch(self, order: TurnOrder) -> None:
        match order:
            case LoadHold():
                self.load(order)
            case UnloadHold():
                self.unload(order)
            case Scrap():
                self.scrap(order)
            case BuildShip():
                self.build_ship(order)
            case BuildBase():
                self.build_base(order)
            case Repair():
                self.repair(order)
            case Resupply():
                self.resupply(order)
            case SetDamagePriority() | SetEcmPolicy():
                self.own(order.ship)
            case SetStandingCombatOrder():
                self.standing(order)
            case Move():
                self.move(order)
            case Rearrange():
                self.rearrange(order)

    # --- look-ups ---

    def own(self, name: str) -> Ship:
        ship = self.sim.ships.get(name)
        if ship is None:
            raise CheckError(NO_SHIP.format(ship=name))
        return ship

    def base_at(self, star: str, missing: str) -> Base:
        """The player's complete Base at ``star``, working since before this Build event."""
        base = self.sim.bases.get(star)
        if base is None:
            raise CheckError(missing)
        where_ = self.map.where(star)
        if not base.complete:
            raise CheckError(BASE_UNFINISHED.format(where=where_, invested=base.invested, cost=BASE_COST))
        if star in self.completed_now:
            raise CheckError(BASE_COMPLETED_NOW.format(where=where_))
        return base

    def base_under(self, ship: Ship, doing: str) -> Base:
        missing = NOT_AT_YOUR_BASE.format(ship=ship.name, where=self.map.where(ship.location), doing=doing)
        return self.base_at(ship.location, missing)

    def ships_at(self, hex_: str) -> list[Ship]:
        return sorted((s for s in self.sim.ships.values() if s.location == hex_), key=lambda s: s.uid)

    # --- Holds ---

    def warpship_with_holds(self, name: str) -> Ship:
        if self.basic:
            raise CheckError(HOLDS_BASIC)
        ship = self.own(name)
        if not ship.is_warpship:
            raise CheckError(SYSTEMSHIP_HOLDS.format(ship=name))
        return ship

    def load(self, order: LoadHold) -> None:
        ship = self.warpship_with_holds(order.ship)
        base = self.base_under(ship, "loading BP")
        if ship.free_hold <= 0:
            raise CheckError(
                NO_FREE_HOLD.format(ship=ship.name, capacity=ship.hold_capacity, cargo=ship.cargo)
            )
        if base.stockpile == 0:
            raise CheckError(BASE_EMPTY.format(where=self.map.where(base.star)))
        amount = min(order.amount, base.stockpile, ship.free_hold)
        if amount < order.amount:
            limit = (
                f"its Holds have room for {ship.free_hold}"
                if ship.free_hold < base.stockpile
                else f"the Base has {base.stockpile}"
            )
            self.warn(LOAD_PARTLY.format(ship=ship.name, amount=amount, asked=order.amount, limit=limit))
        base.stockpile -= amount
        ship.cargo += amount

    def unload(self, order: UnloadHold) -> None:
        ship = self.warpship_with_holds(order.ship)
        base = self.base_under(ship, "unloading BP")
        if ship.cargo == 0:
            raise CheckError(NO_CARGO.format(ship=ship.name))
        amount = min(order.amount, ship.cargo)
        if amount < order.amount:
            self.warn(UNLOAD_PARTLY.format(ship=ship.name, amount=amount, asked=order.amount))
        ship.cargo -= amount
        base.stockpile += amount

    # --- Scrapping ---

    def scrap(self, order: Scrap) -> None:
        ship = self.own(order.ship)
        base = self.base_under(ship, "scrapping")
        bp = scrap_value(ship)
        for uid in ship.carrying:
            self.sim.ships[uid.split(".", 1)[1]].carried_by = None
        base.stockpile += bp + ship.cargo
        del self.sim.ships[ship.name]
        self.sim.scrapped.append(Scrapped(ship=ship.name, star=base.star, bp=bp))

    # --- Building ---

    def build_ship(self, order: BuildShip) -> None:
        base = self.base_at(order.at, NO_BASE_AT.format(where=self.map.where(order.at)))
        self.check_design(order)
        name = self.name_for(order)
        tech_level = self.view.tech_level
        cost = design_cost(order.design, tech_level, order.warp, order.repair_bay)
        if cost > base.stockpile:
            raise CheckError(
                BUILD_TOO_DEAR.format(
                    name=name, cost=cost, where=self.map.where(base.star), have=base.stockpile
                )
            )
        base.stockpile -= cost
        ship = Ship(
            name=name,
            owner=self.view.player,
            tech_level=tech_level,
            built_turn=self.view.turn,
            warp_generator=order.warp,
            repair_bay=order.repair_bay,
            built=order.design,
            current=order.design,
            location=base.star,
        )
        self.sim.ships[name] = ship
        self.sim.built.append(Built(name=name, star=base.star, cost=cost, record=ship.record()))

    def check_design(self, order: BuildShip) -> None:
        design = order.design
        if design.total() == 0:
            raise CheckError(DESIGN_EMPTY)
        if not order.warp and (design.H or design.SR or order.repair_bay):
            raise CheckError(SYSTEMSHIP_DESIGN)
        if self.basic and (design.H or order.repair_bay):
            raise CheckError(BASIC_DESIGN)

    def name_for(self, order: BuildShip) -> str:
        """As ``build.BuildEvent.name_for``: the name given, else the next W or S number."""
        letter = "W" if order.warp else "S"
        if order.name is not None:
            if not order.name.startswith(letter):
                kind = "Warpship" if order.warp else "Systemship"
                raise CheckError(WRONG_LETTER.format(kind=kind, name=order.name))
            if order.name in self.sim.ships:
                raise CheckError(NAME_TAKEN.format(name=order.name))
            return order.name
        highest = self.view.warpships_named if order.warp else self.view.systemships_named
        given = [int(b.name[1:]) for b in self.sim.built if b.name.startswith(letter)]
        number = max([highest, *given]) + 1
        while f"{letter}{number}" in self.sim.ships:
            number += 1
        return f"{letter}{number}"

    def build_base(self, order: BuildBase) -> None:
        star = order.at
        where_ = self.map.where(star)
        base = self.base_site(star)
        carriers = sorted(
            (s for s in self.ships_at(star) if s.cargo > 0),
            key=lambda s: (-s.cargo, s.uid),
        )
        available = sum(s.cargo for s in carriers)
        if available == 0:
            raise CheckError(NO_BP_IN_HOLDS.format(where=where_))
        invested = base.invested if base is not None else 0
        amount = min(order.amount, BASE_COST - invested, available)
        if amount < order.amount:
            limit = (
                "that completes it"
                if invested + amount >= BASE_COST
                else f"your ships there carry {available}"
            )
            self.warn(BASE_PARTLY.format(amount=amount, asked=order.amount, where=where_, limit=limit))
        left = amount
        for ship in carriers:
            taken = min(left, ship.cargo)
            ship.cargo -= taken
            left -= taken
        if base is None:
            base = Base(star=star, owner=self.view.player, stockpile=0, invested=0)
            self.sim.bases[star] = base
            self.sim.claimed.add(star)
        base.invested += amount
        if base.complete:
            self.completed_now.add(star)

    def base_site(self, star: str) -> Base | None:
        where_ = self.map.where(star)
        if self.basic:
            raise CheckError(BASES_BASIC)
        if not self.map.is_star(star):
            raise CheckError(NOT_A_STAR.format(where=where_))
        base = self.sim.bases.get(star)
        if base is None and self.map.enemy_base(star):
            raise CheckError(BASE_TAKEN.format(where=where_))
        if base is not None and base.complete:
            raise CheckError(BASE_DONE.format(where=where_))
        owner = self.map.stars[star].owner
        if owner is not None and owner != self.view.player and star not in self.sim.claimed:
            raise CheckError(STAR_NOT_YOURS.format(where=where_, owner=owner))
        return base

    # --- Repair and resupply ---

    def payer(self, ship: Ship, bay_name: str | None, doing: str) -> tuple[str, str, int]:
        """(key, description, BP available) of whoever pays: the Base, or a Repair Bay ship."""
        star = ship.location
        where_ = self.map.where(star)
        if bay_name is None:
            cannot = CANNOT_REPAIR_HERE.format(ship=ship.name, doing=doing, where=where_)
            base = self.base_at(star, cannot)
            return f"base:{star}", f"the Base at {where_}", base.stockpile
        if self.basic:
            raise CheckError(REPAIR_BAYS_BASIC)
        bay = self.own(bay_name)
        if not bay.repair_bay:
            raise CheckError(NO_REPAIR_BAY.format(bay=bay.name))
        if bay.location != star or not self.map.is_star(star):
            raise CheckError(BAY_ELSEWHERE.format(bay=bay.name, ship=ship.name))
        funds = self.sim.pools.get(star, 0) + bay.cargo
        return f"bay:{bay.name}", f"{bay.name}'s Hold and the BP mined at {where_}", funds

    def pay(self, key: str, amount: int) -> None:
        kind, owner = key.split(":", 1)
        if kind == "base":
            self.sim.bases[owner].stockpile -= amount
            return
        bay = self.sim.ships[owner]
        from_star = min(amount, self.sim.pools.get(bay.location, 0))
        if from_star:
            self.sim.pools[bay.location] -= from_star
        bay.cargo -= amount - from_star

    def repair(self, order: Repair) -> None:
        ship = self.own(order.ship)
        if order.amounts.M or order.amounts.SH:
            raise CheckError(AMMUNITION_IN_REPAIR.format(ship=ship.name))
        key, payer, funds = self.payer(ship, order.repair_bay, "repaired")
        asked = {a: n for a, n in order.amounts.items() if n}
        wanted = {a: min(n, missing) for a, n in asked.items() if (missing := _missing(ship, a)) > 0}
        if not wanted:
            attrs = " ".join(a.value for a in asked) or "attributes"
            raise CheckError(NOTHING_TO_REPAIR.format(ship=ship.name, attrs=attrs))
        for attr, n in asked.items():
            if n > wanted.get(attr, 0) and attr in wanted:
                missing = wanted[attr]
                built = ship.built.get(attr)
                self.warn(
                    REPAIR_CAPPED.format(
                        ship=ship.name, attr=attr.value, missing=missing, built=built, asked=n
                    )
                )
        done, cost = affordable_repair(wanted, funds)
        if cost == 0:
            raise CheckError(NO_BP_TO_PAY.format(payer=payer))
        if done != wanted:
            got = " ".join(f"{a.value}+{n}" for a, n in done.items())
            self.warn(PAID_PARTLY.format(payer=payer, cost=cost, ship=ship.name, got=got))
        self.pay(key, cost)
        ship.current = ship.current.replace(**{a.value: ship.current.get(a) + n for a, n in done.items()})
        self.sim.repaired.append(Repaired(ship=ship.name, cost=cost, record=ship.record()))

    def resupply(self, order: Resupply) -> None:
        ship = self.own(order.ship)
        key, payer, funds = self.payer(ship, order.repair_bay, "resupplied")
        missiles = min(order.missiles, ship.built.M - ship.current.M)
        shells = min(order.shells, ship.built.SH - ship.current.SH)
        if missiles == 0 and shells == 0:
            raise CheckError(
                NOTHING_TO_RESUPPLY.format(ship=ship.name, missiles=ship.built.M, shells=ship.built.SH)
            )
        if (missiles, shells) != (order.missiles, order.shells):
            self.warn(RESUPPLY_CAPPED.format(ship=ship.name, missiles=missiles, shells=shells))
        got_missiles, bp_missiles = self.buy(key, funds, Attr.M, missiles, MISSILES_PER_BP)
        got_shells, bp_shells = self.buy(key, funds - bp_missiles, Attr.SH, shells, SHELLS_PER_BP)
        if got_missiles == 0 and got_shells == 0:
            raise CheckError(NO_BP_TO_PAY.format(payer=payer))
        cost = bp_missiles + bp_shells
        if (got_missiles, got_shells) != (missiles, shells):
            got = f"M+{got_missiles} SH+{got_shells}"
            self.warn(PAID_PARTLY.format(payer=payer, cost=cost, ship=ship.name, got=got))
        self.pay(key, cost)
        ship.current = ship.current.replace(M=ship.current.M + got_missiles, SH=ship.current.SH + got_shells)
        self.sim.repaired.append(Repaired(ship=ship.name, cost=cost, record=ship.record()))

    def buy(self, key: str, funds: int, attr: Attr, wanted: int, per_bp: int) -> tuple[int, int]:
        """As ``build.BuildEvent.buy_ammunition``: leftovers of a BP already paid for go first."""
        credit = self.credit.get((key, attr), 0)
        from_credit = min(wanted, credit)
        rest = wanted - from_credit
        bp = min(ceil_div(rest, per_bp), funds)
        bought = min(rest, bp * per_bp)
        self.credit[(key, attr)] = credit - from_credit + bp * per_bp - bought
        return from_credit + bought, bp

    def bank_pools(self) -> None:
        """End of the Build event: BP mined at Baseless stars go into Holds there, or are lost."""
        for star in sorted(self.sim.pools):
            amount = self.sim.pools[star]
            left = amount
            for ship in sorted(self.ships_at(star), key=lambda s: (-s.free_hold, s.uid)):
                taken = min(left, max(0, ship.free_hold))
                ship.cargo += taken
                left -= taken
            if amount:
                self.sim.banked.append(Banked(star=star, stowed=amount - left, lost=left))
        self.sim.pools.clear()

    # --- Standing combat orders ---

    def standing(self, order: SetStandingCombatOrder) -> None:
        ship = self.own(order.ship)
        if order.order is None:
            return
        for problem in ship_order_problems(ship, order.order, enemies=None, star=None, view=self.view):
            self.warn(STANDING_WARNING.format(problem=problem))

    # --- Movement ---

    def move(self, order: Move) -> None:
        ship = self.own(order.ship)
        if ship.carried_by is not None:
            raise CheckError(
                CARRIED_CANNOT_MOVE.format(ship=ship.name, carrier=ship.carried_by.split(".", 1)[1])
            )
        if not ship.is_warpship:
            raise CheckError(SYSTEMSHIP_CANNOT_MOVE.format(ship=ship.name))
        if ship.current.PD == 0:
            raise CheckError(PD_ZERO.format(ship=ship.name))
        mp = ship.movement_points
        if len(order.steps) > mp:
            self.sim.findings.append(
                Finding(
                    self.index,
                    TOO_FEW_MP.format(ship=ship.name, mp=mp, pd=ship.current.PD, needed=len(order.steps)),
                )
            )
        walk = _Walk(self, ship)
        for step in order.steps:
            walk.take(step)
        if walk.enemy_stop is not None:
            self.warn(ENEMY_STOP.format(ship=ship.name, where=self.map.where(walk.enemy_stop)))
        if any(f.index == self.index and f.severity == "error" for f in self.sim.findings):
            return
        walk.commit()

    # --- Rearrangement after combat ---

    def rearrange(self, order: Rearrange) -> None:
        systemship = self.own(order.systemship)
        if systemship.is_warpship:
            raise CheckError(IS_A_WARPSHIP.format(systemship=systemship.name))
        if not self.map.is_star(systemship.location):
            raise CheckError(
                REARRANGE_NOT_AT_STAR.format(
                    systemship=systemship.name, there=self.map.where(systemship.location)
                )
            )
        if order.to is None:
            if systemship.carried_by is None:
                raise CheckError(NOTHING_TO_DROP.format(systemship=systemship.name))
            self.transfer(systemship, None)
            return
        carrier = self.own(order.to)
        problem = self.loading_problem(carrier, systemship, carrier.location)
        if problem is not None:
            raise CheckError(problem)
        self.transfer(systemship, carrier)

    def loading_problem(self, carrier: Ship, systemship: Ship, here: str) -> str | None:
        if systemship.is_warpship:
            return IS_A_WARPSHIP.format(systemship=systemship.name)
        if not carrier.is_warpship:
            return CARRIER_IS_SYSTEMSHIP.format(ship=carrier.name)
        if systemship.location != here:
            return NOT_THERE.format(
                systemship=systemship.name,
                there=self.map.where(systemship.location),
                where=self.map.where(here),
                ship=carrier.name,
            )
        if systemship.carried_by == carrier.uid:
            return ALREADY_CARRIED.format(
                systemship=systemship.name, carrier=carrier.name, doing="there is nothing to pick up"
            )
        if carrier.free_racks < 1:
            return NO_FREE_RACK.format(
                ship=carrier.name, racks=carrier.current.SR, carried=len(carrier.carrying)
            )
        return None

    def transfer(self, systemship: Ship, to: Ship | None) -> None:
        if systemship.carried_by is not None:
            self.sim.ships[systemship.carried_by.split(".", 1)[1]].carrying.remove(systemship.uid)
        systemship.carried_by = to.uid if to is not None else None
        if to is not None:
            to.carrying.append(systemship.uid)


def _missing(ship: Ship, attr: Attr) -> int:
    return ship.built.get(attr) - ship.current.get(attr)


class _Walk:
    """One Move walked step by step, as ``movement._Walk`` does, without changing anything until
    the whole order is known to be good (``commit``)."""

    def __init__(self, orders: _Orders, ship: Ship) -> None:
        self.orders = orders
        self.map = orders.map
        self.ship = ship
        self.here = ship.location
        self.path = [ship.location]
        self.carrying = [uid.split(".", 1)[1] for uid in ship.carrying]
        self.dropped: dict[str, str] = {}
        self.picked: list[str] = []
        self.used = 0
        self.enemy_stop: str | None = None
        self.stop_used = 0
        self.broken = False

    def fail(self, message: str) -> None:
        self.orders.sim.findings.append(Finding(self.orders.index, message))
        self.broken = True

    def take(self, step: HexStep | WarplineStep | DropStep | PickUpStep) -> None:
        if self.broken:
            return
        match step:
            case HexStep():
                self.hex(step.to)
            case WarplineStep():
                self.jump(step.to)
            case DropStep():
                self.drop(step.systemship)
            case PickUpStep():
                self.pick_up(step.systemship)
        if not self.broken:
            self.used += 1

    def hex(self, to: str) -> None:
        name = self.ship.name
        if to not in self.map.hexes:
            self.fail(OFF_MAP.format(ship=name, to=to))
        elif not adjacent(self.here, to):
            self.fail(NOT_ADJACENT.format(ship=name, here=self.map.where(self.here), to=self.map.where(to)))
        else:
            self.enter(to)

    def jump(self, to: str) -> None:
        name = self.ship.name
        if to not in self.map.hexes:
            self.fail(OFF_MAP.format(ship=name, to=to))
        elif not self.map.is_star(self.here):
            self.fail(JUMP_NOT_FROM_STAR.format(ship=name, here=self.map.where(self.here)))
        elif to not in self.map.warpline_ends.get(self.here, ()):
            self.fail(NO_WARPLINE.format(ship=name, here=self.map.where(self.here), to=self.map.where(to)))
        else:
            self.enter(to)

    def enter(self, to: str) -> None:
        if self.orders.view.turn == 1 and self.map.enemy_base(to):
            self.fail(ENEMY_BASE_FIRST_TURN.format(ship=self.ship.name, where=self.map.where(to)))
            return
        self.here = to
        self.path.append(to)
        if self.map.is_star(to) and self.enemy_stop is None and self.map.enemies_at.get(to):
            self.enemy_stop = to
            self.stop_used = self.used + 1

    def drop(self, name: str) -> None:
        if not self.map.is_star(self.here):
            self.fail(
                DROP_NOT_AT_STAR.format(ship=self.ship.name, systemship=name, here=self.map.where(self.here))
            )
        elif name not in self.carrying:
            self.fail(NOT_CARRYING.format(ship=self.ship.name, systemship=name))
        else:
            self.carrying.remove(name)
            self.dropped[name] = self.here

    def pick_up(self, name: str) -> None:
        here = self.here
        if not self.map.is_star(here):
            self.fail(
                PICKUP_NOT_AT_STAR.format(ship=self.ship.name, systemship=name, here=self.map.where(here))
            )
            return
        systemship = self.orders.sim.ships.get(name)
        if systemship is None:
            self.fail(NO_SHIP.format(ship=name))
            return
        there = self.dropped.get(name, systemship.location)
        carried_by = None if name in self.dropped else systemship.carried_by
        problem = _pick_up_problem(self, systemship, there, carried_by)
        if problem is not None:
            self.fail(problem)
            return
        self.carrying.append(name)
        self.dropped.pop(name, None)
        self.picked.append(name)

    def commit(self) -> None:
        """Apply the move to the simulation; with a known enemy at a star on the way, the ship
        stops there, making only the drops planned there (rules V, blind games)."""
        sim = self.orders.sim
        ship = self.ship
        path = self.path
        used = self.used
        if self.enemy_stop is not None:
            path = path[: path.index(self.enemy_stop) + 1]
            used = self.stop_used
        for star in path[1:]:
            if self.map.is_star(star) and not self.map.enemies_at.get(star) and not self.map.enemy_base(star):
                sim.claimed.add(star)
        end = path[-1]
        for name in [uid.split(".", 1)[1] for uid in ship.carrying]:
            if name not in self.dropped:
                sim.ships[name].location = end
        for name, star in self.dropped.items():
            self.orders.transfer(sim.ships[name], None)
            sim.ships[name].location = star
        for name in self.picked:
            self.orders.transfer(sim.ships[name], ship)
            sim.ships[name].location = end
        ship.location = end
        sim.moved.append(
            Moved(
                ship=ship.name,
                path=tuple(path),
                mp=ship.movement_points,
                used=used,
                stopped_at=self.enemy_stop,
            )
        )


PICKED_UP_ONLY_FROM_STAR = (
    "in a move only a Systemship left at the star is picked up (REARRANGE moves it between Warpships)"
)


def _pick_up_problem(walk: _Walk, systemship: Ship, there: str, carried_by: str | None) -> str | None:
    carrier = walk.ship
    if systemship.is_warpship:
        return IS_A_WARPSHIP.format(systemship=systemship.name)
    if there != walk.here:
        return NOT_THERE.format(
            systemship=systemship.name,
            there=walk.map.where(there),
            where=walk.map.where(walk.here),
            ship=carrier.name,
        )
    if systemship.name in walk.carrying:
        return ALREADY_CARRIED.format(
            systemship=systemship.name, carrier=carrier.name, doing="there is nothing to pick up"
        )
    if carried_by is not None:
        return ALREADY_CARRIED.format(
            systemship=systemship.name,
            carrier=carried_by.split(".", 1)[1],
            doing=PICKED_UP_ONLY_FROM_STAR,
        )
    if len(walk.carrying) >= carrier.current.SR:
        return NO_FREE_RACK.format(ship=carrier.name, racks=carrier.current.SR, carried=len(walk.carrying))
    return None


# --- Combat rounds ---


def section_problem(orders: RoundOrders, view: PlayerView) -> str | None:
    """Why a whole COMBAT section cannot be used: no such combat, or another round."""
    place = where(view, orders.star)
    combat = next((c for c in view.combats if c.star == orders.star), None)
    if combat is None:
        return NO_COMBAT.format(where=place)
    if combat.round != orders.round:
        return WRONG_ROUND.format(where=place, round=combat.round, written=orders.round)
    return None


def _check_section(orders: RoundOrders, lines: dict[str, int], view: PlayerView) -> list[Problem]:
    problem = section_problem(orders, view)
    combat = next((c for c in view.combats if c.star == orders.star), None)
    if problem is not None or combat is None:
        heading = f"COMBAT {orders.star} ROUND {orders.round}"
        return [
            Problem(line=line, text=heading, message=problem or "") for line in sorted(set(lines.values()))
        ]
    problems = []
    for name, order in orders.ships.items():
        line = lines.get(name)
        text = combat_order_text(name, order)
        for message in _round_line_problems(name, order, combat, view):
            problems.append(Problem(line=line, text=text, message=message))
    return problems


def _round_line_problems(name: str, order: CombatOrder, combat: CombatView, view: PlayerView) -> list[str]:
    place = where(view, combat.star)
    ship = view.ship(name)
    if ship is None:
        return [NO_SHIP.format(ship=name)]
    if ship.uid not in combat.own_ships:
        return [NOT_IN_COMBAT.format(ship=name, where=place)]
    if ship.carried_by is not None:
        return [CARRIED_IN_COMBAT.format(ship=name, carrier=ship.carried_by.split(".", 1)[1])]
    return ship_order_problems(ship, order, enemies=combat.enemy_ships, star=combat.star, view=view)


def ship_order_problems(
    ship: Ship, order: CombatOrder, enemies: Sequence[str] | None, star: str | None, view: PlayerView
) -> list[str]:
    """What the engine's ``combat.check_order`` would have to change in this order, in the
    player's words. ``enemies`` None: a standing order, whose targets are not known yet."""
    problems: list[str] = []
    name = ship.name
    now = ship.current
    if order.tactic is Tactic.RETREAT:
        if not ship.is_warpship:
            problems.append(SYSTEMSHIP_RETREAT.format(ship=name))
        elif now.PD == 0:
            problems.append(PD_ZERO_RETREAT.format(ship=name))
    for attr, have, wanted in (("B", now.B, order.beam), ("S", now.S, order.screen), ("E", now.E, order.ecm)):
        if wanted > have:
            problems.append(OVER_CAPACITY.format(ship=name, attr=attr, have=have, wanted=wanted))
    if enemies is not None:
        problems += _target_problems(ship, order, enemies)
    if (order.beam or order.screen) and (order.missiles or order.cannons):
        problems.append(WEAPON_MIX.format(ship=name))
    most = min(now.T, now.M)
    if len(order.missiles) > most:
        problems.append(TOO_MANY_MISSILES.format(ship=name, most=most, tubes=now.T, missiles=now.M))
    if len(order.cannons) > now.C:
        problems.append(TOO_MANY_CANNONS.format(ship=name, wanted=len(order.cannons), cannons=now.C))
    if sum(order.cannons) > now.SH:
        problems.append(TOO_MANY_SHELLS.format(ship=name, wanted=sum(order.cannons), shells=now.SH))
    if order.power() > now.PD:
        problems.append(OVER_POWER.format(ship=name, power=order.power(), pd=now.PD))
    problems += _transfer_problems(ship, order, view)
    if (
        star is not None
        and order.retreat_to is not None
        and not (order.retreat_to in view.hexes and adjacent(order.retreat_to, star))
    ):
        problems.append(RETREAT_NOT_ADJACENT.format(ship=name, where=where(view, star), to=order.retreat_to))
    return problems


def _target_problems(ship: Ship, order: CombatOrder, enemies: Sequence[str]) -> list[str]:
    problems = []
    aims: list[tuple[str, str | None]] = []
    if order.beam:
        aims.append(("Beam", order.beam_target))
    if order.cannons:
        aims.append(("Cannons", order.cannon_target))
    aims += [(f"Missile {n}", shot.target) for n, shot in enumerate(order.missiles, start=1)]
    listed = ", ".join(enemies) or "none seen"
    for weapon, target in aims:
        if target is None:
            problems.append(NO_TARGET.format(ship=ship.name, weapon=weapon))
        elif _resolve(target, enemies) is None:
            problems.append(
                NOT_AN_ENEMY_HERE.format(ship=ship.name, weapon=weapon, target=target, enemies=listed)
            )
    return problems


def _resolve(ref: str, enemies: Iterable[str]) -> str | None:
    """As ``combat._resolve_target``: a uid, or a short name only one enemy ship there has."""
    enemies = list(enemies)
    if ref in enemies:
        return ref
    named = [uid for uid in enemies if uid.split(".", 1)[-1] == ref]
    return named[0] if len(named) == 1 else None


def _transfer_problems(ship: Ship, order: CombatOrder, view: PlayerView) -> list[str]:
    """ "A Warpship may pick up or drop Systemships during a combat round if it allocates Drive = 0
    and Screen = 0 and selects the Dodge or Retreat tactic ... but may NOT fire Missiles or Cannons" """
    if not order.pick_up and not order.drop:
        return []
    if not ship.is_warpship:
        return [CARRIER_IS_SYSTEMSHIP.format(ship=ship.name)]
    needs = transfer_needs(order)
    problems = [TRANSFER_NEEDS.format(ship=ship.name, needs=", ".join(needs))] if needs else []
    for name in order.drop:
        if ship_uid(ship.owner, name) not in ship.carrying:
            problems.append(NOT_CARRYING.format(ship=ship.name, systemship=name))
    for name in order.pick_up:
        problem = _round_pick_up_problem(ship, name, view)
        if problem is not None:
            problems.append(problem)
    if len(set(order.drop)) + len(set(order.pick_up)) > ship.current.SR or (
        len(ship.carrying) - len(set(order.drop)) + len(set(order.pick_up)) > ship.current.SR
    ):
        problems.append(TOO_MANY_TRANSFERS.format(ship=ship.name, racks=ship.current.SR))
    return problems


def _round_pick_up_problem(ship: Ship, name: str, view: PlayerView) -> str | None:
    other = view.ship(name)
    if other is None:
        return NO_SHIP.format(ship=name)
    if other.is_warpship:
        return IS_A_WARPSHIP.format(systemship=name)
    if other.location != ship.location:
        return NOT_THERE.format(
            systemship=name,
            there=where(view, other.location),
            where=where(view, ship.location),
            ship=ship.name,
        )
    if other.carried_by == ship.uid:
        return ALREADY_CARRIED.format(systemship=name, carrier=ship.name, doing="there is nothing to pick up")
    return None

"""A computer commander that plays from its own PlayerView only (no peeking at the state).

The policy is simple but plays real games: repair and resupply at Bases, build balanced
Warpships (Beam ships and Missile ships), keep a guard at each Base, spread out to claim unowned
stars, and once a strike group is ready send it, at the pace of its slowest ship, against the
nearest enemy Base it knows; damaged ships limp home. In combat it picks tactics, targets and
Missile drives at random, so it cannot be read. Its randomness comes from its own stream,
derived from the game's seed, the player and the turn, so games replay exactly.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.warpwar.components import (
    MISSILES_PER_BP,
    SHELLS_PER_BP,
    WARP_GENERATOR_COST,
    Attributes,
    ceil_div,
    design_cost,
    repair_cost,
)
from engine.warpwar.hexgrid import adjacency
from engine.warpwar.orders import (
    BuildShip,
    CombatOrder,
    MissileShot,
    Move,
    Repair,
    Resupply,
    RoundOrders,
    Tactic,
    TurnOrder,
    TurnOrders,
)
from engine.warpwar.routes import Adjacency, distances, route
from engine.warpwar.ships import Ship
from engine.warpwar.state import Combat, GameState
from engine.warpwar.turn import Outcome, play_player_turn
from engine.warpwar.views import PlayerView, player_view

SMALLEST_WARSHIP = 12
LARGEST_WARSHIP = 40
STRIKE_GROUP = 3
TACTICS = (Tactic.ATTACK, Tactic.ATTACK, Tactic.DODGE, Tactic.DODGE, Tactic.ATTACK)


def play_turn(state: GameState) -> Outcome:
    """The active player's whole player-turn with robots commanding every side, each from its
    own view (self-play: demos, soak tests, benchmarks)."""
    player = state.active_player.id
    orders = turn_orders(player_view(state, player), stream_for(state, player))
    return play_player_turn(state, orders, rounds_for)


def rounds_for(state: GameState, combat: Combat) -> list[RoundOrders]:
    """Each side's round orders at a combat, written from that side's own view."""
    sides = sorted({s.owner for s in state.ships.values() if s.location == combat.star})
    return [
        round_orders(player_view(state, p), combat.star, combat.round, stream_for(state, p, combat))
        for p in sides
    ]


def stream_for(state: GameState, player: str, combat: Combat | None = None) -> Rng:
    """The robot's own random stream for this player-turn (or combat round), from the game's seed."""
    where = f"/{combat.star}/{combat.round}" if combat else ""
    return Rng(state.seed).derive(f"robot/{player}/{state.turn}{where}")


def turn_orders(view: PlayerView, rng: Rng) -> TurnOrders:
    """Orders for the robot's player-turn: Build event first, then Movement."""
    orders: list[TurnOrder] = []
    spent: dict[str, int] = {}
    for base in view.own_bases:
        if base.complete:
            orders += _repairs(view, base.star, base.stockpile, spent)
    for base in view.own_bases:
        if base.complete:
            orders += _builds(view, base.star, base.stockpile - spent.get(base.star, 0), rng)
    orders += _moves(view)
    return TurnOrders(player=view.player, orders=tuple(orders))


def round_orders(view: PlayerView, star: str, round_: int, rng: Rng) -> RoundOrders:
    """Every own ship at ``star`` fights, each with its own tactic, target and drives."""
    combat = next(c for c in view.combats if c.star == star)
    ships = {}
    for ship in view.own_ships:
        if ship.location == star and ship.carried_by is None and ship.uid in combat.own_ships:
            ships[ship.name] = _combat_order(ship, combat.enemy_ships, rng)
    return RoundOrders(player=view.player, star=star, round=round_, ships=ships)


# --- Build event ---


def _repairs(view: PlayerView, star: str, stockpile: int, spent: dict[str, int]) -> list[TurnOrder]:
    orders: list[TurnOrder] = []
    for ship in view.own_ships:
        if ship.location != star:
            continue
        missing = Attributes(
            **{
                a.value: ship.built.get(a) - ship.current.get(a)
                for a, _ in ship.built.items()
                if a.value not in ("M", "SH")
            }
        )
        cost = repair_cost(missing)
        if 0 < cost <= stockpile - spent.get(star, 0):
            orders.append(Repair(ship=ship.name, amounts=missing))
            spent[star] = spent.get(star, 0) + cost
        missiles = ship.built.M - ship.current.M
        shells = ship.built.SH - ship.current.SH
        resupply = ceil_div(missiles, MISSILES_PER_BP) + ceil_div(shells, SHELLS_PER_BP)
        if 0 < resupply <= stockpile - spent.get(star, 0):
            orders.append(Resupply(ship=ship.name, missiles=missiles, shells=shells))
            spent[star] = spent.get(star, 0) + resupply
    return orders


def _builds(view: PlayerView, star: str, budget: int, rng: Rng) -> list[TurnOrder]:
    orders: list[TurnOrder] = []
    while budget >= SMALLEST_WARSHIP:
        size = min(budget, rng.randint(SMALLEST_WARSHIP + 8, LARGEST_WARSHIP))
        design = _warship(size - WARP_GENERATOR_COST, view.tech_level, missiles=rng.chance(1, 3))
        cost = design_cost(design, view.tech_level, warp_generator=True, repair_bay=False)
        if cost > budget:
            break
        orders.append(BuildShip(at=star, warp=True, design=design))
        budget -= cost
    return orders


def _warship(points: int, tech_level: int, missiles: bool) -> Attributes:
    """A balanced design: about 40% Power/Drive, the rest weapons and Screens, spare points in Armor."""
    pd = max(2, (points * 2 + 4) // 5)
    rest = points - pd
    if missiles:
        tubes = max(1, rest // 4)
        loads = max(1, rest - tubes - rest // 4)
        return Attributes(PD=pd, T=tubes, M=loads * MISSILES_PER_BP, E=max(0, rest - tubes - loads))
    beam = max(1, rest // 2)
    screen = max(0, rest - beam - 1)
    armor = rest - beam - screen
    return Attributes(PD=pd, B=beam, S=screen, A=armor * (2 + tech_level))


# --- Movement event ---


def _moves(view: PlayerView) -> list[TurnOrder]:
    grid = adjacency(view.hexes)
    bases = [b.star for b in view.own_bases if b.complete]
    ready = [s for s in view.own_ships if s.is_warpship and s.movement_points > 0]
    hurt = [s for s in ready if _hurt(s)]
    guards = _guards(view, [s for s in ready if s not in hurt], bases)
    free = [s for s in ready if s not in hurt and s not in guards]
    goals: dict[str, str] = {}
    for ship in hurt:
        home = _nearest(view, grid, ship.location, bases)
        if home is not None:
            goals[ship.name] = home
    target = _enemy_base_to_strike(view, grid, free)
    if target is not None:
        pace = min(s.movement_points for s in free)
        return _orders_to(view, grid, goals, hurt) + [
            o for s in free if (o := _move_towards(view, grid, s, target, pace)) is not None
        ]
    claimed: set[str] = set()
    for ship in free:
        unowned = [s.hex for s in view.stars if s.owner is None and s.hex not in claimed]
        star = _nearest(view, grid, ship.location, unowned)
        if star is not None:
            goals[ship.name] = star
            claimed.add(star)
    return _orders_to(view, grid, goals, hurt + free)


def _guards(view: PlayerView, healthy: list[Ship], bases: list[str]) -> list[Ship]:
    """The strongest healthy Warpship at each Base stays to defend it."""
    guards = []
    for base in bases:
        present = [s for s in healthy if s.location == base]
        if present:
            guards.append(max(present, key=lambda s: (s.value(), s.name)))
    return guards


def _enemy_base_to_strike(view: PlayerView, grid: Adjacency, group: list[Ship]) -> str | None:
    """The nearest known enemy Base, once the group is big enough to take it."""
    enemy_bases = [s.hex for s in view.stars if s.base_owner not in (None, view.player)]
    if not enemy_bases or len(group) < STRIKE_GROUP or view.turn == 1:
        return None
    return _nearest(view, grid, group[0].location, enemy_bases)


def _orders_to(
    view: PlayerView, grid: Adjacency, goals: dict[str, str], ships: list[Ship]
) -> list[TurnOrder]:
    orders: list[TurnOrder] = []
    for ship in ships:
        if ship.name in goals:
            move = _move_towards(view, grid, ship, goals[ship.name], ship.movement_points)
            if move is not None:
                orders.append(move)
    return orders


def _move_towards(view: PlayerView, grid: Adjacency, ship: Ship, goal: str, pace: int) -> Move | None:
    steps = route(grid, ship.location, goal, view.warplines)[: min(pace, ship.movement_points)]
    if view.turn == 1:
        # "Ships may NOT move onto an enemy Base star during the first turn."
        steps = steps[: next((i for i, s in enumerate(steps) if _enemy_base(view, s.to)), len(steps))]
    return Move(ship=ship.name, steps=tuple(steps)) if steps else None


def _nearest(view: PlayerView, grid: Adjacency, origin: str, stars: list[str]) -> str | None:
    mp = distances(grid, origin, view.warplines)
    reachable = [s for s in stars if s in mp]
    return min(reachable, key=lambda s: (mp[s], s), default=None)


def _hurt(ship: Ship) -> bool:
    return ship.current.PD * 2 < ship.built.PD or ship.current.total() * 2 < ship.built.total()


def _enemy_base(view: PlayerView, hex_: str) -> bool:
    return any(s.hex == hex_ and s.base_owner not in (None, view.player) for s in view.stars)


# --- Combat ---


def _combat_order(ship: Ship, enemies: tuple[str, ...], rng: Rng) -> CombatOrder:
    power = ship.current.PD
    if not enemies or power == 0:
        return CombatOrder(tactic=Tactic.DODGE, screen=min(ship.current.S, power))
    if ship.is_warpship and _hurt(ship):
        screen = min(ship.current.S, power // 2)
        return CombatOrder(tactic=Tactic.RETREAT, drive=power - screen, screen=screen)
    target = rng.choice(enemies)
    tactic = rng.choice(TACTICS)
    fire = min(ship.current.T, ship.current.M, max(1, power // 3))
    if ship.current.B == 0 and fire > 0:
        missiles = tuple(MissileShot(target=target, drive=rng.randint(1, 5)) for _ in range(fire))
        return CombatOrder(tactic=tactic, drive=power - fire, missiles=missiles)
    beam = min(ship.current.B, rng.randint((power + 2) // 3, (power + 1) // 2))
    screen = min(ship.current.S, (power - beam) // 2)
    return CombatOrder(
        tactic=tactic,
        drive=power - beam - screen,
        beam=beam,
        beam_target=target if beam else None,
        screen=screen,
    )

"""The cadet (the easy level): simple, but plays real games.

It repairs and resupplies at Bases, builds balanced Warpships (Beam ships and Missile ships) of
random sizes, keeps a guard at each Base, spreads out to claim unowned stars, and once a strike
group is ready sends it, at the pace of its slowest ship, against the nearest enemy Base it
knows; damaged ships limp home. In combat it picks tactics, targets and Missile drives at random.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.warpwar.components import MISSILES_PER_BP, WARP_GENERATOR_COST, Attributes, design_cost
from engine.warpwar.orders import BuildShip, CombatOrder, MissileShot, Tactic, TurnOrder
from engine.warpwar.robot.common import Router, complete_bases, hurt, repairs
from engine.warpwar.ships import Ship
from engine.warpwar.views import PlayerView

SMALLEST_WARSHIP = 12
LARGEST_WARSHIP = 40
STRIKE_GROUP = 3
TACTICS = (Tactic.ATTACK, Tactic.ATTACK, Tactic.DODGE, Tactic.DODGE, Tactic.ATTACK)


def turn_orders(view: PlayerView, rng: Rng) -> list[TurnOrder]:
    """Build event first (repairs, then ships), then Movement."""
    orders: list[TurnOrder] = []
    spent: dict[str, int] = {}
    for base in view.own_bases:
        if base.complete:
            orders += repairs(view, base.star, base.stockpile, spent)
    for base in view.own_bases:
        if base.complete:
            orders += _builds(view, base.star, base.stockpile - spent.get(base.star, 0), rng)
    return orders + _moves(view)


def combat_order(ship: Ship, enemies: tuple[str, ...], rng: Rng) -> CombatOrder:
    """A random tactic and target; a hurt Warpship retreats."""
    power = ship.current.PD
    if not enemies or power == 0:
        return CombatOrder(tactic=Tactic.DODGE, screen=min(ship.current.S, power))
    if ship.is_warpship and hurt(ship):
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


# --- Build event ---


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
    router = Router(view)
    bases = complete_bases(view)
    ready = [s for s in view.own_ships if s.is_warpship and s.movement_points > 0]
    limping = [s for s in ready if hurt(s)]
    guards = _guards([s for s in ready if s not in limping], bases)
    free = [s for s in ready if s not in limping and s not in guards]
    goals: dict[str, str] = {}
    for ship in limping:
        home = router.nearest(ship.location, bases)
        if home is not None:
            goals[ship.name] = home
    target = _enemy_base_to_strike(router, view, free)
    if target is not None:
        pace = min(s.movement_points for s in free)
        return _orders_to(router, goals, limping) + [
            o for s in free if (o := router.move_towards(s, target, pace)) is not None
        ]
    claimed: set[str] = set()
    for ship in free:
        unowned = [s.hex for s in view.stars if s.owner is None and s.hex not in claimed]
        star = router.nearest(ship.location, unowned)
        if star is not None:
            goals[ship.name] = star
            claimed.add(star)
    return _orders_to(router, goals, limping + free)


def _guards(healthy: list[Ship], bases: list[str]) -> list[Ship]:
    """The strongest healthy Warpship at each Base stays to defend it."""
    guards = []
    for base in bases:
        present = [s for s in healthy if s.location == base]
        if present:
            guards.append(max(present, key=lambda s: (s.value(), s.name)))
    return guards


def _enemy_base_to_strike(router: Router, view: PlayerView, group: list[Ship]) -> str | None:
    """The nearest known enemy Base, once the group is big enough to take it."""
    enemy_bases = [s.hex for s in view.stars if s.base_owner not in (None, view.player)]
    if not enemy_bases or len(group) < STRIKE_GROUP or view.turn == 1:
        return None
    return router.nearest(group[0].location, enemy_bases)


def _orders_to(router: Router, goals: dict[str, str], ships: list[Ship]) -> list[TurnOrder]:
    orders: list[TurnOrder] = []
    for ship in ships:
        if ship.name in goals:
            move = router.move_towards(ship, goals[ship.name], ship.movement_points)
            if move is not None:
                orders.append(move)
    return orders

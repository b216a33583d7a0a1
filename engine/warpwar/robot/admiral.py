"""The admiral (the hard level) in its player-turn: builds, Holds and Bases, and the fleet's moves.

* Build: repair and resupply at Bases first; then a Systemship guard at every Base that has
  none (a Systemship is the cheapest defence, having no Warp Generator to pay for); in the
  Advanced scenario one freighter (a Warpship with Holds for a Base's 30 BP); then Warpships
  as big as the Base's BP allow, saving up until one is worth building. Designs put about two
  fifths of the points into Power/Drive, a fifth into the Beam, some into Screens and the rest
  into Armor, which gives (2 + tech level) points per BP.
* Holds (Advanced): the freighter loads a Base's worth of BP at a Base and carries it to the
  most valuable star it can claim, and builds a Base there (rules IV, Bases).
* Movement: hurt Warpships go home for repair; when a known enemy ship comes within reach of
  a Base, the fleet comes back to defend it; otherwise the fleet gathers at the Base nearest
  the enemy and strikes the nearest enemy Base only when it is strong enough, moving together
  at the pace of its slowest ship; knowing of no enemy Base (a blind game), it explores in force.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.warpwar.components import WARP_GENERATOR_COST, Attributes, armor_per_bp, design_cost
from engine.warpwar.hexgrid import distance
from engine.warpwar.orders import BuildBase, BuildShip, LoadHold, TurnOrder
from engine.warpwar.robot.common import Router, complete_bases, hurt, repairs
from engine.warpwar.ships import Ship
from engine.warpwar.state import BASE_COST, Base, Scenario
from engine.warpwar.views import PlayerView

GUARD_BP = 24
"""A Base's Systemship guard."""
SMALLEST_WARSHIP = 30
LARGEST_WARSHIP = 50
FREIGHTER = Attributes(PD=6, H=3)
"""Three MP, and Holds for exactly one Base (30 BP)."""
SITE_VALUE = 2
"""The least star value worth a Base: it doubles the star's production."""
STRIKE_SHIPS = 3
STRIKE_VALUE = 90
"""BP of Warpships gathered in one hex before they strike."""
THREAT_RANGE = 4
"""Hexes from a Base within which a freshly seen enemy ship calls the fleet back."""


def turn_orders(view: PlayerView, rng: Rng) -> list[TurnOrder]:
    """Build event first (repairs, Holds and Bases, ships), then Movement."""
    del rng  # the admiral's player-turn is deliberate; it varies only in combat
    orders: list[TurnOrder] = []
    spent: dict[str, int] = {}
    bases = [b for b in view.own_bases if b.complete]
    for base in bases:
        orders += repairs(view, base.star, base.stockpile, spent)
    freighters = [s for s in view.own_ships if s.is_warpship and s.built.H > 0]
    loads = _loads(view, freighters, spent)
    orders += [LoadHold(ship=name, amount=amount) for name, amount in sorted(loads.items())]
    orders += _base_building(view, freighters)
    wants_freighter = not freighters and _wants_freighter(view)
    for base in sorted(bases, key=lambda b: (-(b.stockpile - spent.get(b.star, 0)), b.star)):
        budget = base.stockpile - spent.get(base.star, 0)
        built, wants_freighter = _builds(view, base, budget, wants_freighter)
        orders += built
    return orders + _moves(view, freighters, loads)


# --- Build event ---


def _builds(view: PlayerView, base: Base, budget: int, wants_freighter: bool) -> tuple[list[TurnOrder], bool]:
    orders: list[TurnOrder] = []
    tl = view.tech_level
    guarded = any(s.location == base.star and not s.is_warpship for s in view.own_ships)
    if not guarded and budget >= GUARD_BP:
        orders.append(BuildShip(at=base.star, warp=False, design=design(GUARD_BP, tl)))
        budget -= GUARD_BP
    freighter_cost = design_cost(FREIGHTER, tl, warp_generator=True, repair_bay=False)
    if wants_freighter and budget >= freighter_cost:
        orders.append(BuildShip(at=base.star, warp=True, design=FREIGHTER))
        budget -= freighter_cost
        wants_freighter = False
    while budget >= SMALLEST_WARSHIP:
        size = min(budget, LARGEST_WARSHIP)
        orders.append(BuildShip(at=base.star, warp=True, design=design(size - WARP_GENERATOR_COST, tl)))
        budget -= size
    return orders, wants_freighter


def design(points: int, tech_level: int) -> Attributes:
    """A ship of exactly ``points`` BP of attributes: about 40% Power/Drive, 22% Beam, 15%
    Screen, and Armor for the rest."""
    pd = max(2, round(points * 0.4))
    beam = max(1, round(points * 0.22))
    screen = max(0, min(points - pd - beam, round(points * 0.15)))
    armor = max(0, points - pd - beam - screen)
    return Attributes(PD=pd, B=beam, S=screen, A=armor * armor_per_bp(tech_level))


# --- Holds and Bases (Advanced) ---


def _wants_freighter(view: PlayerView) -> bool:
    return view.scenario is Scenario.ADVANCED and bool(_sites(view))


def _sites(view: PlayerView) -> dict[str, int]:
    """Stars worth a Base that the robot may build on, with the BP each still needs."""
    enemy_at = {s.hex for s in view.enemy_ships}
    own = {b.star: b for b in view.own_bases}
    sites = {}
    for star in view.stars:
        if star.value < SITE_VALUE or star.hex in enemy_at or star.owner not in (None, view.player):
            continue
        base = own.get(star.hex)
        if base is None and star.base_owner is None:
            sites[star.hex] = BASE_COST
        elif base is not None and not base.complete:
            sites[star.hex] = BASE_COST - base.invested
    return sites


def _loads(view: PlayerView, freighters: list[Ship], spent: dict[str, int]) -> dict[str, int]:
    """Freighters at a complete Base fill up to a Base's worth from what repairs left."""
    stock = {b.star: b.stockpile for b in view.own_bases if b.complete}
    loads = {}
    for ship in freighters:
        room = min(BASE_COST, ship.free_hold) - ship.cargo
        available = stock.get(ship.location, 0) - spent.get(ship.location, 0)
        amount = min(room, available)
        if amount > 0:
            loads[ship.name] = amount
            spent[ship.location] = spent.get(ship.location, 0) + amount
    return loads


def _base_building(view: PlayerView, freighters: list[Ship]) -> list[TurnOrder]:
    sites = _sites(view)
    return [
        BuildBase(at=ship.location, amount=min(ship.cargo, sites[ship.location]))
        for ship in freighters
        if ship.cargo > 0 and ship.location in sites
    ]


def _freight_goal(router: Router, ship: Ship, cargo: int) -> str | None:
    """Full: the best site (value first, then nearness); else the Base with the most BP."""
    view = router.view
    mp = router.distances(ship.location)
    if cargo >= BASE_COST or (cargo > 0 and ship.location in _sites(view)):
        values = {s.hex: s.value for s in view.stars}
        reachable = [h for h in _sites(view) if h in mp]
        return min(reachable, key=lambda h: (mp[h] - 3 * values[h], h), default=None)
    stocked = [b for b in view.own_bases if b.complete and b.stockpile > 0 and b.star in mp]
    best = max(stocked, key=lambda b: (b.stockpile - 2 * mp[b.star], b.star), default=None)
    return best.star if best is not None else router.nearest(ship.location, complete_bases(view))


# --- Movement event ---


def _moves(view: PlayerView, freighters: list[Ship], loads: dict[str, int]) -> list[TurnOrder]:
    router = Router(view)
    bases = complete_bases(view)
    ready = [s for s in view.own_ships if s.is_warpship and s.movement_points > 0]
    goals: dict[str, str] = {}
    for ship in (s for s in ready if s in freighters):
        goal = _freight_goal(router, ship, ship.cargo + loads.get(ship.name, 0))
        if goal is not None:
            goals[ship.name] = goal
    fleet = [s for s in ready if s not in freighters]
    for ship in (s for s in fleet if hurt(s)):
        home = router.nearest(ship.location, bases)
        if home is not None:
            goals[ship.name] = home
    orders: list[TurnOrder] = []
    for ship in ready:
        if ship.name in goals:
            move = router.move_towards(ship, goals[ship.name], ship.movement_points)
            orders += [move] if move is not None else []
    return orders + _fleet_moves(router, [s for s in fleet if not hurt(s)], bases)


def _fleet_moves(router: Router, fleet: list[Ship], bases: list[str]) -> list[TurnOrder]:
    """Strike when gathered in strength; else defend a threatened Base; else gather."""
    if not fleet:
        return []
    value: dict[str, int] = {}
    for ship in fleet:
        value[ship.location] = value.get(ship.location, 0) + ship.value()
    gathered = max(sorted(value), key=lambda h: value[h])
    group = [s for s in fleet if s.location == gathered]
    target = _enemy_base_to_strike(router, gathered)
    strong = len(group) >= STRIKE_SHIPS and value[gathered] >= STRIKE_VALUE
    if strong and router.view.turn > 1:
        goal = target if target is not None else _star_to_explore(router, gathered)
        if goal is not None:
            pace = min(s.movement_points for s in group)
            return [o for s in fleet if (o := router.move_towards(s, goal, pace)) is not None]
    threatened = _threatened_base(router.view)
    if threatened is not None:
        return _all_to(router, fleet, threatened)
    rally = router.nearest(target, bases) if target is not None else router.nearest(gathered, bases)
    return _all_to(router, fleet, rally or gathered)


def _all_to(router: Router, ships: list[Ship], goal: str) -> list[TurnOrder]:
    return [o for s in ships if (o := router.move_towards(s, goal, s.movement_points)) is not None]


def _threatened_base(view: PlayerView) -> str | None:
    """The own Base nearest a freshly seen enemy ship within THREAT_RANGE hexes of it."""
    fresh = [s.hex for s in view.enemy_ships if s.turn >= view.turn - 1]
    near = [(distance(base.star, h), base.star) for base in view.own_bases for h in fresh]
    closest = min(near, default=None)
    return closest[1] if closest is not None and closest[0] <= THREAT_RANGE else None


def _star_to_explore(router: Router, origin: str) -> str | None:
    """No enemy Base is known (a blind game): the nearest star the robot does not own."""
    view = router.view
    return router.nearest(origin, [s.hex for s in view.stars if s.owner != view.player and s.hex != origin])


def _enemy_base_to_strike(router: Router, origin: str) -> str | None:
    view = router.view
    enemy_bases = [s.hex for s in view.stars if s.base_owner not in (None, view.player)]
    return router.nearest(origin, enemy_bases)

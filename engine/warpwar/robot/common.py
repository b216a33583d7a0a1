"""What every robot level needs: routes over the map it knows, and the Build event's chores.

Everything here reads the robot's own ``PlayerView`` only.
"""

from __future__ import annotations

from functools import cache

from engine.warpwar.components import MISSILES_PER_BP, SHELLS_PER_BP, Attributes, ceil_div, repair_cost
from engine.warpwar.hexgrid import adjacency
from engine.warpwar.orders import Move, Repair, Resupply, TurnOrder
from engine.warpwar.routes import Adjacency, Travel, distances, route
from engine.warpwar.ships import Ship
from engine.warpwar.views import PlayerView


def repairs(view: PlayerView, star: str, stockpile: int, spent: dict[str, int]) -> list[TurnOrder]:
    """Repair, then resupply, every own ship at ``star`` that the Base's BP can pay for in full;
    what is spent is added to ``spent[star]``."""
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


class Router:
    """Cheapest routes and distances over the map the robot knows, each worked out once per
    decision (many ships share a start or a goal)."""

    def __init__(self, view: PlayerView) -> None:
        self.view = view
        self.grid = _grid(view.hexes)
        self._routes: dict[tuple[str, str], list[Travel]] = {}
        self._distances: dict[str, dict[str, int]] = {}

    def distances(self, origin: str) -> dict[str, int]:
        """MP from ``origin`` to every hex it can reach."""
        if origin not in self._distances:
            self._distances[origin] = distances(self.grid, origin, self.view.warplines)
        return self._distances[origin]

    def nearest(self, origin: str, stars: list[str]) -> str | None:
        """The star of ``stars`` fewest MP from ``origin`` (ties: lowest hex), None if none is reachable."""
        mp = self.distances(origin)
        reachable = [s for s in stars if s in mp]
        return min(reachable, key=lambda s: (mp[s], s), default=None)

    def move_towards(self, ship: Ship, goal: str, pace: int) -> Move | None:
        """The first ``pace`` MP of the cheapest route to ``goal`` (never onto an enemy Base star
        on the first turn); None when there is nowhere to go."""
        key = (ship.location, goal)
        if key not in self._routes:
            self._routes[key] = route(self.grid, ship.location, goal, self.view.warplines)
        steps = self._routes[key][: min(pace, ship.movement_points)]
        if self.view.turn == 1:
            # "Ships may NOT move onto an enemy Base star during the first turn."
            steps = steps[: next((i for i, s in enumerate(steps) if enemy_base(self.view, s.to)), len(steps))]
        return Move(ship=ship.name, steps=tuple(steps)) if steps else None


@cache
def _grid(hexes: tuple[str, ...]) -> Adjacency:
    return adjacency(hexes)


def hurt(ship: Ship) -> bool:
    """Half its Power/Drive, or half of everything, is gone."""
    return ship.current.PD * 2 < ship.built.PD or ship.current.total() * 2 < ship.built.total()


def enemy_base(view: PlayerView, hex_: str) -> bool:
    return any(s.hex == hex_ and s.base_owner not in (None, view.player) for s in view.stars)


def complete_bases(view: PlayerView) -> list[str]:
    return [b.star for b in view.own_bases if b.complete]

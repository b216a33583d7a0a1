"""The forecast: what a player's orders will do if nothing else changes (issue 3, "the player gets
a forecast of what will happen if nothing else changes").

It is read from the same walk of the orders as the checks (``check.simulate``), so it agrees with
them: orders with errors are left out (they are not submitted), BP are spent in the engine's
order, ships get the names the engine will give, and a ship heading through a star where enemy
ships were seen stops there. Income for the next turn follows ``economy.collect_income``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.warpwar.economy import BASE_PRODUCTION_FACTOR, BASELESS_PRODUCTION_DIVISOR, BASIC_INCOME
from engine.warpwar.lang.check import Simulation, simulate, where
from engine.warpwar.orders import TurnOrders
from engine.warpwar.state import BASE_COST, Scenario
from engine.warpwar.views import PlayerView


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class BaseForecast(Frozen):
    """A Base of the player's: BP in its stockpile (or BP invested, while being built)."""

    star: str
    place: str
    complete_before: bool
    complete_after: bool
    before: int
    after: int


class BuildForecast(Frozen):
    name: str
    star: str
    place: str
    cost: int
    record: str


class RepairForecast(Frozen):
    ship: str
    cost: int
    record: str


class ScrapForecast(Frozen):
    ship: str
    place: str
    bp: int


class MinedForecast(Frozen):
    """BP mined at a Baseless star this turn: stowed in Holds there at the end of the Build event, or lost."""

    place: str
    stowed: int
    lost: int


class MoveForecast(Frozen):
    ship: str
    path: tuple[str, ...]
    end: str
    place: str
    mp: int
    mp_left: int
    stopped_by_enemy: bool


class CombatForecast(Frozen):
    star: str
    place: str
    own: tuple[str, ...]
    enemies: tuple[str, ...]


class IncomeForecast(Frozen):
    """BP expected at the start of the player's next turn (rules IV, economics)."""

    total: int
    to_bases: int
    at_baseless_stars: int


class Forecast(Frozen):
    bases: tuple[BaseForecast, ...] = ()
    builds: tuple[BuildForecast, ...] = ()
    repairs: tuple[RepairForecast, ...] = ()
    scrapped: tuple[ScrapForecast, ...] = ()
    mined: tuple[MinedForecast, ...] = ()
    moves: tuple[MoveForecast, ...] = ()
    combats: tuple[CombatForecast, ...] = ()
    income: IncomeForecast | None = None

    def lines(self) -> list[str]:
        """Short lines for the acknowledgement, Build event first, then moves, combats, income."""
        lines = [_base_line(b) for b in self.bases]
        lines += [f"{b.name} will be built at {b.place} for {b.cost} BP: {b.record}" for b in self.builds]
        lines += [f"{s.ship} will be scrapped at {s.place} for {s.bp} BP" for s in self.scrapped]
        lines += [f"{r.ship} repaired or resupplied for {r.cost} BP: {r.record}" for r in self.repairs]
        lines += [_mined_line(m) for m in self.mined]
        lines += [_move_line(m) for m in self.moves]
        lines += [
            f"combat expected at {c.place}: {', '.join(c.own)} against {', '.join(c.enemies)}"
            for c in self.combats
        ]
        if self.income is not None:
            lines.append(_income_line(self.income))
        return lines


def forecast(turn: TurnOrders, view: PlayerView) -> Forecast:
    """What ``turn`` will do if nothing else changes, as far as the player can see."""
    sim = simulate(turn, view)
    return Forecast(
        bases=_bases(sim),
        builds=tuple(
            BuildForecast(name=b.name, star=b.star, place=where(view, b.star), cost=b.cost, record=b.record)
            for b in sim.built
        ),
        repairs=tuple(RepairForecast(ship=r.ship, cost=r.cost, record=r.record) for r in sim.repaired),
        scrapped=tuple(ScrapForecast(ship=s.ship, place=where(view, s.star), bp=s.bp) for s in sim.scrapped),
        mined=tuple(
            MinedForecast(place=where(view, b.star), stowed=b.stowed, lost=b.lost) for b in sim.banked
        ),
        moves=tuple(
            MoveForecast(
                ship=m.ship,
                path=m.path,
                end=m.path[-1],
                place=where(view, m.path[-1]),
                mp=m.mp,
                mp_left=m.mp - m.used,
                stopped_by_enemy=m.stopped_at is not None,
            )
            for m in sim.moved
        ),
        combats=_combats(sim),
        income=_income(sim),
    )


def _bases(sim: Simulation) -> tuple[BaseForecast, ...]:
    before = {b.star: b for b in sim.view.own_bases}
    rows = []
    for star in sorted(set(before) | set(sim.bases)):
        old, new = before.get(star), sim.bases.get(star)
        if new is None:
            continue
        rows.append(
            BaseForecast(
                star=star,
                place=where(sim.view, star),
                complete_before=old is not None and old.complete,
                complete_after=new.complete,
                before=_bp(old.stockpile, old.invested, old.complete) if old is not None else 0,
                after=_bp(new.stockpile, new.invested, new.complete),
            )
        )
    return tuple(rows)


def _bp(stockpile: int, invested: int, complete: bool) -> int:
    return stockpile if complete else invested


def _combats(sim: Simulation) -> tuple[CombatForecast, ...]:
    """Stars where the player's ships will be and enemy ships were seen: combat MUST occur there."""
    stars = {s.hex for s in sim.view.stars}
    enemies: dict[str, list[str]] = {}
    for sighting in sim.view.enemy_ships:
        enemies.setdefault(sighting.hex, []).append(sighting.ship)
    rows = []
    for star in sorted(stars & set(enemies)):
        own = sorted(s.name for s in sim.ships.values() if s.location == star and s.carried_by is None)
        if own:
            rows.append(
                CombatForecast(
                    star=star,
                    place=where(sim.view, star),
                    own=tuple(own),
                    enemies=tuple(sorted(enemies[star])),
                )
            )
    return tuple(rows)


def _income(sim: Simulation) -> IncomeForecast | None:
    """ "If a friendly Base is present, the player collects double the BP value of that system ...;
    if no Base is present, one half the basic BP value is collected" (Basic: a flat 8 BP)."""
    view = sim.view
    complete = {star for star, base in sim.bases.items() if base.complete}
    if view.scenario is Scenario.BASIC:
        return (
            IncomeForecast(total=BASIC_INCOME, to_bases=BASIC_INCOME, at_baseless_stars=0)
            if complete
            else None
        )
    owned = {s.hex for s in view.stars if s.owner == view.player} | sim.claimed
    to_bases = at_stars = 0
    for star in view.stars:
        if star.hex not in owned:
            continue
        if star.hex in complete:
            to_bases += star.value * BASE_PRODUCTION_FACTOR
        else:
            at_stars += star.value // BASELESS_PRODUCTION_DIVISOR
    if not owned:
        return None
    return IncomeForecast(total=to_bases + at_stars, to_bases=to_bases, at_baseless_stars=at_stars)


def _base_line(base: BaseForecast) -> str:
    if base.complete_before:
        return f"Base at {base.place}: {base.before} BP now, {base.after} BP after the Build event"
    if base.complete_after:
        done = f"{BASE_COST}/{BASE_COST} BP"
        return f"Base at {base.place}: complete this turn ({done}), works from your next turn"
    return (
        f"Base being built at {base.place}: {base.before}/{BASE_COST} BP now, {base.after}/{BASE_COST} after"
    )


def _mined_line(mined: MinedForecast) -> str:
    if mined.lost == 0:
        return f"{mined.stowed} BP mined at {mined.place} go into Holds there"
    return f"{mined.stowed + mined.lost} BP mined at {mined.place}: {mined.lost} lost for want of Hold space"


def _move_line(move: MoveForecast) -> str:
    route = " > ".join(move.path)
    left = f"{move.mp_left} of {move.mp} MP left"
    if move.stopped_by_enemy:
        return f"{move.ship}: {route}, stops at {move.place} (enemy ships seen there), {left}"
    return f"{move.ship}: {route}, ends at {move.place}, {left}"


def _income_line(income: IncomeForecast) -> str:
    if income.at_baseless_stars == 0:
        return f"income next turn: {income.total} BP to your Bases"
    return (
        f"income next turn: {income.total} BP ({income.to_bases} to your Bases, "
        f"{income.at_baseless_stars} at "
        "Baseless stars, lost unless a ship there has Hold space)"
    )

"""Small states for LTA tests: Zeppelins built from designs and placed by hand, and seeds whose
streams open with the dice a test needs."""

from __future__ import annotations

from engine.core.rng import Rng
from engine.lta.dice import commitment
from engine.lta.fleet import Design, Fitting, build
from engine.lta.hexmap import Arc, Facing
from engine.lta.state import Airship, GameState, Initiative, Phase, PlayerState, Scenario
from engine.lta.tables import Cargo, ShipClass, Weapon


def gun(kind: Weapon, arc: Arc = Arc.FORWARD) -> Fitting:
    return Fitting(kind=kind, arc=arc)


def cargo(kind: Cargo, ammo_for: Weapon | None = None) -> Fitting:
    return Fitting(kind=kind, ammo_for=ammo_for)


def zeppelin(
    ship_id: str = "A1",
    owner: str = "Red",
    cls: ShipClass = ShipClass.CRUISER,
    fittings: tuple[Fitting, ...] = (),
    at: tuple[int, int] = (10, 10),
    facing: Facing = Facing.N,
    altitude: int = 5,
    small_arms: bool = False,
    name: str | None = None,
) -> Airship:
    design = Design(name=name or f"Ship{ship_id}", cls=cls, fittings=fittings, small_arms=small_arms)
    return build(design, ship_id, owner, at, facing, altitude)


STILL_AIR = ((12, (1, 2, 3, 4, 5, 6, 7, 8)), (6, (1, 2)))
"""A wind that blows at speed 0: a direction from the table, then 1 or 2 on the speed die."""


def seed_opening(*dice: tuple[int, int | tuple[int, ...]], start: int = 0) -> int:
    """The first seed from ``start`` whose stream opens with these dice: (sides, value or values)."""
    seed = start
    while True:
        rng = Rng(seed)
        if all(rng.d(sides) in (want if isinstance(want, tuple) else (want,)) for sides, want in dice):
            return seed
        seed += 1


def game(
    ships: tuple[Airship, ...],
    players: tuple[str, ...] = ("Red", "Blue"),
    seeds: dict[str, int] | None = None,
    phase: Phase = Phase.COMBAT,
    scenario: Scenario = Scenario.FLEET_BATTLE,
    turn_limit: int = 12,
    sides: dict[str, str] | None = None,
) -> GameState:
    seeds = seeds or {}
    return GameState(
        game_id="t",
        scenario=scenario,
        phase=phase,
        turn_limit=turn_limit,
        players=tuple(
            PlayerState(
                id=p,
                name=p,
                side=(sides or {}).get(p, p),
                seed=seeds.get(p, n + 1),
                commitment=commitment(p, seeds.get(p, n + 1)),
            )
            for n, p in enumerate(players)
        ),
        ships=ships,
        initiative=Initiative(
            ranking=players, winner=players[0], chooser=players[0], order=players, choice="first"
        ),
    )

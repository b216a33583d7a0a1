"""Small builders for engine tests: a strip map, a two-player state, ships from records."""

from __future__ import annotations

import re
from functools import cache

from engine.warpwar import robot
from engine.warpwar.components import Attr, Attributes
from engine.warpwar.context import Step
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.hexgrid import hex_id
from engine.warpwar.ships import Ship, ship_uid
from engine.warpwar.starmap import HomeStars, Star, StarMap, Warpline
from engine.warpwar.state import (
    Base,
    GameConfig,
    GameState,
    Player,
    PlayerSpec,
    Scenario,
    Stage,
    StarControl,
    Visibility,
)

# A 10 x 10 block of hexes (cols 1-10, rows 1-10) with stars two or more hexes apart.
STARS = (
    Star(hex="0101", name="Alpha", value=2),
    Star(hex="0103", name="Beta", value=3),
    Star(hex="0301", name="Gamma", value=1),
    Star(hex="0505", name="Delta", value=4),
    Star(hex="0808", name="Epsilon", value=2),
    Star(hex="1010", name="Zeta", value=3),
    Star(hex="1008", name="Eta", value=1),
    Star(hex="0810", name="Theta", value=5),
)
WARPLINES = (
    Warpline(a="0101", b="0505"),
    Warpline(a="0505", b="0808"),
    Warpline(a="0808", b="1010"),
)


def block_map() -> StarMap:
    hexes = tuple(sorted(hex_id(c, r) for c in range(1, 11) for r in range(1, 11)))
    return StarMap(
        name="Block",
        hexes=hexes,
        stars=STARS,
        warplines=WARPLINES,
        homes=(
            HomeStars(stars=("0101", "0103", "0301")),
            HomeStars(stars=("1010", "1008", "0810")),
        ),
    )


def make_state(
    scenario: Scenario = Scenario.ADVANCED,
    visibility: Visibility = Visibility.OPEN,
    turn: int = 2,
    with_bases: bool = True,
    star_map: StarMap | None = None,
) -> GameState:
    """Two players, P1 at the top-left end, P2 at the bottom-right end, Bases on home stars."""
    star_map = star_map or block_map()
    players = [
        Player(id="P1", name="One", home=star_map.homes[0].stars),
        Player(id="P2", name="Two", home=star_map.homes[1].stars),
    ]
    state = GameState(
        config=GameConfig(
            game_id="test",
            scenario=scenario,
            visibility=visibility,
            players=(PlayerSpec(id="P1", name="One"), PlayerSpec(id="P2", name="Two")),
        ),
        seed=1,
        map=star_map,
        players=players,
        turn=turn,
    )
    if with_bases:
        for player in players:
            for star in player.home:
                state.bases[star] = Base(star=star, owner=player.id)
                state.control[star] = StarControl(owner=player.id, since_turn=0)
    return state


_FIELD = re.compile(r"(PD|SH|SR|B|S|T|M|C|E|A|H|R)=(?:\{(\d+)\})?(\d+)")


def ship_from_record(record: str, owner: str = "P1", location: str = "0505") -> Ship:
    """A ship from the rules' notation, e.g. ``W4: TL0 PD={7}6 B=3 S={3}2 C=1 SH={12}6 E=1``."""
    name, rest = record.split(":", 1)
    tech_level = int(re.search(r"TL\s*(\d+)", rest).group(1))  # type: ignore[union-attr]
    built: dict[str, int] = {}
    current: dict[str, int] = {}
    repair_bay = False
    for attr, was, now in _FIELD.findall(rest):
        if attr == "R":
            repair_bay = True
            continue
        built[attr] = int(was or now)
        current[attr] = int(now)
    return Ship(
        name=name.strip(),
        owner=owner,
        tech_level=tech_level,
        built_turn=1,
        warp_generator=name.strip().startswith("W"),
        repair_bay=repair_bay,
        built=Attributes(**built),
        current=Attributes(**current),
        location=location,
    )


def add_ship(state: GameState, record: str, owner: str = "P1", location: str = "0505") -> Ship:
    ship = ship_from_record(record, owner, location)
    state.ships[ship.uid] = ship
    return ship


def carry(state: GameState, carrier: Ship, systemship: Ship) -> None:
    systemship.carried_by = carrier.uid
    systemship.location = carrier.location
    carrier.carrying.append(systemship.uid)


def step_for(state: GameState) -> Step:
    return Step(state)


__all__ = [
    "Attr",
    "add_ship",
    "block_map",
    "carry",
    "make_state",
    "robot_game_states",
    "ship_from_record",
    "ship_uid",
    "step_for",
]


@cache
def robot_game_states(visibility: Visibility, seed: int, limit: int) -> tuple[GameState, ...]:
    """The states of a two-robot Advanced game on the classic map at the start of every
    player-turn, until it ends or ``limit`` states are collected."""
    players = (PlayerSpec(id="Red", name="Red"), PlayerSpec(id="Blue", name="Blue"))
    config = GameConfig(game_id="robots", scenario=Scenario.ADVANCED, visibility=visibility, players=players)
    state = WarpWar().new_game(Setup(config=config), seed).state
    states = [state]
    while state.stage is not Stage.OVER and len(states) < limit:
        state = robot.play_turn(state).state
        states.append(state)
    return tuple(states)

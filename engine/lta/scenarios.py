"""The two scenarios, their budgets, starting places, ready-made fleets and victory
conditions (interpretations 11 to 13): the text leaves all of these to the referee."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.lta.fleet import Design, Fitting, cost, fleet_problems
from engine.lta.hexmap import Arc, Facing
from engine.lta.state import Airship, GameState, Scenario, Status
from engine.lta.tables import Cargo, ShipClass, Weapon

MAX_FLEET = 8
FLEET_BATTLE_BUDGET = 250
CONVOY_BUDGET = 300
"""The convoy's budget, and the raiders' together (split evenly between them)."""
CONVOY_MIN_BULK = 4
TURN_LIMITS = {Scenario.FLEET_BATTLE: 12, Scenario.CONVOY: 15}
START_ALTITUDE = 5
CONVOY = "convoy"
RAIDERS = "raiders"


class PlayerSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
    name: str


class Anchor(BaseModel):
    """Where a player's first Zeppelin starts; the others fill every second hex of a line of four
    beside it (``cols``: -1 or 1 along the row), further lines two rows off (``rows``)."""

    model_config = ConfigDict(frozen=True)

    col: int
    row: int
    facing: Facing
    cols: int
    rows: int

    def place(self, n: int) -> tuple[int, int]:
        return self.col + self.cols * 2 * (n % 4), self.row + self.rows * 2 * (n // 4)


_BATTLE_ANCHORS = (
    Anchor(col=4, row=4, facing=Facing.SE, cols=1, rows=1),
    Anchor(col=27, row=17, facing=Facing.NW, cols=-1, rows=-1),
    Anchor(col=15, row=2, facing=Facing.S, cols=1, rows=1),
    Anchor(col=15, row=19, facing=Facing.N, cols=1, rows=-1),
    Anchor(col=27, row=4, facing=Facing.SW, cols=-1, rows=1),
    Anchor(col=4, row=17, facing=Facing.NE, cols=1, rows=-1),
)
_CONVOY_ANCHOR = Anchor(col=2, row=8, facing=Facing.SE, cols=1, rows=1)
_RAIDER_ANCHORS = (
    Anchor(col=26, row=2, facing=Facing.S, cols=-1, rows=1),
    Anchor(col=26, row=19, facing=Facing.N, cols=-1, rows=-1),
    Anchor(col=28, row=9, facing=Facing.NW, cols=-1, rows=1),
    Anchor(col=14, row=2, facing=Facing.S, cols=-1, rows=1),
    Anchor(col=14, row=19, facing=Facing.N, cols=-1, rows=-1),
)


def _d(name: str, cls: ShipClass, *fittings: Fitting, small_arms: bool = False) -> Design:
    return Design(name=name, cls=cls, fittings=fittings, small_arms=small_arms)


def _w(kind: Weapon, arc: Arc) -> Fitting:
    return Fitting(kind=kind, arc=arc)


_PATCH = Fitting(kind=Cargo.PATCH_CREW)
_BULK = Fitting(kind=Cargo.BULK_CARGO)
_MIDGE = _d("Midge", ShipClass.SCOUT, _w(Weapon.MACHINE_GUN, Arc.FORWARD))
_GADFLY = _d("Gadfly", ShipClass.SCOUT, _w(Weapon.MACHINE_GUN, Arc.FORWARD))

_BATTLE_FLEET = (
    _d(
        "Dreadnought",
        ShipClass.CRUISER,
        _w(Weapon.LARGE_CANNON, Arc.FORWARD),
        _w(Weapon.SMALL_CANNON, Arc.STARBOARD),
        _w(Weapon.SMALL_CANNON, Arc.PORT),
        _w(Weapon.MACHINE_GUN, Arc.AFT),
        _PATCH,
        small_arms=True,
    ),
    _d(
        "Hornet",
        ShipClass.DESTROYER,
        _w(Weapon.SMALL_CANNON, Arc.FORWARD),
        _w(Weapon.SMALL_CANNON, Arc.AFT),
        _w(Weapon.MACHINE_GUN, Arc.FORWARD),
        _PATCH,
    ),
    _GADFLY,
)
_CONVOY_FLEET = (
    _d(
        "Argosy",
        ShipClass.FRIGATE,
        _BULK,
        _BULK,
        _BULK,
        _w(Weapon.MACHINE_GUN, Arc.AFT),
        _PATCH,
        small_arms=True,
    ),
    _d(
        "Caravel",
        ShipClass.FRIGATE,
        _BULK,
        _BULK,
        _BULK,
        _w(Weapon.MACHINE_GUN, Arc.AFT),
        _PATCH,
        small_arms=True,
    ),
    _d(
        "Shepherd",
        ShipClass.ESCORT,
        _w(Weapon.SMALL_CANNON, Arc.FORWARD),
        _w(Weapon.MACHINE_GUN, Arc.FORWARD),
        _PATCH,
        small_arms=True,
    ),
    _d(
        "Collie",
        ShipClass.ESCORT,
        _w(Weapon.SMALL_CANNON, Arc.FORWARD),
        _w(Weapon.MACHINE_GUN, Arc.STARBOARD),
        _PATCH,
    ),
)
_RAIDER_FLEET = (
    _d(
        "Corsair",
        ShipClass.CRUISER,
        _w(Weapon.LARGE_CANNON, Arc.FORWARD),
        _w(Weapon.SMALL_CANNON, Arc.FORWARD),
        _w(Weapon.MACHINE_GUN, Arc.STARBOARD),
        _w(Weapon.MACHINE_GUN, Arc.PORT),
        _PATCH,
        small_arms=True,
    ),
    _d(
        "Buccaneer",
        ShipClass.DESTROYER,
        _w(Weapon.SMALL_CANNON, Arc.FORWARD),
        _w(Weapon.MACHINE_GUN, Arc.FORWARD),
        _w(Weapon.FLAME_THROWER, Arc.FORWARD),
        _PATCH,
    ),
    _GADFLY,
    _MIDGE,
)


def side(scenario: Scenario, seat: int, player: str) -> str:
    """The convoy is the first seat; everyone else raids it together. A fleet battle is every
    player for themselves."""
    if scenario is Scenario.CONVOY:
        return CONVOY if seat == 0 else RAIDERS
    return player


def budget(scenario: Scenario, seat: int, players: int) -> int:
    if scenario is Scenario.FLEET_BATTLE:
        return FLEET_BATTLE_BUDGET
    return CONVOY_BUDGET if seat == 0 else CONVOY_BUDGET // (players - 1)


def anchor(scenario: Scenario, seat: int) -> Anchor:
    if scenario is Scenario.FLEET_BATTLE:
        return _BATTLE_ANCHORS[seat]
    return _CONVOY_ANCHOR if seat == 0 else _RAIDER_ANCHORS[seat - 1]


def default_fleet(scenario: Scenario, seat: int, players: int) -> tuple[Design, ...]:
    """The ready-made fleet for a seat: each design of the scenario's list, in order, that still
    fits the seat's budget."""
    candidates: tuple[Design, ...]
    if scenario is Scenario.FLEET_BATTLE:
        candidates = _BATTLE_FLEET
    else:
        candidates = _CONVOY_FLEET if seat == 0 else _RAIDER_FLEET
    left = budget(scenario, seat, players)
    chosen: list[Design] = []
    for design in candidates:
        if cost(design) <= left:
            chosen.append(design)
            left -= cost(design)
    return tuple(chosen)


def seat_problems(scenario: Scenario, seat: int, players: int, fleet: tuple[Design, ...]) -> list[str]:
    """Why a seat cannot fly this fleet (its designs, its budget, its size, a convoy's cargo)."""
    found = fleet_problems(fleet, budget(scenario, seat, players))
    if len(fleet) > MAX_FLEET:
        found.append(f"A fleet has at most {MAX_FLEET} Zeppelins.")
    if scenario is Scenario.CONVOY and seat == 0:
        bulk = sum(f.kind is Cargo.BULK_CARGO for d in fleet for f in d.fittings)
        if bulk < CONVOY_MIN_BULK:
            found.append(f"The convoy carries at least {CONVOY_MIN_BULK} Bulk Cargo.")
    return found


class Setup(BaseModel):
    """A new game: the scenario, 2 to 6 players in seat order, and any fleets they built (a seat
    without one gets the scenario's ready-made fleet)."""

    model_config = ConfigDict(frozen=True)

    game_id: str
    scenario: Scenario = Scenario.FLEET_BATTLE
    players: tuple[PlayerSpec, ...] = Field(min_length=2, max_length=6)
    fleets: dict[str, tuple[Design, ...]] = Field(default_factory=dict)
    turn_limit: int | None = Field(None, ge=1, le=99)
    building: bool = False
    """The players mail their own fleets before turn 1 (interpretation 20); until then each
    seat's fleet above is the one it flies if its player sends none."""

    @model_validator(mode="after")
    def _fleets_are_legal(self) -> Setup:
        ids = [p.id for p in self.players]
        if len({i.lower() for i in ids}) != len(ids):
            raise ValueError("each player needs an id of their own")
        unknown = sorted(set(self.fleets) - set(ids))
        if unknown:
            raise ValueError(f"fleets for players not in the game: {', '.join(unknown)}")
        found = [
            f"{player}: {p}"
            for seat, player in enumerate(ids)
            for p in seat_problems(self.scenario, seat, len(ids), self.fleet(seat))
        ]
        if found:
            raise ValueError(" ".join(found))
        return self

    def fleet(self, seat: int) -> tuple[Design, ...]:
        player = self.players[seat].id
        return self.fleets.get(player) or default_fleet(self.scenario, seat, len(self.players))


def delivered(state: GameState) -> int:
    """Bulk Cargo carried off the map's east edge."""
    return sum(
        s.count(Cargo.BULK_CARGO) for s in state.ships if s.status is Status.DEPARTED and s.exit_edge == "E"
    )


def _carrying(ship: Airship) -> bool:
    return ship.flying and ship.count(Cargo.BULK_CARGO) > 0


def outcome(state: GameState) -> tuple[tuple[str, ...], str] | None:
    """The winners and why, once the game is over after this turn's combat; None while it goes on."""
    last_turn = state.turn >= state.turn_limit
    if state.scenario is Scenario.CONVOY:
        convoy = state.players[0].id
        if not last_turn and any(_carrying(s) for s in state.ships if s.owner == convoy):
            return None
        got = delivered(state)
        reason = f"the convoy delivered {got} of {state.convoy_cargo} Bulk Cargo"
        if 2 * got >= state.convoy_cargo:
            return (convoy,), reason
        return tuple(p.id for p in state.players[1:]), reason
    flying = state.in_play()
    if len(flying) <= 1:
        return tuple(flying), "one fleet is left flying" if flying else "no Zeppelin is left flying"
    if not last_turn:
        return None
    strength = {p: sum(s.cost for s in state.ships if s.owner == p and s.flying) for p in flying}
    best = max(strength.values())
    return tuple(
        p for p in flying if strength[p] == best
    ), "the turn limit: the strongest fleet still flying wins"

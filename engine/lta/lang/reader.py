"""An order mail read and checked against what the player sees, line by line.

Movement phase::

    INITIATIVE LAST          (only the player who chooses this turn; FIRST or LAST)
    MOVE A1 FFRFU            (or the ship's name; letters may be spaced; STAY for none)

Combat phase::

    FIRE A1 2 AT B3          (item 2 of A1's cargo; SA for its Small Arms)
    DROP A1 5 ON B3          (Bombs, the same as FIRE)

Before turn 1, when the players build their own fleets (engine/lta/lang/shipline.py)::

    SHIP Escort Blitzkrieger: L.Cannon F, S.Cannon F, Machine Gun A, Small Arms

Any phase: a line ``DONE`` (or ``READY``) says the orders are final even if some lines were
refused (docs/players.md, "Orders in, or only kept: DONE").

Every problem names its line and says what to write instead; nothing a player writes raises.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from engine.core.orderblock import Header, Problem, SourceLine, find_block, number, written
from engine.lta.combat import Refused, aim
from engine.lta.fleet import Design, cost
from engine.lta.fleet import problems as design_problems
from engine.lta.lang.printer import build_lines, combat_lines, movement_lines
from engine.lta.lang.shipline import MESSAGES as SHIP_MESSAGES
from engine.lta.lang.shipline import is_ship_line, joined, read_ship
from engine.lta.orders import SMALL_ARMS, BuildOrders, CombatOrders, FireOrder, MovementOrders, MoveOrder
from engine.lta.scenarios import MAX_FLEET, seat_problems
from engine.lta.state import Airship, Phase
from engine.lta.tables import Cargo, Weapon
from engine.lta.views import PlayerView, ShipSighting

UNKNOWN_ORDER = "this is not an order: write MOVE, INITIATIVE (movement) or FIRE, DROP (combat)"
WRONG_PHASE_FIRE = "the game waits for movement orders now; FIRE and DROP come after the map update"
WRONG_PHASE_MOVE = "the game waits for combat orders now; movement for this turn is over"
NOT_YOUR_SHIP = "you have no Zeppelin {name} flying"
BAD_STEPS = 'a move is letters F (ahead), L, R (turn), U, D (climb, descend), or STAY: "{steps}" is not'
TOO_MANY_STEPS = "{ship} has {points} Movement Points: the move stops after {points} letters"
CANNOT_TURN = "{ship}'s steering is shot away: its L and R will not be carried out"
MOVED_TWICE = "{ship} is moved twice: the later line counts"
INITIATIVE_FORM = "write INITIATIVE FIRST or INITIATIVE LAST"
NOT_CHOOSER = "{chooser} chooses first or last this turn, not you: this line is ignored"
FIRE_FORM = "write FIRE <your ship> <item number or SA> AT <target>, e.g. FIRE A1 2 AT B3"
NO_ITEM = "{ship} has no item {item}: its items are {items}"
DOES_NOT_FIRE = "item {item} of {ship} is {kind}, which does not fire"
NO_SMALL_ARMS = "{ship} carries no Small Arms"
NO_TARGET = "there is no Zeppelin {name} flying to fire at"
OWN_SIDE = "{name} is on your side"
FIRED_TWICE = "item {item} of {ship} fires once a turn: the later line counts"
OUT_OF_REACH = "as the map stands, this shot cannot be made ({why}); the wind may change that, so it stands"
WRONG_TURN = "these are orders for turn {sent}, but the game is at turn {turn}"
DONE_ALONE = "{word} stands alone on its line: the rest of this line is ignored"
BUILD_ONLY = "the game waits for your fleet now: write SHIP lines (movement and combat come after)"
NOT_BUILDING = "fleets are built before turn 1: the game is past that"
OVER_BUDGET = "{name} ({ship_cost} RP) brings the fleet to {total} Resource Points; your budget is {budget}"
SAME_NAME = "a Zeppelin named {name} is in this fleet already: the later line counts"
TOO_MANY_SHIPS = "a fleet has at most {most} Zeppelins: this one is left out"
FLEET_REFUSED = "{why} Nothing is submitted: you fly the ready-made fleet unless you mail one that can fly"

MESSAGES: tuple[str, ...] = (
    UNKNOWN_ORDER,
    WRONG_PHASE_FIRE,
    WRONG_PHASE_MOVE,
    NOT_YOUR_SHIP,
    BAD_STEPS,
    TOO_MANY_STEPS,
    CANNOT_TURN,
    MOVED_TWICE,
    INITIATIVE_FORM,
    NOT_CHOOSER,
    FIRE_FORM,
    NO_ITEM,
    DOES_NOT_FIRE,
    NO_SMALL_ARMS,
    NO_TARGET,
    OWN_SIDE,
    FIRED_TWICE,
    OUT_OF_REACH,
    WRONG_TURN,
    DONE_ALONE,
    BUILD_ONLY,
    NOT_BUILDING,
    OVER_BUDGET,
    SAME_NAME,
    TOO_MANY_SHIPS,
    FLEET_REFUSED,
    *SHIP_MESSAGES,
)
"""Every message a line can get (docs/lta-players.md lists them)."""

_MOVE = re.compile(r"^MOVE\s+(\S+)\s*(.*)$", re.IGNORECASE)
_FIRE = re.compile(r"^(FIRE|DROP)\s+(\S+)\s+(\S+)\s+(?:AT|ON)\s+(\S+)$", re.IGNORECASE)
_INITIATIVE = re.compile(r"^INITIATIVE\b\s*(.*)$", re.IGNORECASE)
_DONE = re.compile(r"^(DONE|READY)\b!?\s*(.*)$", re.IGNORECASE)


class Reading(BaseModel):
    """What one order mail said, for the phase the game waits for."""

    model_config = ConfigDict(frozen=True)

    found: bool
    header: Header
    phase: Phase
    movement: MovementOrders | None
    combat: CombatOrders | None
    build: BuildOrders | None
    understood: tuple[str, ...]
    """The accepted orders, printed canonically."""
    lines: int
    """Order lines in the block, accepted or not (a DONE line is not an order)."""
    done: bool
    """The block has a line DONE (or READY): its orders count as in despite refused lines."""
    problems: tuple[Problem, ...]

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


def _problem(
    line: SourceLine, message: str, severity: str = "error", suggest: tuple[str, ...] = ()
) -> Problem:
    return Problem(
        line=line.number,
        text=written(line),
        message=message,
        severity="warning" if severity == "warning" else "error",
        suggestions=suggest,
    )


def find(view: PlayerView, name: str, own: bool) -> tuple[Airship | ShipSighting | None, tuple[str, ...]]:
    """A flying Zeppelin by id or name (any case), the player's own or anyone's, and close
    matches when there is none."""
    pool: list[Airship | ShipSighting] = (
        [s for s in view.own_ships if s.flying] if own else [s for s in view.ships if s.status == "flying"]
    )
    for ship in pool:
        if name.lower() in (ship.id.lower(), ship.name.lower()):
            return ship, ()
    names = [s.id for s in pool] + [s.name for s in pool]
    return None, tuple(difflib.get_close_matches(name, names, n=2, cutoff=0.6))


def read(body: str, view: PlayerView) -> Reading:
    block = find_block(body)
    problems = list(block.problems)
    wrong_turn = block.header.turn is not None and block.header.turn != view.turn
    if wrong_turn:
        message = WRONG_TURN.format(sent=block.header.turn, turn=view.turn)
        problems.append(Problem(line=None, text="", message=message))
    moves: dict[str, MoveOrder] = {}
    fire: dict[tuple[str, int], FireOrder] = {}
    initiative: str | None = None
    ships: dict[str, Design] = {}
    done = False
    orders = 0
    for line in joined(block.lines):
        if (said := _DONE.match(line.text)) is not None:
            done = True
            if said.group(2):
                problems.append(_problem(line, DONE_ALONE.format(word=said.group(1).upper()), "warning"))
            continue
        orders += 1
        if view.phase is Phase.BUILD and not is_ship_line(line.text):
            problems.append(_problem(line, BUILD_ONLY))
        elif is_ship_line(line.text):
            problems += _ship(line, view, ships)
        elif _MOVE.match(line.text):
            problems += _move(line, view, moves)
        elif _FIRE.match(line.text) or line.text.upper().startswith(("FIRE", "DROP")):
            problems += _fire(line, view, fire)
        elif (m := _INITIATIVE.match(line.text)) is not None:
            choice, wrong = _initiative(line, m.group(1), view)
            problems += wrong
            initiative = choice or initiative
        else:
            problems.append(_problem(line, UNKNOWN_ORDER))
    movement = combat = build = None
    if not wrong_turn and view.phase is Phase.BUILD:
        fleet = tuple(ships.values())
        refused = seat_problems(view.scenario, view.seat, len(view.players), fleet) if fleet else []
        if refused:
            problems.append(Problem(line=None, text="", message=FLEET_REFUSED.format(why=" ".join(refused))))
        else:
            build = BuildOrders(player=view.player, ships=fleet)
    elif not wrong_turn and view.phase is Phase.MOVEMENT:
        chosen = "first" if initiative == "first" else "last" if initiative == "last" else None
        movement = MovementOrders(player=view.player, initiative=chosen, moves=tuple(moves.values()))
    elif not wrong_turn and view.phase is Phase.COMBAT:
        combat = CombatOrders(player=view.player, fire=tuple(fire.values()))
    understood = (
        movement_lines(movement)
        if movement
        else combat_lines(combat)
        if combat
        else build_lines(build)
        if build
        else []
    )
    return Reading(
        found=block.found,
        header=block.header,
        phase=view.phase,
        movement=movement,
        combat=combat,
        build=build,
        understood=tuple(understood),
        lines=orders,
        done=done,
        problems=tuple(problems),
    )


def _ship(line: SourceLine, view: PlayerView, ships: dict[str, Design]) -> Iterator[Problem]:
    """A SHIP line: its design's own problems, then the fleet's so far (budget, size, names).
    A line with an error is left out of the fleet."""
    if view.phase is not Phase.BUILD:
        yield _problem(line, NOT_BUILDING)
        return
    read = read_ship(line.text)
    wrong = [_problem(line, p.message, suggest=p.suggestions) for p in read.problems]
    design = read.design
    if design is not None:
        wrong += [_problem(line, m) for m in design_problems(design)]
    yield from wrong
    if design is None or wrong:
        return
    key = design.name.lower()
    if key in ships:
        yield _problem(line, SAME_NAME.format(name=design.name), "warning")
    elif len(ships) >= MAX_FLEET:
        yield _problem(line, TOO_MANY_SHIPS.format(most=MAX_FLEET))
        return
    total = sum(cost(d) for n, d in ships.items() if n != key) + cost(design)
    if total > view.budget:
        yield _problem(
            line,
            OVER_BUDGET.format(name=design.name, ship_cost=cost(design), total=total, budget=view.budget),
        )
        return
    ships[key] = design


def _move(line: SourceLine, view: PlayerView, moves: dict[str, MoveOrder]) -> Iterator[Problem]:
    if view.phase is not Phase.MOVEMENT:
        yield _problem(line, WRONG_PHASE_MOVE)
        return
    m = _MOVE.match(line.text)
    assert m is not None
    ship, close = find(view, m.group(1), own=True)
    if not isinstance(ship, Airship):
        yield _problem(line, NOT_YOUR_SHIP.format(name=m.group(1)), suggest=close)
        return
    steps = "".join(m.group(2).upper().split())
    if steps in ("STAY", "0"):
        steps = ""
    if not re.fullmatch(r"[FLRUD]*", steps):
        yield _problem(line, BAD_STEPS.format(steps=m.group(2)))
        return
    if len(steps) > ship.move_points:
        yield _problem(line, TOO_MANY_STEPS.format(ship=ship.id, points=ship.move_points), "warning")
        steps = steps[: ship.move_points]
    if ship.steering_hit and re.search("[LR]", steps):
        yield _problem(line, CANNOT_TURN.format(ship=ship.id), "warning")
    if ship.id in moves:
        yield _problem(line, MOVED_TWICE.format(ship=ship.id), "warning")
    moves[ship.id] = MoveOrder(ship=ship.id, steps=steps)


def _initiative(line: SourceLine, value: str, view: PlayerView) -> tuple[str | None, list[Problem]]:
    if view.phase is not Phase.MOVEMENT:
        return None, [_problem(line, WRONG_PHASE_MOVE)]
    choice = value.strip().lower()
    if choice not in ("first", "last"):
        return None, [_problem(line, INITIATIVE_FORM)]
    if view.initiative_chooser != view.player:
        return None, [_problem(line, NOT_CHOOSER.format(chooser=view.initiative_chooser), "warning")]
    return choice, []


def _fire(line: SourceLine, view: PlayerView, fire: dict[tuple[str, int], FireOrder]) -> Iterator[Problem]:
    if view.phase is not Phase.COMBAT:
        yield _problem(line, WRONG_PHASE_FIRE)
        return
    m = _FIRE.match(line.text)
    if m is None:
        yield _problem(line, FIRE_FORM)
        return
    ship, close = find(view, m.group(2), own=True)
    if not isinstance(ship, Airship):
        yield _problem(line, NOT_YOUR_SHIP.format(name=m.group(2)), suggest=close)
        return
    item = SMALL_ARMS if m.group(3).upper() == "SA" else number(m.group(3))
    if item is None:
        yield _problem(line, FIRE_FORM)
        return
    weapon = _weapon(line, ship, item)
    if isinstance(weapon, Problem):
        yield weapon
        return
    target, close = find(view, m.group(4), own=False)
    if not isinstance(target, ShipSighting):
        yield _problem(line, NO_TARGET.format(name=m.group(4)), suggest=close)
        return
    if target.owner == view.player or target.owner in view.allies:
        yield _problem(line, OWN_SIDE.format(name=target.name))
        return
    order = FireOrder(ship=ship.id, item=item, target=target.id)
    reach = aim(ship, order, target)
    if isinstance(reach, Refused):
        yield _problem(line, OUT_OF_REACH.format(why=reach.reason), "warning")
    if (ship.id, item) in fire:
        yield _problem(line, FIRED_TWICE.format(item=m.group(3).upper(), ship=ship.id), "warning")
    fire[(ship.id, item)] = order


def _weapon(line: SourceLine, ship: Airship, item: int) -> Weapon | Cargo | Problem:
    if item == SMALL_ARMS:
        return Weapon.SMALL_ARMS if ship.small_arms else _problem(line, NO_SMALL_ARMS.format(ship=ship.id))
    found = ship.item(item)
    if found is None:
        listed = ", ".join(f"{i.key} {i.kind}" for i in ship.items) or "none"
        return _problem(line, NO_ITEM.format(ship=ship.id, item=item, items=listed))
    if isinstance(found.kind, Weapon) or found.kind in (Cargo.PASSENGERS, Cargo.BOMBS):
        return found.kind
    return _problem(line, DOES_NOT_FIRE.format(item=item, ship=ship.id, kind=found.kind))

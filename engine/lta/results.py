"""Each player's results of a step as data for the host's templates
(functions/templates/lta/): what happened in the phase for them, their Zeppelins, everyone's
place on the map, the sheet for the next phase and its deadline; at the end every player's dice
with their seeds (the ``rolls.txt`` page) and the whole game (the ``replay.html`` page).

Made from the player's view and the events meant for them only (engine/lta/views.py).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, ConfigDict

from engine.core.picture import Arrow, Marker
from engine.core.turnhost import Page, Results
from engine.lta.dice import Roll
from engine.lta.hexmap import COLUMNS, ROWS, label
from engine.lta.lang.sheet import items, orders_sheet
from engine.lta.picture import centre, picture
from engine.lta.report import event_line
from engine.lta.standings import Standings, standings
from engine.lta.state import Airship, GameState, Phase
from engine.lta.turn import Outcome
from engine.lta.views import PlayerView, player_view

GAME_NAME = "Lighter Than Air Warfare"
Played = Literal["opening", "build", "movement", "combat"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class ShipState(_Frozen):
    """One of the player's own Zeppelins, in full."""

    id: str
    name: str
    cls: str
    status: str
    hex: str
    facing: str
    altitude: int
    move_points: int
    gas: int
    gas_max: int
    damage: tuple[str, ...]
    items: str


class SeenShip(_Frozen):
    """Another player's Zeppelin flying, as anyone at the table sees it."""

    id: str
    name: str
    cls: str
    owner: str
    owner_name: str
    hex: str
    facing: str
    altitude: int
    on_fire: bool


class RevealedShip(ShipState):
    """Any player's Zeppelin in full, as everyone sees it once the game is over: the fog of
    war over others' gas, damage and cargo lifts at the end."""

    owner: str
    owner_name: str


class OrderFate(_Frozen):
    order: str
    done: bool
    note: str


class RollList(_Frozen):
    """One player's whole die-roll stream, revealed at the end: enough for docs/lta-dice.md's
    script to recompute every roll (``player``, ``seed``, ``commitment``, ``rolls``)."""

    player: str
    name: str
    seed: int
    commitment: str
    rolls: tuple[Roll, ...]


class LtaReport(_Frozen):
    """One player's results of one or more steps, for report.txt and report.html."""

    game_id: str
    game_name: str = GAME_NAME
    player: str
    player_name: str
    scenario: str
    turn: int
    """The turn the game is at now."""
    turn_limit: int
    budget: int
    """The player's Resource Points for building a fleet."""
    fleet_cost: int
    """What the player's fleet cost."""
    played: tuple[Played, ...]
    """The phases these results are of, oldest first."""
    phase: Phase
    """What the game waits for now."""
    happened: tuple[str, ...]
    orders: tuple[OrderFate, ...]
    ships: tuple[ShipState, ...]
    others: tuple[SeenShip, ...]
    initiative_chooser: str
    order_of_play: tuple[str, ...]
    sheet: str
    """The orders sheet for the phase the game waits for; empty once it is over."""
    deadline: str | None
    commitment: str
    """The SHA-256 of the player's own seed, published at the start."""
    rolls_so_far: int
    ending: str
    winners: tuple[str, ...]
    dice: tuple[RollList, ...] = ()
    """Every player's seed and rolls, once the game is over."""
    standings: Standings | None = None
    """How the game ended and where every player stands, once it is over."""
    every_ship: tuple[RevealedShip, ...] = ()
    """Every player's Zeppelins in full, once the game is over."""


class RollsPage(_Frozen):
    """The ``rolls.txt`` page: every player's dice, each roll with its use, and every seed."""

    game_id: str
    dice: tuple[RollList, ...]


class ReplayFrame(_Frozen):
    title: str
    markers: tuple[Marker, ...]
    arrows: tuple[Arrow, ...]
    lines: tuple[str, ...]


class ReplayPage(_Frozen):
    """The ``replay.html`` page: the map after every phase, and what happened in it."""

    game_id: str
    player: str
    player_name: str
    ending: str
    standings: Standings | None
    """Shown on top once the game is over."""
    view_box: str
    grid: str
    """The map's hexes as one SVG path (the same under every frame)."""
    frames: tuple[ReplayFrame, ...]


@dataclass(frozen=True)
class Part:
    """One step as played: the state before it (None: the opening), the engine's outcome, and
    each player's orders as written (for their fate in the report)."""

    before: GameState | None
    outcome: Outcome
    written: dict[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def played(self) -> Played:
        if self.before is None:
            return "opening"
        if self.before.phase is Phase.BUILD:
            return "build"
        return "movement" if self.before.phase is Phase.MOVEMENT else "combat"


def _damage(ship: Airship) -> tuple[str, ...]:
    found = [f"punctures losing {'+'.join(map(str, ship.punctures))} gas a turn"] if ship.punctures else []
    found += ["IN FLAMES"] if ship.on_fire else []
    found += ["steering shot away"] if ship.steering_hit else []
    found += (
        [f"{ship.engine_hits} engine hit{'s' if ship.engine_hits > 1 else ''}"] if ship.engine_hits else []
    )
    return tuple(found)


def _ship_state(ship: Airship) -> ShipState:
    return ShipState(
        id=ship.id,
        name=ship.name,
        cls=ship.cls,
        status=ship.status,
        hex=label(ship.col, ship.row),
        facing=ship.facing.name,
        altitude=ship.altitude,
        move_points=ship.move_points,
        gas=ship.gas,
        gas_max=ship.gas_max,
        damage=_damage(ship),
        items=items(ship),
    )


def _revealed(state: GameState) -> tuple[RevealedShip, ...]:
    return tuple(
        RevealedShip(**_ship_state(s).model_dump(), owner=s.owner, owner_name=state.player(s.owner).name)
        for s in state.ships
    )


def dice(state: GameState) -> tuple[RollList, ...]:
    return tuple(
        RollList(player=p.id, name=p.name, seed=p.seed, commitment=p.commitment, rolls=p.rolls)
        for p in state.players
    )


def _fates(parts: Sequence[Part], player: str) -> tuple[OrderFate, ...]:
    fates: list[OrderFate] = []
    for part in parts:
        written = part.written.get(player, ())
        moves = [w for w in written if not w.startswith("INITIATIVE")]
        for result in part.outcome.results:
            if result.player != player:
                continue
            order = moves[result.index - 1] if 0 < result.index <= len(moves) else "your orders"
            fates.append(OrderFate(order=order, done=result.ok, note=result.note))
    return tuple(fates)


def subject(parts: Sequence[Part]) -> str:
    last = parts[-1]
    state = last.outcome.state
    turn = state.turn
    if state.phase is Phase.OVER:
        return f"Turn {turn}: the game is over, {ending_text(state)}"
    if state.phase is Phase.BUILD:
        return "Fleet building: mail your fleet"
    if last.played == "build":
        return f"Fleet building: the fleets are in place \N{EM DASH} turn {turn} movement orders"
    if last.played == "movement":
        return f"Turn {turn}: the map after movement \N{EM DASH} combat orders"
    if last.played == "combat":
        return f"Turn {turn - 1}: the map after wind and combat \N{EM DASH} turn {turn} movement orders"
    return f"Turn {turn}: movement orders"


def ending_text(state: GameState) -> str:
    """``won by Ann: one fleet is left flying`` (names, not ids)."""
    names = [state.player(w).name for w in state.winners]
    who = f"won by {' and '.join(names)}" if names else "nobody wins"
    return f"{who}: {state.ended}"


def report(parts: Sequence[Part], player: str, deadline: str | None) -> LtaReport:
    state = parts[-1].outcome.state
    view = player_view(state, player)
    names = {p.id: p.name for p in state.players}
    over = state.phase is Phase.OVER
    happened = [event_line(e) for part in parts for e in part.outcome.events if player in e.visible_to]
    return LtaReport(
        game_id=state.game_id,
        player=player,
        player_name=names[player],
        scenario=state.scenario,
        turn=state.turn,
        turn_limit=state.turn_limit,
        budget=view.budget,
        fleet_cost=sum(s.cost for s in view.own_ships),
        played=tuple(part.played for part in parts),
        phase=state.phase,
        happened=tuple(happened),
        orders=_fates(parts, player),
        ships=tuple(_ship_state(s) for s in view.own_ships),
        others=tuple(
            SeenShip(
                id=s.id,
                name=s.name,
                cls=s.cls,
                owner=s.owner,
                owner_name=names[s.owner],
                hex=s.hex,
                facing=s.facing,
                altitude=s.altitude,
                on_fire=s.on_fire,
            )
            for s in view.ships
            if s.owner != player and s.status == "flying"
        ),
        initiative_chooser=names.get(view.initiative_chooser, view.initiative_chooser),
        order_of_play=tuple(names.get(p, p) for p in view.order_of_play),
        sheet="" if over else orders_sheet(view, deadline),
        deadline=None if over else deadline,
        commitment=view.commitments[player],
        rolls_so_far=len(view.my_rolls),
        ending=ending_text(state) if over else "",
        winners=tuple(names[w] for w in state.winners),
        dice=dice(state) if over else (),
        standings=standings(state) if over else None,
        every_ship=_revealed(state) if over else (),
    )


def results(parts: Sequence[Part], player: str, deadline: str | None) -> Results:
    state = parts[-1].outcome.state
    over = state.phase is Phase.OVER
    pages = (
        (
            Page(
                filename=f"{state.game_id}-rolls.txt",
                content_type="text/plain",
                template="rolls.txt",
                model=RollsPage(game_id=state.game_id, dice=dice(state)),
            ),
        )
        if over
        else ()
    )
    return Results(
        subject=subject(parts),
        report=report(parts, player, deadline),
        picture=picture(player_view(state, player)),
        game_name=GAME_NAME,
        pages=pages,
        stem=f"{state.game_id}-turn-{state.turn}" + ("" if over else f"-{state.phase.value}"),
    )


def _grid() -> str:
    """Every hex as a closed SVG path (flat tops, in cell radii, as engine/lta/picture.py)."""
    corners = [(math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))) for k in range(6)]
    paths = []
    for col in range(1, COLUMNS + 1):
        for row in range(1, ROWS + 1):
            x, y = centre(col, row)
            points = " ".join(f"{x + dx:.2f} {y + dy:.2f}" for dx, dy in corners)
            paths.append(f"M{points}Z")
    return "".join(paths)


def _frame_title(part: Part) -> str:
    state = part.outcome.state
    if part.played == "opening":
        return "Fleet building" if state.phase is Phase.BUILD else "The start: turn 1"
    if part.played == "build":
        return "The fleets in place: turn 1"
    if part.played == "movement":
        return f"Turn {state.turn}, after movement"
    turn = state.turn if state.phase is Phase.OVER else state.turn - 1
    return f"Turn {turn}, after wind and combat"


def replay(parts: Sequence[Part], player: str) -> ReplayPage:
    frames = []
    for part in parts:
        view: PlayerView = player_view(part.outcome.state, player)
        drawn = picture(view)
        lines = [event_line(e) for e in part.outcome.events if player in e.visible_to]
        frames.append(
            ReplayFrame(
                title=_frame_title(part), markers=drawn.markers, arrows=drawn.arrows, lines=tuple(lines)
            )
        )
    state = parts[-1].outcome.state
    left, top = centre(1, 1)
    right, bottom = centre(COLUMNS, ROWS + 1)
    return ReplayPage(
        game_id=state.game_id,
        player=player,
        player_name=state.player(player).name,
        ending=ending_text(state) if state.phase is Phase.OVER else "",
        standings=standings(state) if state.phase is Phase.OVER else None,
        view_box=f"{left - 1.5:.2f} {top - 1.5:.2f} {right - left + 3:.2f} {bottom - top + 2:.2f}",
        grid=_grid(),
        frames=tuple(frames),
    )

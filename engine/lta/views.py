"""A player's view: their own Zeppelins in full, everyone's on the map as anyone at the table
would see them, and their own dice only; every seed and every roll once the game is over."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.lta.dice import Roll
from engine.lta.hexmap import COLUMNS, ROWS, label
from engine.lta.scenarios import budget
from engine.lta.state import Airship, GameState, Phase, Scenario
from engine.lta.tables import ShipClass


class ShipSighting(BaseModel):
    """Any Zeppelin as seen from another: where it is, which way it faces, whether it burns. Never
    its cargo, gas or ammunition."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    owner: str
    cls: ShipClass
    hex: str
    col: int
    row: int
    facing: str
    altitude: int
    status: str
    on_fire: bool

    @property
    def position(self) -> tuple[int, int]:
        return self.col, self.row


class Revealed(BaseModel):
    """At the end: every player's seed and every roll drawn from it."""

    model_config = ConfigDict(frozen=True)

    seeds: dict[str, int]
    rolls: dict[str, tuple[Roll, ...]]


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    seat: int
    side: str
    budget: int
    """The player's Resource Points for building a fleet (interpretation 11)."""
    scenario: Scenario
    turn: int
    turn_limit: int
    phase: Phase
    columns: int
    rows: int
    players: tuple[str, ...]
    allies: tuple[str, ...]
    """The other players on this player's side (the raiders of a convoy)."""
    own_ships: tuple[Airship, ...]
    ships: tuple[ShipSighting, ...]
    """Every Zeppelin, the player's own too, as seen on the map; only the player's own while the
    fleets are built, which is blind."""
    initiative_winner: str
    initiative_chooser: str
    order_of_play: tuple[str, ...]
    commitments: dict[str, str]
    my_rolls: tuple[Roll, ...]
    winners: tuple[str, ...]
    ended: str
    revealed: Revealed | None


def sighting(ship: Airship) -> ShipSighting:
    return ShipSighting(
        id=ship.id,
        name=ship.name,
        owner=ship.owner,
        cls=ship.cls,
        hex=label(ship.col, ship.row),
        col=ship.col,
        row=ship.row,
        facing=ship.facing.name,
        altitude=ship.altitude,
        status=ship.status,
        on_fire=ship.on_fire,
    )


def player_view(state: GameState, player: str) -> PlayerView:
    me = state.player(player)
    over = state.phase is Phase.OVER
    seat = next(n for n, p in enumerate(state.players) if p.id == player)
    seen = [s for s in state.ships if state.phase is not Phase.BUILD or s.owner == player]
    return PlayerView(
        game_id=state.game_id,
        player=player,
        seat=seat,
        side=me.side,
        budget=budget(state.scenario, seat, len(state.players)),
        scenario=state.scenario,
        turn=state.turn,
        turn_limit=state.turn_limit,
        phase=state.phase,
        columns=COLUMNS,
        rows=ROWS,
        players=tuple(p.id for p in state.players),
        allies=tuple(p.id for p in state.players if p.side == me.side and p.id != player),
        own_ships=tuple(s for s in state.ships if s.owner == player),
        ships=tuple(sighting(s) for s in seen),
        initiative_winner=state.initiative.winner,
        initiative_chooser=state.initiative.chooser,
        order_of_play=state.initiative.order,
        commitments={p.id: p.commitment for p in state.players},
        my_rolls=me.rolls,
        winners=state.winners,
        ended=state.ended,
        revealed=Revealed(
            seeds={p.id: p.seed for p in state.players}, rolls={p.id: p.rolls for p in state.players}
        )
        if over
        else None,
    )

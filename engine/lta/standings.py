"""The end of a game: how it ended in one sentence, by the scenario's victory rule
(interpretations 12 and 13, engine/lta/scenarios.py ``outcome``), and one row per player.

Everything is read from the finished state alone: the Zeppelins' fates, the Bulk Cargo's, and
the hits each player scored from their own roll log (every die is logged with its use,
engine/lta/dice.py), so the standings of a game can be made again at any time. How it ended is
worked out by the same rules ``outcome`` decides by, so the sentence and the game's ``winners``
cannot disagree. Nothing here may be shown before the game is over.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from engine.lta.dice import Roll
from engine.lta.scenarios import CONVOY, delivered
from engine.lta.state import GameState, Phase, Scenario, Status
from engine.lta.tables import BOMB_KILLS, Cargo

# The uses engine/lta/combat.py ``fire`` logs: a damage die is rolled only for a shot that hit;
# a bomb's one die destroys its target at BOMB_KILLS or less.
_DAMAGE_ROLL = "damage: "
_BOMB_ROLL = "bomb: "


def hits(rolls: tuple[Roll, ...]) -> int:
    """The shots that struck, among one player's rolls: each shot that hit, and each bomb that
    destroyed its target."""
    return sum(
        r.purpose.startswith(_DAMAGE_ROLL) or (r.purpose.startswith(_BOMB_ROLL) and r.value <= BOMB_KILLS)
        for r in rolls
    )


def points_flying(state: GameState, player: str) -> int:
    """The Resource Points the player's Zeppelins still flying cost: the fleet battle's measure
    at the turn limit (interpretation 12)."""
    return sum(s.cost for s in state.ships if s.owner == player and s.flying)


class Side(BaseModel):
    """One player at the end."""

    model_config = ConfigDict(frozen=True)

    player: str
    name: str
    side: str = Field(description="The player's own id in a fleet battle; convoy or raiders")
    rank: int = Field(description="1 for the winners; tied players share a rank")
    winner: bool
    flying: int = Field(description="Zeppelins still flying on the map")
    departed: int = Field(description="Zeppelins that left the map (interpretation 10)")
    lost: int = Field(description="Zeppelins destroyed or crashed")
    points_flying: int = Field(description="Resource Points of the Zeppelins still flying")
    hits: int = Field(description="Shots that struck an enemy Zeppelin, bombs that destroyed one")
    cargo_delivered: int | None = Field(None, description="Convoy: Bulk Cargo off the east edge")
    cargo_aboard: int | None = Field(None, description="Convoy: Bulk Cargo still flying, undelivered")
    cargo_lost: int | None = Field(None, description="Convoy: Bulk Cargo shot away, or off another edge")


class Standings(BaseModel):
    """How the game ended and where every player stands, winners first."""

    model_config = ConfigDict(frozen=True)

    scenario: Scenario
    turn: int
    turn_limit: int
    winners: tuple[str, ...]
    draw: bool
    ending: str = Field(description="One sentence: who won (or the draw, or nobody) and by which rule")
    sides: tuple[Side, ...]


def standings(state: GameState) -> Standings:
    """The final standings of a finished game (ValueError while it goes on)."""
    if state.phase is not Phase.OVER:
        raise ValueError("the game is not over")
    measure = {p.id: _measure(state, p.id) for p in state.players}
    sides = [_side(state, p.id, 1 + sum(m > measure[p.id] for m in measure.values())) for p in state.players]
    return Standings(
        scenario=state.scenario,
        turn=state.turn,
        turn_limit=state.turn_limit,
        winners=state.winners,
        draw=len(state.winners) > 1 and state.scenario is Scenario.FLEET_BATTLE,
        ending=ending(state),
        sides=tuple(sorted(sides, key=lambda s: s.rank)),
    )


def _measure(state: GameState, player: str) -> tuple[bool, int]:
    """What ranks the players: winning first; then, in a fleet battle, the Resource Points still
    flying (the measure at the turn limit). A convoy has two sides: winners, then the others."""
    if state.scenario is Scenario.CONVOY:
        return player in state.winners, 0
    return player in state.winners, points_flying(state, player)


def _side(state: GameState, player_id: str, rank: int) -> Side:
    player = state.player(player_id)
    ships = [s for s in state.ships if s.owner == player_id]
    convoy = state.scenario is Scenario.CONVOY and player.side == CONVOY
    got = delivered(state)
    aboard = sum(s.count(Cargo.BULK_CARGO) for s in ships if s.flying)
    return Side(
        player=player_id,
        name=player.name,
        side=player.side,
        rank=rank,
        winner=player_id in state.winners,
        flying=sum(s.flying for s in ships),
        departed=sum(s.status is Status.DEPARTED for s in ships),
        lost=sum(s.status in (Status.DESTROYED, Status.CRASHED) for s in ships),
        points_flying=points_flying(state, player_id),
        hits=hits(player.rolls),
        cargo_delivered=got if convoy else None,
        cargo_aboard=aboard if convoy else None,
        cargo_lost=state.convoy_cargo - got - aboard if convoy else None,
    )


def _names(state: GameState, players: tuple[str, ...] | list[str]) -> str:
    return " and ".join(f"{state.player(p).name} ({p})" for p in players)


def ending(state: GameState) -> str:
    """Who won and why, in interpretation 12's or 13's words."""
    if state.scenario is Scenario.CONVOY:
        return _convoy_ending(state)
    flying = state.in_play()
    if not flying:
        return "Nobody wins: no Zeppelin is left flying (interpretation 12)."
    if len(flying) == 1:
        return f"{_names(state, flying)} wins: theirs is the one fleet left flying (interpretation 12)."
    table = "; ".join(f"{_names(state, [p])} {points_flying(state, p)} RP" for p in flying)
    limit = f"after turn {state.turn_limit}, the turn limit"
    if len(state.winners) > 1:
        return (
            f"A draw between {_names(state, state.winners)} {limit}: their Zeppelins still flying cost "
            f"the same, the most Resource Points, and ties share the win ({table}; interpretation 12)."
        )
    return (
        f"{_names(state, state.winners)} wins {limit}: their Zeppelins still flying cost the most "
        f"Resource Points ({table}; interpretation 12)."
    )


def _convoy_ending(state: GameState) -> str:
    convoy = state.players[0]
    got = delivered(state)
    carrying = any(s.flying and s.count(Cargo.BULK_CARGO) for s in state.ships if s.owner == convoy.id)
    when = (
        f"after turn {state.turn_limit}, the turn limit"
        if carrying
        else "when no Zeppelin of the convoy carrying Bulk Cargo was left flying on the map"
    )
    cargo = f"{got} of its {state.convoy_cargo} Bulk Cargo off the east edge"
    if convoy.id in state.winners:
        return (
            f"The convoy, {_names(state, [convoy.id])}, wins {when}: it delivered {cargo}, "
            f"at least half (interpretation 13)."
        )
    return (
        f"The raiders, {_names(state, state.winners)}, win {when}: the convoy delivered {cargo}, "
        f"less than half (interpretation 13)."
    )

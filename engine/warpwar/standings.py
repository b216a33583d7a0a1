"""The end of a game: the final standings, the map with the fog of war lifted, and the history
cut into game-turns for a replay.

Everything here is read from a finished state (and, for the replay, the states and events of
its steps): how it ended is worked out again from the state by the rules ``turn`` plays by
(``leaders``), so that a standings table and the game's ``winners`` can never disagree.
Nothing here may be shown before the game is over: in a blind game it tells every player
everything.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from engine.core.picture import Picture
from engine.warpwar.events import AnyEvent
from engine.warpwar.picture import map_picture
from engine.warpwar.state import GameState, Knowledge, MapKnowledge, Stage, Visibility
from engine.warpwar.views import PlayerView, player_view

Score = tuple[int, int]
"""At the turn limit: complete Bases first, then BP in ships, Holds and stockpiles."""


def score(state: GameState, player: str) -> Score:
    """``player``'s score at the turn limit (``Score``)."""
    bases = [b for b in state.bases.values() if b.owner == player]
    wealth = sum(s.value() + s.cargo for s in state.own_ships(player)) + sum(b.stockpile for b in bases)
    return sum(b.complete for b in bases), wealth


def leaders(state: GameState) -> list[str]:
    """The players still in with the best score (more than one: a draw)."""
    scores = {p.id: score(state, p.id) for p in state.players if not p.eliminated}
    best = max(scores.values())
    return sorted(p for p, s in scores.items() if s == best)


class Side(BaseModel):
    """One player at the end: what they hold, and what they lost."""

    model_config = ConfigDict(frozen=True)

    player: str
    name: str
    winner: bool
    eliminated: bool
    warpships: int
    systemships: int
    ships_built: int = Field(description="Every ship the player numbered, W and S")
    ships_lost: int = Field(description="Ships built and gone: destroyed, scrapped, or out with their owner")
    ship_bp: int = Field(description="BP value of the ships left, their Holds' cargo included")
    stockpile: int = Field(description="BP in the stockpiles of the player's Bases")
    bases: int = Field(description="Complete Bases")
    stars: int = Field(description="Stars owned")
    star_value: int = Field(description="Sum of the basic BP values of the stars owned")


class Standings(BaseModel):
    """How the game ended and where every side stands, winners first."""

    model_config = ConfigDict(frozen=True)

    turn: int
    winners: tuple[str, ...]
    draw: bool
    ending: str = Field(description="One sentence: who won (or the draw) and by which rule")
    sides: tuple[Side, ...]


def standings(state: GameState) -> Standings:
    """The final standings of a finished game (ValueError while it goes on)."""
    if state.stage is not Stage.OVER:
        raise ValueError("the game is not over")
    winners = tuple(state.winners)
    sides = sorted((_side(state, p.id) for p in state.players), key=lambda s: (not s.winner, s.eliminated))
    return Standings(
        turn=state.turn, winners=winners, draw=len(winners) > 1, ending=_ending(state), sides=tuple(sides)
    )


def _side(state: GameState, player_id: str) -> Side:
    player = state.player(player_id)
    ships = state.own_ships(player_id)
    bases = [b for b in state.bases.values() if b.owner == player_id]
    owned = [state.map.star_at[h] for h, c in state.control.items() if c.owner == player_id]
    built = player.warpships_named + player.systemships_named
    return Side(
        player=player_id,
        name=player.name,
        winner=player_id in state.winners,
        eliminated=player.eliminated,
        warpships=sum(s.warp_generator for s in ships),
        systemships=sum(not s.warp_generator for s in ships),
        ships_built=built,
        ships_lost=built - len(ships),
        ship_bp=sum(s.value() + s.cargo for s in ships),
        stockpile=sum(b.stockpile for b in bases),
        bases=sum(b.complete for b in bases),
        stars=len(owned),
        star_value=sum(s.value for s in owned),
    )


def _ending(state: GameState) -> str:
    """Who won and why, in the terms ``turn`` decided it by."""
    names = {p.id: f"{p.name} ({p.id})" for p in state.players}
    standing = [p.id for p in state.players if not p.eliminated]
    if len(standing) == 1:
        return f"{names[standing[0]]} wins: every enemy Base destroyed, the other sides eliminated."
    limit = state.config.turn_limit
    scores = {p: score(state, p) for p in standing}
    table = "; ".join(
        f"{names[p]} {bases} Base{'' if bases == 1 else 's'}, {bp} BP" for p, (bases, bp) in scores.items()
    )
    if len(state.winners) > 1:
        tied = " and ".join(names[w] for w in state.winners)
        return (
            f"A draw between {tied} at the turn limit ({limit} game-turns): tied on complete "
            f"Bases and then on BP in ships, Holds and stockpiles ({table})."
        )
    [winner] = state.winners
    best_bases = scores[winner][0]
    measure = "complete Bases" if sum(s[0] == best_bases for s in scores.values()) == 1 else "BP, Bases tied"
    return (
        f"{names[winner]} wins at the turn limit ({limit} game-turns) on the most {measure} "
        f"(complete Bases first, then BP in ships, Holds and stockpiles: {table})."
    )


def revealed(state: GameState) -> GameState:
    """The state as every player may see it once the game is over: as an open game, with the
    whole map known (carried Systemships stay aboard their carriers, as on the map)."""
    every_star = sorted(s.hex for s in state.map.stars)
    config = state.config.model_copy(
        update={"visibility": Visibility.OPEN, "map_knowledge": MapKnowledge.FULL}
    )
    knowledge = {player: Knowledge(stars=every_star) for player in state.knowledge}
    return state.model_copy(update={"config": config, "knowledge": knowledge})


def final_view(state: GameState, player: str) -> PlayerView:
    """``player``'s view with the fog of war lifted (the game's own visibility still named)."""
    view = player_view(revealed(state), player)
    return view.model_copy(update={"visibility": state.config.visibility})


REVEALED = "the whole map revealed: the game is over"
"""The subtitle of every map drawn with the fog of war lifted."""


def final_picture(state: GameState, player: str, events: Sequence[AnyEvent] = ()) -> Picture:
    """The map of a finished game for ``player``: everything on it, and every move among
    ``events`` (``revealed_events``)."""
    view = final_view(state, player)
    picture = map_picture(view, revealed_events(state, events))
    return picture.model_copy(update={"subtitle": f"{picture.subtitle}; {REVEALED}"})


def revealed_events(state: GameState, events: Sequence[AnyEvent]) -> list[AnyEvent]:
    """The referee's record of ``events`` shown to every player: the copies made for players
    not entitled to the whole event are dropped, the events they were made from kept."""
    everyone = tuple(sorted(p.id for p in state.players))
    return [e.model_copy(update={"visible_to": everyone}) for e in events if not e.redacted]


class Frame(BaseModel):
    """One game-turn of a finished game: the state when it ended (or the last one of it
    stored) and everything that happened in it."""

    model_config = ConfigDict(frozen=True)

    turn: int
    state: GameState
    events: tuple[AnyEvent, ...]


def frames(steps: Sequence[tuple[GameState, Sequence[AnyEvent]]]) -> list[Frame]:
    """The game cut into game-turns, from its steps in order (each: the state after it, and its
    events). A game-turn's picture is the state after the last step with an event of it; a
    step without events (the opening, a GM's change) stands for the game-turn it is in."""
    states: dict[int, GameState] = {}
    happened: dict[int, list[AnyEvent]] = {}
    for state, events in steps:
        turns = {e.turn for e in events} or {state.turn}
        for turn in turns:
            states[turn] = state
        for event in events:
            happened.setdefault(event.turn, []).append(event)
    return [Frame(turn=t, state=states[t], events=tuple(happened.get(t, ()))) for t in sorted(states)]

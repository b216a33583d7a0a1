"""A player's view of the game: built up from what the player is entitled to, never by
deleting secrets from the whole state.

Own ships, Bases and stockpiles come from records the player owns; everything about other
players comes from the player's ``Knowledge`` (sightings, Bases seen, owners seen), whose
types carry no attributes, BP or orders of other players at all.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.warpwar.events import AnyEvent
from engine.warpwar.knowledge import known_to
from engine.warpwar.ships import Ship, tech_level_for_turn
from engine.warpwar.state import Base, GameState, Knowledge, Scenario, Sighting, Stage, Visibility


class StarView(BaseModel):
    model_config = ConfigDict(frozen=True)

    hex: str
    name: str
    value: int
    owner: str | None
    base_owner: str | None


class PlayerSummary(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    eliminated: bool


class CombatView(BaseModel):
    model_config = ConfigDict(frozen=True)

    star: str
    round: int
    own_ships: tuple[str, ...]
    enemy_ships: tuple[str, ...]


class PlayerView(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    turn: int
    active_player: str
    stage: Stage
    scenario: Scenario
    visibility: Visibility
    tech_level: int
    map_name: str
    hexes: tuple[str, ...]
    stars: tuple[StarView, ...]
    warplines: tuple[tuple[str, str], ...]
    players: tuple[PlayerSummary, ...]
    own_ships: tuple[Ship, ...]
    own_bases: tuple[Base, ...]
    star_pools: dict[str, int]
    enemy_ships: tuple[Sighting, ...]
    combats: tuple[CombatView, ...]
    winners: tuple[str, ...]
    warpships_named: int = Field(0, description="Highest W number given to this player so far")
    systemships_named: int = Field(0, description="Highest S number given to this player so far")

    def ship(self, name: str) -> Ship | None:
        return next((s for s in self.own_ships if s.name == name), None)


_STAR_VIEWS = TypeAdapter(tuple[StarView, ...])
"""Every star of a view validated in one call: a view shows every star the player knows."""


def player_view(state: GameState, player: str) -> PlayerView:
    known = known_to(state, player)
    own_ships = tuple(state.own_ships(player))
    own_bases = tuple(sorted((b for b in state.bases.values() if b.owner == player), key=lambda b: b.star))
    own_hexes = {s.location for s in own_ships} | {b.star for b in own_bases}
    known_stars = set(known.stars)
    combats = tuple(
        _combat_view(state, known, player, c.star, c.round) for c in state.combats if c.star in own_hexes
    )
    return PlayerView(
        game_id=state.config.game_id,
        player=player,
        turn=state.turn,
        active_player=state.active_player.id,
        stage=_stage_known(state, player, combats),
        scenario=state.config.scenario,
        visibility=state.config.visibility,
        tech_level=0 if state.config.scenario is Scenario.BASIC else tech_level_for_turn(state.turn),
        map_name=state.map.name,
        hexes=state.map.hexes,
        stars=_STAR_VIEWS.validate_python([_star_view(state, known, star, player) for star in known.stars]),
        warplines=tuple((w.a, w.b) for w in state.map.warplines if w.a in known_stars or w.b in known_stars),
        players=tuple(PlayerSummary(id=p.id, name=p.name, eliminated=p.eliminated) for p in state.players),
        own_ships=own_ships,
        own_bases=own_bases,
        star_pools=(
            {h: bp for h, bp in sorted(state.star_pools.items()) if h in own_hexes}
            if state.active_player.id == player
            else {}
        ),
        enemy_ships=tuple(known.sightings[uid] for uid in sorted(known.sightings)),
        combats=combats,
        winners=tuple(state.winners),
        warpships_named=state.player(player).warpships_named,
        systemships_named=state.player(player).systemships_named,
    )


def _stage_known(state: GameState, player: str, combats: tuple[CombatView, ...]) -> Stage:
    """The stage as ``player`` may know it. In a blind game a combat is known only to the players
    in it (and to the player whose player-turn it is): to anyone else the game still takes the
    player-turn's orders, as it does while that player moves."""
    blind = state.config.visibility is Visibility.BLIND
    if blind and state.stage is Stage.COMBAT and not combats and player != state.active_player.id:
        return Stage.ORDERS
    return state.stage


def _star_view(state: GameState, known: Knowledge, hex_: str, player: str) -> dict[str, object]:
    """The fields of the player's ``StarView`` of a star."""
    star = state.map.star_at[hex_]
    own_base = state.bases.get(hex_)
    base_owner = player if own_base is not None and own_base.owner == player else known.bases.get(hex_)
    return {
        "hex": hex_,
        "name": star.name,
        "value": star.value,
        "owner": known.owners.get(hex_),
        "base_owner": base_owner,
    }


def _combat_view(state: GameState, known: Knowledge, player: str, star: str, round_: int) -> CombatView:
    return CombatView(
        star=star,
        round=round_,
        own_ships=tuple(s.uid for s in state.own_ships(player) if s.location == star),
        enemy_ships=tuple(uid for uid in sorted(known.sightings) if known.sightings[uid].hex == star),
    )


def events_for(events: list[AnyEvent], player: str) -> list[AnyEvent]:
    """The events a player is entitled to see, in order."""
    return [e for e in events if player in e.visible_to]

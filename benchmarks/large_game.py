"""A large blind game built directly, for the large-game and scaling benchmarks (not a benchmark).

``build_large_game`` makes an Advanced, blind game on a generated map and fills it with ships
through the state's own models: every player gets the same share of the ships. Some of them
are set up for battles: at each battle star a defender's ships wait, and an attacker's ships
wait on a hex next to it with a Move order into the star, so that the attacker's player-turn
fights there. Both sides have standing orders that fire at each other, so the combats are real
(hits, damage, destroyed ships, escapes) and need no round orders. Of the other ships a quarter
sit at their owner's home stars and the rest are spread over the space hexes of the owner's
region of the map (the hexes nearer their home than any other player's), and each of those
moves one hex in the game-turn.

``play_game_turn`` plays one game-turn from that state: each player's player-turn with its
precomputed orders, combat from standing orders, then every player's view.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from engine.warpwar.components import Attributes
from engine.warpwar.events import AnyEvent, CombatEnded
from engine.warpwar.hexgrid import distance
from engine.warpwar.invariants import violations
from engine.warpwar.mapgen import MapSpec, generate_map
from engine.warpwar.orders import (
    BuildShip,
    CombatOrder,
    HexStep,
    MissileShot,
    Move,
    RoundOrders,
    Tactic,
    TurnOrder,
    TurnOrders,
)
from engine.warpwar.ships import Ship, ship_uid
from engine.warpwar.state import Combat, GameConfig, GameState, PlayerSpec, Scenario, Visibility
from engine.warpwar.turn import new_game, play_player_turn
from engine.warpwar.views import PlayerView, player_view

BEAM_SHIP = Attributes(PD=8, B=3, S=2, A=6)
MISSILE_SHIP = Attributes(PD=6, T=2, M=6, A=4)
NEW_SHIP = Attributes(PD=4, B=2, S=2)
HOME_SHARE = 4
"""One ship in this many (of those not in a battle) waits at a home star."""


@dataclass(frozen=True)
class LargeGameSpec:
    players: int = 8
    ships: int = 3000
    battles: int = 50
    hexes: int = 2000
    per_side: int = 3
    seed: int = 1


@dataclass
class LargeGame:
    spec: LargeGameSpec
    state: GameState
    orders: list[TurnOrders]
    battle_stars: list[str]


@dataclass
class GameTurn:
    """What one game-turn produced."""

    state: GameState
    events: list[AnyEvent]
    views: list[PlayerView]

    def count(self, kind: str) -> int:
        return sum(event.kind == kind for event in self.events)

    def rounds(self) -> int:
        """Combat rounds fought (every combat ends within the player-turn that began it)."""
        return sum(event.rounds for event in self.events if isinstance(event, CombatEnded))


def build_large_game(spec: LargeGameSpec) -> LargeGame:
    star_map = generate_map(MapSpec(name="Benchmark", players=spec.players, hexes=spec.hexes), spec.seed)
    players = tuple(PlayerSpec(id=f"P{i + 1}", name=f"Player {i + 1}") for i in range(spec.players))
    config = GameConfig(
        game_id="large", scenario=Scenario.ADVANCED, visibility=Visibility.BLIND, players=players
    )
    state = new_game(config, star_map, spec.seed).state
    builder = _Builder(state)
    battle_stars = builder.battles(spec.battles, spec.per_side)
    builder.spread(spec.ships)
    for player in state.players:
        player.warpships_named = builder.named[player.id]
    problems = violations(state)
    if problems:
        raise ValueError(f"the large game is not sound: {problems[:3]}")
    return LargeGame(spec=spec, state=state, orders=builder.orders(), battle_stars=battle_stars)


def fight_on_standing_orders(state: GameState, combat: Combat) -> list[RoundOrders]:
    """No round orders: every ship fights on its standing order (or the default order)."""
    return []


def play_game_turn(game: LargeGame) -> GameTurn:
    state = game.state
    events: list[AnyEvent] = []
    for orders in game.orders:
        outcome = play_player_turn(state, orders, fight_on_standing_orders)
        events += outcome.events
        state = outcome.state
    views = [player_view(state, player.id) for player in state.players]
    return GameTurn(state=state, events=events, views=views)


class _Builder:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.map = state.map
        self.ids = [p.id for p in state.players]
        self.named: Counter[str] = Counter()
        self.moves: dict[str, list[TurnOrder]] = defaultdict(list)
        self.region = _regions(state)
        self.home_stars = {h for p in state.players for h in p.home}
        self.battle_stars: set[str] = set()

    def ship(self, owner: str, hex_: str, design: Attributes, order: CombatOrder | None = None) -> Ship:
        self.named[owner] += 1
        ship = Ship(
            name=f"W{self.named[owner]}",
            owner=owner,
            tech_level=0,
            built_turn=1,
            warp_generator=True,
            built=design,
            current=design,
            location=hex_,
            standing_order=order,
        )
        self.state.ships[ship.uid] = ship
        return ship

    def battles(self, count: int, per_side: int) -> list[str]:
        """``count`` battle stars: the attackers take turns by player, the defender is the player
        whose region the star is in (or the next player, if that is the attacker)."""
        free = sorted(s.hex for s in self.map.stars if s.hex not in self.home_stars)
        if count > len(free):
            raise ValueError(f"the map has {len(free)} stars besides the homes, not {count}")
        for number, star in enumerate(free[:count]):
            attacker = self.ids[number % len(self.ids)]
            defender = self.region[star]
            if defender == attacker:
                defender = self.ids[(self.ids.index(attacker) + 1) % len(self.ids)]
            self._battle(star, attacker, defender, per_side)
        return free[:count]

    def _battle(self, star: str, attacker: str, defender: str, per_side: int) -> None:
        staging = next(h for h in self.map.adjacency[star] if not self.map.is_star(h))
        attackers = [self.named[attacker] + 1 + i for i in range(per_side)]
        defenders = [self.named[defender] + 1 + i for i in range(per_side)]
        for i in range(per_side):
            target = ship_uid(defender, f"W{defenders[i]}")
            ship = self.ship(attacker, staging, _design(i), _standing_order(i, target, Tactic.ATTACK))
            self.moves[attacker].append(Move(ship=ship.name, steps=(HexStep(to=star),)))
        for i in range(per_side):
            target = ship_uid(attacker, f"W{attackers[i]}")
            tactic = Tactic.ATTACK if i % 2 else Tactic.DODGE
            self.ship(defender, star, _design(i + 1), _standing_order(i + 1, target, tactic))
        self.battle_stars.add(star)

    def spread(self, total: int) -> None:
        """Every player's share of ``total`` ships, counting those already in battles."""
        space = defaultdict(list)
        for hex_ in self.map.hexes:
            if not self.map.is_star(hex_):
                space[self.region[hex_]].append(hex_)
        for index, player in enumerate(self.state.players):
            share = total // len(self.ids) + (index < total % len(self.ids))
            home = player.home
            for number in range(share - self.named[player.id]):
                if number % HOME_SHARE == 0:
                    self.ship(player.id, home[number // HOME_SHARE % len(home)], _design(number))
                    continue
                hexes = space[player.id]
                ship = self.ship(player.id, hexes[number % len(hexes)], _design(number))
                self._move_in_region(ship)
        placed = len(self.state.ships)
        if placed != total:
            raise ValueError(f"{placed} ships placed, not {total}: too many battles for so few ships")

    def _move_in_region(self, ship: Ship) -> None:
        """One hex on through the owner's region, to a space hex."""
        for hex_ in self.map.adjacency[ship.location]:
            if self.region[hex_] == ship.owner and not self.map.is_star(hex_):
                self.moves[ship.owner].append(Move(ship=ship.name, steps=(HexStep(to=hex_),)))
                return

    def orders(self) -> list[TurnOrders]:
        """Each player's orders: a new Warpship at the middle home Base, then the moves."""
        result = []
        for player in self.state.players:
            build = BuildShip(at=player.home[0], warp=True, design=NEW_SHIP)
            result.append(TurnOrders(player=player.id, orders=(build, *self.moves[player.id])))
        return result


def _regions(state: GameState) -> dict[str, str]:
    """Each hex's nearest player, by the distance to their middle home star (ties: turn order)."""
    middles = [(p.home[0], p.id) for p in state.players]
    return {h: min(middles, key=lambda m: distance(h, m[0]))[1] for h in state.map.hexes}


def _design(number: int) -> Attributes:
    return MISSILE_SHIP if number % 3 == 2 else BEAM_SHIP


def _standing_order(number: int, target: str, tactic: Tactic) -> CombatOrder:
    """Fire at ``target`` every round: full Beam behind Screens, or two Missiles."""
    if _design(number) is MISSILE_SHIP:
        shots = (MissileShot(target=target, drive=3), MissileShot(target=target, drive=2))
        return CombatOrder(tactic=tactic, drive=4, missiles=shots)
    return CombatOrder(tactic=tactic, drive=3, beam=3, beam_target=target, screen=2)

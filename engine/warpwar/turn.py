"""The sequence of game events (rules III), and the engine's entry points.

A game-turn is a player-turn by every player in a fixed order. A player-turn is the phase list

    Build -> Movement -> Combat (round by round, at each contested star) -> Systemship rearrangement

followed by the end-of-turn checks (Bases destroyed by unopposed enemies, elimination, victory)
and the start of the next player's turn (income). Combat needs both sides' orders every round,
so a player-turn that creates combats pauses in ``Stage.COMBAT`` until each combat's rounds have
been resolved by ``submit_round``.

Every entry point takes a state and returns a new one: the given state is never changed. Every
step also ends with the players' knowledge up to date, so the next step need only look again at
the hexes it changes (a full look once per game-turn, when "last seen" moves on).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, ConfigDict

from engine.warpwar import build, combat, economy, movement
from engine.warpwar.context import Step
from engine.warpwar.events import AnyEvent, GameOver, PlayerEliminated, PlayerTurnBegan
from engine.warpwar.knowledge import refresh_knowledge, refresh_knowledge_at
from engine.warpwar.orders import (
    CombatOrder,
    Move,
    OrderResult,
    OrderStatus,
    Rearrange,
    RoundOrders,
    TurnOrder,
    TurnOrders,
)
from engine.warpwar.ships import ship_uid
from engine.warpwar.standings import leaders
from engine.warpwar.starmap import StarMap
from engine.warpwar.state import (
    Base,
    Combat,
    GameConfig,
    GameState,
    Knowledge,
    MapKnowledge,
    PendingRearrange,
    Player,
    Scenario,
    Stage,
    StarControl,
    Visibility,
)


class Outcome(BaseModel):
    """A step's result: the new state, what happened, and what became of each order sent."""

    model_config = ConfigDict(frozen=True)

    state: GameState
    events: list[AnyEvent]
    results: list[OrderResult]


def new_game(config: GameConfig, star_map: StarMap, seed: int) -> Outcome:
    """Set up a game: each player takes the map's ends in turn order, with one Base (Basic, on
    the middle star of the end) or three (Advanced), and the first player-turn begins."""
    if len(star_map.homes) < len(config.players):
        raise ValueError(f"map {star_map.name} has ends for {len(star_map.homes)} players only")
    players = [
        Player(id=spec.id, name=spec.name, home=home.stars)
        for spec, home in zip(config.players, star_map.homes, strict=False)
    ]
    state = GameState(config=config, seed=seed, map=star_map, players=players)
    for player in players:
        base_stars = player.home[:1] if config.scenario is Scenario.BASIC else player.home
        for star in base_stars:
            state.bases[star] = Base(star=star, owner=player.id)
        for star in player.home:
            state.control[star] = StarControl(owner=player.id, since_turn=0)
        state.knowledge[player.id] = _initial_knowledge(state, player)
    step = Step(state)
    refresh_knowledge(step)
    _begin_player_turn(step)
    return _outcome(step, [])


def _initial_knowledge(state: GameState, player: Player) -> Knowledge:
    if state.config.map_knowledge is MapKnowledge.FULL:
        stars = sorted(s.hex for s in state.map.stars)
    else:
        stars = sorted(player.home)
    if state.config.visibility is Visibility.OPEN:
        # Everything else an open game's players know is read from the state (knowledge.known_to).
        return Knowledge(stars=stars)
    return Knowledge(stars=stars, owners=dict.fromkeys(player.home, player.id))


def submit_turn(state: GameState, orders: TurnOrders) -> Outcome:
    """The active player's orders for a player-turn: Build, then Movement, then combat or the end
    of the turn. Orders from anyone else, or while combat is being fought, are all refused."""
    refusal = _refuse_out_of_turn(state, orders)
    if refusal is not None:
        return refusal
    step = Step(state.clone())
    return _outcome(step, _orders_phases(step, orders))


def _orders_phases(step: Step, orders: TurnOrders) -> list[OrderResult]:
    """Build and Movement; then either combat begins or the player-turn ends."""
    indexed = list(enumerate(orders.orders))
    results = build.run_build_event(step, [(i, o) for i, o in indexed if _is_build_event(o)])
    results += movement.run_movement_event(step, [(i, o) for i, o in indexed if isinstance(o, Move)])
    step.state.rearrangement = [
        PendingRearrange(index=i, order=o) for i, o in indexed if isinstance(o, Rearrange)
    ]
    refresh_knowledge_at(step, step.touched, step.events)
    for star in contested_stars(step):
        combat.start_combat(step, star)
    if step.state.combats:
        step.state.stage = Stage.COMBAT
    else:
        results += _end_player_turn(step)
    return results


def submit_round(state: GameState, star: str, orders: Sequence[RoundOrders]) -> Outcome:
    """Resolve the next round of the combat at ``star`` with each side's orders. Ships whose
    owners sent nothing fight on their standing orders. When the last combat ends, the
    player-turn finishes (rearrangement, Bases, victory) and the next one begins."""
    if state.stage is not Stage.COMBAT or all(c.star != star for c in state.combats):
        return Outcome(state=state, events=[], results=[])
    step = Step(state.clone())
    return _outcome(step, _fight_round(step, star, orders))


def _fight_round(step: Step, star: str, orders: Sequence[RoundOrders]) -> list[OrderResult]:
    """One round at ``star``; afterwards only the hexes it touched need looking at again (none,
    when no ship was destroyed, escaped, or was dropped or picked up)."""
    fight = next(c for c in step.state.combats if c.star == star)
    by_uid: dict[str, CombatOrder] = {}
    for side in orders:
        if side.round != fight.round or side.star != star:
            continue
        for name, order in sorted(side.ships.items()):
            by_uid[ship_uid(side.player, name)] = order
    first_event = len(step.events)
    combat.resolve_round(step, fight, by_uid)
    refresh_knowledge_at(step, step.touched, step.events[first_event:])
    if step.state.combats:
        return []
    step.state.stage = Stage.ORDERS
    return _end_player_turn(step)


RoundOrdersSource = Callable[[GameState, Combat], Sequence[RoundOrders]]


def play_player_turn(state: GameState, orders: TurnOrders, round_orders: RoundOrdersSource) -> Outcome:
    """A whole player-turn in one call, asking ``round_orders`` for every combat round: for
    robots, tests, benchmarks and games that fight from standing orders only."""
    refusal = _refuse_out_of_turn(state, orders)
    if refusal is not None:
        return refusal
    step = Step(state.clone())
    results = _orders_phases(step, orders)
    while step.state.stage is Stage.COMBAT:
        fight = step.state.combats[0]
        results += _fight_round(step, fight.star, round_orders(step.state, fight))
    return _outcome(step, results)


def contested_stars(step: Step) -> list[str]:
    """Stars where the active player's ships and another player's ships meet: combat MUST occur."""
    mover, star_at = step.active_id, step.star_at
    return sorted(
        hex_
        for hex_, owners in step.occupied()
        if hex_ in star_at and mover in owners.values() and len(set(owners.values())) > 1
    )


def _is_build_event(order: TurnOrder) -> bool:
    return not isinstance(order, Move | Rearrange)


def _refuse_out_of_turn(state: GameState, orders: TurnOrders) -> Outcome | None:
    if state.stage is Stage.ORDERS and orders.player == state.active_player.id:
        return None
    if state.stage is Stage.OVER:
        reason = "the game is over"
    elif state.stage is Stage.COMBAT:
        reason = "combat is being fought: only combat-round orders are taken until it ends"
    else:
        reason = f"it is {state.active_player.id}'s player-turn, not {orders.player}'s"
    results = [
        OrderResult(index=i, status=OrderStatus.REFUSED, reason=reason) for i in range(len(orders.orders))
    ]
    return Outcome(state=state, events=[], results=results)


def _end_player_turn(step: Step) -> list[OrderResult]:
    """Systemship rearrangement, then Bases left unopposed fall, then elimination and victory,
    then the next player's turn begins."""
    pending = [(p.index, p.order) for p in step.state.rearrangement]
    step.state.rearrangement = []
    results = movement.run_rearrangement(step, pending)
    economy.settle_bases(step)
    _eliminate(step)
    turn = step.state.turn
    if not _game_over(step):
        _advance(step)
    if step.state.turn == turn:
        refresh_knowledge_at(step, step.touched, step.events)
    else:
        # A new game-turn: every sighting still in view is now seen this turn.
        refresh_knowledge(step)
    return results


def _eliminate(step: Step) -> None:
    """A player with no Base left (complete or being built) is out; their ships leave the game."""
    state = step.state
    holding = {base.owner for base in state.bases.values()}
    for player in state.players:
        if player.eliminated or player.id in holding:
            continue
        player.eliminated = True
        for ship in state.own_ships(player.id):
            if ship.uid in state.ships and ship.carried_by is None:
                step.remove(ship)
        step.emit(step.event(PlayerEliminated, step.everyone(), player=player.id))


def _game_over(step: Step) -> bool:
    state = step.state
    standing = [p.id for p in state.players if not p.eliminated]
    if len(standing) == 1:
        return _finish(step, standing, "every enemy Base destroyed")
    limit = state.config.turn_limit
    last_of_turn = all(p.eliminated for p in state.players[state.active + 1 :])
    if limit is not None and state.turn >= limit and last_of_turn:
        return _finish(step, leaders(state), f"turn limit {limit} reached: most Bases, then most BP")
    return False


def _finish(step: Step, winners: list[str], reason: str) -> bool:
    step.state.winners = sorted(winners)
    step.state.stage = Stage.OVER
    step.emit(step.event(GameOver, step.everyone(), winners=tuple(step.state.winners), reason=reason))
    return True


def _advance(step: Step) -> None:
    state = step.state
    count = len(state.players)
    index, turn = state.active, state.turn
    while True:
        index = (index + 1) % count
        if index == 0:
            turn += 1
        if not state.players[index].eliminated:
            break
    step.pass_turn(index, turn)
    _begin_player_turn(step)


def _begin_player_turn(step: Step) -> None:
    step.emit(step.event(PlayerTurnBegan, step.everyone()))
    economy.collect_income(step)


def _outcome(step: Step, results: list[OrderResult]) -> Outcome:
    # Built without validation: every part is a model the engine has just made and validated;
    # checking each event again against the union of event types took 15 us a player-turn.
    return Outcome.model_construct(
        state=step.state, events=step.events, results=sorted(results, key=lambda r: r.index)
    )

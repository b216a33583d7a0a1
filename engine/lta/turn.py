"""The Basic Turn Sequence, after the fleets are built (:func:`play_build`, when the players
build their own). A game waits for orders twice a turn: movement orders (sequence 2)
and combat orders (sequence 4). :func:`play_movement` carries out sequence 2-3; :func:`play_combat`
carries out 4-8, then rolls the next turn's initiative (sequence 1). Every die comes from a
player's committed stream (engine/lta/dice.py)."""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from pydantic import BaseModel, ConfigDict

from engine.lta import combat, movement
from engine.lta.dice import Dice, commitment, player_seed
from engine.lta.events import (
    AnyEvent,
    DamageTaken,
    DiceCommitted,
    DiceRevealed,
    Fate,
    GameOver,
    InitiativeDecided,
    Moved,
    PlayOrder,
    Repaired,
    ShotFired,
)
from engine.lta.fleet import Design, build, cost
from engine.lta.hexmap import label
from engine.lta.orders import BuildOrders, CombatOrders, FireOrder, MovementOrders, OrderResult, Submission
from engine.lta.scenarios import (
    START_ALTITUDE,
    TURN_LIMITS,
    Setup,
    anchor,
    budget,
    outcome,
    seat_problems,
    side,
)
from engine.lta.state import Airship, GameState, Initiative, Phase, PlayerState, Scenario
from engine.lta.tables import Cargo


class Outcome(BaseModel):
    """A step's result: the new state, what happened, and what became of each order line."""

    model_config = ConfigDict(frozen=True)

    state: GameState
    events: list[AnyEvent]
    results: list[OrderResult]


def _dice(state: GameState, phase: str) -> Dice:
    return Dice(
        {p.id: p.seed for p in state.players}, {p.id: p.rolls for p in state.players}, state.turn, phase
    )


def _logged(players: Sequence[PlayerState], dice: Dice) -> tuple[PlayerState, ...]:
    return tuple(p.model_copy(update={"rolls": (*p.rolls, *dice.new_rolls(p.id))}) for p in players)


def _rank(players: Sequence[str], dice: Dice, purpose: str) -> list[str]:
    """Highest roll first; "All ties are re-rolled": each tied group rolls again among itself."""
    rolls = {p: dice.roll(p, 6, purpose) for p in players}
    ranked: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        group = [p for p in players if rolls[p] == value]
        ranked += group if len(group) == 1 else _rank(group, dice, "initiative re-roll")
    return ranked


def _initiative(state: GameState, dice: Dice, previous: str | None) -> Initiative:
    """Sequence 1. The winner chooses on turn 1; later the previous turn's winner chooses, while
    they still have a Zeppelin flying (interpretation 8)."""
    ranking = _rank(state.in_play(), dice, "initiative")
    chooser = previous if previous in ranking else ranking[0]
    return Initiative(ranking=tuple(ranking), winner=ranking[0], chooser=chooser)


def new_game(setup: Setup, seed: int) -> Outcome:
    """Seats, fleets at their starting places, each player's dice committed, and the first
    turn's initiative rolled; or, when the players build their own fleets, the build phase with
    the ready-made fleets in place of those not mailed."""
    players = tuple(
        PlayerState(
            id=spec.id,
            name=spec.name,
            side=side(setup.scenario, seat, spec.id),
            seed=player_seed(seed, spec.id),
            commitment=commitment(spec.id, player_seed(seed, spec.id)),
        )
        for seat, spec in enumerate(setup.players)
    )
    ships = [
        ship
        for seat, spec in enumerate(setup.players)
        for ship in _placed(setup.scenario, seat, spec.id, setup.fleet(seat))
    ]
    # Initiative is rolled from the state's own streams and fleets, so the state comes first.
    placeholder = Initiative(ranking=(), winner="", chooser="")
    state = GameState(
        game_id=setup.game_id,
        scenario=setup.scenario,
        turn_limit=setup.turn_limit or TURN_LIMITS[setup.scenario],
        players=players,
        ships=tuple(ships),
        initiative=placeholder,
        convoy_cargo=_convoy_cargo(setup.scenario, players[0].id, ships),
    )
    turn = 0 if setup.building else 1
    committed = DiceCommitted(
        turn=turn, visible_to=tuple(p.id for p in players), commitments={p.id: p.commitment for p in players}
    )
    if setup.building:
        state = state.model_copy(update={"turn": turn, "phase": Phase.BUILD})
        return Outcome(state=state, events=[committed], results=[])
    return _first_turn(state, [committed], [])


def _placed(scenario: Scenario, seat: int, player: str, fleet: Sequence[Design]) -> list[Airship]:
    """A seat's fleet at its starting places."""
    start = anchor(scenario, seat)
    return [
        build(design, f"{ascii_uppercase[seat]}{n + 1}", player, start.place(n), start.facing, START_ALTITUDE)
        for n, design in enumerate(fleet)
    ]


def _convoy_cargo(scenario: Scenario, convoy: str, ships: Sequence[Airship]) -> int:
    if scenario is not Scenario.CONVOY:
        return 0
    return sum(s.count(Cargo.BULK_CARGO) for s in ships if s.owner == convoy)


def _first_turn(state: GameState, events: list[AnyEvent], results: list[OrderResult]) -> Outcome:
    """Turn 1 begins: its initiative is rolled (sequence 1)."""
    everyone = tuple(p.id for p in state.players)
    players = state.players
    state = state.model_copy(update={"turn": 1, "phase": Phase.MOVEMENT})
    dice = _dice(state, "initiative")
    initiative = _initiative(state, dice, None)
    state = state.model_copy(update={"initiative": initiative, "players": _logged(players, dice)})
    events.append(
        InitiativeDecided(turn=1, visible_to=everyone, winner=initiative.winner, chooser=initiative.chooser)
    )
    return Outcome(state=state, events=events, results=results)


def play_build(state: GameState, orders: Sequence[Submission]) -> Outcome:
    """The fleets mailed before turn 1, placed at their starting places; a player who mailed
    none, or one that cannot fly (the reader refuses those, so only a damaged store sends one),
    flies the ready-made fleet. Then turn 1's initiative is rolled."""
    latest = {o.player: o for o in orders if isinstance(o, BuildOrders)}
    ships: list[Airship] = []
    results: list[OrderResult] = []
    for seat, player in enumerate(state.players):
        sent = latest.get(player.id)
        fleet = sent.ships if sent is not None else ()
        refused = seat_problems(state.scenario, seat, len(state.players), fleet) if fleet else []
        limit = budget(state.scenario, seat, len(state.players))
        if fleet and not refused:
            ships += _placed(state.scenario, seat, player.id, fleet)
            total = sum(cost(d) for d in fleet)
            note = f"your fleet of {len(fleet)} flies: {total} of {limit} Resource Points"
        else:
            ready = [s for s in state.ships if s.owner == player.id]
            ships += ready
            total = sum(s.cost for s in ready)
            why = f" ({' '.join(refused)})" if refused else ""
            note = f"you fly the ready-made fleet{why}: {total} of {limit} Resource Points"
        results.append(
            OrderResult(
                player=player.id, phase=Phase.BUILD, index=0, ok=bool(fleet) and not refused, note=note
            )
        )
    state = state.model_copy(
        update={
            "ships": tuple(ships),
            "convoy_cargo": _convoy_cargo(state.scenario, state.players[0].id, ships),
        }
    )
    return _first_turn(state, [], results)


def _place(state_turn: int, ship: Airship, cause: str, everyone: tuple[str, ...]) -> AnyEvent:
    if not ship.flying:
        return Fate(turn=state_turn, visible_to=everyone, ship=ship.id, status=ship.status, cause=cause)
    return Moved(
        turn=state_turn,
        visible_to=everyone,
        ship=ship.id,
        cause=cause,
        hex=label(ship.col, ship.row),
        facing=ship.facing.name,
        altitude=ship.altitude,
    )


def play_movement(state: GameState, orders: Sequence[Submission]) -> Outcome:
    """Sequence 2-3: the chooser's first-or-last, then every Zeppelin's move in the order of play."""
    everyone = tuple(p.id for p in state.players)
    latest = {o.player: o for o in orders if isinstance(o, MovementOrders)}
    results = [
        OrderResult(
            player=o.player, phase=Phase.MOVEMENT, index=0, ok=False, note="combat orders wait for the map"
        )
        for o in orders
        if isinstance(o, CombatOrders)
    ]
    chooser = latest.get(state.initiative.chooser)
    choice = chooser.initiative if chooser is not None and chooser.initiative else "first"
    ranking = state.initiative.ranking
    order = ranking if choice == "first" else tuple(reversed(ranking))
    ships = {s.id: s for s in state.ships}
    events: list[AnyEvent] = [PlayOrder(turn=state.turn, visible_to=everyone, choice=choice, order=order)]
    moved: set[str] = set()
    results += _idle(list(latest.values()), order, Phase.MOVEMENT)
    for player in order:
        submitted = latest.get(player)
        for index, move in enumerate(submitted.moves if submitted else (), start=1):
            ship = ships.get(move.ship)
            refusal = _not_yours(ship, player, move.ship) or ("moved already" if move.ship in moved else "")
            if ship is None or refusal:
                results.append(
                    OrderResult(player=player, phase=Phase.MOVEMENT, index=index, ok=False, note=refusal)
                )
                continue
            taken = movement.places(s for s in ships.values() if s.id != ship.id)
            after, spent, short = movement.move(ship, move.steps, taken)
            ships[ship.id] = after
            moved.add(ship.id)
            note = f"{ship.name} spent {spent} of {ship.move_points} Movement Points" + (
                f"; {short}" if short else ""
            )
            results.append(
                OrderResult(player=player, phase=Phase.MOVEMENT, index=index, ok=not short, note=note)
            )
            if after != ship:
                events.append(_place(state.turn, after, "orders", everyone))
    initiative = state.initiative.model_copy(update={"order": order, "choice": choice})
    state = state.model_copy(
        update={
            "ships": tuple(ships[s.id] for s in state.ships),
            "initiative": initiative,
            "phase": Phase.COMBAT,
        }
    )
    return Outcome(state=state, events=events, results=results)


def _idle(orders: Sequence[Submission], playing: Sequence[str], phase: Phase) -> list[OrderResult]:
    """Orders from a player with no Zeppelin flying (or no seat): nothing to carry them out."""
    return [
        OrderResult(player=o.player, phase=phase, index=0, ok=False, note="you have no Zeppelin flying")
        for o in orders
        if o.player not in playing
    ]


def _not_yours(ship: Airship | None, player: str, name: str) -> str:
    if ship is None:
        return f"no Zeppelin {name}"
    if ship.owner != player:
        return f"{ship.name} is not yours"
    if not ship.flying:
        return f"{ship.name} is {ship.status}"
    return ""


def _fire_orders(state: GameState, orders: Sequence[Submission]) -> list[tuple[str, int, FireOrder]]:
    latest = {o.player: o for o in orders if isinstance(o, CombatOrders)}
    return [
        (player, index, order)
        for player in state.initiative.order
        if player in latest
        for index, order in enumerate(latest[player].fire, start=1)
    ]


def play_combat(state: GameState, orders: Sequence[Submission]) -> Outcome:
    """Sequence 4-8 (combat orders, wind, map update, combat and damage, repairs), the victory
    check, and the next turn's initiative."""
    everyone = tuple(p.id for p in state.players)
    turn = state.turn
    dice = _dice(state, "combat")
    ships = {s.id: s for s in state.ships}
    order = {p: n for n, p in enumerate(state.initiative.order)}
    in_order = sorted(state.ships, key=lambda s: order.get(s.owner, len(order)))
    events: list[AnyEvent] = []
    results = [
        OrderResult(
            player=o.player, phase=Phase.COMBAT, index=0, ok=False, note="movement is over for this turn"
        )
        for o in orders
        if isinstance(o, MovementOrders)
    ]
    burning = {s.id for s in state.ships if s.flying and s.on_fire}
    for blown in in_order:
        if blown.flying:
            ships[blown.id], what = movement.blow(blown, dice)
            events.append(_place(turn, ships[blown.id], f"wind: {what}", everyone))
    hits: list[combat.Hit] = []
    used: set[tuple[str, int]] = set()
    results += _idle([o for o in orders if isinstance(o, CombatOrders)], state.initiative.order, Phase.COMBAT)
    for player, index, fire in _fire_orders(state, orders):
        shooter, target = ships.get(fire.ship), ships.get(fire.target)
        refusal = _not_yours(shooter, player, fire.ship)
        if not refusal and (fire.ship, fire.item) in used:
            refusal = f"item {fire.item} of {fire.ship} fires once a turn"
        if not refusal:
            refusal = _bad_target(state, player, target, fire.target)
        if refusal or shooter is None or target is None:
            results.append(
                OrderResult(player=player, phase=Phase.COMBAT, index=index, ok=False, note=refusal)
            )
            continue
        weapon = combat.aim(shooter, fire, target)
        if isinstance(weapon, combat.Refused):
            results.append(
                OrderResult(player=player, phase=Phase.COMBAT, index=index, ok=False, note=weapon.reason)
            )
            continue
        used.add((fire.ship, fire.item))
        ships[shooter.id] = combat.spend(shooter, fire.item)
        hit = combat.fire(shooter, target, weapon, dice)
        if hit is not None:
            hits.append(hit)
        seen = tuple(sorted({player, target.owner}))
        events.append(
            ShotFired(
                turn=turn,
                visible_to=seen,
                ship=shooter.id,
                item=fire.item,
                weapon=weapon,
                target=target.id,
                hit=hit is not None,
                result=(hit.result or "bombed") if hit else None,
            )
        )
        results.append(OrderResult(player=player, phase=Phase.COMBAT, index=index, ok=True, note="fired"))
    for hit, what in combat.resolve(hits, ships, dice):
        events.append(DamageTaken(turn=turn, visible_to=everyone, ship=hit.target, what=what))
    for ship_id in sorted(burning, key=lambda i: order.get(ships[i].owner, len(order))):
        if ships[ship_id].flying and ships[ship_id].on_fire:
            ships[ship_id], what = combat.burn(ships[ship_id], dice)
            events.append(DamageTaken(turn=turn, visible_to=everyone, ship=ship_id, what=what))
    for ship in in_order:
        if ships[ship.id].flying:
            ships[ship.id], said = combat.lose_gas(ships[ship.id])
            events += [DamageTaken(turn=turn, visible_to=everyone, ship=ship.id, what=w) for w in said]
        if ships[ship.id].flying:
            ships[ship.id], done = combat.repair(ships[ship.id])
            owner = (ship.owner,)
            events += [Repaired(turn=turn, visible_to=owner, ship=ship.id, what=w) for w in done]
        if ship.flying and not ships[ship.id].flying:
            after = ships[ship.id]
            events.append(
                Fate(turn=turn, visible_to=everyone, ship=ship.id, status=after.status, cause="combat")
            )
    state = state.model_copy(update={"ships": tuple(ships[s.id] for s in state.ships)})
    return _end_of_turn(state, dice, events, results)


def _bad_target(state: GameState, player: str, target: Airship | None, name: str) -> str:
    if target is None:
        return f"no Zeppelin {name} to fire at"
    if not target.flying:
        return f"{target.name} is {target.status}"
    if state.player(target.owner).side == state.player(player).side:
        return f"{target.name} is on your side"
    return ""


def _end_of_turn(state: GameState, dice: Dice, events: list[AnyEvent], results: list[OrderResult]) -> Outcome:
    everyone = tuple(p.id for p in state.players)
    over = outcome(state)
    if over is not None:
        winners, reason = over
        players = _logged(state.players, dice)
        state = state.model_copy(
            update={"players": players, "phase": Phase.OVER, "winners": winners, "ended": reason}
        )
        events.append(GameOver(turn=state.turn, visible_to=everyone, winners=winners, reason=reason))
        events.append(
            DiceRevealed(turn=state.turn, visible_to=everyone, seeds={p.id: p.seed for p in players})
        )
        return Outcome(state=state, events=events, results=results)
    previous = state.initiative.winner
    state = state.model_copy(update={"turn": state.turn + 1, "phase": Phase.MOVEMENT})
    dice.relabel(state.turn, "initiative")
    initiative = _initiative(state, dice, previous)
    state = state.model_copy(update={"initiative": initiative, "players": _logged(state.players, dice)})
    events.append(
        InitiativeDecided(
            turn=state.turn, visible_to=everyone, winner=initiative.winner, chooser=initiative.chooser
        )
    )
    return Outcome(state=state, events=events, results=results)

"""WarpWar behind the turn service (engine/core/turnhost.py ``TurnGame``): what the game waits
for, a step played through the engine's game interface (engine/warpwar/game.py), the robots'
orders written from their own view and read as a player's mail is read
(engine/warpwar/mailgame.py), and each player's results as data (report, map, orders or combat
sheet), which the host renders with the templates in functions/templates/warpwar/.

A step is one player-turn (Build and Movement; it pauses when it starts combats), or one round
of every combat of the player-turn. Combats at different stars are fought side by side: their
rounds resolve together, as soon as every side's orders for every combat are in, or at the round
deadline from standing orders. In the "standing" combat mode every round is fought at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.mailgame import CombatScope, ScopedOrders, combat_parts, combat_scope, turn_scope
from engine.core.options import read_options
from engine.core.turnhost import (
    Clock,
    CombatMode,
    Deadlines,
    Page,
    Pending,
    Played,
    Results,
    Seat,
    Tense,
    TurnMode,
    Wanted,
)
from engine.warpwar import robot
from engine.warpwar.classic_map import classic_map
from engine.warpwar.events import AnyEvent, BaseDestroyed, CombatBegan, PlayerEliminated
from engine.warpwar.game import WarpWar
from engine.warpwar.lang.check import orders_turn, where
from engine.warpwar.lang.printer import order_text
from engine.warpwar.lang.sheet import combat_sheet, orders_sheet
from engine.warpwar.mailgame import WarpWarMail, fought_in
from engine.warpwar.mapgen import generate_map
from engine.warpwar.options import WarpWarOptions
from engine.warpwar.orders import OrderResult, RoundOrders, TurnOrders
from engine.warpwar.picture import map_picture
from engine.warpwar.replay import replay
from engine.warpwar.report import build_report
from engine.warpwar.standings import final_picture, final_view, frames, standings
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Stage
from engine.warpwar.summary import RULES_SUMMARY
from engine.warpwar.turn import Outcome, new_game
from engine.warpwar.views import PlayerView, player_view

GAME_NAME = "WarpWar"
ROUND_LIMIT = 500
"""Rounds fought from standing orders in one step before giving up: combat ends long before
(rules VII: a retreat, a side destroyed, or rounds without damage past Screens)."""
WARPWAR = WarpWar()
WITHOUT_ORDERS: dict[tuple[Clock, Tense], str] = {
    ("turn", "present"): "your ships hold, nothing is built, income still comes",
    ("turn", "past"): "your ships held, nothing was built, income still came",
    ("round", "present"): "in combat your ships fight on their STANDING orders",
    ("round", "past"): "in combat your ships fought on their STANDING orders",
}
"""What a player-turn without orders is (``_play_turn``: waived), and a combat round without
them (``_empty_round``: standing orders), as the host's mails tell the player."""


class WarpWarTurns:
    key = WARPWAR.key
    name = GAME_NAME

    def pending(self, state_json: str, turn_mode: TurnMode, combat_mode: CombatMode) -> Pending | None:
        return pending(GameState.model_validate_json(state_json), turn_mode, combat_mode)

    def robot_orders(
        self, state_json: str, player: str, level: str, scopes: Sequence[str]
    ) -> list[tuple[ScopedOrders, str]]:
        state = GameState.model_validate_json(state_json)
        view = player_view(state, player)
        strength = robot.Level(level) if level in robot.Level.__members__.values() else robot.Level.CADET
        written: list[tuple[ScopedOrders, str]] = []
        for scope in scopes:
            text = robot.write_for(state, view, scope, strength)
            reading = WarpWarMail().read_orders(state_json, player, text)
            part = next((p for p in reading.parts if p.scope == scope), None)
            written.append((part or ScopedOrders(scope=scope, orders_json=_no_orders(player, scope)), text))
        return written

    def play(self, state_json: str, pending: Pending, orders: Mapping[Wanted, str]) -> Played:
        state = GameState.model_validate_json(state_json)
        actor = state.active_player.id
        if state.stage is Stage.ORDERS:
            sent = orders.get(Wanted(player=actor, scope=turn_scope(state.turn)))
            turn = TurnOrders.model_validate_json(sent) if sent is not None else None
            played = _play_turn(state, turn)
            if pending.standing and played.state.stage is Stage.COMBAT:
                played = _then(played, _fight_standing(played.state))
            return _played(_Step(played, actor, _texts(turn), state, _whole_turns(pending)))
        if not pending.wants:
            return _played(_Step(_fight_standing(state), actor, (), state, _whole_turns(pending)))
        rounds = [RoundOrders.model_validate_json(orders[w]) for w in pending.wants if w in orders]
        sides = {(o.player, o.star) for o in rounds}
        rounds += [_empty_round(w) for w in pending.wants if _side(w) not in sides]
        outcome = _as_outcome(WARPWAR.process(state, rounds))
        return _played(_Step(outcome, actor, (), state, _whole_turns(pending)))

    def joined(self, steps: Sequence[Played]) -> Played:
        return _played(*(part for step in steps for part in _steps_of(step)))

    def opening(self, state_json: str) -> Played:
        state = GameState.model_validate_json(state_json)
        return _played(_Step(Outcome(state=state, events=[], results=[]), state.active_player.id))

    def replay(self, steps: Sequence[Played], player: str) -> Page:
        parts = [part for step in steps for part in _steps_of(step)]
        state = parts[-1].outcome.state
        turns = frames([(part.outcome.state, part.outcome.events) for part in parts])
        game_id = state.config.game_id
        return Page(
            filename=f"{game_id}-replay.html",
            content_type="text/html",
            template="replay.html",
            model=replay(game_id, player, standings(state), turns),
        )

    def ending(self, state_json: str) -> str | None:
        state = GameState.model_validate_json(state_json)
        return standings(state).ending if state.stage is Stage.OVER else None

    def rules_summary(self) -> str:
        return RULES_SUMMARY

    def without_orders(self, clock: Clock, tense: Tense = "present") -> str:
        return WITHOUT_ORDERS[clock, tense]

    def check_options(self, options_json: str) -> str:
        return read_options(WarpWarOptions, options_json).model_dump_json()

    def new_state(self, game_id: str, options_json: str, seats: Sequence[Seat], seed: int) -> str:
        options = read_options(WarpWarOptions, options_json)
        if not seats:
            raise ValueError("a game needs its players")
        spec = options.map_spec(game_id, len(seats))
        if spec is not None and spec.players != len(seats):
            raise ValueError(f"the map was made for {spec.players} players, not {len(seats)}")
        config = GameConfig(
            game_id=game_id,
            scenario=options.scenario,
            visibility=options.visibility,
            map_knowledge=options.map_knowledge,
            players=tuple(PlayerSpec(id=seat.player_id, name=seat.name) for seat in seats),
            turn_limit=options.turn_limit,
        )
        map_seed = seed if options.map_seed is None else options.map_seed
        star_map = classic_map() if spec is None else generate_map(spec, map_seed)
        return new_game(config, star_map, seed).state.model_dump_json()


def pending(state: GameState, turn_mode: TurnMode, combat_mode: CombatMode) -> Pending | None:
    if state.stage is Stage.OVER:
        return None
    active = state.active_player.id
    period = turn_scope(state.turn) if turn_mode == "cycle" else f"{turn_scope(state.turn)}/{active}"
    if state.stage is Stage.COMBAT:
        wants = () if combat_mode == "standing" else tuple(_combat_wants(state))
        return Pending(clock="round", wants=wants, period=period)
    players = [active]
    if turn_mode == "cycle":
        players = [p.id for p in state.players[state.active :] if not p.eliminated]
    return Pending(
        standing=combat_mode == "standing",
        clock="turn",
        wants=tuple(Wanted(player=p, scope=turn_scope(state.turn)) for p in players),
        period=period,
    )


def _whole_turns(pending: Pending) -> bool:
    """Whether the game runs in cycle mode: its deadline period is the game-turn (``pending``
    names it ``turn:5``; a player-turn's in sequential mode is ``turn:5/P1``)."""
    return "/" not in pending.period


def _combat_wants(state: GameState) -> list[Wanted]:
    player_turn = fought_in(state.turn, state.active_player.id)
    return [
        Wanted(player=side, scope=combat_scope(player_turn, combat.star, combat.round))
        for combat in sorted(state.combats, key=lambda c: c.star)
        for side in sorted({s.owner for s in state.ships.values() if s.location == combat.star})
    ]


def _combat(wanted: Wanted) -> CombatScope:
    found = combat_parts(wanted.scope)
    assert found is not None  # a combat step waits for combat scopes only (pending)
    return found


def _side(wanted: Wanted) -> tuple[str, str]:
    return wanted.player, _combat(wanted).star


def _empty_round(wanted: Wanted) -> RoundOrders:
    """A side that sent nothing fights on its standing orders."""
    combat = _combat(wanted)
    return RoundOrders(player=wanted.player, star=combat.star, round=combat.round)


def _no_orders(player: str, scope: str) -> str:
    if combat_parts(scope) is not None:
        return _empty_round(Wanted(player=player, scope=scope)).model_dump_json()
    return TurnOrders(player=player).model_dump_json()


def _play_turn(state: GameState, turn: TurnOrders | None) -> Outcome:
    """The active player's player-turn; without orders it is waived (ships hold, nothing is
    built, income still comes)."""
    return _as_outcome(WARPWAR.process(state, [turn] if turn is not None else []))


def _texts(turn: TurnOrders | None) -> list[str]:
    return [order_text(order) for order in turn.orders] if turn is not None else []


def _fight_standing(state: GameState) -> Outcome:
    events: list[AnyEvent] = []
    results: list[OrderResult] = []
    for _ in range(ROUND_LIMIT):
        if state.stage is not Stage.COMBAT:
            return Outcome(state=state, events=events, results=results)
        outcome = _as_outcome(WARPWAR.process(state, []))
        state, events, results = outcome.state, events + outcome.events, results + outcome.results
    raise RuntimeError(f"combat still going after {ROUND_LIMIT} rounds from standing orders")


def _then(first: Outcome, second: Outcome) -> Outcome:
    return Outcome(
        state=second.state, events=first.events + second.events, results=first.results + second.results
    )


def _as_outcome(outcome: object) -> Outcome:
    assert isinstance(outcome, Outcome)  # WarpWar's process answers its own Outcome
    return outcome


@dataclass(frozen=True)
class _Step:
    """A step as played: its ``outcome``, whose orders' fate goes to ``actor``, whose player-turn
    it was (``texts``: their turn orders as written); ``before``: the state it was played from
    (None: the game's opening)."""

    outcome: Outcome
    actor: str
    texts: Sequence[str] = ()
    before: GameState | None = None
    whole_turns: bool = False
    """Cycle mode: every player's orders are awaited when a game-turn begins (``_whole_turns``)."""


def _played(*steps: _Step) -> Played:
    """Steps played one after the other as one ``Played``: the last one's state, every event
    and the actor's orders' fate of them all. Who the last step tells: ``_told``."""
    last = steps[-1]
    state = last.outcome.state
    events = [event for step in steps for event in step.outcome.events]

    def results(player: str, deadlines: Deadlines) -> Results:
        own = [result for step in steps if step.actor == player for result in step.outcome.results]
        written = [text for step in steps if step.actor == player for text in step.texts]
        return results_of(player, state, events, own, written, deadlines)

    told = _told(last)

    def tells(player: str) -> bool:
        return told is None or player in told

    return Played(
        state_json=state.model_dump_json(),
        turn=state.turn,
        over=state.stage is Stage.OVER,
        results=results,
        tells=tells,
        account=steps,
    )


def _steps_of(played: Played) -> tuple[_Step, ...]:
    account = played.account
    assert isinstance(account, tuple) and all(isinstance(s, _Step) for s in account)  # played here
    return account


def _told(step: _Step) -> set[str] | None:
    """The players ``step`` mails its results to (None: every player). The game's start and its
    end tell everyone. A combat round tells the players fighting, or who just fought (a player
    outside every combat of a player-turn is mailed once, at its end, as when it has none). A
    step that ends a player-turn tells the player whose orders it played (their fate), the
    player whose player-turn begins (their sheet and deadline), whoever fought in it, lost a
    Base or was eliminated, and in cycle mode, when a game-turn begins, everyone (each player's
    orders are awaited at once). The others have nothing to do until their own player-turn, and
    its mail carries every step since their last (the turn service joins them:
    ``TurnGame.joined``): so each player is rendered and mailed about twice a game-turn, not
    once per player-turn (N² reports a game-turn in a game of N)."""
    state, before = step.outcome.state, step.before
    if before is None or state.stage is Stage.OVER:
        return None
    if state.stage is Stage.COMBAT:
        return _fighting(state) | _fighting(before)
    if step.whole_turns and state.turn != before.turn:
        return None
    # In cycle mode the next player's orders have been awaited since the game-turn began.
    told = {step.actor} if step.whole_turns else {step.actor, state.active_player.id}
    if before.stage is Stage.COMBAT:
        told |= _fighting(before)
    for event in step.outcome.events:
        if isinstance(event, CombatBegan):
            told |= set(event.sides)
        elif isinstance(event, BaseDestroyed):
            told.add(event.owner)
        elif isinstance(event, PlayerEliminated):
            told.add(event.player)
    return told


def _fighting(state: GameState) -> set[str]:
    """The players with a combat in their view (``player_view``): a ship or a Base at its star."""
    stars = {combat.star for combat in state.combats}
    return {s.owner for s in state.ships.values() if s.location in stars} | {
        b.owner for b in state.bases.values() if b.star in stars
    }


def results_of(
    player: str,
    state: GameState,
    events: Sequence[AnyEvent],
    results: Sequence[OrderResult],
    order_texts: Sequence[str],
    deadlines: Deadlines,
) -> Results:
    """``player``'s results of a step: what they saw happen, their orders' fate, where they
    stand, the map, and the sheet to fill in next (the combat sheet while they fight)."""
    over = state.stage is Stage.OVER
    # The game over, the fog of war lifts: the whole map and every side's standing.
    view = final_view(state, player) if over else player_view(state, player)
    deadline = deadlines.round if view.combats else deadlines.turn
    final = standings(state) if over else None
    report = build_report(view, events, results, _sheet(view, deadline), deadline, order_texts, final)
    picture = final_picture(state, player, events) if over else map_picture(view, events)
    return Results(
        subject=_subject(view),
        report=report,
        picture=picture,
        game_name=GAME_NAME,
        kind="combat" if view.combats else "results",
        stem=f"{view.game_id}-turn-{view.turn}",
    )


def _sheet(view: PlayerView, deadline: str | None) -> str:
    if view.stage is Stage.OVER:
        return ""
    if view.combats:
        return "\n".join(combat_sheet(view, combat.star, deadline) for combat in view.combats)
    return orders_sheet(view, deadline)


def _result(view: PlayerView) -> str:
    names = [p.name for p in view.players if p.id in view.winners]
    return f"a draw between {' and '.join(names)}" if len(names) > 1 else f"won by {names[0]}"


def _subject(view: PlayerView) -> str:
    if view.stage is Stage.OVER:
        return f"Turn {view.turn}: the game is over, {_result(view)}"
    if view.combats:
        fights = ", ".join(f"{where(view, c.star)} round {c.round}" for c in view.combats)
        return f"Turn {view.turn}: combat at {fights}"
    turn = orders_turn(view)
    if turn != view.turn:
        # The player's own player-turn was played: the sheet is for their next one.
        return f"Your turn {view.turn} played: orders for turn {turn}"
    return f"Turn {view.turn}: {view.active_player}'s player-turn"

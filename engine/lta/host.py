"""Lighter Than Air Warfare behind the turn service (engine/core/turnhost.py ``TurnGame``).

A turn is two steps, one per order phase of the Basic Turn Sequence: the movement step waits
for every player in play's ``move:<turn>`` (sequence 2, then the map update), the combat step
for their ``fire:<turn>`` (sequence 4, then wind, the map update, combat, damage, repairs and the
next turn's initiative). Movement runs on the game's turn deadline; combat orders, written on
the map after movement, on its round deadline, as WarpWar's combat rounds are: both in the same
deadline period, the turn (``turn:<n>``), so a game's schedule gives one turn a day (say) with a
shorter window for combat orders. Everyone is mailed the map after each step. The host's turn
and combat modes do not apply: every player orders at once, and there are no standing orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from engine.core.mailgame import ScopedOrders
from engine.core.options import read_options, said
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
from engine.lta.events import AnyEvent, DiceCommitted, InitiativeDecided
from engine.lta.fleet import Design
from engine.lta.game import LighterThanAir
from engine.lta.lang.printer import build_lines, combat_lines, movement_lines
from engine.lta.mailgame import LtaMail
from engine.lta.mailgame import scope as scope_of
from engine.lta.orders import BuildOrders, CombatOrders, MovementOrders, Submission
from engine.lta.results import GAME_NAME, Part, ending_text, replay, results
from engine.lta.robot import orders as robot_orders
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import GameState, Phase, Scenario
from engine.lta.turn import Outcome
from engine.lta.views import player_view

RULES_SUMMARY = """\
Lighter Than Air Warfare, by Dale Poole: "A modified version of Lloyd
Krassner's ZEPPELIN BATTLES of the GREAT WAR, Adapted for Play-by-E-Mail".

"Imagine if Orville and Wilbur Wright did not successfully fly their powered
airplane in 1903, but instead ten years later." Your fleet of Zeppelins has
"three statistics; Movement Points, Cargo Slots and an amount of Gas".
"if you lose all of your Gas, you plummet to the ground!"

Each turn: 1. Determine Initiative  2. Submit Movement Orders  3. Map Update
4. Submit Combat Orders  5. Wind Randomization  6. Map Update
7. Resolve Combat and Damage  8. Make Repairs.
You mail movement orders, get the map after movement, mail combat orders,
and get the map after the wind with the combat's results.
Every die is rolled from your own stream, its seed's hash published at the
start: mail ROLLS (with your CODE) for your rolls so far; at the end every
seed and every roll comes with your results, for you to check.
"""

WITHOUT_ORDERS: dict[tuple[Clock, Tense], str] = {
    ("turn", "present"): (
        "your Zeppelins stay where they are, only the wind moves them (before turn 1, with no fleet "
        "mailed, you fly the ready-made one)"
    ),
    ("turn", "past"): (
        "your Zeppelins stayed where they were, only the wind moved them (before turn 1, with no "
        "fleet mailed, you flew the ready-made one)"
    ),
    ("round", "present"): "your Zeppelins hold their fire",
    ("round", "past"): "your Zeppelins held their fire",
}
"""What movement (the turn's deadline) and combat orders (the round's) are without a player's
orders, as the host's mails tell the player: ``play`` carries out no move and no fire of theirs,
and the wind blows every Zeppelin aloft before combat all the same (engine/lta/turn.py). The
fleet-building phase is on the turn's clock too (the host's words do not know the phase): its
fallback, the seat's ready-made fleet, is said in the same clause."""

_SUBMISSION: TypeAdapter[Submission] = TypeAdapter(Submission)
_SCENARIOS = {"fleet": Scenario.FLEET_BATTLE, "convoy": Scenario.CONVOY}
_EMPTY: dict[str, type[MovementOrders | CombatOrders | BuildOrders]] = {
    "move": MovementOrders,
    "fire": CombatOrders,
    "build": BuildOrders,
}


class LtaOptions(BaseModel):
    """A Lighter Than Air game's own options (``options_json``): the scenario (a fleet battle,
    every player for themselves; or a convoy, the first seat's freighters against the others'
    raiders), the turn limit (the scenario's own when None), and fleets built by the GM for
    seats by player id (the others fly the scenario's ready-made fleet), and whether the players
    build their own fleets by mail before turn 1. The map is the
    scenarios' own, 30 by 20 hexes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    scenario: Literal["fleet", "convoy"] = "fleet"
    turn_limit: int | None = Field(None, ge=1, le=99)
    fleets: dict[str, tuple[Design, ...]] = Field(default_factory=dict)
    building: bool = False
    """Each player mails their own fleet before turn 1, within the scenario's budget; a seat's
    fleet above (or the ready-made one) is what it flies if its player sends none. Off unless
    the GM says so: a game created as before plays as before."""


def _scope(state: GameState) -> str:
    return scope_of(state.phase, state.turn)


def _orders_of(wanted: Wanted, orders_json: str) -> Submission | None:
    """Stored orders as the engine's, always the wanted player's; None when unreadable (they
    were stored by this game's own reader, so only a damaged store gets here)."""
    try:
        orders = _SUBMISSION.validate_json(orders_json)
    except ValidationError:
        return None
    return orders.model_copy(update={"player": wanted.player})


def _written(orders: Submission) -> tuple[str, ...]:
    if isinstance(orders, BuildOrders):
        return tuple(build_lines(orders))
    lines = movement_lines(orders) if isinstance(orders, MovementOrders) else combat_lines(orders)
    return tuple(lines)


def _played(*parts: Part) -> Played:
    last = parts[-1].outcome.state

    def told(player: str, deadlines: Deadlines) -> Results:
        deadline = deadlines.round if last.phase is Phase.COMBAT else deadlines.turn
        return results(parts, player, deadline)

    return Played(
        state_json=last.model_dump_json(),
        turn=last.turn,
        over=last.phase is Phase.OVER,
        results=told,
        account=parts,
    )


def _parts(step: Played) -> tuple[Part, ...]:
    account = step.account
    assert isinstance(account, tuple)  # every Played of this game carries its parts (_played)
    return tuple(p for p in account if isinstance(p, Part))


class LtaTurns:
    key = "lta"
    name = GAME_NAME

    def pending(self, state_json: str, turn_mode: TurnMode, combat_mode: CombatMode) -> Pending | None:
        state = GameState.model_validate_json(state_json)
        if state.phase is Phase.OVER:
            return None
        scope = _scope(state)
        return Pending(
            clock="round" if state.phase is Phase.COMBAT else "turn",
            wants=tuple(Wanted(player=p, scope=scope) for p in state.in_play()),
            period=f"turn:{state.turn}",
        )

    def robot_orders(
        self, state_json: str, player: str, level: str, scopes: Sequence[str]
    ) -> list[tuple[ScopedOrders, str]]:
        """The computer captain's orders (there is one level), written as a mail and read as a
        player's is (engine/lta/mailgame.py), for the scope the game waits for; empty orders
        for any other."""
        state = GameState.model_validate_json(state_json)
        view = player_view(state, player)
        written: list[tuple[ScopedOrders, str]] = []
        for scope in scopes:
            text = ""
            part = None
            if scope == _scope(state):
                lines = _written(robot_orders(view))
                text = "\n".join(
                    [f"GAME {state.game_id}", f"PLAYER {player}", f"TURN {state.turn}", *lines, "END"]
                )
                reading = LtaMail().read_orders(state_json, player, text + "\n")
                part = next((p for p in reading.parts if p.scope == scope), None)
            empty = _EMPTY[scope.split(":")[0]](player=player)
            written.append((part or ScopedOrders(scope=scope, orders_json=empty.model_dump_json()), text))
        return written

    def play(self, state_json: str, pending: Pending, orders: Mapping[Wanted, str]) -> Played:
        """One order phase with the orders that are in; a player who sent none stays where they
        are and holds their fire."""
        state = GameState.model_validate_json(state_json)
        sent = [(w, _orders_of(w, orders[w])) for w in pending.wants if w in orders]
        submissions = [s for _, s in sent if s is not None]
        outcome = LighterThanAir().process(state, submissions)
        written = {s.player: _written(s) for s in submissions}
        return _played(Part(before=state, outcome=outcome, written=written))

    def joined(self, steps: Sequence[Played]) -> Played:
        return _played(*(part for step in steps for part in _parts(step)))

    def opening(self, state_json: str) -> Played:
        """Where everyone starts: the dice commitments, then the first initiative and the map (or,
        when the players build their own fleets, their budgets and ready-made fleets)."""
        state = GameState.model_validate_json(state_json)
        everyone = tuple(p.id for p in state.players)
        events: list[AnyEvent] = [
            DiceCommitted(
                turn=state.turn, visible_to=everyone, commitments={p.id: p.commitment for p in state.players}
            )
        ]
        if state.phase is not Phase.BUILD:
            events.append(
                InitiativeDecided(
                    turn=state.turn,
                    visible_to=everyone,
                    winner=state.initiative.winner,
                    chooser=state.initiative.chooser,
                )
            )
        return _played(Part(before=None, outcome=Outcome(state=state, events=events, results=[])))

    def replay(self, steps: Sequence[Played], player: str) -> Page:
        page = replay([part for step in steps for part in _parts(step)], player)
        return Page(
            filename=f"{page.game_id}-replay.html",
            content_type="text/html",
            template="replay.html",
            model=page,
        )

    def ending(self, state_json: str) -> str | None:
        state = GameState.model_validate_json(state_json)
        return ending_text(state) if state.phase is Phase.OVER else None

    def rules_summary(self) -> str:
        return RULES_SUMMARY

    def without_orders(self, clock: Clock, tense: Tense = "present") -> str:
        return WITHOUT_ORDERS[clock, tense]

    def new_state(self, game_id: str, options_json: str, seats: Sequence[Seat], seed: int) -> str:
        options = read_options(LtaOptions, options_json)
        try:
            setup = Setup(
                game_id=game_id,
                scenario=_SCENARIOS[options.scenario],
                players=tuple(PlayerSpec(id=s.player_id, name=s.name) for s in seats),
                fleets=options.fleets,
                turn_limit=options.turn_limit,
                building=options.building,
            )
        except ValidationError as error:
            raise ValueError(said(error)) from None
        return LighterThanAir().new_game(setup, seed).state.model_dump_json()

    def check_options(self, options_json: str) -> str:
        return read_options(LtaOptions, options_json).model_dump_json()

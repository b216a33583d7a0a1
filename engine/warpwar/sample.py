"""A small scripted game for the sample report: golden files, docs/report-sample.*, benchmarks,
and for a GM previewing restyled templates.

Classic map, Advanced, blind, two players (Red "Ann", Blue "Ben"), seed 7. After setting up, a
few ships are placed by hand so that the fights come early; every turn after that is played
through the engine with explicit typed orders (no robots, whose play may change), so the
result is the same on every run:

* Red's turn 1 builds a Warpship, moves W2 along the Ur-Erech warpline and sends an order for
  a ship it does not have (refused). Blue's turn 1 takes Erech with W2.
* Red's turn 2 (the report starts here): W2 attacks Erech; Blue's W2 retreats and escapes. A
  Systemship too dear for Ur's Base is refused.
* Blue's turn 2: W1 comes into Larsu and drops S1 there; three rounds against Red's W1
  (Missile, Cannon and Beam fire, damage, a Dodge), then Red's W1 escapes and Larsu's Base
  falls. Red's turn 3 begins with its income.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.warpwar.components import Attributes
from engine.warpwar.context import Step
from engine.warpwar.events import AnyEvent
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.knowledge import refresh_knowledge
from engine.warpwar.orders import (
    BuildShip,
    CombatOrder,
    DropStep,
    HexStep,
    LoadHold,
    MissileShot,
    Move,
    OrderResult,
    RoundOrders,
    Tactic,
    TurnOrders,
    WarplineStep,
)
from engine.warpwar.ships import Ship
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Stage, Visibility
from engine.warpwar.turn import submit_round, submit_turn
from engine.warpwar.views import PlayerView, player_view

SEED = 7
SAMPLE_SHEET = """GAME demo
PLAYER Red
TURN 3
CODE ____
# W1 at 0704: 3 MP          W2 at Erech 0710: 3 MP, 5 BP in Holds
# W3 at Ur 0606: 2 MP       Base at Ur 0606: 19 BP
# Base at Mosul 0307: 8 BP
END
"""
SAMPLE_DEADLINE = "Friday 14 March, 18:00 UTC"


@dataclass(frozen=True)
class SampleGame:
    """The state when Red's turn 3 begins, and what happened since Red's turn 2 orders."""

    state: GameState
    events: list[AnyEvent]
    results: list[OrderResult]
    order_texts: list[str]

    def view(self, player: str = "Red") -> PlayerView:
        return player_view(self.state, player)


def _ship(name: str, owner: str, location: str, **attributes: int) -> Ship:
    design = Attributes(**attributes)
    return Ship(
        name=name,
        owner=owner,
        tech_level=0,
        built_turn=0,
        warp_generator=name.startswith("W"),
        built=design,
        current=design,
        location=location,
    )


def _setup(config: GameConfig) -> GameState:
    state = WarpWar().new_game(Setup(config=config), SEED).state.clone()
    ships = [
        _ship("W1", "Red", "0804", PD=6, B=3, S=2, A=2),
        _ship("W2", "Red", "0606", PD=6, B=2, S=1, H=1),
        _ship("W1", "Blue", "0905", PD=8, B=3, S=2, T=1, M=3, SR=1),
        _ship("S1", "Blue", "0905", PD=5, B=2, S=2, C=1, SH=6),
        _ship("W2", "Blue", "1011", PD=4, B=2, S=1),
    ]
    for ship in ships:
        state.ships[ship.uid] = ship
    state.ships["Blue.W1"].carrying.append("Blue.S1")
    state.ships["Blue.S1"].carried_by = "Blue.W1"
    state.player("Red").warpships_named = 2
    state.player("Blue").warpships_named = 2
    state.player("Blue").systemships_named = 1
    step = Step(state)
    refresh_knowledge(step)
    return step.state


def _order(tactic: Tactic, **fields: object) -> CombatOrder:
    return CombatOrder.model_validate({"tactic": tactic, **fields})


def _round(
    star: str, number: int, red: dict[str, CombatOrder], blue: dict[str, CombatOrder]
) -> list[RoundOrders]:
    return [
        RoundOrders(player="Red", star=star, round=number, ships=red),
        RoundOrders(player="Blue", star=star, round=number, ships=blue),
    ]


def sample_game(red_name: str = "Ann", game_id: str = "demo") -> SampleGame:
    """The scripted game; ``red_name`` and ``game_id`` let tests try hostile free text."""
    config = GameConfig(
        game_id=game_id,
        scenario=Scenario.ADVANCED,
        visibility=Visibility.BLIND,
        players=(PlayerSpec(id="Red", name=red_name), PlayerSpec(id="Blue", name="Ben")),
    )
    state = _setup(config)
    red_1 = TurnOrders(
        player="Red",
        orders=(
            BuildShip(at="0606", warp=True, design=Attributes(PD=4, B=2, S=1)),
            Move(ship="W2", steps=(WarplineStep(to="0710"), HexStep(to="0810"))),
            Move(ship="W7", steps=(HexStep(to="0805"),)),
            LoadHold(ship="W2", amount=5),
        ),
    )
    state = submit_turn(state, red_1).state
    blue_1 = TurnOrders(player="Blue", orders=(Move(ship="W2", steps=(WarplineStep(to="0710"),)),))
    state = submit_turn(state, blue_1).state

    events: list[AnyEvent] = []
    red_2 = TurnOrders(
        player="Red",
        orders=(
            Move(ship="W2", steps=(HexStep(to="0710"),)),
            BuildShip(at="0606", warp=False, design=Attributes(PD=30, B=2, S=1)),
        ),
    )
    outcome = submit_turn(state, red_2)
    results = list(outcome.results)
    events += outcome.events
    fight = _round(
        "0710",
        1,
        {"W2": _order(Tactic.ATTACK, drive=2, beam=2, beam_target="Blue.W2", screen=1)},
        {"W2": _order(Tactic.RETREAT, drive=3, retreat_to="0711")},
    )
    outcome = submit_round(outcome.state, "0710", fight)
    events += outcome.events
    blue_2 = TurnOrders(
        player="Blue", orders=(Move(ship="W1", steps=(HexStep(to="0804"), DropStep(systemship="S1"))),)
    )
    outcome = submit_turn(outcome.state, blue_2)
    events += outcome.events
    state = outcome.state
    for number, red, blue in _larsu_rounds():
        if state.stage is not Stage.COMBAT:
            break
        outcome = submit_round(state, "0804", _round("0804", number, red, blue))
        events += outcome.events
        state = outcome.state
    texts = ["MOVE W2 0710", "BUILD SYSTEMSHIP AT Ur PD=30 B=2 S=1"]
    return SampleGame(state=state, events=events, results=results, order_texts=texts)


def _larsu_rounds() -> list[tuple[int, dict[str, CombatOrder], dict[str, CombatOrder]]]:
    missile = MissileShot(target="Red.W1", drive=3)
    return [
        (
            1,
            {"W1": _order(Tactic.ATTACK, drive=1, beam=3, beam_target="Blue.W1", screen=2)},
            {
                "W1": _order(Tactic.ATTACK, drive=3, missiles=(missile,)),
                "S1": _order(Tactic.ATTACK, drive=2, cannons=(3,), cannon_target="Red.W1"),
            },
        ),
        (
            2,
            {"W1": _order(Tactic.DODGE, drive=3, beam=2, beam_target="Blue.S1", screen=1)},
            {
                "W1": _order(Tactic.ATTACK, drive=2, beam=3, beam_target="Red.W1", screen=2),
                "S1": _order(Tactic.ATTACK, drive=2, cannons=(3,), cannon_target="Red.W1"),
            },
        ),
        (
            3,
            {"W1": _order(Tactic.RETREAT, drive=4, retreat_to="0704")},
            {
                "W1": _order(Tactic.ATTACK, drive=2, beam=3, beam_target="Red.W1", screen=2),
                "S1": _order(Tactic.ATTACK, drive=2, cannons=(3,), cannon_target="Red.W1"),
            },
        ),
    ]

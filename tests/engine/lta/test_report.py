"""The results text: only the events meant for the player, the map in words, what comes next."""

from __future__ import annotations

from engine.lta import robot
from engine.lta.events import ShotFired
from engine.lta.game import LighterThanAir
from engine.lta.report import report_text
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import Phase

GAME = LighterThanAir()


def test_a_report_tells_each_player_their_shots_and_hides_others_shots() -> None:
    players = tuple(PlayerSpec(id=p, name=p) for p in ("Red", "Blue", "Green"))
    outcome = GAME.new_game(Setup(game_id="r", players=players), 3)
    assert "Dice committed" in report_text(GAME.view(outcome.state, "Red"), outcome.events)
    state = outcome.state
    shots: list[ShotFired] = []
    while state.phase is not Phase.OVER and not shots:
        outcome = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)])
        state = outcome.state
        shots = [e for e in outcome.events if isinstance(e, ShotFired)]
    shot = shots[0]
    for player in ("Red", "Blue", "Green"):
        text = report_text(GAME.view(state, player), outcome.events)
        line = f"{shot.ship} fired item {shot.item} ({shot.weapon}) at {shot.target}"
        assert (line in text) == (player in shot.visible_to)
        assert "Your Zeppelins:" in text and f"Next: movement orders for turn {state.turn}" in text
    while state.phase is not Phase.OVER:
        outcome = GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)])
        state = outcome.state
    final = report_text(GAME.view(state, "Red"), outcome.events)
    assert "The game is over" in final and "Every seed is revealed" in final

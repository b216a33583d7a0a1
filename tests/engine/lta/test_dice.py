"""Dice every player can audit: committed seeds, logged rolls, own rolls only, all at the end."""

from __future__ import annotations

import hashlib

from engine.core.rng import Rng
from engine.lta import robot
from engine.lta.dice import Dice, Roll, commitment, player_seed
from engine.lta.events import DiceCommitted, DiceRevealed
from engine.lta.game import LighterThanAir
from engine.lta.scenarios import PlayerSpec, Setup
from engine.lta.state import GameState, Phase, Scenario
from engine.lta.turn import Outcome

GAME = LighterThanAir()
PLAYERS = tuple(PlayerSpec(id=p, name=p) for p in ("Red", "Blue", "Green"))


def _play(seed: int, scenario: Scenario = Scenario.FLEET_BATTLE) -> tuple[Outcome, list[Outcome]]:
    first = GAME.new_game(Setup(game_id="d", scenario=scenario, players=PLAYERS), seed)
    state, steps = first.state, []
    while state.phase is not Phase.OVER:
        steps.append(GAME.process(state, [robot.orders(GAME.view(state, p)) for p in GAME.awaiting(state)]))
        state = steps[-1].state
    return first, steps


def _recompute(seed: int, rolls: tuple[Roll, ...]) -> list[int]:
    """What docs/lta-dice.md tells a player to do: one die per logged roll, in order."""
    rng = Rng(seed)
    return [rng.d(r.sides) for r in rolls]


def test_the_new_game_publishes_each_players_seed_hash_and_nothing_else_of_the_seeds() -> None:
    first, _ = _play(3)
    committed = next(e for e in first.events if isinstance(e, DiceCommitted))
    assert set(committed.commitments) == {"Red", "Blue", "Green"}
    for player in first.state.players:
        text = f"warpmail-lta-dice:{player.id}:{player.seed}".encode()
        assert committed.commitments[player.id] == hashlib.sha256(text).hexdigest()
    view = GAME.view(first.state, "Red")
    assert view.commitments == committed.commitments and view.revealed is None
    assert all(str(p.seed) not in view.model_dump_json() for p in first.state.players)


def test_player_seeds_differ_and_come_from_the_game_seed() -> None:
    seeds = {player_seed(5, p.id) for p in PLAYERS}
    assert len(seeds) == 3
    assert player_seed(5, "Red") == player_seed(5, "Red") != player_seed(6, "Red")
    assert commitment("Red", 1) != commitment("Blue", 1)


def test_every_roll_is_recomputable_from_the_revealed_seed_and_matches_the_hash() -> None:
    _, steps = _play(11)
    end = steps[-1]
    revealed = next(e for e in end.events if isinstance(e, DiceRevealed))
    view = GAME.view(end.state, "Blue")
    assert view.revealed is not None and view.revealed.seeds == revealed.seeds
    for player, seed in revealed.seeds.items():
        rolls = view.revealed.rolls[player]
        assert rolls, player
        assert (
            hashlib.sha256(f"warpmail-lta-dice:{player}:{seed}".encode()).hexdigest()
            == view.commitments[player]
        )
        assert _recompute(seed, rolls) == [r.value for r in rolls]
        assert [r.n for r in rolls] == list(range(1, len(rolls) + 1))
        assert all(r.stream == player and r.purpose and 1 <= r.value <= r.sides for r in rolls)


def test_a_view_holds_only_its_players_own_rolls_so_far() -> None:
    _, steps = _play(4)
    for step in steps[:-1]:
        for player in ("Red", "Blue", "Green"):
            view = GAME.view(step.state, player)
            assert view.revealed is None
            assert view.my_rolls == step.state.player(player).rolls
            assert {r.stream for r in view.my_rolls} <= {player}
            others = [p for p in step.state.players if p.id != player]
            dumped = view.model_dump_json()
            assert all(f'"stream":"{o.id}"' not in dumped for o in others)


def test_no_event_carries_a_die_value() -> None:
    first, steps = _play(2)
    for outcome in [first, *steps]:
        for event in outcome.events:
            assert "value" not in event.model_dump() and "rolls" not in event.model_dump()


def test_interpretation_14_whose_dice_roll_what() -> None:
    """Interpretation 14: initiative on each player's own dice; wind on the owner's; to-hit,
    damage and a cargo hit's pick on the firer's; fire aboard on the owner's."""
    _, steps = _play(8)
    state: GameState = steps[-1].state
    owners = {s.id: s.owner for s in state.ships}
    for player in state.players:
        for roll in player.rolls:
            words = roll.purpose.split()
            if roll.purpose.startswith(("wind", "fire aboard")):
                assert owners[words[-1]] == player.id
            elif roll.purpose.startswith(("to hit", "damage", "bomb")):
                assert owners[roll.purpose.split(": ")[1].split()[0]] == player.id
            else:
                assert roll.purpose.startswith(("initiative", "cargo hit")), roll.purpose


def test_the_streams_replay_the_same_from_a_phase_to_the_next() -> None:
    """A Dice rebuilt from the log continues each stream where it stopped."""
    dice = Dice({"Red": 77}, {}, 1, "movement")
    first = [dice.roll("Red", 6, "x") for _ in range(5)]
    again = Dice({"Red": 77}, {"Red": tuple(dice.rolled)}, 1, "combat")
    more = [again.roll("Red", 20, "y") for _ in range(3)]
    rng = Rng(77)
    assert [rng.d(6) for _ in range(5)] == first and [rng.d(20) for _ in range(3)] == more
    assert [r.n for r in again.rolled] == [6, 7, 8]

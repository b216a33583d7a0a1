"""A game's own mail commands (functions/host/commands/game.py): Lighter Than Air's ROLLS, answered
only with the player's CODE, only to their own address, with their own dice only (every
player's once the game is over); WarpWar has no such command and says so."""

from __future__ import annotations

import re

from engine.core.turnhost import Seat
from engine.games import GAME_COMMANDS, MAIL_GAMES
from engine.lta.host import LtaTurns
from engine.lta.mailgame import COMMANDS
from engine.lta.state import GameState
from functions.host.commands.game import NEEDS_CODE, NOT_THE_GAMES
from functions.host.commands.reading import find_command
from tests.engine.lta.test_host import robot_game
from tests.functions.test_inbound import (
    BLUE,
    BLUE_CODE,
    RED,
    RED_CODE,
    FakeStore,
    ListMailer,
    deliver,
    hosted,
    raw_mail,
    text_of,
)

SEATS = [Seat(player_id="P1", name="Red"), Seat(player_id="P2", name="Blue")]


def lta_store(state_json: str | None = None) -> FakeStore:
    store = hosted()
    store.games["g1"] = store.games["g1"].model_copy(update={"game": "lta"})
    store.states["g1"] = state_json or LtaTurns().new_state("g1", "{}", SEATS, 5)
    return store


def test_rolls_is_a_command_word_on_the_first_lines_or_the_subject() -> None:
    found = find_command("", f"Hello,\nrolls\nCODE {RED_CODE}\n")
    assert found is not None and found.word == "ROLLS" and found.line == 1
    by_subject = find_command("Re: ROLLS", "thanks")
    assert by_subject is not None and by_subject.word == "ROLLS"


def test_rolls_with_the_code_answers_the_player_with_their_own_dice_only() -> None:
    store, mailer = lta_store(), ListMailer()
    state = GameState.model_validate_json(store.states["g1"])
    outcome = deliver(store, raw_mail(f"ROLLS\nCODE {RED_CODE}"), mailer)
    assert (outcome.status, outcome.reason) == ("command", "ROLLS")
    [answer] = mailer.sent
    assert answer["To"] == RED
    text = text_of(answer)
    red, blue = state.player("P1"), state.player("P2")
    assert "Your die rolls in game g1 (P1)" in text
    assert re.search(rf"^ +1  turn 1 +initiative +d6 += {red.rolls[0].value} +initiative$", text, re.M)
    assert red.commitment in text
    assert blue.commitment not in text and str(blue.seed) not in text and str(red.seed) not in text


def test_rolls_needs_the_senders_own_code() -> None:
    store, mailer = lta_store(), ListMailer()
    for body in ("ROLLS", f"ROLLS\nCODE {BLUE_CODE}", "ROLLS CODE WRONG-CODE"):
        outcome = deliver(store, raw_mail(body), mailer)
        assert (outcome.status, outcome.reason) == ("rejected", NEEDS_CODE.format(word="ROLLS")), body
    assert mailer.sent and all("die rolls" not in text_of(m) for m in mailer.sent)
    assert all(m["To"] == RED for m in mailer.sent)


def test_blue_gets_blues_dice_not_reds() -> None:
    store, mailer = lta_store(), ListMailer()
    state = GameState.model_validate_json(store.states["g1"])
    assert deliver(store, raw_mail(f"ROLLS\nCODE {BLUE_CODE}", sender=BLUE), mailer).status == "command"
    [answer] = mailer.sent
    assert answer["To"] == BLUE and "(P2)" in text_of(answer)
    assert state.player("P1").commitment not in text_of(answer)


def test_once_the_game_is_over_rolls_reveals_every_seed() -> None:
    final = robot_game(names=SEATS)[-1].state_json
    store, mailer = lta_store(final), ListMailer()
    state = GameState.model_validate_json(final)
    assert deliver(store, raw_mail(f"ROLLS\nCODE {RED_CODE}"), mailer).status == "command"
    text = text_of(mailer.sent[0])
    for player in state.players:
        assert f"{player.id}: seed {player.seed}, SHA-256 {player.commitment}" in text


def test_a_game_without_the_command_says_so() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail(f"ROLLS\nCODE {RED_CODE}"), mailer)
    assert (outcome.status, outcome.reason) == ("rejected", NOT_THE_GAMES.format(word="ROLLS", game_id="g1"))
    [answer] = mailer.sent
    assert "ROLLS is a command of another game" in text_of(answer)


def test_help_for_a_lighter_than_air_game_names_rolls() -> None:
    store, mailer = lta_store(), ListMailer()
    assert deliver(store, raw_mail("HELP"), mailer).status == "command"
    text = text_of(mailer.sent[0])
    assert "Lighter Than Air Warfare orders" in text and "ROLLS" in text


def test_the_registry_names_the_words_the_games_answer() -> None:
    """engine/games.py lists each game's commands without loading it: the list must be the
    game's own, and every word on it answered."""
    assert GAME_COMMANDS == {"lta": COMMANDS}
    state = LtaTurns().new_state("g1", "{}", SEATS, 5)
    assert all(MAIL_GAMES["lta"].command(state, "P1", word, "") for word in COMMANDS)
    assert MAIL_GAMES["warpwar"].command(hosted().states["g1"], "P1", "ROLLS", "") is None

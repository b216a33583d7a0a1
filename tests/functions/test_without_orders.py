"""What a step without a player's orders is, in the game's own words (issue 16): every host mail
that says it (the welcome, the reminders, ABSENT's answer when the game plays on, the missed-turn
notice and the mail at the limit) asks the game (``TurnGame.without_orders``), so a Lighter Than
Air player never reads of ships holding or nothing being built, and WarpWar's words stay."""

from __future__ import annotations

from datetime import timedelta
from typing import cast, get_args

import pytest

from engine.core.turnhost import Clock, Tense
from engine.games import TURN_GAMES
from functions import schedule
from functions.host.missed import player_mail
from functions.host.missed_notice import missed_words
from functions.host.ports import TurnStore
from functions.host.reminders import reminded_players, reminder_mail
from functions.host.seats import welcome_mail
from functions.store import GameRecord, Schedule
from tests.functions.test_commands import player, playing
from tests.functions.test_inbound import DEADLINE, NOW, RED_CODE, ListMailer, deliver, raw_mail, text_of

WARPWAR_WORDS = ("ships hold", "ships held", "nothing is built", "nothing was built", "income", "STANDING")
"""What only WarpWar's players may read of a turn without orders."""

WORDS = {
    "warpwar": {
        "turn": "your ships hold, nothing is built, income still comes",
        "round": "in combat your ships fight on their STANDING orders",
        "turn past": "your ships held, nothing was built, income still came",
        "round past": "in combat your ships fought on their STANDING orders",
    },
    "lta": {
        "turn": (
            "your Zeppelins stay where they are, only the wind moves them (before turn 1, with no "
            "fleet mailed, you fly the ready-made one)"
        ),
        "round": "your Zeppelins hold their fire",
        "turn past": (
            "your Zeppelins stayed where they were, only the wind moved them (before turn 1, with "
            "no fleet mailed, you flew the ready-made one)"
        ),
        "round past": "your Zeppelins held their fire",
    },
}


def record(game: str, **changes: object) -> GameRecord:
    """Game g1 of ``hosted`` (turn 1, deadline DEADLINE), as a game of ``game``."""
    base = playing().games["g1"]
    return base.model_copy(update={"game": game, **changes})


def flat(text: str) -> str:
    return " ".join(text.split())


def games_own(game: str, text: str) -> None:
    """A Lighter Than Air mail reads nothing of WarpWar's turn without orders."""
    if game != "warpwar":
        assert [w for w in WARPWAR_WORDS if w in text] == []


def test_every_game_says_it_as_one_clause_per_clock_and_tense() -> None:
    assert set(WORDS) == set(TURN_GAMES)
    for key, words in WORDS.items():
        host = TURN_GAMES[key]
        said = {
            f"{clock} past" if tense == "past" else clock: host.without_orders(clock, tense)
            for clock in get_args(Clock)
            for tense in get_args(Tense)
        }
        assert said == words
        assert host.without_orders("turn") == words["turn"]  # the present is the default
        # a clause the host's sentences carry: lower case, no full stop of its own
        assert all(w[0].islower() and not w.endswith(".") for w in said.values())


@pytest.mark.parametrize("game", sorted(WORDS))
def test_the_welcome_says_what_a_turn_without_orders_is_in_the_games_words(game: str) -> None:
    mail = welcome_mail(record(game), player(playing()), RED_CODE, None, NOW)
    assert f"a turn without your orders is waived: {WORDS[game]['turn']}." in flat(mail.text)
    assert mail.html is not None and WORDS[game]["turn"] in mail.html
    games_own(game, mail.text + mail.html)


@pytest.mark.parametrize("game", sorted(WORDS))
@pytest.mark.parametrize(("grace", "late"), [(0, False), (6, False), (6, True)], ids=["due", "grace", "late"])
def test_a_reminder_says_what_a_turn_without_orders_is_in_the_games_words(
    game: str, grace: int, late: bool
) -> None:
    at = DEADLINE + timedelta(hours=1) if late else NOW
    mail = reminder_mail(record(game, schedule=Schedule(grace_hours=grace)), player(playing()), at)
    assert f"your turn is waived: {WORDS[game]['turn']}." in flat(mail.text)
    games_own(game, mail.text)


def test_orders_awaited_on_the_round_clock_are_not_reminded() -> None:
    # Lighter Than Air's combat orders, like WarpWar's combat rounds, are awaited on the round
    # clock (the game's Pending.clock): hours, not days, so no reminder; the turn's are reminded
    fire = record("lta", awaiting=("fire:1#P1",), round_deadline=DEADLINE)
    move = record("lta", awaiting=("move:1#P1",))
    players = [player(playing())]
    assert reminded_players(cast(TurnStore, None), fire, players, NOW) == []
    assert schedule.turn_players(fire) == frozenset() and schedule.turn_players(move) == {"P1"}


@pytest.mark.parametrize("game", sorted(WORDS))
def test_absent_in_a_game_that_plays_on_says_what_is_waived_in_the_games_words(game: str) -> None:
    store, mailer = playing(), ListMailer()
    store.games["g1"] = store.games["g1"].model_copy(update={"game": game})
    assert deliver(store, raw_mail(f"ABSENT 3 DAYS\nCODE {RED_CODE}"), mailer).reason.startswith("ABSENT")
    text = flat(text_of(mailer.sent[0]))
    words = WORDS[game]
    assert f"is waived ({words['turn']}; {words['round']}) and is not counted as missed" in text
    games_own(game, text)


@pytest.mark.parametrize("game", sorted(WORDS))
def test_the_missed_turn_notice_says_what_was_waived_in_the_games_words(game: str) -> None:
    made = record(game, turn=2, missed={"P1": 1})
    notice = missed_words(record(game), made, "P1")
    assert notice is not None
    words = WORDS[game]
    # the turn is past; the rounds of a combat still to come go by the rule
    assert f"no orders were used ({words['turn past']}; {words['round']})" in notice
    games_own(game, notice)


@pytest.mark.parametrize("game", sorted(WORDS))
def test_the_mail_at_the_limit_says_what_was_waived_in_the_games_words(game: str) -> None:
    game_record = record(game, missed={"P1": 3}, schedule=Schedule(missed_action="robot"))
    mail = player_mail(game_record, player(playing()), True, NOW)
    words = WORDS[game]
    assert f"no orders were used ({words['turn past']}; {words['round past']})" in flat(mail.text)
    games_own(game, mail.text)

"""The GM console's rough edges (issue 14, items 10-12 and 14): a replaced player's name in the
game, a rollback setting aside the orders of the turns it undoes, a standby's welcome when the
GM invites one, and who is late."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest

from engine.games import MAIL_GAMES
from functions.mail.codes import code_matches
from tests.console.conftest import KeptOpen, code_sent_to, outbox_mails, text_of, warpmail


def _mail(sender: str, game_id: str, body: str, subject: str = "orders") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, f"{game_id}@warpmail.test", subject
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(body)
    return bytes(message)


def _orders(sender: str, game_id: str, player: str, code: str, turn: int, *orders: str) -> bytes:
    lines = [f"GAME {game_id}", f"PLAYER {player}", f"TURN {turn}", f"CODE {code}", *orders, "END"]
    return _mail(sender, game_id, "\n".join(lines) + "\n")


def _flat(message: EmailMessage) -> str:
    return " ".join(text_of(message).split())


def _status(console: KeptOpen, sender: str, game_id: str) -> str:
    console.deliver(_mail(sender, game_id, "STATUS\n", subject="STATUS"))
    return text_of(outbox_mails(console.outbox, sender)[-1])


# --- 10: replace ---


def test_a_replaced_seat_bears_the_newcomers_name_in_the_game(console: KeptOpen) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "e1", "--seed", "6") == 0
    assert warpmail("player", "invite", "e1", "ann@example.org", "--name", "Ann") == 0
    assert warpmail("player", "invite", "e1", "bob@example.org", "--name", "Bob") == 0
    assert warpmail("player", "invite", "e1", "dee@example.org", "--name", "Dee", "--standby") == 0
    assert warpmail("game", "start", "e1") == 0
    started = store.game("e1")
    assert started is not None
    assert warpmail("player", "replace", "e1", "P2", "dee@example.org") == 0
    # A new version of the game, its state naming the seat's newcomer.
    game, state_json = store.state("e1")
    assert game.version == started.version + 1
    assert MAIL_GAMES["warpwar"].names(state_json) == {"P1": "Ann", "P2": "Dee"}
    # Her welcome's report and orders sheet name her, not Bob.
    welcome = outbox_mails(outbox, "dee@example.org")[-1]
    assert "Welcome to game e1" in str(welcome["Subject"])
    sheet = text_of(welcome).split("Welcome, Dee", 1)[1]
    assert "P2 (Dee)" in sheet and "Bob" not in sheet
    # Ann plays; her results name Dee as the player to play next.
    ann = code_sent_to(outbox, "ann@example.org")
    console.deliver(_orders("ann@example.org", "e1", "P1", ann, 1, "BUILD WARPSHIP AT 0606 PD=3 B=2 S=1"))
    assert warpmail("turn", "run") == 0
    results = _flat(outbox_mails(outbox, "ann@example.org")[-1])
    assert "Dee (P2) to play" in results and "Bob" not in results
    # Dee's orders signed with her name are accepted.
    dee = code_sent_to(outbox, "dee@example.org")
    console.deliver(_orders("dee@example.org", "e1", "Dee", dee, 1))
    ack = _flat(outbox_mails(outbox, "dee@example.org")[-1])
    assert "signed by" not in ack, ack
    assert ("P2", "turn:1") in store.latest_submissions("e1", "turn:1"), ack
    assert warpmail("turn", "replay", "e1") == 0, "the renaming version is no step to replay"


# --- 12: invite --standby ---


def test_a_standby_invited_by_the_gm_is_welcomed_as_join_welcomes_one(console: KeptOpen) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "s1", "--seed", "4", "--timezone", "Europe/Paris") == 0
    assert warpmail("player", "invite", "s1", "ann@example.org", "--name", "Ann") == 0
    assert warpmail("player", "invite", "s1", "dot@example.org", "--name", "Dot", "--standby") == 0
    dot = next(p for p in store.players("s1") if p.address == "dot@example.org")
    assert (dot.player_id, dot.role, dot.timezone) == ("S1", "standby", "Europe/Paris")
    [welcome] = outbox_mails(outbox, "dot@example.org")
    assert welcome["Subject"] == "[WarpWar s1] You are a standby player of game s1"
    said = _flat(welcome)
    assert "the GM invited you to game s1 as a standby, so you are standby player S1" in said
    assert "When a seat comes free the GM may give it to you" in said
    assert "deadlines in Europe/Paris time" in said and "shows them to you in Europe/Paris time" in said
    assert code_matches(code_sent_to(outbox, "dot@example.org"), dot.code_hash)
    # A seat's invitation keeps the full welcome, in the game's time zone unless told.
    ann = next(p for p in store.players("s1") if p.player_id == "P1")
    assert ann.timezone == "Europe/Paris"
    assert "you are player P1 of game s1" in _flat(outbox_mails(outbox, "ann@example.org")[-1])


# --- 11: rollback ---


def test_a_rollback_sets_aside_the_orders_of_the_turns_it_undoes(console: KeptOpen) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "r1", "--seed", "2") == 0
    assert warpmail("player", "invite", "r1", "red@example.org", "--name", "Red") == 0
    assert warpmail("game", "start", "r1", "--robots", "cadet") == 0
    code = code_sent_to(outbox, "red@example.org")
    build = "BUILD WARPSHIP AT 0606 PD=3 B=2 S=1"
    console.deliver(_orders("red@example.org", "r1", "P1", code, 1, build))
    assert "BUILD WARPSHIP AT" in _status(console, "red@example.org", "r1")
    assert warpmail("turn", "run") == 0
    played = store.game("r1")
    assert played is not None and played.version > 1
    assert '"P1.W1"' in store.state("r1")[1], "the orders were played"
    assert warpmail("turn", "rollback", "r1", "--turn", "1") == 0
    rolled = store.game("r1")
    assert rolled is not None and rolled.turn == 1
    # Kept in the history, but no longer standing: nothing is in for turn 1.
    history = store.submissions("r1", "turn:1", "P1")
    assert [s.discarded for s in history] == [False, True] and build.split(" AT")[0] in history[0].body
    assert store.latest_submissions("r1", "turn:1") == {}
    assert "none received yet for this turn" in _status(console, "red@example.org", "r1")
    # The next run waits for new orders...
    assert warpmail("turn", "run") == 0
    assert store.game("r1").version == rolled.version  # type: ignore[union-attr]
    # ... and at the deadline Red's player-turn is waived: the old orders are not applied.
    assert warpmail("turn", "run", "r1", "--force") == 0
    after = store.game("r1")
    assert after is not None and after.version > rolled.version
    assert '"P1.W1"' not in store.state("r1", rolled.version + 1)[1]
    assert after.missed.get("P1") == 1
    assert warpmail("turn", "replay", "r1") == 0, "a replay finds the waived turn as it was played"


@pytest.fixture(autouse=True)
def _quiet(capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()


# --- 14: who is late ---


def test_game_late_and_show_list_missed_turns_and_the_last_mail(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    store = console.store
    assert warpmail("game", "create", "l1", "--seed", "3", "--turn-hours", "30") == 0
    assert warpmail("player", "invite", "l1", "lou@example.org", "--name", "Louise Longname") == 0
    assert warpmail("game", "start", "l1", "--robots", "cadet") == 0
    game = store.game("l1")
    assert game is not None and store.update_game(game.model_copy(update={"missed": {"P1": 2}}), game.version)
    capsys.readouterr()
    assert warpmail("game", "late") == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["game", "player", "awaited", "missed", "last", "mail", "deadline", "in"]
    [row] = [line for line in lines if line.startswith("l1 ")]
    assert row.split()[1:7] == ["P1", "Louise", "Longname", "turn:1", "2", "never"]
    assert row.split()[7:] == ["29h", "59m"] or row.split()[7:] == ["1d", "5h"]
    assert all(len(line) <= 100 for line in lines)
    for column in ("awaited", "missed", "last mail"):
        assert row[lines[0].index(column) - 2 : lines[0].index(column)] == "  ", "aligned under its header"
    # A mail from her (here STATUS) is her last sign of life; orders in take her off the list.
    _status(console, "lou@example.org", "l1")
    code = code_sent_to(console.outbox, "lou@example.org")
    capsys.readouterr()
    assert warpmail("game", "show", "l1") == 0
    shown = capsys.readouterr().out.splitlines()
    header = next(line for line in shown if line.startswith("player "))
    [lou] = [line for line in shown if line.startswith("P1 ")]
    assert lou[header.index("missed") :].split() == ["2", "0m", "ago"]
    assert all(len(line) <= 100 for line in shown)
    console.deliver(_orders("lou@example.org", "l1", "P1", code, 1))
    capsys.readouterr()
    assert warpmail("game", "late") == 0
    assert not any(line.startswith("l1 ") for line in capsys.readouterr().out.splitlines())

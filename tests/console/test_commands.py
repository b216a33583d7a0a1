"""Every GM command against the local host, with what it stores and mails; and the refusals,
each one red line."""

from __future__ import annotations

import contextlib
import json
import os
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import escape

from functions.console.backend import open_stack
from functions.console.errors import ConsoleError
from functions.console.inputs import WEEKDAY_NAMES, read_hours, read_time, read_weekdays
from functions.local import host as local_host
from functions.local.host import LOCK_FILE, FolderLock
from functions.mail.codes import code_matches
from functions.mail.ses import SesMailer
from tests.console.conftest import REGION, KeptOpen, code_sent_to, fake_stack, outbox_mails, text_of, warpmail


def refused(capsys: pytest.CaptureFixture[str], *args: str, code: int = 1) -> str:
    assert warpmail(*args) == code
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def test_refusals_are_one_clear_line(console: KeptOpen, capsys: pytest.CaptureFixture[str]) -> None:
    assert "there is no game nope" in refused(capsys, "game", "show", "nope")
    assert "'fry' is not a weekday" in refused(capsys, "game", "create", "x1", "--weekdays", "mon-fry")
    assert "did you mean Europe/Paris" in refused(capsys, "game", "create", "x1", "--timezone", "Pariss")
    assert "not a time of day" in refused(capsys, "game", "create", "x1", "--deadline", "25:00")
    assert "cannot be a game id" in refused(capsys, "game", "create", "Bad Id")
    assert "ends for 2 players only" in refused(capsys, "game", "create", "x1", "--players", "3")
    assert "--players" in refused(capsys, "game", "create", "x1", "--players", "9", code=2)
    assert "No such command" in refused(capsys, "gme", "list", code=2)
    assert console.store.game("x1") is None
    assert warpmail("game", "create", "x2", "--seed", "3") == 0
    assert "game x2 is setup, not running" in refused(capsys, "game", "pause", "x2")
    assert "exists already" in refused(capsys, "game", "create", "x2")
    assert "has 0 of 2 seats taken" in refused(capsys, "game", "start", "x2")


def test_a_games_own_options_are_checked_by_the_game_and_named_when_wrong(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    # A flag or an --option the game does not take, or a value it refuses, names the option
    assert "scenario: Input should be 'basic' or 'advanced'" in refused(
        capsys, "game", "create", "o1", "--scenario", "epic"
    )
    assert "colour: Extra inputs are not permitted" in refused(
        capsys, "game", "create", "o1", "--option", "colour=red"
    )
    assert "hexes and size are for a generated map" in refused(
        capsys, "game", "create", "o1", "--hexes", "500"
    )
    assert "write KEY=VALUE" in refused(capsys, "game", "create", "o1", "--option", "turn_limit")
    assert "this host plays lta, warpwar, not chess" in refused(
        capsys, "game", "create", "o1", "--game", "chess"
    )
    assert "map: Extra inputs are not permitted" in refused(
        capsys, "game", "create", "o1", "--game", "lta", "--map", "generated"
    )
    assert console.store.game("o1") is None
    # Flags and --option pairs given go into the options the game stores, completed by it
    created = ("game", "create", "o1", "--game", "warpwar", "--players", "3", "--map", "generated")
    assert warpmail(*created, "--hexes", "600", "--option", "turn_limit=12", "--visibility", "blind") == 0
    game = console.store.game("o1")
    assert game is not None and game.game == "warpwar" and game.setup.seats == 3
    options = json.loads(game.setup.options_json)
    assert (options["map"], options["hexes"], options["turn_limit"]) == ("generated", 600, 12)
    assert (options["visibility"], options["scenario"]) == ("blind", "basic")
    # And any registered game is created the same way, with its own options
    assert (
        warpmail("game", "create", "o2", "--game", "lta", "--players", "3", "--option", "scenario=convoy")
        == 0
    )
    lta = console.store.game("o2")
    assert (
        lta is not None and lta.game == "lta" and json.loads(lta.setup.options_json)["scenario"] == "convoy"
    )


def test_a_local_folder_held_beyond_the_wait_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(local_host, "LOCK_WAIT", 0.3)
    held = FolderLock(tmp_path / LOCK_FILE)
    held.acquire()
    try:
        err = refused(capsys, "--local", str(tmp_path), "game", "list")
    finally:
        held.release()
    assert f"in use by process {os.getpid()} and was not free within 0.3 s" in err


def test_players_from_invitation_to_replacement(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "p1", "--seed", "5", "--title", "Duel") == 0
    assert warpmail("player", "invite", "p1", "ann@example.org", "--name", "Ann") == 0
    assert warpmail("player", "add", "p1", "bob@example.org") == 0
    assert "seats of game p1 are taken" in refused(capsys, "player", "invite", "p1", "cy@example.org")
    assert warpmail("player", "invite", "p1", "cy@example.org", "--standby") == 0
    ann = code_sent_to(outbox, "ann@example.org")
    players = {p.player_id: p for p in store.players("p1")}
    assert [(p.name, p.role) for p in players.values()] == [
        ("Ann", "player"),
        ("bob", "player"),
        ("cy", "standby"),
    ]
    assert code_matches(ann, players["P1"].code_hash)
    assert warpmail("game", "start", "p1") == 0
    assert store.game("p1").status == "running"  # type: ignore[union-attr]
    assert any("Turn 1" in str(m["Subject"]) for m in outbox_mails(outbox, "bob@example.org"))
    # Reset code: a new one is mailed, the old one no longer matches.
    assert warpmail("player", "reset-code", "p1", "Ann") == 0
    new = code_sent_to(outbox, "ann@example.org")
    hashed = next(p.code_hash for p in store.players("p1") if p.player_id == "P1")
    assert new != ann and code_matches(new, hashed) and not code_matches(ann, hashed)
    # Address: both addresses told; the player is found by the new one.
    assert warpmail("player", "address", "p1", "P1", "ann@new.example.org") == 0
    assert [p.player_id for p in store.players_by_address("ann@new.example.org")] == ["P1"]
    assert (
        outbox_mails(outbox, "ann@example.org")[-1]["Subject"]
        == outbox_mails(outbox, "ann@new")[-1]["Subject"]
    )
    # Replace Bob by the standby: she takes seat P2 with a fresh code and the current report.
    assert warpmail("player", "replace", "p1", "bob", "cy@example.org") == 0
    players = {p.player_id: p for p in store.players("p1")}
    assert (players["P2"].address, players["S1"].role) == ("cy@example.org", "removed")
    assert code_matches(code_sent_to(outbox, "cy@example.org"), players["P2"].code_hash)
    # Robot, then remove.
    assert warpmail("player", "robot", "p1", "P2", "--level", "admiral") == 0
    assert next(p.robot for p in store.players("p1") if p.player_id == "P2") == "admiral"
    assert warpmail("player", "remove", "p1", "P1") == 0
    removed = next(p for p in store.players("p1") if p.player_id == "P1")
    assert (removed.role, removed.robot) == ("removed", "cadet")
    assert warpmail("player", "list", "p1") == 0
    assert "admiral" in capsys.readouterr().out


def test_turn_commands_extend_resend_and_end(console: KeptOpen, capsys: pytest.CaptureFixture[str]) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "t1", "--seed", "2") == 0
    assert warpmail("player", "invite", "t1", "red@example.org") == 0
    assert warpmail("game", "start", "t1", "--robots", "cadet") == 0
    before = store.game("t1")
    assert before is not None and before.deadline is not None
    assert warpmail("turn", "extend", "t1", "--hours", "12") == 0
    after = store.game("t1")
    assert after is not None and after.deadline is not None
    assert (after.deadline - before.deadline).total_seconds() == 12 * 3600
    assert "deadline was extended" in str(outbox_mails(outbox, "red@")[-1]["Subject"])
    results = len(outbox_mails(outbox, "red@"))
    assert warpmail("turn", "resend", "t1") == 0
    assert len(outbox_mails(outbox, "red@")) == results + 1
    assert "Turn 1" in str(outbox_mails(outbox, "red@")[-1]["Subject"])
    assert warpmail("turn", "run", "t1", "--force") == 0
    assert store.game("t1").turn >= 1  # type: ignore[union-attr]
    assert store.latest_submissions("t1", "turn:1").get(("P2", "turn:1")) is not None, "the robot played"
    assert warpmail("game", "end", "t1", "--reason", "test over") == 0
    assert store.game("t1").status == "over"  # type: ignore[union-attr]
    assert "test over" in outbox_mails(outbox, "red@")[-1].get_body(("plain",)).get_content()  # type: ignore[union-attr]


def test_a_second_game_runs_through_the_same_console_and_mail(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a Lighter Than Air game created, a player invited, a robot in the other seat
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "z1", "--game", "lta", "--seed", "2") == 0
    assert warpmail("player", "invite", "z1", "ann@example.org", "--name", "Ann") == 0
    assert warpmail("game", "start", "z1", "--robots", "cadet") == 0
    # Then the player's results are the game's own, rendered with its templates: the map
    # inline, its SVG and the report as JSON attached, its subject and its name in the subject
    welcome, results = outbox_mails(outbox, "ann@")[-2:]
    assert str(welcome["Subject"]).startswith("[Lighter Than Air Warfare z1] Welcome to game z1")
    assert str(results["Subject"]).startswith("[Lighter Than Air Warfare z1] Turn 1")
    files = {part.get_filename() or part.get_content_type() for part in results.walk()}
    assert {"map.png", "z1-turn-1-movement-map.svg", "z1-turn-1-movement.json"} <= files
    assert "MOVE" in text_of(results)
    # And turn show lists the robot's movement orders, written at the start, by the game's scope
    capsys.readouterr()
    assert warpmail("turn", "show", "z1") == 0
    assert "move:1" in capsys.readouterr().out
    # And a forced turn plays the robot's orders through the game's own TurnGame
    assert warpmail("turn", "run", "z1", "--force") == 0
    game = store.game("z1")
    assert game is not None and game.version > 1
    assert len(outbox_mails(outbox, "ann@")) > 1


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, 7), min_size=1), st.sampled_from(["short", "long", "number"]))
def test_weekdays_read_back_as_written(days: set[int], form: str) -> None:
    def word(day: int) -> str:
        names = WEEKDAY_NAMES[day - 1]
        return {"short": names[0], "long": names[-1].upper(), "number": str(day)}[form]

    assert read_weekdays(",".join(word(d) for d in sorted(days))) == tuple(sorted(days))


@given(st.integers(1, 7), st.integers(1, 7))
def test_a_weekday_range_wraps_past_sunday(first: int, last: int) -> None:
    days = read_weekdays(f"{WEEKDAY_NAMES[first - 1][0]}-{WEEKDAY_NAMES[last - 1][0]}")
    assert first in days and last in days and len(days) == (last - first) % 7 + 1


@given(st.lists(st.floats(0, 1000, allow_nan=False), min_size=1, max_size=5))
def test_hours_read_largest_first(hours: list[float]) -> None:
    assert read_hours(",".join(repr(h) for h in hours)) == tuple(sorted(set(hours), reverse=True))


@given(st.text(max_size=12))
def test_bad_input_is_refused_never_raised_otherwise(text: str) -> None:
    for reader in (read_weekdays, read_hours, read_time):
        with contextlib.suppress(ConsoleError):
            reader(text)


@given(st.integers(0, 23), st.integers(0, 59))
def test_times_of_day(hour: int, minute: int) -> None:
    assert read_time(f"{hour}:{minute:02d}") == f"{hour:02d}:{minute:02d}"


def test_a_stack_without_warpmail_outputs_is_refused(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    template = {"Resources": {"T": {"Type": "AWS::SNS::Topic"}}, "Outputs": {"TableName": {"Value": "t"}}}
    console.backend.host.client("cloudformation").create_stack(
        StackName="other", TemplateBody=json.dumps(template)
    )
    err = refused(capsys, "--stack", "other", "game", "list")
    assert "stack other is not a WarpMail stack: no output" in err
    assert "cannot read stack missing" in refused(capsys, "--stack", "missing", "game", "list")


def test_a_stack_backend_sends_through_the_stacks_configuration_set(console: KeptOpen) -> None:
    # Given a deployed stack whose outputs name its SES configuration set
    described = fake_stack("warpmail-staging", "staging", console.backend.host.client)
    # When the console opens it
    backend = open_stack("warpmail-staging", None, REGION)
    # Then its mail goes through that set, as the deployed functions' mail does
    assert backend.settings.configuration_set == f"{described.table}-sending"
    assert isinstance(backend.mailer, SesMailer)
    assert backend.mailer.configuration_set == backend.settings.configuration_set


ODD_NAMES = ("Zoë & O'Brien {{x}} %s", "محمد 🚀 [fleet]")


def test_players_with_any_script_and_punctuation_start_play_and_get_their_reports(
    console: KeptOpen, capsys: pytest.CaptureFixture[str]
) -> None:
    store, outbox = console.store, console.outbox
    assert warpmail("game", "create", "n1", "--seed", "3") == 0
    assert "no control or invisible" in refused(
        capsys, "player", "invite", "n1", "x@example.org", "--name", "E\u202eve"
    )
    assert warpmail("player", "invite", "n1", "zoe@example.org", "--name", ODD_NAMES[0]) == 0
    assert warpmail("game", "open", "n1") == 0
    console.deliver(_mail("mo@example.org", "n1@warpmail.test", f"JOIN n1 {ODD_NAMES[1]}"))
    confirmation = outbox_mails(outbox, "mo@example.org")[-1]
    console.deliver(_mail("mo@example.org", "n1@warpmail.test", "", subject=f"Re: {confirmation['Subject']}"))
    assert [p.name for p in store.players("n1")] == list(ODD_NAMES)
    assert warpmail("game", "start", "n1") == 0
    assert warpmail("turn", "run", "n1", "--force") == 0
    game = store.game("n1")
    assert game is not None and game.status == "running" and game.version >= 2
    for address, name in zip(("zoe@example.org", "mo@example.org"), ODD_NAMES, strict=True):
        results = [m for m in outbox_mails(outbox, address) if "Turn" in str(m["Subject"])]
        assert results, address
        html = results[-1].get_body(("html",))
        assert html is not None and str(escape(name)) in str(html.get_content()), "shown as written"
        assert name in " ".join(text_of(results[-1]).split())
        assert any(part.get_content_type() == "image/png" for part in results[-1].walk())


def _mail(sender: str, to: str, body: str, subject: str = "") -> bytes:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject or body
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(body or "\n")
    return bytes(message)


def test_parked_games_are_unparked_at_once(console: KeptOpen, capsys: pytest.CaptureFixture[str]) -> None:
    store = console.store
    for game_id in ("u1", "u2", "u3"):
        assert warpmail("game", "create", game_id, "--seed", "3") == 0
        assert warpmail("player", "invite", game_id, f"red-{game_id}@example.org") == 0
        assert warpmail("game", "start", game_id, "--robots", "cadet") == 0
    for game_id in ("u1", "u2"):
        game = store.game(game_id)
        assert game is not None
        assert store.update_game(
            game.model_copy(update={"parked": "SES throttled", "failures": 3}), game.version
        )
    assert "not parked: u3" in refused(capsys, "turn", "unpark", "u3")
    capsys.readouterr()
    assert warpmail("turn", "unpark", "--all-parked") == 0
    said = capsys.readouterr().out
    assert "game u1: unparked" in said and "game u2: unparked" in said and "u3" not in said
    for game_id in ("u1", "u2"):
        game = store.game(game_id)
        assert game is not None and (game.parked, game.failures) == (None, 0)
    assert warpmail("turn", "unpark", "--all-parked") == 0
    assert "no game is parked" in capsys.readouterr().out

"""Mail commands (functions/host/commands/): HELP, STATUS, REPORT, CHECK, JOIN, MESSAGE, WAIT,
ABSENT, TIMEZONE; and the dates and time zones they read (functions/host/dates.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from email.message import EmailMessage
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.orderblock import find_block
from engine.games import MAIL_GAMES, TURN_GAMES
from engine.warpwar import crt
from functions.host.commands import info
from functions.host.commands.message import MESSAGE_CODE
from functions.host.commands.reading import MAX_MESSAGE, Command, checked_body, find_command, message_text
from functions.host.dates import read_date, read_days, read_period, read_zone, zone_suggestions
from functions.host.received import InboundOutcome
from functions.mail.body import read_message
from functions.mail.codes import code_matches
from functions.mail.compose import Attachment, OutgoingMail, compose
from functions.schedule import deadline_after
from functions.store import GameRecord, GameSetup, KeptResults, NewSubmission, PlayerRecord, Schedule
from tests.functions.test_inbound import (
    BLUE,
    BLUE_CODE,
    DEADLINE,
    DMARC_FAIL,
    DOMAIN,
    GAME_ADDRESS,
    NOW,
    RED,
    RED_CODE,
    FakeStore,
    ListMailer,
    deliver,
    hosted,
    orders,
    raw_mail,
    text_of,
)


@dataclass
class PlayerStore(FakeStore):
    """The fake store, with the writes the issue-6 commands and seats make."""

    def update_player(self, player: PlayerRecord) -> None:
        key = (player.game_id, player.player_id)
        self.all_players = [player if (p.game_id, p.player_id) == key else p for p in self.all_players]

    def update_game(self, game: GameRecord, expected_version: int) -> bool:
        if self.games[game.game_id].version != expected_version:
            return False
        self.games[game.game_id] = game.model_copy(update={"version": expected_version + 1})
        return True

    def commit(self, game: GameRecord, state_json: str, expected_version: int) -> bool:
        if not self.update_game(game, expected_version):
            return False
        self.states[game.game_id] = state_json
        return True

    def open_games(self) -> list[GameRecord]:
        return sorted((g for g in self.games.values() if g.status == "open"), key=lambda g: g.game_id)


def playing(status: str = "running", **schedule: Any) -> PlayerStore:
    """Game g1 as ``hosted`` makes it, its schedule changed by ``schedule``, in a store that
    takes player updates."""
    base = hosted(status)
    store = PlayerStore(games=base.games, states=base.states, all_players=list(base.all_players))
    game = store.games["g1"]
    store.games["g1"] = game.model_copy(update={"schedule": game.schedule.model_copy(update=schedule)})
    return store


def with_seats(store: FakeStore, seats: int) -> FakeStore:
    store.games["g1"] = store.games["g1"].model_copy(update={"setup": GameSetup(seats=seats)})
    return store


def player(store: FakeStore, player_id: str = "P1") -> PlayerRecord:
    return next(p for p in store.players("g1") if p.player_id == player_id)


def flat(message: EmailMessage) -> str:
    return " ".join(text_of(message).split())


# --- Finding the command ---


def test_the_first_non_blank_line_is_the_command_in_any_case() -> None:
    found = find_command("Re: turn 5", "\n  \nstatus: g1\nmore")
    assert found == Command(word="STATUS", args=("g1",), line=2, below=("more",))


def test_the_subject_is_the_command_only_in_a_mail_without_orders() -> None:
    assert find_command("Re: Fwd: HELP", "please") == Command(word="HELP", below=("please",))
    assert find_command("Help with my orders", orders()) is None
    assert find_command("Orders", orders()) is None


def test_a_command_after_a_greeting_is_found_in_the_first_lines() -> None:
    # issue 14, item 6: "a greeting first, then JOIN"
    assert find_command("", "Hello GM,\n\nJOIN g1 Ann\nthanks") == Command(
        word="JOIN", args=("g1", "Ann"), line=2, below=("thanks",)
    )
    assert find_command("", "Hello GM\nSTATUS") == Command(word="STATUS", line=1)


def test_a_command_word_deep_in_a_letter_quoted_or_below_the_orders_is_none() -> None:
    assert (
        find_command("", "Dear GM,\nI hope you are well.\nIt was a long week.\nReport from the front") is None
    )
    assert find_command("", "Thanks!\n> STATUS\n") is None
    assert find_command("", orders() + "\nSTATUS\n") is None


def test_check_above_the_orders_marks_the_block_and_keeps_the_line_numbers() -> None:
    body = "CHECK\n" + orders()
    marked = checked_body(body, find_command("", body) or Command(word="CHECK"))
    assert marked is not None
    assert find_block(marked).header.check
    assert marked.split("\n").index("END") == body.split("\n").index("END")


def test_check_as_subject_takes_out_a_blank_line_above_the_orders() -> None:
    body = orders()
    marked = checked_body(body, Command(word="CHECK"))
    assert marked is not None
    assert find_block(marked).header.check
    assert marked.split("\n").index("END") == body.split("\n").index("END")


def test_message_text_stops_at_end_or_signature_and_takes_out_the_code() -> None:
    text, code = message_text(["CODE k7qm-9xda-2p", "Hello Blue,", "", "> quoted", "peace?", "-- ", "Red"])
    assert (text, code) == ("Hello Blue,\n\npeace?", "k7qm-9xda-2p")
    long, _ = message_text(["CODE x", "a" * 5000])
    assert len(long) < MAX_MESSAGE + 100


# --- HELP ---


def test_help_answers_the_sender_with_the_commands_and_the_order_language() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("help", sender="new@example.com"), mailer)
    assert (outcome.status, outcome.command) == ("command", "HELP")
    [reply] = mailer.sent
    assert reply["To"] == "new@example.com"
    for word in (
        "STATUS",
        "REPORT",
        "JOIN <game> <name>",
        "MESSAGE <player|ALL>",
        "WAIT",
        "ABSENT <n> DAYS",
        "TIMEZONE <zone>",
        "MOVE W3",
        f"{GAME_ADDRESS}",
    ):
        assert word in text_of(reply)
    assert max(len(line) for line in text_of(reply).splitlines()) <= 78


def test_help_crt_answers_with_the_combat_results_table_alone() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("HELP CRT", sender="new@example.com"), mailer)
    assert (outcome.status, outcome.command) == ("command", "HELP")
    [reply] = mailer.sent
    text = text_of(reply)
    assert crt.table_text() in text
    assert "ATTACK (0, +1)" in text
    assert "JOIN <game> <name>" not in text


def test_help_on_an_unknown_topic_is_the_general_help() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail("help me please", sender="new@example.com"), mailer)
    [reply] = mailer.sent
    assert "JOIN <game> <name>" in text_of(reply)
    assert "MOVE W3" in text_of(reply)


def test_help_to_the_host_names_every_game_it_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    # Given a host with a second game registered beside WarpWar
    monkeypatch.setattr(info, "MAIL_GAMES", {**MAIL_GAMES, "second": MAIL_GAMES["warpwar"]})
    monkeypatch.setattr(info, "TURN_GAMES", {**TURN_GAMES, "second": Named()})
    store, mailer = hosted(), ListMailer()
    # When someone asks for HELP at the host's own address, naming no game
    outcome = deliver(store, raw_mail("HELP", sender="new@example.com", to=f"warpmail@{DOMAIN}"), mailer)
    # Then the answer names every game by its name and key, and explains no game's orders
    assert (outcome.status, outcome.command) == ("command", "HELP")
    [reply] = mailer.sent
    text, html = text_of(reply), html_of(reply)
    for part in (text, html):
        assert "WarpWar (warpwar)" in part and "The Second Game (second)" in part
        assert "JOIN &lt;game&gt; &lt;name&gt;" in part or "JOIN <game> <name>" in part
        assert "MOVE W3" not in part
    # And mail to a game gets that game's own orders, no list of games
    deliver(store, raw_mail("HELP", sender="new@example.com"), mailer)
    assert "MOVE W3" in text_of(mailer.sent[-1]) and "(second)" not in text_of(mailer.sent[-1])


@dataclass(frozen=True)
class Named:
    name: str = "The Second Game"


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert isinstance(part, EmailMessage)
    return str(part.get_content())


def test_help_is_not_sent_to_mail_failing_dmarc() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("HELP", Authentication_Results=DMARC_FAIL), mailer)
    assert outcome.status == "rejected"
    assert mailer.sent == []


# --- LIST ---


def sign_up_host() -> PlayerStore:
    """g1 running; g2 open with one of three seats taken and a weekly rhythm; g3 open, empty."""
    store = playing()
    weekly = Schedule(deadline_time="18:00", timezone="Europe/Paris", weekdays=(1, 3, 5))
    store.games["g2"] = GameRecord(
        game_id="g2", title="Friday night", status="open", setup=GameSetup(seats=3), schedule=weekly
    )
    store.games["g3"] = GameRecord(game_id="g3", title="Quick one", status="open", turn_hours=12)
    store.all_players.append(
        PlayerRecord(game_id="g2", player_id="P1", name="Ann", address="ann@example.net", code_hash="x")
    )
    return store


def test_list_answers_a_stranger_with_the_open_games_and_how_to_join_each() -> None:
    store, mailer = sign_up_host(), ListMailer()
    outcome = deliver(store, raw_mail("LIST", sender="new@example.com", to=f"games@{DOMAIN}"), mailer)
    assert (outcome.status, outcome.command) == ("command", "LIST")
    [reply] = mailer.sent
    assert reply["To"] == "new@example.com"
    text = flat(reply)
    assert "g1" not in text.replace("g1@", "")  # running: not open for sign-up
    assert "g2: Friday night. 1 of 3 seats taken." in text
    assert "Deadlines at 18:00 Europe/Paris on Mon, Wed, Fri, one for each player-turn" in text
    assert f"To join, mail JOIN g2 <your name> to g2@{DOMAIN}" in text
    assert "g3: Quick one. 0 of 2 seats taken. A deadline 12 hours after each player-turn opens" in text
    assert max(len(line) for line in text_of(reply).splitlines()) <= 78


def test_list_never_echoes_a_strangers_subject_and_answers_them_once_a_day() -> None:
    store, mailer = sign_up_host(), ListMailer()
    for n in range(2):
        raw = raw_mail(f"LIST\n{n}", sender="new@example.com", subject="LIST <script>x</script>")
        deliver(store, raw, mailer)
    [reply] = mailer.sent
    assert "script" not in str(reply["Subject"]) and str(reply["Subject"]) == "Games open for sign-up"
    assert "script" not in text_of(reply)


def test_list_answers_a_player_three_times_a_day_and_not_mail_failing_dmarc() -> None:
    store, mailer = sign_up_host(), ListMailer()
    outcomes = [deliver(store, raw_mail(f"Hi,\nLIST\n{n}"), mailer) for n in range(4)]
    assert [o.status for o in outcomes] == ["command"] * 3 + ["ignored"]
    assert len(mailer.sent) == 3
    failed = deliver(sign_up_host(), raw_mail("LIST", Authentication_Results=DMARC_FAIL), mailer)
    assert failed.status == "rejected"


def test_list_with_no_open_game_says_so() -> None:
    store, mailer = playing(), ListMailer()
    deliver(store, raw_mail("LIST"), mailer)
    assert "No game is open for sign-up now" in flat(mailer.sent[0])


def test_a_sentence_starting_with_list_above_the_orders_is_not_the_command() -> None:
    assert find_command("", "List of my changes:\n" + orders()) is None
    assert find_command("", "list games") == Command(word="LIST", args=("games",), line=0)


def test_help_mentions_list() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail("HELP", sender="new@example.com"), mailer)
    assert "LIST" in text_of(mailer.sent[0])


# --- STATUS ---


def test_status_lists_own_orders_who_else_sent_and_the_deadline_but_not_their_orders() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail(orders()))
    store.add_submission(
        NewSubmission(
            game_id="g1", player_id="P2", scope="turn:1", received_at=NOW, message_id="<b@x>", body="",
            orders_json='{"player": "P2", "orders": [{"kind": "scrap", "ship": "W9"}]}',
        )
    )  # fmt: skip
    outcome = deliver(store, raw_mail("STATUS"), mailer)
    assert outcome.command == "STATUS"
    text = text_of(mailer.sent[0])
    assert mailer.sent[0]["To"] == RED
    assert "BUILD WARPSHIP AT 0606" in text
    assert "Blue" in text
    assert "W9" not in text
    assert "Deadline: Sat 8 Mar 2025, 18:00 UTC" in text


def test_status_from_an_unknown_address_says_it_is_not_registered() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("STATUS", sender="eve@example.com"), mailer)
    assert outcome.status == "rejected"
    assert "not registered" in flat(mailer.sent[0])


def test_status_to_the_host_address_finds_the_senders_only_game() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("STATUS", to=f"host@{DOMAIN}"), mailer)
    assert (outcome.status, outcome.game_id) == ("command", "g1")


# --- REPORT ---


def test_report_before_any_results_sends_the_orders_sheet() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("REPORT"), mailer)
    assert outcome.command == "REPORT"
    text = text_of(mailer.sent[0])
    assert "No results of game g1 have been sent to you yet" in flat(mailer.sent[0])
    assert "GAME g1" in text
    assert "PLAYER P1" in text


def test_report_sends_the_latest_results_mail_again_to_the_registered_address() -> None:
    # Given Red's latest results mail kept, sent when Red's address was another
    store, mailer = hosted(), ListMailer()
    results = OutgoingMail(
        to="old@example.org", subject="Turn 3: P1's player-turn", text="Your results", game_id="g1",
        game_name="WarpWar", player_id="P1", kind="results",
        attachments=(Attachment(filename="g1-turn-3.json", content_type="application/json", data=b"{}"),),
    )  # fmt: skip
    sent = compose(results, f"warpmail@{DOMAIN}", DOMAIN, NOW)
    kept = KeptResults(game_id="g1", player_id="P1", version=7, at=NOW, subject=str(sent["Subject"]))
    store.results[("g1", "P1")] = (kept, sent.as_bytes())
    # When Red asks for a REPORT
    asked = raw_mail("REPORT")
    outcome = deliver(store, asked, mailer)
    # Then that mail comes again, to Red's registered address, as a new message
    again = mailer.sent[0]
    assert outcome.reason == "REPORT: the results of version 7 sent again"
    assert (again["To"], again["Subject"]) == (RED, sent["Subject"])
    assert again["Message-ID"] != sent["Message-ID"]
    assert (again["Auto-Submitted"], sent["Auto-Submitted"]) == ("auto-replied", "auto-generated")
    assert again["In-Reply-To"] == read_message(asked)["Message-ID"]
    assert text_of(again).strip() == "Your results"
    assert [p.get_filename() for p in again.iter_attachments()] == ["g1-turn-3.json"]
    assert [(e.direction, e.reason) for e in store.log] == [
        ("out", "results"),
        ("in", "REPORT: the results of version 7 sent again"),
    ]


# --- CHECK ---


def test_check_on_the_first_line_checks_the_orders_and_submits_nothing() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("CHECK\n" + orders()), mailer)
    assert outcome.status == "acknowledged"
    assert store.subs == []
    assert "Checked only (CHECK)" in text_of(mailer.sent[0])


def test_check_still_needs_the_code() -> None:
    store = hosted()
    assert deliver(store, raw_mail("CHECK\n" + orders(code=None))).status == "rejected"


# --- JOIN ---


def confirmed(store: FakeStore, join: bytes, mailer: ListMailer) -> InboundOutcome:
    """``join`` delivered, then the confirmation it brought answered as a mail client replies:
    "Re: <its subject>", the sender's words above the quoted mail."""
    assert deliver(store, join, mailer).status == "command"
    confirmation = mailer.sent.pop()
    reply = raw_mail(
        "Yes, that was me.\n\n> " + "\n> ".join(text_of(confirmation).splitlines()),
        sender=str(confirmation["To"]),
        subject=f"Re: {confirmation['Subject']}",
    )
    return deliver(store, reply, mailer)


def test_join_asks_the_sender_to_confirm_and_takes_no_seat_until_then() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    outcome = deliver(store, raw_mail("JOIN g1 Green Fleet", sender="green@example.com"), mailer)
    assert (outcome.status, outcome.command, outcome.player_id) == ("command", "JOIN", None)
    assert len(store.players("g1")) == 2
    [confirmation] = mailer.sent
    assert confirmation["To"] == "green@example.com"
    token = str(confirmation["Subject"]).split("CONFIRM ")[1].split()[0]
    assert f"CONFIRM {token}" in text_of(confirmation)
    assert "Green Fleet" not in text_of(confirmation) + str(confirmation["Subject"])


def test_join_an_open_game_registers_the_sender_and_mails_the_welcome_with_the_code() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    join = raw_mail("JOIN g1 Green Fleet", sender="green@example.com")
    outcome = confirmed(store, join, mailer)
    assert (outcome.status, outcome.player_id) == ("command", "P3")
    joined = store.players("g1")[-1]
    assert (joined.name, joined.address, joined.role) == ("Green Fleet", "green@example.com", "player")
    [welcome] = mailer.sent
    assert welcome["To"] == "green@example.com"
    code = next(line for line in text_of(welcome).splitlines() if line.strip().startswith("CODE "))
    assert code_matches(code.strip()[5:], joined.code_hash)
    assert "a two- or multi-player game of tactical space combat" in flat(welcome)
    assert "Your first orders sheet comes when the game starts." in flat(welcome)


def test_join_a_running_or_full_game_makes_the_sender_a_standby() -> None:
    for store in (hosted(), hosted(status="open")):
        mailer = ListMailer()
        outcome = confirmed(store, raw_mail("JOIN g1 Green", sender="g@example.com"), mailer)
        assert (outcome.status, outcome.player_id) == ("command", "S1")
        assert store.players("g1")[-1].role == "standby"
        assert "so you are standby player S1" in flat(mailer.sent[0])
        reasons = [e.reason for e in store.log if e.direction == "in"]
        assert reasons == ["JOIN: Green asked to join, confirmation sent", "JOIN: Green joined as standby S1"]


def test_join_refuses_a_game_over_a_taken_name_and_a_second_join() -> None:
    over = hosted(status="over")
    assert deliver(over, raw_mail("JOIN g1 Green", sender="g@example.com")).status == "rejected"
    store = hosted(status="open")
    assert deliver(store, raw_mail("JOIN g1 blue", sender="g@example.com")).status == "rejected"
    assert deliver(store, raw_mail("JOIN g1 Other", sender=RED)).status == "rejected"
    unknown = raw_mail("JOIN g9 Other", sender="g@example.com", to=f"host@{DOMAIN}")
    assert deliver(store, unknown).status == "rejected"
    assert len(store.players("g1")) == 2 and store.pending == {}


def test_join_to_the_game_address_needs_only_the_name() -> None:
    store, mailer = with_seats(hosted(status="open"), 3), ListMailer()
    assert confirmed(store, raw_mail("JOIN Green", sender="g@example.com"), mailer).status == "command"
    assert store.players("g1")[-1].name == "Green"


# --- MESSAGE ---


def test_a_message_is_relayed_from_the_game_with_the_senders_name_and_without_the_code() -> None:
    store, mailer = hosted(), ListMailer()
    body = f"MESSAGE Blue\nCODE {RED_CODE}\nShall we share Babylon?\nEND\nignored"
    outcome = deliver(store, raw_mail(body), mailer)
    assert (outcome.status, outcome.command) == ("command", "MESSAGE")
    relay, confirmation = mailer.sent
    assert relay["To"] == BLUE
    assert relay["Reply-To"].addresses[0].addr_spec == GAME_ADDRESS
    assert "Red (P1) writes to you in game g1" in text_of(relay)
    assert "Shall we share Babylon?" in text_of(relay)
    assert RED_CODE not in text_of(relay)
    assert "ignored" not in text_of(relay)
    assert confirmation["To"] == RED


def test_a_message_to_all_goes_to_every_other_player() -> None:
    store, mailer = hosted(), ListMailer()
    deliver(store, raw_mail(f"message all\nCODE {BLUE_CODE}\nHello all", sender=BLUE), mailer)
    assert [m["To"] for m in mailer.sent] == [RED, BLUE]
    assert text_of(mailer.sent[0]).startswith("ALL> Blue (P2)")


def test_a_message_needs_the_code_and_a_known_player() -> None:
    store, mailer = hosted(), ListMailer()
    assert deliver(store, raw_mail("MESSAGE Blue\nhi"), mailer).reason == MESSAGE_CODE
    assert deliver(store, raw_mail(f"MESSAGE Green\nCODE {RED_CODE}\nhi"), mailer).status == "rejected"
    assert deliver(store, raw_mail(f"MESSAGE Blue\nCODE {RED_CODE}\n"), mailer).status == "rejected"
    assert all(m["To"] == RED for m in mailer.sent)


# --- WAIT ---


def test_wait_keeps_the_turn_to_its_deadline_and_wait_off_undoes_it() -> None:
    store, mailer = playing(), ListMailer()
    outcome = deliver(store, raw_mail(f"WAIT\nCODE {RED_CODE}"), mailer)
    assert (outcome.status, outcome.reason) == ("command", "WAIT: turn:1 waits for its deadline")
    assert player(store).wait_scope == "turn:1"
    assert "Turn 1 waits for its deadline, Sat 8 Mar 2025, 18:00 UTC" in flat(mailer.sent[0])
    assert deliver(store, raw_mail(f"wait off CODE {RED_CODE}")).reason == "WAIT OFF"
    assert player(store).wait_scope == ""


def test_wait_needs_the_code_a_seat_and_a_game_being_played() -> None:
    store, mailer = playing(), ListMailer()
    assert deliver(store, raw_mail("WAIT"), mailer).reason == "WAIT without the right secret code"
    assert deliver(store, raw_mail("WAIT\nCODE WRONG-CODE")).status == "rejected"
    assert "needs your secret code" in flat(mailer.sent[0])
    store.update_player(player(store).model_copy(update={"role": "standby"}))
    assert deliver(store, raw_mail(f"WAIT\nCODE {RED_CODE}")).reason == "WAIT refused: no seat"
    assert deliver(playing("open"), raw_mail(f"WAIT\nCODE {RED_CODE}")).reason == "WAIT refused: game open"
    assert deliver(store, raw_mail(f"WAIT later\nCODE {RED_CODE}")).status == "rejected"
    assert player(store).wait_scope == ""


# --- ABSENT ---


def test_absent_dates_are_whole_days_in_the_players_zone() -> None:
    store, mailer = playing(), ListMailer()
    outcome = deliver(store, raw_mail(f"ABSENT 10.3. TO 12 March\nCODE {BLUE_CODE}", sender=BLUE), mailer)
    assert outcome.status == "command"
    [absence] = player(store, "P2").absences
    paris = ZoneInfo("Europe/Paris")
    assert (absence.start, absence.end) == (
        datetime(2025, 3, 10, tzinfo=paris),
        datetime(2025, 3, 13, tzinfo=paris),
    )
    assert absence.declared_at == NOW
    text = flat(mailer.sent[0])
    assert "You are away from Mon 10 Mar 2025, 00:00 CET to Thu 13 Mar 2025, 00:00 CET" in text
    assert "The game plays on" in text and "is waived" in text  # the policy: "play"


def test_absent_n_days_runs_from_now_and_absent_off_calls_it_off() -> None:
    store = playing()
    deliver(store, raw_mail(f"ABSENT 3 DAYS\nCODE {RED_CODE}"))
    assert [(a.start, a.end) for a in player(store).absences] == [(NOW, NOW + timedelta(days=3))]
    assert deliver(store, raw_mail(f"ABSENT OFF\nCODE {RED_CODE}")).reason == "ABSENT OFF"
    assert [(a.start, a.end) for a in player(store).absences] == [(NOW, NOW)]
    deliver(store, raw_mail(f"ABSENT 2025-04-01 2025-04-03\nCODE {RED_CODE}"))
    deliver(store, raw_mail(f"ABSENT OFF\nCODE {RED_CODE}"))
    assert len(player(store).absences) == 1


def test_absent_with_the_wait_policy_answers_with_the_moved_deadline() -> None:
    store, mailer = playing(absence_policy="wait"), ListMailer()
    deliver(store, raw_mail(f"ABSENT 2025-03-08 TO 2025-03-09\nCODE {RED_CODE}"), mailer)
    back = datetime(2025, 3, 10, tzinfo=UTC)
    moved = deadline_after(store.games["g1"].schedule, store.games["g1"].turn_hours, back)
    assert moved > DEADLINE
    assert store.games["g1"].deadline == moved
    assert f"The deadline now: {moved:%a} {moved.day} {moved:%b %Y, %H:%M} UTC" in flat(mailer.sent[0])


def test_absent_refuses_bad_dates_the_past_too_long_too_many_and_none_allowed() -> None:
    store, mailer = playing(absence_days=5, absence_count=1), ListMailer()
    for written, why in (
        ("ABSENT soon", "bad dates"),
        ("ABSENT 2025-03-01 TO 2025-03-02", "bad dates"),
        ("ABSENT 2025-03-12 TO 2025-03-10", "bad dates"),
        ("ABSENT 0 DAYS", "bad dates"),
        ("ABSENT 6 DAYS", "too long"),
        ("ABSENT 2025-03-10 TO 2025-03-20", "too long"),
    ):
        assert (
            deliver(store, raw_mail(f"{written}\nCODE {RED_CODE}"), mailer).reason == f"ABSENT refused: {why}"
        )
    assert player(store).absences == ()
    assert "at most 5 days" in flat(mailer.sent[-1])
    assert deliver(store, raw_mail(f"ABSENT 2 DAYS\nCODE {RED_CODE}")).status == "command"
    assert deliver(store, raw_mail(f"ABSENT 2 DAYS\nCODE {RED_CODE}")).reason == "ABSENT refused: too many"
    none = playing(absence_days=0)
    assert deliver(none, raw_mail(f"ABSENT 2 DAYS\nCODE {RED_CODE}")).reason == "ABSENT refused: none allowed"


# --- TIMEZONE ---


def test_timezone_sets_the_zone_and_answers_with_the_deadline_in_it() -> None:
    store, mailer = playing(), ListMailer()
    outcome = deliver(store, raw_mail(f"TIMEZONE europe/paris\nCODE {RED_CODE}"), mailer)
    assert outcome.reason == "TIMEZONE: Europe/Paris"
    assert player(store).timezone == "Europe/Paris"
    assert "The next deadline: Sat 8 Mar 2025, 19:00 CET" in flat(mailer.sent[0])
    deliver(store, raw_mail(f"TIMEZONE +01:00\nCODE {RED_CODE}"))
    assert player(store).timezone == "Etc/GMT-1"
    deliver(store, raw_mail(f"TIMEZONE New York\nCODE {RED_CODE}"))
    assert player(store).timezone == "America/New_York"


def test_timezone_refuses_an_unknown_zone_with_a_guess_and_needs_the_code() -> None:
    store, mailer = playing(), ListMailer()
    assert deliver(store, raw_mail(f"TIMEZONE Europe/Pariss\nCODE {RED_CODE}"), mailer).status == "rejected"
    assert "Did you mean Europe/Paris" in flat(mailer.sent[0])
    deliver(store, raw_mail(f"TIMEZONE +05:30\nCODE {RED_CODE}"), mailer)
    assert "Asia/Kolkata" in flat(mailer.sent[1])
    assert (
        deliver(store, raw_mail("TIMEZONE Europe/Paris")).reason == "TIMEZONE without the right secret code"
    )
    assert player(store).timezone == "UTC"


# --- Who may send orders ---


def test_a_standby_or_removed_player_cannot_submit_orders() -> None:
    for role in ("standby", "removed"):
        store, mailer = playing(), ListMailer()
        store.update_player(player(store).model_copy(update={"role": role}))
        outcome = deliver(store, raw_mail(orders()), mailer)
        assert (outcome.status, outcome.reason) == ("rejected", f"P1 holds no seat ({role})")
        assert store.subs == []
        assert "your orders were not read" in flat(mailer.sent[0])


def test_a_seat_is_found_beside_the_removed_standby_record_of_the_same_address() -> None:
    store = playing()
    removed = player(store).model_copy(update={"player_id": "S1", "role": "removed", "code_hash": "x"})
    store.all_players.append(removed)
    assert deliver(store, raw_mail(orders())).status == "accepted"


# --- Dates and zones ---

FORMATS = (
    "{d:%Y-%m-%d}",
    "{d.day}.{d.month}.{d.year}",
    "{d.day} {d:%b} {d.year}",
    "{d:%B} {d.day}, {d.year}",
    "{d.day}th {d:%B} {d.year}",
    "{d.day}/{d.month}/{d.year}",
)


@settings(max_examples=60, deadline=None)
@given(st.dates(date(2000, 1, 1), date(2099, 12, 31)), st.sampled_from(FORMATS))
def test_a_date_written_with_its_year_reads_back(day: date, form: str) -> None:
    assert read_date(form.format(d=day), date(2025, 3, 7)) == day


@settings(max_examples=60, deadline=None)
@given(st.dates(date(2024, 1, 1), date(2030, 12, 31)), st.dates(date(2024, 1, 1), date(2030, 12, 31)))
def test_a_date_without_a_year_is_the_next_such_day(day: date, today: date) -> None:
    found = read_date(f"{day.day} {day:%b}", today)
    assert found is not None and (found.month, found.day) == (day.month, day.day)
    assert today <= found < today + timedelta(days=366 * 4 + 1)
    assert read_date(f"{day.day}.{day.month}.", today) == found


def test_dates_read_forgivingly_and_refuse_what_is_no_date() -> None:
    today = date(2025, 3, 7)
    assert read_date("12/24", today) == date(2025, 12, 24)
    assert read_date("3 jan", today) == date(2026, 1, 3)
    assert read_period(["28", "Dec", "-", "3", "Jan"], today) == (date(2025, 12, 28), date(2026, 1, 3))
    assert read_period(["24.12.", "27.12."], today) == (date(2025, 12, 24), date(2025, 12, 27))
    assert read_days(["5", "days"]) == 5 and read_days(["5d"]) == 5
    for nonsense in ("soon", "31.2.2025", "2025-13-01", "32 Dec", "Dec", "tomorrow 3"):
        assert read_date(nonsense, today) is None


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(z for z in available_timezones() if "/" in z)))
def test_every_zone_name_reads_in_any_case(zone: str) -> None:
    assert read_zone(zone.lower()) == zone
    assert read_zone(zone.upper().replace("_", " ")) == zone


def test_offsets_are_fixed_zones_and_odd_ones_get_suggestions() -> None:
    assert [read_zone(z) for z in ("+01:00", "UTC-5", "gmt", "+0", "-12", "+14")] == [
        "Etc/GMT-1", "Etc/GMT+5", "UTC", "UTC", "Etc/GMT+12", "Etc/GMT-14",
    ]  # fmt: skip
    assert read_zone("+05:30") is None and read_zone("+15") is None
    assert "Asia/Kolkata" in zone_suggestions("+05:30", NOW)
    assert read_zone("Paris") == "Europe/Paris"

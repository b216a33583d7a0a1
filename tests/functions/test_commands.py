"""Mail commands (functions/host/commands.py): HELP, STATUS, REPORT, CHECK, JOIN, MESSAGE."""

from __future__ import annotations

from email.message import EmailMessage

from engine.core.orderblock import find_block
from functions.host import commands
from functions.host.commands import Command, checked_body, find_command, message_text
from functions.mail.codes import code_matches
from functions.mail.compose import Attachment, OutgoingMail, compose
from functions.store import KeptResults, NewSubmission
from tests.functions.test_inbound import (
    BLUE,
    BLUE_CODE,
    DMARC_FAIL,
    DOMAIN,
    GAME_ADDRESS,
    NOW,
    RED,
    RED_CODE,
    ListMailer,
    deliver,
    hosted,
    orders,
    raw_mail,
    text_of,
)


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


def test_a_mail_starting_with_a_greeting_is_no_command() -> None:
    assert find_command("", "Hello GM\nSTATUS") is None


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
    assert len(long) < commands.MAX_MESSAGE + 100


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
        "MOVE W3",
        f"{GAME_ADDRESS}",
    ):
        assert word in text_of(reply)
    assert max(len(line) for line in text_of(reply).splitlines()) <= 78


def test_help_is_not_sent_to_mail_failing_dmarc() -> None:
    store, mailer = hosted(), ListMailer()
    outcome = deliver(store, raw_mail("HELP", Authentication_Results=DMARC_FAIL), mailer)
    assert outcome.status == "rejected"
    assert mailer.sent == []


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
        player_id="P1", kind="results",
        attachments=(Attachment(filename="g1-turn-3.json", content_type="application/json", data=b"{}"),),
    )  # fmt: skip
    sent = compose(results, f"warpmail@{DOMAIN}", DOMAIN, NOW)
    kept = KeptResults(game_id="g1", player_id="P1", version=7, at=NOW, subject=str(sent["Subject"]))
    store.results[("g1", "P1")] = (kept, sent.as_bytes())
    # When Red asks for a REPORT
    outcome = deliver(store, raw_mail("REPORT"), mailer)
    # Then that mail comes again, to Red's registered address, as a new message
    again = mailer.sent[0]
    assert outcome.reason == "REPORT: the results of version 7 sent again"
    assert (again["To"], again["Subject"]) == (RED, sent["Subject"])
    assert again["Message-ID"] != sent["Message-ID"]
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


def test_join_an_open_game_registers_the_sender_and_mails_the_code() -> None:
    store, mailer = hosted(status="open"), ListMailer()
    outcome = deliver(store, raw_mail("JOIN g1 Green Fleet", sender="green@example.com"), mailer)
    assert (outcome.status, outcome.player_id) == ("command", "P3")
    joined = store.players("g1")[-1]
    assert (joined.name, joined.address) == ("Green Fleet", "green@example.com")
    [welcome] = mailer.sent
    assert welcome["To"] == "green@example.com"
    code = next(line for line in text_of(welcome).splitlines() if line.startswith("CODE "))[5:]
    assert code_matches(code, joined.code_hash)


def test_join_refuses_a_running_game_a_taken_name_and_a_second_join() -> None:
    running = hosted()
    assert deliver(running, raw_mail("JOIN g1 Green", sender="g@example.com")).status == "rejected"
    store = hosted(status="open")
    assert deliver(store, raw_mail("JOIN g1 blue", sender="g@example.com")).status == "rejected"
    assert deliver(store, raw_mail("JOIN g1 Other", sender=RED)).status == "rejected"
    unknown = raw_mail("JOIN g9 Other", sender="g@example.com", to=f"host@{DOMAIN}")
    assert deliver(store, unknown).status == "rejected"
    assert len(store.players("g1")) == 2


def test_join_to_the_game_address_needs_only_the_name() -> None:
    store = hosted(status="open")
    assert deliver(store, raw_mail("JOIN Green", sender="g@example.com")).status == "command"


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
    assert deliver(store, raw_mail("MESSAGE Blue\nhi"), mailer).reason == commands.MESSAGE_CODE
    assert deliver(store, raw_mail(f"MESSAGE Green\nCODE {RED_CODE}\nhi"), mailer).status == "rejected"
    assert deliver(store, raw_mail(f"MESSAGE Blue\nCODE {RED_CODE}\n"), mailer).status == "rejected"
    assert all(m["To"] == RED for m in mailer.sent)

"""Seats and the player's side of running games (functions/host/seats.py, bulletin.py): the
welcome mail, a seat given to a newcomer, the host's and the GM's notices, and the GM's bulletin
printed first in the next results, once."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

import pytest

from functions.host import turns
from functions.host.bulletin import with_bulletin
from functions.host.names import NAME_RULE
from functions.host.seats import SeatError, current_report, notice_mail, seat_player, welcome_mail
from functions.mail.codes import code_matches
from functions.render import results as render_results
from functions.render.report import RenderedReport
from functions.resources import Settings
from functions.store import PlayerRecord, Store
from tests.functions.test_commands import PlayerStore, player, playing
from tests.functions.test_inbound import (
    BLUE,
    NOW,
    RED,
    SETTINGS,
    STATE_JSON,
    ListMailer,
    deliver,
    orders,
    raw_mail,
    text_of,
)
from tests.functions.test_turns import GAME, START, Recorder, mail_orders, new_game

GREEN = "green@example.com"


def html_of(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("html",))
    assert isinstance(part, EmailMessage)
    return str(part.get_content())


def with_standby(store: PlayerStore) -> PlayerStore:
    standby = PlayerRecord(
        game_id="g1", player_id="S1", name="Green", address=GREEN, code_hash="x", role="standby",
        timezone="Asia/Tokyo",
    )  # fmt: skip
    store.all_players.append(standby)
    return store


# --- The welcome mail ---


def test_the_welcome_gives_the_code_the_deadline_in_the_players_zone_the_rules_and_the_report() -> None:
    store = playing()
    game, blue = store.games["g1"], player(store, "P2")  # Blue reads Europe/Paris time
    mail = welcome_mail(game, blue, "ABCD-EFGH-JK", current_report(game, STATE_JSON, blue), NOW)
    welcome, report = mail.text.split("WARPWAR RESULTS", 1)
    assert "  CODE ABCD-EFGH-JK" in welcome
    assert "  Sat 8 Mar 2025, 19:00 CET (in 30 hours)" in welcome
    assert "a two- or multi-player game of tactical space combat" in welcome
    assert max(len(line) for line in welcome.splitlines()) <= 78
    assert "GAME g1" in report and "PLAYER P2" in report  # the orders sheet, at the end of the report
    assert mail.html is not None
    assert mail.html.index("Welcome to game g1: Test game</h1>") < mail.html.index("game g1, turn 1</h1>")
    types = [a.content_type.split(";")[0] for a in mail.attachments]
    assert "image/png" in types and "text/calendar" in types
    assert (mail.to, mail.player_id) == (BLUE, "P2")


def test_a_welcome_before_the_game_starts_promises_the_sheet() -> None:
    store = playing("open")
    game = store.games["g1"].model_copy(update={"deadline": None})
    mail = welcome_mail(game, player(store), "ABCD-EFGH-JK", None, NOW)
    assert "Your first orders sheet comes when the game starts." in mail.text
    assert "none set yet" in mail.text
    assert "GAME g1\n" not in mail.text
    assert mail.attachments == ()


# --- A seat given to a newcomer ---


def test_a_standby_takes_a_seat_and_only_the_newcomer_can_send_its_orders() -> None:
    # Given game g1 where Red (P1) missed two turns, and Green waiting as standby S1
    store, mailer = with_standby(playing()), ListMailer()
    store.games["g1"] = store.games["g1"].model_copy(update={"missed": {"P1": 2, "P2": 1}})
    # When the GM gives seat P1 to Green
    code = seat_player(store, mailer, SETTINGS, store.games["g1"], "P1", "Green@Example.com", "Green", NOW)
    # Then the seat is Green's, with a new code, and the standby record is kept as removed
    seat = player(store, "P1")
    assert (seat.name, seat.address, seat.robot, seat.timezone) == ("Green", GREEN, None, "Asia/Tokyo")
    assert code_matches(code, seat.code_hash)
    assert player(store, "S1").role == "removed"
    assert store.games["g1"].missed == {"P2": 1}
    # And Green is welcomed with the full report, Red told goodbye by the GM, both logged
    welcome, goodbye = mailer.sent
    assert welcome["To"] == GREEN and f"CODE {code}" in text_of(welcome)
    assert "PLAYER P1" in text_of(welcome) and "Orders due:" in text_of(welcome)
    assert goodbye["To"] == RED
    assert text_of(goodbye).startswith("GM> From the GM of game g1:")
    assert "given your seat P1 in game g1 to Green" in " ".join(text_of(goodbye).split())
    assert [e.reason for e in store.log] == [
        "welcome: Green takes seat P1",
        "goodbye: seat P1 given to Green",
    ]
    # And Red's address no longer sends P1's orders; Green's does
    assert deliver(store, raw_mail(orders())).reason == f"{RED} is not a player of game g1"
    assert deliver(store, raw_mail(orders(code=code), sender=GREEN)).status == "accepted"


def test_a_seat_held_by_a_robot_goes_without_a_goodbye() -> None:
    store, mailer = playing(), ListMailer()
    store.update_player(player(store).model_copy(update={"robot": "cadet"}))
    seat_player(store, mailer, SETTINGS, store.games["g1"], "p1", GREEN, "Green", NOW)
    assert [m["To"] for m in mailer.sent] == [GREEN]
    assert player(store).robot is None


@pytest.mark.parametrize(
    ("seat", "address", "name", "why"),
    [
        ("P9", GREEN, "Green", "P9 is no seat of this game (its seats: P1, P2)"),
        ("P1", BLUE, "Green", f"{BLUE} holds a seat of this game already"),
        ("P1", "green at example", "Green", "'green at example' is not a mail address"),
        ("P1", GREEN, "Blue", "the name Blue is taken in this game: choose another"),
        ("P1", GREEN, "<b>", NAME_RULE),
    ],
)
def test_a_seat_is_not_given_to_a_taken_seat_address_or_name(
    seat: str, address: str, name: str, why: str
) -> None:
    store, mailer = playing(), ListMailer()
    with pytest.raises(SeatError) as refused:
        seat_player(store, mailer, SETTINGS, store.games["g1"], seat, address, name, NOW)
    assert str(refused.value) == why
    assert mailer.sent == [] and player(store).address == RED


# --- Notices ---


def test_a_notice_from_the_gm_is_marked_and_says_where_to_answer() -> None:
    store = playing()
    game = store.games["g1"].model_copy(update={"gm_address": "gm@example.org"})
    mail = notice_mail(game, player(store), "Game g1 is paused", ["A <short> break."], from_gm=True)
    assert mail.text.startswith("GM> From the GM of game g1:\n\nGame g1 is paused")
    assert "To answer the GM, write to gm@example.org." in " ".join(mail.text.split())
    assert mail.html is not None and "A &lt;short&gt; break." in mail.html
    host = notice_mail(game, player(store), "Game g1 is paused", ["A break."], from_gm=False)
    assert "GM>" not in host.text and "Send HELP for the commands." in host.text


# --- The GM's bulletin ---


def test_the_bulletin_comes_first_in_text_and_html_escaped() -> None:
    store = playing()
    game = store.games["g1"].model_copy(update={"bulletin": "Truce talks at <Babylon> & co.\nBring ships."})
    rendered = current_report(game, STATE_JSON, player(store))
    assert rendered is not None
    shown = with_bulletin(game, rendered)
    assert shown.text.startswith(
        "GM> From the GM of game g1:\nGM> Truce talks at <Babylon> & co.\nGM> Bring ships.\n"
    )
    assert shown.text.endswith(rendered.text)
    assert shown.html is not None
    escaped = shown.html.index("Truce talks at &lt;Babylon&gt; &amp; co.")
    assert shown.html.index("<body") < escaped < shown.html.index("game g1, turn 1</h1>")
    assert with_bulletin(game.model_copy(update={"bulletin": " "}), rendered) is rendered


def test_the_bulletin_is_printed_in_the_next_results_only(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        render_results,
        "render_report",
        lambda game, report, picture, templates: RenderedReport(
            text=report.sheet, html="<body></body>", png=b"", svg="", json=""
        ),
    )
    settings: Settings = store.settings
    # Given a running game whose GM posts a bulletin after the opening mail
    new_game(store)
    mailer = Recorder()
    turns.process_game(GAME, START, store, mailer, settings)
    game = store.game(GAME)
    assert game is not None
    store.update_game(game.model_copy(update={"bulletin": "Welcome, commanders."}), game.version)
    # When two turns are played
    for hours in (1, 2):
        mail_orders(store, "P1", START + timedelta(hours=hours))
        turns.process_game(GAME, START + timedelta(hours=hours), store, mailer, settings)
    # Then the first results after it print it first, and no later mail does
    opening, first, *later = mailer.sent
    assert text_of(first).startswith("GM> From the GM of game g1:\nGM> Welcome, commanders.")
    assert later and all("GM>" not in text_of(m) for m in [opening, *later])
    assert "Welcome, commanders." in html_of(first)
    cleared = store.game(GAME)
    assert cleared is not None and cleared.bulletin == ""

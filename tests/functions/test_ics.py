"""The deadline as a calendar file (functions/mail/ics.py, functions/host/deadlines.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from icalendar import Calendar

from functions import schedule
from functions.host.deadlines import deadline_attachments
from functions.mail.compose import compose
from functions.mail.ics import deadline_ics
from functions.store import GameRecord, PlayerRecord

OPENED = datetime(2025, 3, 1, 12, tzinfo=UTC)
GAME = GameRecord(
    game_id="g1",
    title="Test",
    status="running",
    turn=3,
    awaiting=("turn:3#P1",),
    opened_at=OPENED,
    deadline=OPENED + timedelta(hours=24),
    committed_at=OPENED,
)
ONE = PlayerRecord(game_id="g1", player_id="P1", name="One", address="one@x.org", code_hash="x")
TWO = ONE.model_copy(update={"player_id": "P2", "address": "two@x.org"})


def event(game: GameRecord, player: PlayerRecord = ONE) -> dict[str, object]:
    calendar = Calendar.from_ical(deadline_ics(game, player).data)
    assert str(calendar["method"]) == "PUBLISH"
    (found,) = calendar.walk("VEVENT")
    return {
        "uid": str(found["uid"]),
        "start": found.decoded("dtstart"),
        "sequence": int(str(found["sequence"])),
        "summary": str(found["summary"]),
    }


def test_the_event_is_the_deadline_with_a_uid_that_stays_while_the_deadline_moves() -> None:
    first = event(GAME)
    assert first["start"] == GAME.deadline
    assert "g1" in str(first["summary"]) and "your orders are due" in str(first["summary"])
    assert "your orders" not in str(event(GAME, TWO)["summary"])
    # an extension: the same event, a later sequence, so a calendar moves it
    moved = event(schedule.extended(GAME, 6))
    assert moved["uid"] == first["uid"]
    assert int(str(moved["sequence"])) > int(str(first["sequence"]))
    # the next period is another event
    later = GAME.model_copy(update={"opened_at": GAME.deadline, "deadline": OPENED + timedelta(hours=48)})
    assert event(later)["uid"] != first["uid"]


def test_the_file_is_attached_as_text_calendar_while_the_game_has_a_deadline() -> None:
    (attachment,) = deadline_attachments(GAME, ONE)
    assert attachment.content_type.startswith("text/calendar; method=PUBLISH")
    assert attachment.filename == "g1-deadline.ics"
    assert deadline_attachments(GAME.model_copy(update={"deadline": None}), ONE) == ()
    assert deadline_attachments(GAME.model_copy(update={"status": "over"}), ONE) == ()
    with pytest.raises(ValueError, match="no deadline"):
        deadline_ics(GAME.model_copy(update={"deadline": None}), ONE)


def test_a_mail_carries_it_with_its_method() -> None:
    from functions.mail.compose import OutgoingMail

    mail = OutgoingMail(
        to="one@x.org",
        subject="Hi",
        text="Hi",
        kind="notice",
        game_id="g1",
        game_name="WarpWar",
        attachments=deadline_attachments(GAME, ONE),
    )
    message = compose(mail, "WarpMail <host@warpmail.test>", "warpmail.test", OPENED)
    (part,) = [p for p in message.iter_attachments() if p.get_content_type() == "text/calendar"]
    assert part.get_param("method") == "PUBLISH"
    assert b"BEGIN:VEVENT" in part.get_payload(decode=True)

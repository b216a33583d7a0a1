"""Reminders: the players whose player-turn orders are not in (none stored, or kept from a mail
with problems and not confirmed), reminded when a reminder time comes."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from functions import schedule
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.host.due import latest_of
from functions.host.hosts import HOSTS
from functions.host.notices import game_notice
from functions.host.ports import TurnStore
from functions.host.sending import send_once
from functions.mail.compose import OutgoingMail
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.keys import iso
from functions.store.records import (
    GameRecord,
    PlayerRecord,
    split_awaited,
)

# --- Reminders ---


def send_reminders(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> tuple[GameRecord, int]:
    """Remind the players whose player-turn orders are not in, if a reminder time has come and
    the turn is not played now anyway; the game with the reminders noted, and the mails sent."""
    handled = game.reminded_at
    due = [t for t in schedule.reminder_times(game) if t <= now and (handled is None or t > handled)]
    processing = schedule.processing_due(game)
    if not due or processing is None or processing <= now:
        return game, 0
    at = due[-1]
    sent = 0
    for player, kept in reminded_players(store, game, players, now):
        key = f"reminder/{game.game_id}/{iso(processing)}/{iso(at)}/{player.player_id}"
        reason = f"reminder of the deadline {iso(processing)}"
        # Dated at the reminder time, and written as of it: the same mail whichever attempt sends it.
        mail = partial(reminder_mail, game, player, kept=kept)
        sent += send_once(store, mailer, settings, key, mail, now, reason, at)
    store.note_reminders(game, at)
    return game.model_copy(update={"reminded_at": at}), sent


def reminded_players(
    store: TurnStore, game: GameRecord, players: list[PlayerRecord], now: datetime
) -> list[tuple[PlayerRecord, bool]]:
    """The seated human players, not absent now, with player-turn orders awaited and not in,
    each with whether orders of theirs are kept but not confirmed (``Submission.ready``)."""
    # A round's orders are not reminded: its deadline is hours away, not days.
    owed = [] if game.on_round_clock else list(map(split_awaited, game.awaiting))
    latest = latest_of(store, game, [scope for scope, _ in owed])
    late = {player for scope, player in owed if (player, scope) not in latest}
    kept = {
        player for scope, player in owed if (player, scope) in latest and not latest[(player, scope)].ready
    }
    return [
        (p, p.player_id in kept)
        for p in sorted(schedule.seated(players), key=lambda p: p.player_id)
        if p.player_id in late | kept and p.robot is None and schedule.absent_at(p, now) is None
    ]


def reminder_mail(game: GameRecord, player: PlayerRecord, now: datetime, kept: bool = False) -> OutgoingMail:
    """A short reminder: the orders the game waits for, the deadline in the player's time zone
    (with the calendar file), what happens without them, and how to get the orders sheet. For
    ``kept`` orders (a mail with problems, not confirmed) it says how to confirm or fix them."""
    deadline = deadline_text(game.deadline, player.timezone)
    processing = deadline_text(schedule.processing_due(game), player.timezone)
    title = f"Reminder: your orders for turn {game.turn} are due {deadline}"
    # Only a turn's orders are reminded (``reminded_players``): a round's deadline is hours away.
    words = {
        "deadline": deadline,
        "processing": processing,
        "without": HOSTS[game.game].without_orders("turn"),
    }
    if game.deadline is not None and game.deadline <= now:
        when = REMINDER_LATE.format(**words)
    elif processing != deadline:
        when = REMINDER_GRACE.format(**words)
    else:
        when = REMINDER_DUE.format(**words)
    paragraphs = [
        (REMINDER_KEPT if kept else REMINDER).format(game_id=game.game_id, title=game.title, turn=game.turn),
        when,
        REMINDER_SHEET,
    ]
    attachments = deadline_attachments(game, player)
    return game_notice(game, player.address, title, paragraphs, None, player.player_id, attachments)


REMINDER = "Game {game_id} ({title}) is waiting for your orders for turn {turn}."
REMINDER_KEPT = (
    "Game {game_id} ({title}) has kept your orders for turn {turn}, but they are not counted as in: "
    "the mail had lines with problems. Send the corrected lines with ADD, or a line DONE if the "
    "orders are right as they are; at the deadline they are used as kept."
)
REMINDER_DUE = (
    "The deadline is {deadline} (your time zone; the attached calendar file has it). Without "
    "your orders by then your turn is waived: {without}."
)
REMINDER_GRACE = (
    "The deadline is {deadline} (your time zone; the attached calendar file has it). The game "
    "waits for late orders until {processing}; after that your turn is waived: {without}."
)
REMINDER_LATE = (
    "The deadline, {deadline}, has passed: the game waits for your orders until {processing}. "
    "After that your turn is waived: {without}."
)
REMINDER_SHEET = (
    "Send REPORT to the game for your latest results and your orders sheet; an order block with "
    "no orders tells the game you have nothing to order. Going away? Send ABSENT with your CODE."
)

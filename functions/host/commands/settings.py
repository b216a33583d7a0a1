"""WAIT, ABSENT and TIMEZONE: commands that change the sender's settings in a game (they need the
CODE)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from engine.core.mailgame import turn_scope
from engine.games import TURN_GAMES
from functions.host.commands.reading import Command, code_and_args
from functions.host.dates import (
    day_after,
    day_start,
    read_date,
    read_days,
    read_period,
    read_zone,
    zone_of,
    zone_suggestions,
)
from functions.host.deadlines import deadline_text
from functions.host.received import PLAYING, REFUSALS, Inbound, InboundOutcome
from functions.mail.codes import code_matches
from functions.schedule import waiting_for_absences
from functions.store import Absence, GameRecord, PlayerRecord

SEATED_ONLY = ("WAIT", "ABSENT")
OFF = "OFF"
SETTING_CODE = "{word} without the right secret code"
SETTING_REFUSED = "{word} refused: {why}"
WAITING = "WAIT: {scope} waits for its deadline"
NOT_WAITING = "WAIT OFF"
ABSENCE = "ABSENT: {start} to {end}"
NO_ABSENCE = "ABSENT OFF"
ZONE_SET = "TIMEZONE: {zone}"


class Refusal(NamedTuple):
    """Why a command is not done: what the player reads, and the mail log's short reason."""

    paragraph: str
    why: str


# --- Settings: WAIT, ABSENT, TIMEZONE ---


def change_setting(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """A command that changes the sender's settings in the game: checked (the code, the seat,
    the game's state), then done and answered."""
    code, args = code_and_args(command)
    word = command.word
    if code is None or not code_matches(code, player.code_hash):
        paragraphs = [SETTING_NEEDS_CODE.format(word=word)]
        mail.notice(player.address, f"{word} was not done", paragraphs, game=game, limit=REFUSALS)
        return mail.rejected(SETTING_CODE.format(word=word), game, player, command=word)
    refusal = _setting_refusal(word, game, player)
    if refusal is not None:
        return _refused(mail, word, game, player, refusal)
    match word:
        case "WAIT":
            return _wait(mail, args, game, player)
        case "ABSENT":
            return _absent(mail, args, game, player)
    return _timezone(mail, args, game, player)


def _setting_refusal(word: str, game: GameRecord, player: PlayerRecord) -> Refusal | None:
    """Why ``word`` may not be done now, if it may not."""
    if player.role == "removed":
        return Refusal(SETTING_REMOVED.format(game_id=game.game_id, word=word), "removed")
    if word not in SEATED_ONLY:
        return None
    if player.role != "player":
        paragraph = SETTING_STANDBY.format(game_id=game.game_id, word=word, player_id=player.player_id)
        return Refusal(paragraph, "no seat")
    if game.status not in PLAYING:
        paragraph = SETTING_NOT_PLAYING.format(game_id=game.game_id, word=word, status=game.status)
        return Refusal(paragraph, f"game {game.status}")
    return None


def _answered(
    mail: Inbound, word: str, game: GameRecord, player: PlayerRecord, title: str, paragraph: str, reason: str
) -> InboundOutcome:
    mail.notice(player.address, title, [paragraph], game=game, player=player)
    mail.log("in", mail.address, game.game_id, reason)
    return mail.outcome("command", reason, game, player, command=word)


def _refused(
    mail: Inbound, word: str, game: GameRecord, player: PlayerRecord, refusal: Refusal
) -> InboundOutcome:
    mail.notice(player.address, f"{word} was not done", [refusal.paragraph], game=game, player=player)
    return mail.rejected(SETTING_REFUSED.format(word=word, why=refusal.why), game, player, command=word)


def _changed(mail: Inbound, player: PlayerRecord, **update: object) -> PlayerRecord:
    changed = player.model_copy(update=update)
    mail.store.update_player(changed)
    return changed


def _deadline(game: GameRecord, player: PlayerRecord) -> str:
    return deadline_text(game.deadline, player.timezone) or "none set yet"


SETTING_NEEDS_CODE = (
    "{word} changes your settings in the game, so it needs your secret code: write {word} and what "
    "follows it on the first line of your mail and a line CODE <your code> below it. Nothing was "
    "changed."
)
SETTING_REMOVED = (
    "You no longer play in game {game_id}, so {word} was not done. If you think this is a mistake, "
    "please write to the GM."
)
SETTING_STANDBY = (
    "You are standby player {player_id} of game {game_id} and hold no seat yet, so there is nothing "
    "to {word} for: the GM may give you a seat when one comes free."
)
SETTING_NOT_PLAYING = "Game {game_id} is {status}, so {word} was not done: it applies while a game is played."


# --- WAIT ---


def _wait(mail: Inbound, args: tuple[str, ...], game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """WAIT: the current turn is not played before its deadline, even with every order in (the
    turn service reads ``PlayerRecord.wait_scope``); WAIT OFF undoes it."""
    if [a.upper() for a in args] == [OFF]:
        _changed(mail, player, wait_scope="")
        paragraph = WAIT_OFF.format(game_id=game.game_id, deadline=_deadline(game, player))
        return _answered(mail, "WAIT", game, player, "WAIT is off", paragraph, NOT_WAITING)
    if args:
        refusal = Refusal(WAIT_WORDS.format(written=" ".join(args)), "bad words")
        return _refused(mail, "WAIT", game, player, refusal)
    scope = turn_scope(game.turn)
    _changed(mail, player, wait_scope=scope)
    paragraph = WAIT_ON.format(turn=game.turn, deadline=_deadline(game, player))
    if not game.early:
        paragraph += " " + WAIT_ALWAYS.format(game_id=game.game_id)
    return _answered(
        mail, "WAIT", game, player, f"Turn {game.turn} waits", paragraph, WAITING.format(scope=scope)
    )


WAIT_ON = (
    "Turn {turn} waits for its deadline, {deadline}, even if every order is in before it, so you "
    "have until then to change yours. Send WAIT OFF (with your CODE) to let it be played as soon as "
    "every order is in."
)
WAIT_ALWAYS = "(Game {game_id} always waits for its deadlines anyway.)"
WAIT_OFF = (
    "Game {game_id} no longer waits for you: the turn is played as soon as every order is in, at the "
    "latest at its deadline, {deadline}."
)
WAIT_WORDS = 'WAIT takes no words but OFF, not "{written}": write WAIT, or WAIT OFF.'


# --- ABSENT ---


def _absent(mail: Inbound, args: tuple[str, ...], game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """ABSENT: the player declares when they are away, within the game's limits; what the game
    does meanwhile is its absence policy (the turn service and functions/schedule.py)."""
    if [a.upper() for a in args] == [OFF]:
        return _absent_off(mail, game, player)
    period = _absence_period(args, mail.now, player.timezone)
    refusal = period if isinstance(period, Refusal) else _beyond_limits(game, player, *period)
    if refusal is not None:
        return _refused(mail, "ABSENT", game, player, refusal)
    assert not isinstance(period, Refusal)  # a refusal was answered above
    start, end = period
    limits = game.schedule
    absence = Absence(start=start, end=end, declared_at=mail.now)
    away = _changed(mail, player, absences=(*player.absences, absence))
    when = {
        "start": deadline_text(start, player.timezone),
        "end": deadline_text(end, player.timezone),
        "game_id": game.game_id,
        "number": len(away.absences),
        "most": limits.absence_count,
    }
    if limits.absence_policy == "wait":
        others = [p for p in mail.store.players(game.game_id) if p.player_id != player.player_id]
        moved = waiting_for_absences(game, [*others, away])
        if moved.deadline != game.deadline and not mail.store.update_game(moved, game.version):
            # The turn service committed meanwhile: its new period's deadline heeds the absence.
            moved = game
        paragraph = ABSENT_WAIT.format(**when, deadline=_deadline(moved, player))
    else:
        host = TURN_GAMES[game.game]
        paragraph = ABSENT_PLAY.format(
            **when, held=host.without_orders("turn"), rounds=host.without_orders("round")
        )
    reason = ABSENCE.format(start=start.isoformat(), end=end.isoformat())
    return _answered(mail, "ABSENT", game, player, "Your absence is noted", paragraph, reason)


def _absence_period(args: Sequence[str], now: datetime, timezone: str) -> tuple[datetime, datetime] | Refusal:
    """(start, end) of the absence written. Dates are days in the player's zone, the first from
    its start (or from now, if it is today) and the last to its end; ``<n> DAYS`` is from now."""
    zone = zone_of(timezone)
    today = now.astimezone(zone).date()
    days = read_days(args)
    if days is not None and days >= 1:
        return now, now + timedelta(days=days)
    dates = read_period(args, today)
    if dates is None:
        one = read_date(" ".join(args), today)
        dates = (one, one) if one is not None else None
    if days is not None or dates is None:
        return Refusal(ABSENT_FORMAT.format(written=" ".join(args)), "bad dates")
    first, last = dates
    if first < today:
        return Refusal(ABSENT_PAST.format(first=first.isoformat(), today=today.isoformat()), "bad dates")
    if last < first:
        return Refusal(ABSENT_BACKWARDS.format(first=first.isoformat(), last=last.isoformat()), "bad dates")
    return max(now, day_start(first, zone)), day_after(last, zone)


def _beyond_limits(game: GameRecord, player: PlayerRecord, start: datetime, end: datetime) -> Refusal | None:
    """Why the absence is more than the game allows (``Schedule.absence_days`` long at most,
    ``absence_count`` of them per player), if it is."""
    limits = game.schedule
    if limits.absence_days == 0 or limits.absence_count == 0:
        return Refusal(ABSENT_NONE.format(game_id=game.game_id), "none allowed")
    if end - start > timedelta(days=limits.absence_days):
        return Refusal(ABSENT_TOO_LONG.format(game_id=game.game_id, most=limits.absence_days), "too long")
    if len(player.absences) >= limits.absence_count:
        return Refusal(ABSENT_TOO_MANY.format(game_id=game.game_id, most=limits.absence_count), "too many")
    return None


def _absent_off(mail: Inbound, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """Absences not begun are called off, one under way ends now; those over stay (and count)."""
    now = mail.now
    kept = tuple(
        a.model_copy(update={"end": now}) if a.end > now else a for a in player.absences if a.start <= now
    )
    if kept == player.absences:
        paragraph = ABSENT_NOTHING.format(game_id=game.game_id)
        return _answered(mail, "ABSENT", game, player, "No absence to call off", paragraph, NO_ABSENCE)
    _changed(mail, player, absences=kept)
    paragraph = ABSENT_OFF.format(game_id=game.game_id, deadline=_deadline(game, player))
    return _answered(mail, "ABSENT", game, player, "Your absence is called off", paragraph, NO_ABSENCE)


ABSENT_FORMAT = (
    'ABSENT needs the days you are away, not "{written}": ABSENT 2026-12-24 TO 2027-01-02, ABSENT '
    "24 Dec TO 2 Jan, ABSENT 24.12. TO 2.1., or ABSENT 5 DAYS (from now). ABSENT OFF calls your "
    "absence off."
)
ABSENT_PAST = (
    "Your absence would begin on {first}, which is past (today is {today} in your time zone): give "
    "a day from today on."
)
ABSENT_BACKWARDS = "Your absence would end on {last}, before it begins on {first}: give the first day first."
ABSENT_NONE = "Game {game_id} allows no absences: ask the GM if you cannot play for a while."
ABSENT_TOO_LONG = (
    "Game {game_id} allows absences of at most {most} days: declare a shorter one, or ask the GM."
)
ABSENT_TOO_MANY = (
    "Game {game_id} allows {most} absences per player, and you have declared them all (ABSENT OFF "
    "before an absence begins gives it back): ask the GM."
)
ABSENT_WAIT = (
    "You are away from {start} to {end} (absence {number} of the {most} game {game_id} allows). The "
    "game waits for you: a deadline for your orders that falls in your absence moves on to a whole "
    "turn after you are back. The deadline now: {deadline}. ABSENT OFF (with your CODE) calls the "
    "absence off."
)
ABSENT_PLAY = (
    "You are away from {start} to {end} (absence {number} of the {most} game {game_id} allows). The "
    "game plays on: a turn of yours due meanwhile is waived ({held}; {rounds}) and is not counted "
    "as missed; orders you send meanwhile still count. ABSENT OFF (with your CODE) calls the "
    "absence off."
)
ABSENT_NOTHING = "You have no absence in game {game_id} to call off: nothing was changed."
ABSENT_OFF = "Your absence in game {game_id} is called off: you play as usual. The deadline now: {deadline}."


# --- TIMEZONE ---


def _timezone(mail: Inbound, args: tuple[str, ...], game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """TIMEZONE: the zone the deadlines in the player's mail are shown in."""
    written = " ".join(args)
    zone = read_zone(written) if written else None
    if zone is None:
        suggestions = zone_suggestions(written, mail.now) if written else []
        guess = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
        paragraph = TIMEZONE_UNKNOWN.format(written=written, zone=player.timezone) + guess
        return _refused(mail, "TIMEZONE", game, player, Refusal(paragraph, "unknown zone"))
    changed = _changed(mail, player, timezone=zone)
    paragraph = TIMEZONE_SET.format(game_id=game.game_id, zone=zone, deadline=_deadline(game, changed))
    return _answered(
        mail, "TIMEZONE", game, player, f"Your time zone is {zone}", paragraph, ZONE_SET.format(zone=zone)
    )


TIMEZONE_UNKNOWN = (
    'TIMEZONE needs a time zone, and "{written}" is none I know: write its name as in '
    "Europe/Paris or America/New_York, UTC, or a whole-hour offset from UTC such as +01:00. Your "
    "time zone is still {zone}."
)
TIMEZONE_SET = (
    "Your time zone in game {game_id} is now {zone}: every deadline in your mail is shown in it. "
    "The next deadline: {deadline}."
)

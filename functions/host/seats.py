"""Seats and the mail around them: the welcome mail (who you are in the game, your secret code,
how to send orders, the deadline, the game in short, your orders sheet), a seat given to a
newcomer (issue 6: "replace a player by a standby (the newcomer gets a welcome mail and the full
current report)"), and the host's notices to a player, the GM's marked as such.

Nothing here reads the clock: ``now`` is passed in.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from email.utils import parseaddr
from typing import Protocol

from engine.games import GAME_NAMES, MAIL_GAMES
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.host.hosts import HOSTS
from functions.host.names import name_problem
from functions.host.notices import game_notice
from functions.host.results import deadlines_for
from functions.mail.codes import hash_code, new_code
from functions.mail.compose import OutgoingMail, compose
from functions.mail.ses import Mailer
from functions.render.bulletin import after_body
from functions.render.notice import WIDTH, render_host, wrap
from functions.render.results import Rendered, render_results
from functions.resources import Settings
from functions.store.records import GameRecord, MailLogEntry, PlayerRecord, withheld

RESET_ATTEMPTS = 3
"""Tries at writing a seat's newcomer into the game while the turn service commits beside it."""

# Mail-log reasons.
SEATED = "welcome: {name} takes seat {player_id}"
LEFT = "goodbye: seat {player_id} given to {name}"


class SeatError(ValueError):
    """A seat cannot be given as asked: the message says why, in the GM's words."""


class SeatStore(Protocol):
    """What seating a player needs of the store (functions/store.Store)."""

    def game(self, game_id: str) -> GameRecord | None: ...
    def players(self, game_id: str) -> list[PlayerRecord]: ...
    def players_by_address(self, address: str) -> list[PlayerRecord]: ...
    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]: ...
    def update_player(self, player: PlayerRecord) -> None: ...
    def commit(self, game: GameRecord, state_json: str, expected_version: int) -> bool: ...
    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None: ...


# --- Welcome ---


def welcome_mail(
    game: GameRecord, player: PlayerRecord, code: str, rendered: Rendered | None, now: datetime
) -> OutgoingMail:
    """A player's welcome to ``game``: who they are in it, their secret ``code``, how to send
    orders, the deadline in their time zone, the game in short, and ``rendered`` (the host's
    report of where they stand, with their orders sheet) below; before the game starts (None)
    it says the sheet comes then."""
    host = HOSTS[game.game]
    paragraphs = {
        "greeting": WELCOME_GREETING.format(
            name=player.name, player_id=player.player_id, game_id=game.game_id
        ),
        "code_note": WELCOME_CODE,
        "how": WELCOME_HOW,
        "deadline_note": (
            WELCOME_DEADLINE.format(without=host.without_orders("turn"))
            if game.deadline is not None
            else WELCOME_NO_DEADLINE
        ),
        "sheet_note": WELCOME_REPORT if rendered is not None else WELCOME_SHEET_LATER,
    }
    title = f"Welcome to game {game.game_id}: {game.title}"
    context: dict[str, object] = {
        "title": title,
        "rule": "=" * min(WIDTH, len(title)),
        "code": code,
        "deadline": deadline_text(game.deadline, player.timezone),
        "until": _until(game.deadline, now),
        "summary": host.rules_summary(),
        "report": rendered is not None,
        "width": WIDTH,
    }
    text, _ = render_host("welcome", context | {key: wrap(value) for key, value in paragraphs.items()})
    _, html = render_host("welcome", context | paragraphs)
    calendar = deadline_attachments(game, player)
    welcome = OutgoingMail(
        to=player.address, subject=title, text=text, html=html, attachments=calendar,
        game_id=game.game_id, game_name=GAME_NAMES[game.game], player_id=player.player_id, kind="notice",
    )  # fmt: skip
    if rendered is None:
        return welcome
    return welcome.model_copy(
        update={
            "text": text + rendered.text,
            "html": after_body(rendered.html, html) if rendered.html is not None else None,
            "attachments": rendered.files + calendar,
            "game_name": rendered.game_name,
        }
    )


def _until(deadline: datetime | None, now: datetime) -> str | None:
    """How long until ``deadline``, roughly: "in 30 hours", "in 3 days"."""
    if deadline is None or deadline <= now:
        return None
    hours = round((deadline - now).total_seconds() / 3600)
    if hours >= 48:
        return f"in {round(hours / 24)} days"
    return "in 1 hour" if hours <= 1 else f"in {hours} hours"


def current_report(game: GameRecord, state_json: str, player: PlayerRecord) -> Rendered | None:
    """``player``'s full report of the game as it stands (their position, the map and their
    orders sheet), as the game's host renders it; None before the game starts (no state)."""
    if not state_json:
        return None
    results = HOSTS[game.game].opening(state_json).results(player.player_id, deadlines_for(game, player))
    return render_results(game.game, results)


WELCOME_GREETING = (
    "Welcome, {name}: you are player {player_id} of game {game_id}. WarpMail hosts the game by "
    "e-mail: you mail your orders, the host checks them at once and answers, and when the turn is "
    "played every player gets their results, with the orders sheet for the next turn."
)
WELCOME_CODE = (
    "Every order mail needs this line (CODE and your code), and so do the commands that change "
    "something (WAIT, ABSENT, TIMEZONE, MESSAGE). Keep this mail and share the code with no one: "
    "whoever has it can send orders in your name, but only from your registered address."
)
WELCOME_HOW = (
    "Reply to this mail, or to any mail from the game: replies go to the game's own address. Orders "
    "come under a header of four lines (GAME, PLAYER, TURN and CODE) and end with a line END; the "
    "orders sheet has the header filled in but for your code. Send HELP for the commands and the "
    "order language in short."
)
WELCOME_DEADLINE = (
    "Your orders are due by this deadline, shown in your time zone (send TIMEZONE <zone>, with "
    "your CODE, to change it). The game is played as soon as every order is in, unless someone "
    "asks it to WAIT; a turn without your orders is waived: {without}."
)
WELCOME_NO_DEADLINE = "The game has no deadline yet: the first one is set when the game starts."
WELCOME_REPORT = (
    "Below is your report as the game stands now, with the map and your orders sheet: fill the "
    "sheet in, add your CODE and send it."
)
WELCOME_SHEET_LATER = "Your first orders sheet comes when the game starts."


def standby_welcome(game: GameRecord, player: PlayerRecord, code: str) -> OutgoingMail:
    """A standby's welcome to ``game`` (JOIN as a standby, or the GM's invitation): their standby
    id, what a standby is, the time zone their times are shown in, and their secret ``code``."""
    if player.joined_by:
        why = STANDBY_STARTED if game.status in ("running", "paused") else STANDBY_FULL
    else:
        why = STANDBY_INVITED
    paragraphs = [
        STANDBY_WELCOME.format(
            name=player.name,
            player_id=player.player_id,
            why=why.format(game_id=game.game_id),
            timezone=player.timezone,
            game_zone=game.schedule.timezone,
        )
    ]
    title = f"You are a standby player of game {game.game_id}"
    return game_notice(game, player.address, title, paragraphs, f"CODE {code}", player.player_id)


STANDBY_FULL = "game {game_id} has every seat taken"
STANDBY_STARTED = "game {game_id} has started"
STANDBY_INVITED = "the GM invited you to game {game_id} as a standby"
STANDBY_WELCOME = (
    "Welcome, {name}: {why}, so you are standby player {player_id}. When a seat comes free the GM "
    "may give it to you: you then get a welcome mail with a new secret code and the full report of "
    "your position. Meanwhile you may follow the game with STATUS. The game keeps its deadlines in "
    "{game_zone} time; its mail shows them to you in {timezone} time (send TIMEZONE <zone> with the "
    "code below, a line CODE <code>, to change it). Keep the code to yourself."
)


# --- Notices ---


def notice_mail(
    game: GameRecord, player: PlayerRecord, title: str, paragraphs: Sequence[str], from_gm: bool
) -> OutgoingMail:
    """A short mail to ``player`` (pause, resume, rollback, end, a goodbye, the GM's direct
    mail); ``from_gm``: marked as the GM's, with the GM's address to answer to when the game
    has one."""
    return game_notice(game, player.address, title, paragraphs, player_id=player.player_id, from_gm=from_gm)


def send(
    store: SeatStore,
    mailer: Mailer,
    settings: Settings,
    mail: OutgoingMail,
    now: datetime,
    reason: str,
    known: Sequence[PlayerRecord] = (),
) -> str:
    """Compose and send ``mail``, and log it with ``reason``; returns the outbox id, "" when
    the address is bouncing (nothing is sent; the log says so). ``known``: records of the
    address as read before a change took them from it (a seat given away), whose mark counts."""
    message = compose(mail, settings.sender, settings.mail_domain, now)
    to = parseaddr(mail.to)[1]
    why = withheld([*known, *store.players_by_address(to)], to)
    sent_id = "" if why else mailer.send(message)
    store.log_mail(MailLogEntry.sent(message, mail.game_id, now, why or reason, sent_id))
    return sent_id


# --- Seating a newcomer ---


def seat_player(
    store: SeatStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    seat_id: str,
    newcomer_address: str,
    newcomer_name: str,
    now: datetime,
    goodbye: bool = True,
) -> str:
    """Give seat ``seat_id`` of ``game`` to a newcomer (a standby of the game, or anyone): the
    seat's player gets their name and address, a new secret code, no robot, no WAIT, no
    absences and no missed turns, and the game's state their name (a new version); a standby's
    own record is marked removed. The newcomer is mailed the welcome with the full current
    report, the one leaving a goodbye from the GM (unless a robot held the seat, or not
    ``goodbye``: the missed-turn rule told them already). Returns the newcomer's code. Raises
    SeatError when the seat or the newcomer will not do."""
    players = store.players(game.game_id)
    address, name = newcomer_address.strip().lower(), " ".join(newcomer_name.split())
    seat = _seat(players, seat_id)
    seat_id = seat.player_id  # as the game writes it: the GM may have written "p1"
    _check_newcomer(players, seat, address, name)
    standby = next((p for p in players if p.role == "standby" and p.address == address), None)
    code = new_code()
    seated = PlayerRecord.model_validate(
        seat.model_dump()
        | {
            "name": name,
            "address": address,
            "code_hash": hash_code(code),
            "robot": None,
            "timezone": standby.timezone if standby is not None else game.schedule.timezone,
            "wait_scope": "",
            "absences": (),
            # The seat's mark was its old address's: the newcomer's own, if any, is on their
            # other records (a standby's, another game's), which still withhold their mail.
            "bouncing": "",
        }
    )
    store.update_player(seated)
    if standby is not None:
        store.update_player(standby.model_copy(update={"role": "removed"}))
    _seat_version(store, game.game_id, seat_id, name, now)
    current, state_json = store.state(game.game_id)
    welcome = welcome_mail(current, seated, code, current_report(current, state_json, seated), now)
    send(store, mailer, settings, welcome, now, SEATED.format(name=name, player_id=seat_id))
    if seat.robot is None and goodbye:
        paragraphs = [GOODBYE.format(player_id=seat_id, game_id=game.game_id, name=name)]
        farewell = notice_mail(current, seat, f"You have left game {game.game_id}", paragraphs, from_gm=True)
        send(store, mailer, settings, farewell, now, LEFT.format(name=name, player_id=seat_id), [seat])
    return code


def _seat(players: Sequence[PlayerRecord], seat_id: str) -> PlayerRecord:
    seat = next((p for p in players if p.player_id.lower() == seat_id.lower()), None)
    if seat is None or seat.role != "player":
        seats = ", ".join(p.player_id for p in players if p.role == "player") or "none"
        raise SeatError(f"{seat_id} is no seat of this game (its seats: {seats})")
    return seat


def _check_newcomer(players: Sequence[PlayerRecord], seat: PlayerRecord, address: str, name: str) -> None:
    local, _, domain = address.partition("@")
    if not local or "." not in domain or any(c.isspace() or c in "<>," for c in address):
        raise SeatError(f"{address!r} is not a mail address")
    why = name_problem(name)
    if why is not None:
        raise SeatError(why)
    others = [p for p in players if p.role == "player" and p.player_id != seat.player_id]
    if seat.address == address or any(p.address == address for p in others):
        raise SeatError(f"{address} holds a seat of this game already")
    if any(p.name.lower() == name.lower() for p in others):
        raise SeatError(f"the name {name} is taken in this game: choose another")


def _seat_version(store: SeatStore, game_id: str, seat_id: str, name: str, now: datetime) -> None:
    """The game's next version for the seat's newcomer: the seat called ``name`` in the game's
    state (its reports, sheets and the order header's PLAYER line name the player as the state
    does) and its missed turns in a row (``GameRecord.missed``) back to none; retried when a
    commit gets in between."""
    for _ in range(RESET_ATTEMPTS):
        game = store.game(game_id)
        if game is None:
            return
        _, state_json = store.state(game_id, game.version)
        renamed = MAIL_GAMES[game.game].rename(state_json, seat_id, name) if state_json else state_json
        missed = {player: count for player, count in game.missed.items() if player != seat_id}
        if renamed == state_json and missed == game.missed:
            return
        record = game.model_copy(update={"missed": missed, "committed_at": now})
        if store.commit(record, renamed, expected_version=game.version):
            return
    raise RuntimeError(f"game {game_id} kept changing: seat {seat_id} was not given its newcomer's name")


GOODBYE = (
    "The GM has given your seat {player_id} in game {game_id} to {name}, so mail from you is no "
    "longer read as orders for it. Thank you for playing; if you think this is a mistake, please "
    "write to the GM."
)

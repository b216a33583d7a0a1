"""Mail commands: a mail whose first non-blank line is a command word, or whose subject is one
when the mail holds no orders (an order mail titled "Help with my orders" is orders).

The reference players read (the HELP answer, templates/host/help.txt, says the same):

    HELP                     this help: the commands, and the game's order language in short
    STATUS [game]            what you have sent for this turn, who else has sent orders (not
                             what they ordered), what the game waits for, the deadline
    REPORT [game]            your latest results mail again (the orders sheet before any)
    CHECK                    above your orders: check them and answer, submit nothing
    JOIN <game> <name>       join a game open for sign-up; your secret code comes back by mail
                             (a game that has started, or is full: you join as a standby)
    MESSAGE <player|ALL>     the lines below go to that player (or every other player) from the
    CODE <your code>         game's address, signed with your player name by the host; the CODE
    <your text>              line is needed and is not relayed; END or a signature ends the text
    WAIT [OFF]               this turn waits for its deadline even when every order is in
    ABSENT <date> [TO] <date>, ABSENT <n> DAYS, ABSENT OFF
                             you are away: the game waits for you or waives your turns (the
                             game's absence policy), within its limits of length and number
    TIMEZONE <zone>          deadlines in your mail in that zone (Europe/Paris, +01:00)

WAIT, ABSENT and TIMEZONE change something, so they need a line CODE <your code> too (below the
command, or after it on its line). Only a seated player may WAIT or be ABSENT; a standby may set
a TIMEZONE; a removed player may do neither.

STATUS, REPORT, MESSAGE, WAIT, ABSENT and TIMEZONE answer only a registered address of a player
of the game, and only to that address; a mail that failed the sender checks gets no answer. JOIN
answers the sender (that is how the code proves the address), HELP anyone who passed the sender
checks.
"""

from __future__ import annotations

import email
import re
import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import combat_parts, turn_scope
from engine.core.orderblock import clean, quote_depth
from engine.games import MAIL_GAMES
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
from functions.host.inbound import (
    DEFAULT_GAME,
    Inbound,
    InboundOutcome,
    find_game,
    find_player,
    read_orders,
    render_host,
)
from functions.host.schedule import waiting_for_absences
from functions.mail.codes import code_matches, hash_code, new_code
from functions.mail.compose import MAIL_POLICY, OutgoingMail, game_address, valid_game_id
from functions.store import Absence, GameRecord, KeptResults, PlayerRecord, Submission

COMMANDS = ("HELP", "STATUS", "REPORT", "CHECK", "JOIN", "MESSAGE", "WAIT", "ABSENT", "TIMEZONE")
SETTINGS = ("WAIT", "ABSENT", "TIMEZONE")
"""Commands that change the sender's settings in a game: they need the CODE."""
SEATED_ONLY = ("WAIT", "ABSENT")
PLAYING = ("running", "paused")
OFF = "OFF"
STANDBY_PREFIX = "S"
ALL = "ALL"
MAX_MESSAGE = 4000
"""Characters of a relayed message (the Star Fleet Warlord service took 90 per order; a mail
may say more, but not a whole novel)."""
REPLY_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv|antw)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
GAME_LINE = re.compile(r"^GAME:?(\s+\S+)?$", re.IGNORECASE)
CODE_LINE = re.compile(r"^\s*CODE:?\s+(\S.*)$", re.IGNORECASE)
SIGNATURE = re.compile(r"^(-- ?|_{5,}|-{3,} ?Original Message ?-{3,}.*)$", re.IGNORECASE)
END_LINE = re.compile(r"^\s*END\W*$", re.IGNORECASE)

# Mail-log reasons.
RELAYED = "MESSAGE relayed to {names}"
NO_RECIPIENT = "MESSAGE to {written}: no such player"
NOTHING_TO_RELAY = "MESSAGE without text"
MESSAGE_CODE = "MESSAGE without the right secret code"
JOINED = "JOIN: {name} joined as {player_id}"
JOINED_STANDBY = "JOIN: {name} joined as standby {player_id}"
SETTING_CODE = "{word} without the right secret code"
SETTING_REFUSED = "{word} refused: {why}"
WAITING = "WAIT: {scope} waits for its deadline"
NOT_WAITING = "WAIT OFF"
ABSENCE = "ABSENT: {start} to {end}"
NO_ABSENCE = "ABSENT OFF"
ZONE_SET = "TIMEZONE: {zone}"
JOIN_REFUSED = "JOIN refused: {why}"


class Refusal(NamedTuple):
    """Why a command is not done: what the player reads, and the mail log's short reason."""

    paragraph: str
    why: str


class Command(BaseModel):
    """A command as written: its word, the words after it, and the mail's lines below it."""

    model_config = ConfigDict(frozen=True)

    word: str
    args: tuple[str, ...] = ()
    line: int | None = None
    """The command's line in the body (0-based), None when it is the subject."""
    below: tuple[str, ...] = ()


def find_command(subject: str, text: str) -> Command | None:
    """The command a mail gives, or None for an order mail (see the module doc)."""
    lines = text.split("\n")
    first = next((index for index, line in enumerate(lines) if line.strip()), None)
    if first is not None:
        found = _command(lines[first])
        if found is not None:
            word, args = found
            return Command(word=word, args=args, line=first, below=tuple(lines[first + 1 :]))
    if _game_line(lines) is not None:
        return None
    found = _command(REPLY_PREFIX.sub("", subject))
    if found is None:
        return None
    word, args = found
    return Command(word=word, args=args, below=tuple(lines))


def _command(line: str) -> tuple[str, tuple[str, ...]] | None:
    words = line.split()
    if not words:
        return None
    word = words[0].upper().rstrip(":")
    return (word, tuple(words[1:])) if word in COMMANDS else None


def _game_line(lines: Sequence[str]) -> int | None:
    """Where the order block starts, as engine/core/orderblock.py finds it: the first unquoted
    GAME line, else the first quoted one."""
    for quoted in (False, True):
        for index, raw in enumerate(lines):
            depth, text = quote_depth(raw)
            if (depth > 0) == quoted and GAME_LINE.match(clean(text)):
                return index
    return None


def checked_body(text: str, command: Command) -> str | None:
    """``text`` with a ``CHECK`` header line in its order block, so that the game checks and
    submits nothing; None when it has no order block. A line above the block (the command's
    own, or else a blank one) is taken out, so that the order lines keep their numbers."""
    lines = text.split("\n")
    start = _game_line(lines)
    if start is None:
        return None
    if command.line is not None and command.line < start:
        spare: int | None = command.line
    else:
        spare = next((i for i in range(start - 1, -1, -1) if not lines[i].strip()), None)
    if spare is not None:
        del lines[spare]
        start -= 1
    lines.insert(start + 1, "CHECK")
    return "\n".join(lines)


def run(command: Command, mail: Inbound) -> InboundOutcome:
    """Answer one command (the mail is neither automatic nor without a sender)."""
    if command.word == "CHECK":
        return read_orders(mail, checked_body(mail.body.text, command))
    if mail.untrusted is not None:
        return mail.rejected(f"{command.word}: {mail.untrusted}", command=command.word)
    match command.word:
        case "HELP":
            return _help(mail)
        case "JOIN":
            return _join(mail, command)
    found = _players_game(mail, command)
    if isinstance(found, InboundOutcome):
        return found
    game, player = found
    match command.word:
        case "STATUS":
            return _status(mail, game, player)
        case "REPORT":
            return _report(mail, game, player)
        case "MESSAGE":
            return _message(mail, command, game, player)
    return _setting(mail, command, game, player)


def _players_game(mail: Inbound, command: Command) -> tuple[GameRecord, PlayerRecord] | InboundOutcome:
    """The game the command is about (the recipient address; else a game id after STATUS or
    REPORT; else the only game the sender plays) and the sender's player in it."""
    address = mail.address or ""
    written = command.args[0].lower() if command.word in ("STATUS", "REPORT") and command.args else None
    if mail.recipient_game is None and written is None:
        games = sorted({p.game_id for p in mail.store.players_by_address(address)})
        written = games[0] if len(games) == 1 else None
    game = find_game(mail, written)
    if isinstance(game, InboundOutcome):
        return game
    player = find_player(mail, game, None)
    if isinstance(player, InboundOutcome):
        return player
    return game, player


# --- HELP ---


def _help(mail: Inbound) -> InboundOutcome:
    game = mail.store.game(mail.recipient_game) if mail.recipient_game else None
    mailgame = MAIL_GAMES.get(game.game if game is not None else DEFAULT_GAME) or MAIL_GAMES[DEFAULT_GAME]
    context = {
        "game_id": game.game_id if game is not None else None,
        "game_help": mailgame.help_text(),
        "address": game_address(game.game_id, mail.settings.mail_domain) if game is not None else None,
    }
    text, html = render_host("help", context)
    mail.reply(mail.address or "", mail.reply_subject("WarpMail help"), text, html, game)
    mail.log("in", mail.address, game.game_id if game else None, "HELP")
    return mail.outcome("command", "HELP", game, command="HELP")


# --- STATUS ---


def _status(mail: Inbound, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    mailgame = MAIL_GAMES.get(game.game)
    players = {p.player_id: p for p in mail.store.players(game.game_id)}
    awaited = game.awaited_scopes()
    scopes = sorted({turn_scope(game.turn), turn_scope(game.turn + 1), *awaited})
    latest = _latest(mail, game, scopes)
    yours = [
        (scope, mailgame.order_lines(scope, sub.orders_json) if mailgame is not None else [], sub)
        for (who, scope), sub in sorted(latest.items())
        if who == player.player_id
    ]
    others = sorted(
        {players[who].name if who in players else who for who, _ in latest if who != player.player_id}
    )
    waiting = [
        (scope, sorted(players[p].name if p in players else p for p in who if (p, scope) not in latest))
        for scope, who in awaited.items()
    ]
    context = {
        "game_id": game.game_id,
        "title": game.title,
        "status": game.status,
        "turn": game.turn,
        "player": player.name,
        "deadline": deadline_text(game.deadline, player.timezone),
        "round_deadline": deadline_text(game.round_deadline, player.timezone),
        "yours": [
            {"scope": _scope_words(scope), "lines": lines, "version": sub.version}
            for scope, lines, sub in yours
        ],
        "others": others,
        "waiting": [{"scope": _scope_words(scope), "names": names} for scope, names in waiting if names],
    }
    text, html = render_host("status", context)
    mail.reply(player.address, mail.reply_subject(f"Status of game {game.game_id}"), text, html, game, player)
    mail.log("in", mail.address, game.game_id, "STATUS")
    return mail.outcome("command", "STATUS", game, player, command="STATUS")


def _latest(mail: Inbound, game: GameRecord, scopes: Sequence[str]) -> dict[tuple[str, str], Submission]:
    """The latest submission of each player for each of ``scopes`` (a prefix query matches
    longer scopes too, "turn:1" also "turn:12": only exact ones are kept)."""
    found: dict[tuple[str, str], Submission] = {}
    for scope in scopes:
        for (who, their_scope), sub in mail.store.latest_submissions(game.game_id, scope).items():
            if their_scope == scope:
                found[(who, scope)] = sub
    return found


def _scope_words(scope: str) -> str:
    """ "turn:5" as "turn 5", "combat:5/P1:2223:2" as "combat at 2223 in turn 5/P1, round 2"."""
    combat = combat_parts(scope)
    if combat is not None:
        return f"combat at {combat.star} in turn {combat.turn}, round {combat.round}"
    return " ".join(scope.split(":"))


# --- REPORT ---


def _report(mail: Inbound, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """The latest results mail sent to the player (kept by the turn service), sent again as it
    was, map and files too; before any, the orders sheet as the game stands, which is what a
    player asking for a report then needs."""
    kept = mail.store.latest_results(game.game_id, player.player_id)
    if kept is not None:
        return _resend(mail, game, player, *kept)
    mailgame = MAIL_GAMES.get(game.game)
    sheet = None
    if mailgame is not None and game.status != "open":
        game, state_json = mail.store.state(game.game_id)
        sheet = mailgame.sheet(state_json, player.player_id, deadline_text(game.deadline, player.timezone))
    paragraphs = [REPORT_NONE_YET.format(game_id=game.game_id)]
    mail.notice(player.address, f"Game {game.game_id}: your orders sheet", paragraphs, sheet, game, player)
    mail.log("in", mail.address, game.game_id, REPORT_SHEET)
    return mail.outcome("command", "REPORT", game, player, command="REPORT")


def _resend(
    mail: Inbound, game: GameRecord, player: PlayerRecord, kept: KeptResults, raw: bytes
) -> InboundOutcome:
    """The kept mail with a new Message-ID and Date, to the player's registered address (which
    may have changed since); its thread headers keep it in the game's thread. It now answers
    the REPORT mail, so it is "auto-replied" to it (RFC 3834), no longer "auto-generated"."""
    message = email.message_from_bytes(raw, policy=MAIL_POLICY)
    assert isinstance(message, EmailMessage)  # the policy's message factory
    for name, value in (
        ("To", player.address),
        ("Date", format_datetime(mail.now)),
        ("Message-ID", f"<report.{uuid.uuid4().hex}@{mail.settings.mail_domain}>"),
        ("In-Reply-To", mail.message_id),
        ("Auto-Submitted", "auto-replied"),
    ):
        del message[name]
        message[name] = value
    sent_id = mail.mailer.send(message)
    mail.sent += (sent_id,)
    mail.log("out", player.address, game.game_id, "results", subject=kept.subject, key=sent_id)
    mail.log("in", mail.address, game.game_id, REPORT_SENT.format(version=kept.version))
    return mail.outcome("command", REPORT_SENT.format(version=kept.version), game, player, command="REPORT")


REPORT_SENT = "REPORT: the results of version {version} sent again"
REPORT_SHEET = "REPORT: no results sent yet, orders sheet sent"
REPORT_NONE_YET = (
    "No results of game {game_id} have been sent to you yet, so there are none to send again. Here "
    "is your orders sheet as the game stands now: fill it in, add your CODE and send it."
)


# --- JOIN ---


def _join(mail: Inbound, command: Command) -> InboundOutcome:
    address = mail.address or ""
    args = list(command.args)
    game_id = mail.recipient_game
    if args and _names_game(mail, args[0].lower()):
        game_id = args.pop(0).lower()
    name = " ".join(args).strip()
    game = mail.store.game(game_id) if game_id else None
    why = _join_refusal(mail, game, game_id, name)
    if why is not None:
        mail.notice(address, "You could not join", [why], game=game)
        return mail.rejected(JOIN_REFUSED.format(why=why), game, command="JOIN")
    assert game is not None
    players = mail.store.players(game.game_id)
    standby = game.status != "open" or sum(p.role == "player" for p in players) >= game.setup.seats
    prefix = STANDBY_PREFIX if standby else "P"
    taken = {p.player_id for p in players}
    player_id = next(f"{prefix}{n}" for n in range(1, len(taken) + 2) if f"{prefix}{n}" not in taken)
    code = new_code()
    player = PlayerRecord(
        game_id=game.game_id,
        player_id=player_id,
        name=name,
        address=address,
        code_hash=hash_code(code),
        timezone=game.schedule.timezone,
        role="standby" if standby else "player",
    )
    if not mail.store.add_player(player):
        # Another JOIN took the id between reading the players and writing: the mail is unseen
        # again (receive), so delivering it once more joins with the next free id.
        raise RuntimeError(f"player id {player_id} of game {game.game_id} was taken while joining")
    if standby:
        why = "has every seat taken" if game.status == "open" else "has started"
        paragraphs = [JOIN_STANDBY.format(name=name, game_id=game.game_id, player_id=player_id, why=why)]
        title = f"You are a standby player of game {game.game_id}"
        mail.notice(address, title, paragraphs, f"CODE {code}", game, player)
        mail.log("in", address, game.game_id, JOINED_STANDBY.format(name=name, player_id=player_id))
    else:
        # The welcome names the game's rules: loaded only now, as the game is (engine/games.py).
        from functions.host.seats import welcome_mail

        welcome = welcome_mail(game, player, code, None, mail.now)
        mail.send(welcome.model_copy(update={"in_reply_to": mail.message_id}))
        mail.log("in", address, game.game_id, JOINED.format(name=name, player_id=player_id))
    return mail.outcome("command", "JOIN", game, player, command="JOIN")


def _names_game(mail: Inbound, word: str) -> bool:
    """Whether the first word after JOIN is the game's id rather than the start of the name:
    always when sent to the host address; to a game's address, when it is that game or another."""
    if not valid_game_id(word):
        return False
    return mail.recipient_game in (None, word) or mail.store.game(word) is not None


def _join_refusal(mail: Inbound, game: GameRecord | None, game_id: str | None, name: str) -> str | None:
    if game_id is None:
        return "JOIN needs the game's id and your name: JOIN <game id> <your name>."
    if game is None:
        return f"There is no game {game_id} here."
    if game.status not in ("open", *PLAYING):
        return f"Game {game_id} is not open for sign-up."
    if not name:
        return f"JOIN needs your name after the game's id: JOIN {game_id} <your name>."
    if len(name) > 40 or ">" in name or "<" in name:
        return "Your name may have at most 40 characters, without < or >."
    players = mail.store.players(game.game_id)
    if any(p.address == mail.address for p in players):
        return f"Your address has joined game {game_id} already."
    if any(p.name.lower() == name.lower() or p.player_id.lower() == name.lower() for p in players):
        return f"The name {name} is taken in game {game_id}: choose another."
    return None


JOIN_STANDBY = (
    "Welcome, {name}: game {game_id} {why}, so you are standby player {player_id}. "
    "When a seat comes free the GM may give it to you: you then get a welcome mail with a new secret "
    "code and the full report of your position. Meanwhile you may follow the game with STATUS and "
    "set your TIMEZONE with the code below (a line CODE <code>); keep it to yourself."
)


# --- MESSAGE ---


def _message(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """A message to other players, relayed by the host from the game's address with the
    sender's player name (Star Fleet Warlord rulebook, 9.7 "Send a Subspace Message": to one
    player or to ALL)."""
    text, code = message_text(command.below)
    if code is None or not code_matches(code, player.code_hash):
        mail.notice(
            player.address, "Your message was not sent", [MESSAGE_NEEDS_CODE], game=game, player=player
        )
        return mail.rejected(MESSAGE_CODE, game, player, command="MESSAGE")
    written = " ".join(command.args)
    others = [p for p in mail.store.players(game.game_id) if p.player_id != player.player_id]
    others = [p for p in others if p.role == "player"]
    if written.upper() == ALL:
        to = [p for p in others if p.robot is None]
    else:
        to = [p for p in others if written.lower() in {p.player_id.lower(), p.name.lower()}]
    if not to or not text:
        names = ", ".join(f"{p.name} ({p.player_id})" for p in others) or "none"
        why = MESSAGE_NO_TEXT if to else MESSAGE_NO_RECIPIENT.format(written=written, names=names)
        mail.notice(player.address, NOT_SENT, [why], game=game, player=player)
        reason = NOTHING_TO_RELAY if to else NO_RECIPIENT.format(written=written)
        return mail.rejected(reason, game, player, command="MESSAGE")
    to_all = written.upper() == ALL
    for recipient in to:
        _relay(mail, game, player, recipient, text, to_all)
    names = ", ".join(p.name for p in to)
    mail.notice(
        player.address, "Your message was sent", [MESSAGE_SENT.format(names=names)], text, game, player
    )
    mail.log("in", mail.address, game.game_id, RELAYED.format(names=names))
    return mail.outcome("command", RELAYED.format(names=names), game, player, command="MESSAGE")


def _relay(
    mail: Inbound, game: GameRecord, sender: PlayerRecord, recipient: PlayerRecord, text: str, to_all: bool
) -> None:
    context = {
        "game_id": game.game_id,
        "sender": sender.name,
        "sender_id": sender.player_id,
        "to_all": to_all,
        "text": text,
    }
    relay_text, relay_html = render_host("relay", context)
    subject = f"Message from {sender.name}" + (" to all players" if to_all else "")
    mail.send(
        OutgoingMail(
            to=recipient.address,
            subject=subject,
            text=relay_text,
            html=relay_html,
            game_id=game.game_id,
            player_id=recipient.player_id,
            kind="relay",
        )
    )


def message_text(lines: Sequence[str]) -> tuple[str, str | None]:
    """The text of a MESSAGE (up to END, a signature or the quoted history of a reply) and
    the secret code given on a CODE line (which is not part of the text)."""
    kept: list[str] = []
    code = None
    for line in lines:
        if END_LINE.match(line) or SIGNATURE.match(line.strip()):
            break
        if quote_depth(line)[0] > 0:
            continue
        found = CODE_LINE.match(line)
        if found is not None and code is None:
            code = found.group(1).strip()
            continue
        kept.append(line.rstrip())
    text = "\n".join(kept).strip("\n")
    if len(text) > MAX_MESSAGE:
        text = text[:MAX_MESSAGE].rstrip() + "\n" + CUT.format(limit=MAX_MESSAGE)
    return text, code


NOT_SENT = "Your message was not sent"
CUT = "[... the rest was cut: messages are relayed up to {limit} characters]"
MESSAGE_NEEDS_CODE = (
    "A message relayed in your name needs your secret code: write MESSAGE <player or ALL> on the "
    "first line, then a line CODE <your code>, then your text. The CODE line is not relayed."
)
MESSAGE_NO_TEXT = "Your message has no text: write it below the MESSAGE line."
MESSAGE_NO_RECIPIENT = (
    'There is no other player "{written}" in this game. Write MESSAGE ALL, or MESSAGE and the id or '
    "name of one of: {names}."
)
MESSAGE_SENT = "Your message was relayed to {names}, signed with your player name. This is what they read:"


# --- Settings: WAIT, ABSENT, TIMEZONE ---


def _setting(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """A command that changes the sender's settings in the game: checked (the code, the seat,
    the game's state), then done and answered."""
    code, args = _code_and_args(command)
    word = command.word
    if code is None or not code_matches(code, player.code_hash):
        mail.notice(player.address, f"{word} was not done", [SETTING_NEEDS_CODE.format(word=word)], game=game)
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


def _code_and_args(command: Command) -> tuple[str | None, tuple[str, ...]]:
    """The secret code (a CODE line below the command, or ``CODE <code>`` after it on its line)
    and the command's own words."""
    words = [word.upper().rstrip(":") for word in command.args]
    if "CODE" in words:
        at = words.index("CODE")
        return " ".join(command.args[at + 1 :]) or None, command.args[:at]
    return message_text(command.below)[1], command.args


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
    does meanwhile is its absence policy (the turn service and functions/host/schedule.py)."""
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
        paragraph = ABSENT_PLAY.format(**when)
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
    "game plays on: a turn of yours due meanwhile is waived (your ships hold, nothing is built, "
    "income still comes, standing orders apply) and is not counted as missed; orders you send "
    "meanwhile still count. ABSENT OFF (with your CODE) calls the absence off."
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

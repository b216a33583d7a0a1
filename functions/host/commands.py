"""Mail commands: a mail whose first non-blank line is a command word, or whose subject is one
when the mail holds no orders (an order mail titled "Help with my orders" is orders).

The reference players read (the HELP answer, templates/host/help.txt, says the same):

    HELP                     this help: the commands, and the game's order language in short
    STATUS [game]            what you have sent for this turn, who else has sent orders (not
                             what they ordered), what the game waits for, the deadline
    REPORT [game]            your latest results mail again (the orders sheet before any)
    CHECK                    above your orders: check them and answer, submit nothing
    JOIN <game> <name>       join a game open for sign-up; your secret code comes back by mail
    MESSAGE <player|ALL>     the lines below go to that player (or every other player) from the
    CODE <your code>         game's address, signed with your player name by the host; the CODE
    <your text>              line is needed and is not relayed; END or a signature ends the text

STATUS, REPORT and MESSAGE answer only a registered address of a player of the game, and only
to that address; a mail that failed the sender checks gets no answer. JOIN answers the sender
(that is how the code proves the address), HELP anyone who passed the sender checks.
"""

from __future__ import annotations

import email
import re
import uuid
from collections.abc import Sequence
from email.message import EmailMessage
from email.utils import format_datetime

from pydantic import BaseModel, ConfigDict

from engine.core.mailgame import combat_parts, turn_scope
from engine.core.orderblock import clean, quote_depth
from engine.games import MAIL_GAMES
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
from functions.mail.codes import code_matches, hash_code, new_code
from functions.mail.compose import MAIL_POLICY, OutgoingMail, game_address, valid_game_id
from functions.store import GameRecord, KeptResults, PlayerRecord, Submission

COMMANDS = ("HELP", "STATUS", "REPORT", "CHECK", "JOIN", "MESSAGE")
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
JOIN_REFUSED = "JOIN refused: {why}"


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
    return _message(mail, command, game, player)


def _players_game(mail: Inbound, command: Command) -> tuple[GameRecord, PlayerRecord] | InboundOutcome:
    """The game the command is about (the recipient address; else a game id after STATUS or
    REPORT; else the only game the sender plays) and the sender's player in it."""
    address = mail.address or ""
    written = command.args[0].lower() if command.word != "MESSAGE" and command.args else None
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
    may have changed since); its thread headers keep it in the game's thread."""
    message = email.message_from_bytes(raw, policy=MAIL_POLICY)
    assert isinstance(message, EmailMessage)  # the policy's message factory
    for name, value in (
        ("To", player.address),
        ("Date", format_datetime(mail.now)),
        ("Message-ID", f"<report.{uuid.uuid4().hex}@{mail.settings.mail_domain}>"),
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
    taken = {p.player_id for p in mail.store.players(game.game_id)}
    player_id = next(f"P{n}" for n in range(1, len(taken) + 2) if f"P{n}" not in taken)
    code = new_code()
    player = PlayerRecord(
        game_id=game.game_id, player_id=player_id, name=name, address=address, code_hash=hash_code(code)
    )
    if not mail.store.add_player(player):
        # Another JOIN took the id between reading the players and writing: the mail is unseen
        # again (receive), so delivering it once more joins with the next free id.
        raise RuntimeError(f"player id {player_id} of game {game.game_id} was taken while joining")
    paragraphs = [JOIN_WELCOME.format(name=name, game_id=game.game_id, player_id=player_id)]
    mail.notice(address, f"Welcome to game {game.game_id}", paragraphs, f"CODE {code}", game, player)
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
    if game.status != "open":
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


JOIN_WELCOME = (
    "Welcome, {name}: you are player {player_id} of game {game_id}. Below is your secret code. "
    "Every order mail needs it (a line CODE <code>), so keep this mail and share the code with no "
    "one. Your first orders sheet comes when the game starts."
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
        text = (
            text[:MAX_MESSAGE].rstrip()
            + "\n[...: the rest was cut, messages are relayed up to 4000 characters]"
        )
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

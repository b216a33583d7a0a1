"""HELP, LIST, STATUS and REPORT: what the host tells a player (or anyone, for HELP and LIST) about a
game, or about the games open for sign-up."""

from __future__ import annotations

import email
from collections.abc import Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from engine.core.mailgame import combat_parts, turn_scope
from engine.games import MAIL_GAMES, TURN_GAMES
from functions.host.commands.join import JOINS
from functions.host.commands.message import MESSAGES, RELAYS_RECEIVED
from functions.host.deadlines import deadline_text, fighting
from functions.host.received import DAY, LOOP, REFUSALS, STRANGERS, Inbound, InboundOutcome, Limit
from functions.mail.compose import MAIL_POLICY, game_address, message_id_for
from functions.render.notice import render_host, render_notice
from functions.store import GameRecord, KeptResults, PlayerRecord, Schedule, Submission

HELP_ANSWERS = Limit("help", 3, DAY, "a day")
"""HELP answers to one address: the help does not change, so a third copy in a day is already
one more than anyone reads; HELP is answered to anyone, so this bounds what a forged sender
can have sent to someone else."""
REPORTS = Limit("report", 3, timedelta(days=30), "a turn")
"""REPORT answers per player and turn (the counter is the turn's, kept 30 days): the results
are already in the player's mailbox, so three copies cover one lost and one deleted."""
LIST_ANSWERS = Limit("list", 3, DAY, "a day")
"""LIST answers to an address that plays somewhere: the list changes slowly, so three a day are
plenty; a sender who plays nowhere gets one a day (``STRANGERS``, shared with refusals), since
their From may be forged."""
MAX_LISTED = 30
"""Games named in one LIST answer at most (the soonest made first would need a creation time:
they are listed by id), so that the answer stays a short mail however many games are open."""
LIMITED = "{word}: not answered (rate-limited)"


# --- HELP ---


def send_help(mail: Inbound, topic: Sequence[str] = ()) -> InboundOutcome:
    """The commands and, for mail to a game, its order language; ``HELP <topic>`` (e.g. ``HELP
    CRT``) answers with the game's text on that topic instead, when it has one. Mail naming no
    game gets the games hosted here by name (and a topic any of them has)."""
    game = mail.store.game(mail.recipient_game) if mail.recipient_game else None
    address = mail.address or ""
    if not mail.allowed(HELP_ANSWERS, address, address, game.game_id if game else None):
        return mail.outcome("ignored", LIMITED.format(word="HELP"), game, command="HELP")
    keys = [game.game] if game is not None and game.game in MAIL_GAMES else list(MAIL_GAMES)
    asked = " ".join(topic)
    on_topic = next((found for key in keys if asked and (found := MAIL_GAMES[key].help_topic(asked))), None)
    own = MAIL_GAMES[keys[0]].help_text() if len(keys) == 1 else None
    context = {
        "game_id": game.game_id if game is not None else None,
        "game_help": on_topic or own,
        "games": [] if game is not None else [(key, TURN_GAMES[key].name) for key in keys],
        "topic": on_topic is not None,
        "address": game_address(game.game_id, mail.settings.mail_domain) if game is not None else None,
        "limits": {
            limit.kind: limit.most
            for limit in (
                HELP_ANSWERS,
                LIST_ANSWERS,
                REPORTS,
                MESSAGES,
                RELAYS_RECEIVED,
                JOINS,
                REFUSALS,
                LOOP,
            )
        },
    }
    text, html = render_host("help", context)
    mail.reply(mail.address or "", mail.reply_subject("WarpMail help"), text, html, game)
    mail.log("in", mail.address, game.game_id if game else None, "HELP")
    return mail.outcome("command", "HELP", game, command="HELP")


# --- LIST ---


def send_list(mail: Inbound) -> InboundOutcome:
    """The games open for sign-up on this host, each with what a newcomer needs to choose and
    to JOIN, to anyone who passed the sender checks: known senders ``LIST_ANSWERS`` a day, a
    sender who plays nowhere once a day (``STRANGERS``). Nothing the sender wrote is echoed."""
    address = mail.address or ""
    limit = STRANGERS if mail.stranger else LIST_ANSWERS
    if not mail.allowed(limit, address, address):
        return mail.outcome("ignored", LIMITED.format(word="LIST"), command="LIST")
    open_games = mail.store.open_games()
    domain = mail.settings.mail_domain
    paragraphs = [_listed(game, mail.store.players(game.game_id), domain) for game in open_games[:MAX_LISTED]]
    if len(open_games) > MAX_LISTED:
        paragraphs.append(LIST_MORE.format(more=len(open_games) - MAX_LISTED))
    paragraphs.append(LIST_JOIN if open_games else LIST_NONE)
    text, html = render_notice(LIST_TITLE, paragraphs)
    mail.reply(address, mail.reply_subject(LIST_TITLE), text, html)
    mail.log("in", mail.address, None, LIST_LOGGED.format(count=len(open_games)))
    return mail.outcome("command", "LIST", command="LIST")


def _listed(game: GameRecord, players: Sequence[PlayerRecord], domain: str) -> str:
    """One open game: its id and title, seats taken and wanted, its rhythm, its address."""
    seated = sum(1 for p in players if p.role == "player")
    return LISTED.format(
        game_id=game.game_id,
        title=game.title,
        seated=seated,
        seats=game.setup.seats,
        rhythm=_capitalised(rhythm(game)),
        address=game_address(game.game_id, domain),
    )


def _capitalised(text: str) -> str:
    return text[:1].upper() + text[1:]


WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


def rhythm(game: GameRecord) -> str:
    """The game's deadlines in a few words: "a deadline 24 hours after each player-turn opens",
    "deadlines at 18:00 Europe/Paris on Mon, Wed, Fri"; and its combat rounds'."""
    schedule: Schedule = game.schedule
    period = "game-turn (every player at once)" if game.turn_mode == "cycle" else "player-turn"
    days = (
        "" if len(schedule.weekdays) == 7 else " on " + ", ".join(WEEKDAYS[d - 1] for d in schedule.weekdays)
    )
    if schedule.deadline_time is not None:
        said = f"deadlines at {schedule.deadline_time} {schedule.timezone}{days}"
        if schedule.min_hours:
            said += f", at least {schedule.min_hours:g} hours after each {period} opens"
        else:
            said += f", one for each {period}"
    else:
        said = f"a deadline {game.turn_hours:g} hours after each {period} opens{days}"
    if game.combat_mode == "standing":
        return said + "; combats are fought at once, from standing orders"
    return said + f"; combat rounds by mail, {game.round_hours:g} hours each"


LIST_TITLE = "Games open for sign-up"
LISTED = (
    "{game_id}: {title}. {seated} of {seats} seats taken. {rhythm}. "
    "To join, mail JOIN {game_id} <your name> to {address}."
)
LIST_MORE = "And {more} more games open for sign-up, not listed here."
LIST_JOIN = (
    "A JOIN is answered with a mail asking you to confirm: reply to it, and your secret code "
    "comes by mail. A game that is full takes you as a standby. Send HELP for every command."
)
LIST_NONE = "No game is open for sign-up now. Send LIST again another day, or HELP for the commands."
LIST_LOGGED = "LIST: {count} open games"


# --- STATUS ---


def send_status(mail: Inbound, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    mailgame = MAIL_GAMES.get(game.game)
    players = {p.player_id: p for p in mail.store.players(game.game_id)}
    # Only the combats the player fights in: another's scope names its star and its sides.
    awaited = {
        scope: who
        for scope, who in game.awaited_scopes().items()
        if combat_parts(scope) is None or player.player_id in who
    }
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
        (scope, sorted(players[p].name if p in players else p for p in who if not _in(latest, p, scope)))
        for scope, who in awaited.items()
    ]
    context = {
        "game_id": game.game_id,
        "title": game.title,
        "status": game.status,
        "turn": game.turn,
        "player": player.name,
        "deadline": deadline_text(game.deadline, player.timezone),
        "round_deadline": (
            deadline_text(game.round_deadline, player.timezone) if fighting(game, player.player_id) else None
        ),
        "yours": [
            {"scope": _scope_words(scope), "lines": lines, "version": sub.version, "ready": sub.ready}
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


def _in(latest: dict[tuple[str, str], Submission], player_id: str, scope: str) -> bool:
    """Whether the player's orders for ``scope`` count as in: stored and ready (orders kept from
    a mail with refused lines are waited for until confirmed)."""
    sub = latest.get((player_id, scope))
    return sub is not None and sub.ready


def _scope_words(scope: str) -> str:
    """ "turn:5" as "turn 5", "combat:5/P1:2223:2" as "combat at 2223 in turn 5/P1, round 2"."""
    combat = combat_parts(scope)
    if combat is not None:
        return f"combat at {combat.star} in turn {combat.turn}, round {combat.round}"
    return " ".join(scope.split(":"))


# --- REPORT ---


def send_report(mail: Inbound, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """The latest results mail sent to the player (kept by the turn service), sent again as it
    was, map and files too; before any, the orders sheet as the game stands, which is what a
    player asking for a report then needs."""
    asked = f"{game.game_id}/{player.player_id}/turn {game.turn}"
    if not mail.allowed(REPORTS, asked, player.address, game.game_id):
        return mail.outcome("ignored", LIMITED.format(word="REPORT"), game, player, command="REPORT")
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
    """The kept mail with a new Message-ID and Date (this answer's: sent once, whichever attempt
    sends it), to the player's registered address (which may have changed since); its thread
    headers keep it in the game's thread. It now answers the REPORT mail, so it is
    "auto-replied" to it (RFC 3834), no longer "auto-generated"."""
    if not mail.allowed(LOOP, player.address, player.address, game.game_id):
        return mail.outcome("ignored", LIMITED.format(word="REPORT"), game, player, command="REPORT")

    def again(at: datetime, key: str) -> EmailMessage:
        message = email.message_from_bytes(raw, policy=MAIL_POLICY)
        assert isinstance(message, EmailMessage)  # the policy's message factory
        for name, value in (
            ("To", player.address),
            ("Date", format_datetime(at)),
            ("Message-ID", message_id_for("report", key, mail.settings.mail_domain)),
            ("In-Reply-To", mail.message_id),
            ("Auto-Submitted", "auto-replied"),
        ):
            del message[name]
            message[name] = value
        return message

    mail.send_message(player.address, "results", game.game_id, kept.subject, again)
    mail.log("in", mail.address, game.game_id, REPORT_SENT.format(version=kept.version))
    return mail.outcome("command", REPORT_SENT.format(version=kept.version), game, player, command="REPORT")


REPORT_SENT = "REPORT: the results of version {version} sent again"
REPORT_SHEET = "REPORT: no results sent yet, orders sheet sent"
REPORT_NONE_YET = (
    "No results of game {game_id} have been sent to you yet, so there are none to send again. Here "
    "is your orders sheet as the game stands now: fill it in, add your CODE and send it."
)

"""Mail commands: a mail one of whose first non-blank lines (above any orders) starts with a command
word, or whose subject is one when the mail holds no orders (an order mail titled "Help with my
orders" is orders).

The reference players read (the HELP answer, templates/host/help.txt, says the same):

    HELP                     this help: the commands, and the game's order language in short
    LIST                     the games open for sign-up on this host, and how to join each
    STATUS [game]            what you have sent for this turn, who else has sent orders (not
                             what they ordered), what the game waits for, the deadline
    REPORT [game]            your latest results mail again (the orders sheet before any)
    CHECK                    above your orders: check them and answer, submit nothing
    JOIN <game> <name>       join a game open for sign-up: a confirmation comes back by mail
    CONFIRM <token>          (a reply to it confirms), then your secret code (a game that has
                             started, or is full: you join as a standby)
    MESSAGE <player|ALL>     the lines below go to that player (or every other player) from the
    CODE <your code>         game's address, signed with your player name by the host; the CODE
    <your text>              line is needed and is not relayed; END or a signature ends the text
    WAIT [OFF]               this turn waits for its deadline even when every order is in
    ABSENT <date> [TO] <date>, ABSENT <n> DAYS, ABSENT OFF
                             you are away: the game waits for you or waives your turns (the
                             game's absence policy), within its limits of length and number
    TIMEZONE <zone>          deadlines in your mail in that zone (Europe/Paris, +01:00)
    ROLLS                    (Lighter Than Air) the dice rolled for you so far, each with its
    CODE <your code>         use; every player's with the seeds once the game is over

WAIT, ABSENT and TIMEZONE change something, so they need a line CODE <your code> too (below the
command, or after it on its line); so does a game's own command (engine/games.py
``GAME_COMMANDS``: ROLLS), whose answer is for that seated player alone (commands/game.py).
Only a seated player may WAIT or be ABSENT; a standby may set a TIMEZONE; a removed player may
do neither.

STATUS, REPORT, MESSAGE, WAIT, ABSENT and TIMEZONE answer only a registered address of a player
of the game, and only to that address; a mail that failed the sender checks gets no answer. JOIN
and CONFIRM answer the sender (the confirmation proves the address), HELP and LIST anyone who passed
the sender checks. Every answer is within its limit (functions/host/received.py ``Limit``: refusals,
HELP, REPORT, MESSAGE, JOIN, and all mail to one address a day); beyond it there is none, and
the mail log says so.
"""

from __future__ import annotations

from functions.host.commands.game import game_command
from functions.host.commands.info import send_help, send_list, send_report, send_status
from functions.host.commands.join import confirm, join
from functions.host.commands.message import relay_message
from functions.host.commands.reading import COMMANDS, Command, checked_body
from functions.host.commands.settings import change_setting
from functions.host.orders import find_game, find_player, read_orders
from functions.host.received import Inbound, InboundOutcome
from functions.store import GameRecord, PlayerRecord


def run(command: Command, mail: Inbound) -> InboundOutcome:
    """Answer one command (the mail is neither automatic nor without a sender)."""
    if command.word == "CHECK":
        return read_orders(mail, checked_body(mail.body.text, command))
    if mail.untrusted is not None:
        return mail.rejected(f"{command.word}: {mail.untrusted}", command=command.word)
    match command.word:
        case "HELP":
            return send_help(mail, command.args)
        case "LIST":
            return send_list(mail)
        case "JOIN":
            return join(mail, command)
        case "CONFIRM":
            return confirm(mail, command)
    found = _players_game(mail, command)
    if isinstance(found, InboundOutcome):
        return found
    game, player = found
    match command.word:
        case "STATUS":
            return send_status(mail, game, player)
        case "REPORT":
            return send_report(mail, game, player)
        case "MESSAGE":
            return relay_message(mail, command, game, player)
    if command.word not in COMMANDS:
        return game_command(mail, command, game, player)
    return change_setting(mail, command, game, player)


def _players_game(mail: Inbound, command: Command) -> tuple[GameRecord, PlayerRecord] | InboundOutcome:
    """The game the command is about (the recipient address; else a game id after STATUS or
    REPORT; else the only game the sender plays) and the sender's player in it."""
    written = command.args[0].lower() if command.word in ("STATUS", "REPORT") and command.args else None
    if mail.recipient_game is None and written is None:
        games = sorted({p.game_id for p in mail.sender_players})
        written = games[0] if len(games) == 1 else None
    game = find_game(mail, written)
    if isinstance(game, InboundOutcome):
        return game
    player = find_player(mail, game, None)
    if isinstance(player, InboundOutcome):
        return player
    return game, player

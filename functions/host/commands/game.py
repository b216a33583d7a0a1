"""A game's own mail commands (engine/games.py ``GAME_COMMANDS``, e.g. Lighter Than Air's ROLLS):
the host authenticates the player as for WAIT (a registered address of a seated player, and a
line ``CODE <your code>``), then the game answers from the stored state for that player alone
(``MailGame.command``), and the answer goes to the player's own address. A game that has no
such command says so; the host never reads the answer."""

from __future__ import annotations

from engine.games import MAIL_GAMES
from functions.host.commands.reading import Command, code_and_args
from functions.host.received import DAY, REFUSALS, Inbound, InboundOutcome, Limit
from functions.mail.codes import code_matches
from functions.store import GameRecord, PlayerRecord

GAME_ANSWERS = Limit("game-command", 10, DAY, "a day")
"""A game's command answers per player a day: enough to check the dice after every phase of a
busy day, not a way to fill a mailbox."""
NEEDS_CODE = "{word} without the right secret code"
NOT_THE_GAMES = "{word}: not a command of game {game_id}"
NOT_SEATED = "{word}: {role} {player_id} holds no seat"
NOT_STARTED = "{word}: game {game_id} has not started"


def game_command(mail: Inbound, command: Command, game: GameRecord, player: PlayerRecord) -> InboundOutcome:
    """Answer ``command``, a word of some game's own, for ``player`` of ``game``."""
    word = command.word
    code, args = code_and_args(command)
    if code is None or not code_matches(code, player.code_hash):
        paragraph = NOTICE_CODE.format(word=word)
        mail.notice(player.address, f"{word} was not answered", [paragraph], game=game, limit=REFUSALS)
        return mail.rejected(NEEDS_CODE.format(word=word), game, player, command=word)
    if player.role != "player":
        # The seat's dice are the seat's: a standby has none yet, and a removed player's seat
        # may have a newcomer rolling on it now.
        paragraph = NOTICE_NOT_SEATED.format(word=word, game_id=game.game_id)
        mail.notice(player.address, f"{word} was not answered", [paragraph], game=game, limit=REFUSALS)
        reason = NOT_SEATED.format(word=word, role=player.role, player_id=player.player_id)
        return mail.rejected(reason, game, player, command=word)
    found, state_json = mail.store.state(game.game_id)
    if found.status == "open" or not state_json:
        paragraph = NOTICE_NOT_STARTED.format(word=word, game_id=game.game_id)
        mail.notice(player.address, f"{word} was not answered", [paragraph], game=game, limit=REFUSALS)
        return mail.rejected(NOT_STARTED.format(word=word, game_id=game.game_id), game, player, command=word)
    mailgame = MAIL_GAMES.get(game.game)
    answer = mailgame.command(state_json, player.player_id, word, " ".join(args)) if mailgame else None
    if answer is None:
        paragraph = NOTICE_NOT_THE_GAMES.format(word=word, game_id=game.game_id)
        mail.notice(player.address, f"{word} is not a command here", [paragraph], game=game, limit=REFUSALS)
        return mail.rejected(
            NOT_THE_GAMES.format(word=word, game_id=game.game_id), game, player, command=word
        )
    if not mail.allowed(GAME_ANSWERS, f"{game.game_id}:{player.player_id}", player.address, game.game_id):
        return mail.outcome("ignored", f"{word}: not answered (rate-limited)", game, player, command=word)
    title = f"{word}: game {game.game_id}"
    mail.notice(player.address, title, [NOTICE_ANSWER.format(game_id=game.game_id)], answer, game, player)
    mail.log("in", mail.address, game.game_id, word)
    return mail.outcome("command", word, game, player, command=word)


NOTICE_ANSWER = "Game {game_id}'s answer, for you alone:"
NOTICE_CODE = (
    "{word} needs your secret code: write {word} on the first line of your mail and a line "
    "CODE <your code> below it. Nothing was answered."
)
NOTICE_NOT_SEATED = (
    "{word} answers for a seat in game {game_id}, and you hold none, so it was not answered. If you "
    "think this is a mistake, please write to the GM."
)
NOTICE_NOT_STARTED = "Game {game_id} has not started yet, so there is nothing for {word} to answer."
NOTICE_NOT_THE_GAMES = (
    "{word} is a command of another game, not of game {game_id}. HELP lists the commands this game answers."
)

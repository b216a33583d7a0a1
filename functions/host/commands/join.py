"""JOIN: a newcomer takes a seat, or a standby place, in a game open for sign-up."""

from __future__ import annotations

from functions.host.claimed import INBOUND_LEASE
from functions.host.commands.reading import Command
from functions.host.received import PLAYING, Inbound, InboundOutcome
from functions.mail.codes import code_matches, hash_code, new_code
from functions.mail.compose import valid_game_id
from functions.store import GameRecord, PlayerRecord

STANDBY_PREFIX = "S"
JOINED = "JOIN: {name} joined as {player_id}"
JOINED_STANDBY = "JOIN: {name} joined as standby {player_id}"
JOIN_REFUSED = "JOIN refused: {why}"


# --- JOIN ---


def join(mail: Inbound, command: Command) -> InboundOutcome:
    """Join the sender to the game, once: a retried JOIN (the handling killed and taken over)
    finds the player it made (``joined_by``) and sends the same welcome, with the same code.
    The code is made once and kept, in clear, in the claim of its welcome while that is in
    flight (``Store.claim`` data; completing the claim drops it), only its hash in the player."""
    address = mail.address or ""
    args = list(command.args)
    game_id = mail.recipient_game
    if args and _names_game(mail, args[0].lower()):
        game_id = args.pop(0).lower()
    name = " ".join(args).strip()
    game = mail.store.game(game_id) if game_id else None
    players = mail.store.players(game.game_id) if game is not None else []
    made = next((p for p in players if p.joined_by == mail.key), None)
    why = None if made is not None else _join_refusal(mail, game, game_id, name)
    if why is not None:
        mail.notice(address, "You could not join", [why], game=game)
        return mail.rejected(JOIN_REFUSED.format(why=why), game, command="JOIN")
    assert game is not None
    code_key = f"{mail.claim}/code"
    held = mail.store.claim(code_key, mail.clock or mail.now, INBOUND_LEASE, {"code": new_code()})
    player = made
    if held is not None:
        try:
            player = _seated(mail, game, players, made, name, held.data["code"])
            _welcome(mail, game, player, held.data["code"])
        except Exception:
            mail.store.release(code_key)
            raise
        mail.store.complete(code_key)
    if player is None:
        # The code claim is done (the welcome went) yet its player is gone: removed since.
        return mail.rejected(JOIN_REFUSED.format(why="the player it made is gone"), game, command="JOIN")
    joined = JOINED_STANDBY if player.role == "standby" else JOINED
    mail.log("in", address, game.game_id, joined.format(name=player.name, player_id=player.player_id))
    return mail.outcome("command", "JOIN", game, player, command="JOIN")


def _seated(
    mail: Inbound,
    game: GameRecord,
    players: list[PlayerRecord],
    made: PlayerRecord | None,
    name: str,
    code: str,
) -> PlayerRecord:
    """The player this JOIN makes (or made, on a retry: then holding ``code``'s hash)."""
    if made is not None:
        if not code_matches(code, made.code_hash):
            # The code claim was released after a failure and made again: the old code was
            # never sent (its welcome is completed only with the claim).
            made = made.model_copy(update={"code_hash": hash_code(code)})
            mail.store.update_player(made)
        return made
    standby = game.status != "open" or sum(p.role == "player" for p in players) >= game.setup.seats
    prefix = STANDBY_PREFIX if standby else "P"
    taken = {p.player_id for p in players}
    player_id = next(f"{prefix}{n}" for n in range(1, len(taken) + 2) if f"{prefix}{n}" not in taken)
    player = PlayerRecord(
        game_id=game.game_id,
        player_id=player_id,
        name=name,
        address=mail.address or "",
        code_hash=hash_code(code),
        timezone=game.schedule.timezone,
        role="standby" if standby else "player",
        joined_by=mail.key,
    )
    if not mail.store.add_player(player):
        # Another JOIN took the id between reading the players and writing: the mail is
        # released (receive), so delivering it once more joins with the next free id.
        raise RuntimeError(f"player id {player_id} of game {game.game_id} was taken while joining")
    return player


def _welcome(mail: Inbound, game: GameRecord, player: PlayerRecord, code: str) -> None:
    if player.role == "standby":
        why = "has every seat taken" if game.status == "open" else "has started"
        paragraphs = [
            JOIN_STANDBY.format(name=player.name, game_id=game.game_id, player_id=player.player_id, why=why)
        ]
        title = f"You are a standby player of game {game.game_id}"
        mail.notice(player.address, title, paragraphs, f"CODE {code}", game, player)
        return
    # The welcome names the game's rules: loaded only now, as the game is (engine/games.py).
    from functions.host.seats import welcome_mail

    welcome = welcome_mail(game, player, code, None, mail.now)
    mail.send(welcome.model_copy(update={"in_reply_to": mail.message_id}))


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

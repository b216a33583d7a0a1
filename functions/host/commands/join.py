"""JOIN and CONFIRM: a newcomer takes a seat, or a standby place, in a game open for sign-up.

JOIN answers the sender, whose From may be forged: so a JOIN only asks. The host mails the
address a confirmation with a token (never the name asked for: nothing the sender wrote goes
back), keeps the request ``PENDING_DAYS`` (by the token's hash), and the seat is taken when the
mailbox's owner answers ``CONFIRM <token>`` (a reply to the confirmation is one: its subject
reads ``Re: [WarpWar g1] CONFIRM <token> ...``). Only a plain address outside our domain and not
a robot's may join; an address holds at most ``MAX_GAMES`` places in games not over, and a game
takes at most ``MAX_STANDBYS`` standbys. JOIN answers (confirmations and refusals) are at most
``JOINS.most`` a day per address.

Both are done once even when their handling is killed and taken over (functions/host/claimed.py):
the token and the secret code are made once and kept, in clear, in a claim's data while their
mail is in flight (completing the claim drops them); a CONFIRM marks the pending JOIN with the
mail's key rather than deleting it, so its retry finds it, and finds the player it made
(``joined_by``), and sends the same welcome with the same code.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable
from datetime import timedelta

from functions.host.claimed import INBOUND_LEASE
from functions.host.commands.reading import Command
from functions.host.names import name_problem
from functions.host.received import DAY, PLAYING, REFUSALS, Inbound, InboundOutcome, Limit
from functions.mail.codes import ALPHABET, code_matches, hash_code, new_code
from functions.mail.compose import valid_game_id
from functions.render.notice import render_notice
from functions.store import GameRecord, PendingJoin, PlayerRecord

STANDBY_PREFIX = "S"
JOINED = "JOIN: {name} joined as {player_id}"
JOINED_STANDBY = "JOIN: {name} joined as standby {player_id}"
JOIN_REFUSED = "JOIN refused: {why}"
JOIN_ASKED = "JOIN: {name} asked to join, confirmation sent"
JOIN_LIMITED = "JOIN: not answered (rate-limited)"
CONFIRM_UNKNOWN = "CONFIRM: no JOIN waiting for this token from this address"

JOINS = Limit("join", 3, DAY, "a day")
"""JOIN answers (a confirmation or a refusal) to one address: enough to correct a name twice,
and all a forged sender can have sent to someone else's mailbox in a day."""
PENDING_DAYS = 2
"""How long a JOIN waits for its CONFIRM: long enough for a weekend away from mail."""
MAX_GAMES = 5
"""Places (seats and standbys) one address may hold in games not over: a keen player's five
games at once; not one mailbox filling every game of the host."""
MAX_STANDBYS = 4
"""Standbys one game takes: enough to replace half of an eight-seat game."""
TOKEN_LENGTH = 8
SEAT_ATTEMPTS = 3
PLAIN_ADDRESS = re.compile(r"[a-z0-9!#$%&'*+/=?^_`{|}~.-]+@[a-z0-9-]+(\.[a-z0-9-]+)+")
ROBOTS = frozenset(
    {
        "noreply", "no-reply", "donotreply", "do-not-reply", "mailer-daemon", "postmaster", "bounce",
        "bounces", "daemon", "nobody", "root", "abuse", "listserv", "majordomo", "notifications",
    }
)  # fmt: skip
ROBOT_ENDINGS = ("-request", "-bounces", "-bounce", "-owner", "-noreply", "-no-reply")


# --- JOIN ---


def join(mail: Inbound, command: Command) -> InboundOutcome:
    """A JOIN: checked, then the confirmation mailed to the sender (nothing is joined yet)."""
    address = mail.address or ""
    args = list(command.args)
    game_id = mail.recipient_game
    if args and _names_game(mail, args[0].lower()):
        game_id = args.pop(0).lower()
    name = " ".join(args).strip()
    game = mail.store.game(game_id) if game_id else None
    why = _join_refusal(mail, game, game_id, name)
    if why is not None:
        return _refused(mail, why, game, "JOIN")
    assert game is not None
    if not mail.allowed(JOINS, address, address, game.game_id):
        return mail.outcome("ignored", JOIN_LIMITED, game, command="JOIN")
    token_key = f"{mail.claim}/token"
    held = mail.store.claim(token_key, mail.clock or mail.now, INBOUND_LEASE, {"token": _token()})
    if held is None:
        # An earlier attempt mailed the confirmation: the claim is done.
        mail.log("in", address, game.game_id, JOIN_ASKED.format(name=name))
        return mail.outcome("command", "JOIN", game, command="JOIN")
    token = held.data["token"]
    expires = mail.now + timedelta(days=PENDING_DAYS)
    pending = PendingJoin(
        game_id=game.game_id, address=address, name=name, asked_at=mail.now, expires_at=expires
    )
    try:
        mail.store.add_pending_join(token, pending)
        _ask(mail, game, token)
    except Exception:
        mail.store.release(token_key)
        raise
    mail.store.complete(token_key)
    mail.log("in", address, game.game_id, JOIN_ASKED.format(name=name))
    return mail.outcome("command", "JOIN", game, command="JOIN")


def _ask(mail: Inbound, game: GameRecord, token: str) -> None:
    title = f"CONFIRM {token} to join game {game.game_id}"
    paragraphs = [CONFIRM_ASK.format(game_id=game.game_id, title=game.title, days=PENDING_DAYS)]
    text, html = render_notice(title, paragraphs, f"CONFIRM {token}")
    mail.reply(mail.address or "", title, text, html, game)


def confirm(mail: Inbound, command: Command) -> InboundOutcome:
    """CONFIRM <token>: the JOIN the token was mailed for, from the address it was mailed to,
    takes its seat (or standby place) if it still may."""
    address = mail.address or ""
    token = command.args[0] if command.args else ""
    pending = mail.store.take_pending_join(token, address, mail.now, mail.key) if token else None
    if pending is None:
        mail.notice(address, "Nothing to confirm", [CONFIRM_NONE.format(days=PENDING_DAYS)], limit=REFUSALS)
        return mail.rejected(CONFIRM_UNKNOWN, command="CONFIRM")
    game = mail.store.game(pending.game_id)
    players = mail.store.players(pending.game_id) if game is not None else []
    made = next((p for p in players if p.joined_by == mail.key), None)
    why = None if made is not None else _join_refusal(mail, game, pending.game_id, pending.name)
    if why is not None:
        return _refused(mail, why, game, "CONFIRM")
    assert game is not None
    return _seat(mail, game, players, made, pending.name)


def _refused(mail: Inbound, why: str, game: GameRecord | None, word: str) -> InboundOutcome:
    mail.notice(mail.address or "", "You could not join", [why], game=game, limit=JOINS)
    return mail.rejected(JOIN_REFUSED.format(why=why), game, command=word)


def _token() -> str:
    """A fresh confirmation token, in the secret codes' alphabet (no look-alikes): ``K7QM-9XDA``."""
    token = "".join(secrets.choice(ALPHABET) for _ in range(TOKEN_LENGTH))
    return f"{token[:4]}-{token[4:]}"


def _seat(
    mail: Inbound, game: GameRecord, players: list[PlayerRecord], made: PlayerRecord | None, name: str
) -> InboundOutcome:
    """The confirmed newcomer takes a seat, or a standby place when the game has started or
    every seat is taken, and is mailed the welcome with the secret code; once (module doc)."""
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
        return mail.rejected(JOIN_REFUSED.format(why="the player it made is gone"), game, command="CONFIRM")
    joined = JOINED_STANDBY if player.role == "standby" else JOINED
    mail.log("in", mail.address, game.game_id, joined.format(name=player.name, player_id=player.player_id))
    return mail.outcome("command", "CONFIRM", game, player, command="CONFIRM")


def _seated(
    mail: Inbound,
    game: GameRecord,
    players: list[PlayerRecord],
    made: PlayerRecord | None,
    name: str,
    code: str,
) -> PlayerRecord:
    """The player this CONFIRM makes (or made, on a retry: then holding ``code``'s hash)."""
    if made is not None:
        if not code_matches(code, made.code_hash):
            # The code claim was released after a failure and made again: the old code was
            # never sent (its welcome is completed only with the claim).
            made = made.model_copy(update={"code_hash": hash_code(code)})
            mail.store.update_player(made)
        return made
    standby = game.status != "open" or sum(p.role == "player" for p in players) >= game.setup.seats
    for _ in range(SEAT_ATTEMPTS):
        player = PlayerRecord(
            game_id=game.game_id,
            player_id=free_player_id(players, standby),
            name=name,
            address=mail.address or "",
            code_hash=hash_code(code),
            timezone=game.schedule.timezone,
            role="standby" if standby else "player",
            joined_by=mail.key,
        )
        if mail.store.add_player(player):
            return player
        # Another CONFIRM took the id between reading the players and writing: the next one.
        players = mail.store.players(game.game_id)
    raise RuntimeError(f"no free player id in game {game.game_id} after {SEAT_ATTEMPTS} tries")


def _welcome(mail: Inbound, game: GameRecord, player: PlayerRecord, code: str) -> None:
    # The welcome names the game's rules: loaded only now, as the game is (engine/games.py).
    from functions.host.seats import standby_welcome, welcome_mail

    if player.role == "standby":
        welcome = standby_welcome(game, player, code)
    else:
        welcome = welcome_mail(game, player, code, None, mail.now)
    mail.send(welcome.model_copy(update={"in_reply_to": mail.message_id}))


def free_player_id(players: Iterable[PlayerRecord], standby: bool = False) -> str:
    """The first free id of a seat (``P<n>``) or of a standby place (``S<n>``)."""
    prefix = STANDBY_PREFIX if standby else "P"
    taken = {p.player_id for p in players}
    return next(f"{prefix}{n}" for n in range(1, len(taken) + 2) if f"{prefix}{n}" not in taken)


def _names_game(mail: Inbound, word: str) -> bool:
    """Whether the first word after JOIN is the game's id rather than the start of the name:
    always when sent to the host address; to a game's address, when it is that game or another."""
    if not valid_game_id(word):
        return False
    return mail.recipient_game in (None, word) or mail.store.game(word) is not None


def _join_refusal(mail: Inbound, game: GameRecord | None, game_id: str | None, name: str) -> str | None:
    """Why the sender may not join ``game`` as ``name``, in their words (never echoing the
    name: the sender may not be who the From says), or None."""
    if game_id is None:
        return "JOIN needs the game's id and your name: JOIN <game id> <your name>."
    if game is None:
        return f"There is no game {game_id} here."
    if game.status not in ("open", *PLAYING):
        return f"Game {game_id} is not open for sign-up."
    if not name:
        return f"JOIN needs your name after the game's id: JOIN {game_id} <your name>."
    address = mail.address or ""
    why = name_problem(name) or _address_problem(address, mail.settings.mail_domain)
    if why is not None:
        return why
    players = mail.store.players(game.game_id)
    if any(p.address == address for p in players):
        return f"Your address has joined game {game_id} already."
    if any(p.name.lower() == name.lower() or p.player_id.lower() == name.lower() for p in players):
        return f"That name is taken in game {game_id}: choose another."
    if _places(mail, address) >= MAX_GAMES:
        return f"Your address plays in {MAX_GAMES} games already, the most one address may."
    seated = sum(p.role == "player" for p in players)
    standbys = sum(p.role == "standby" for p in players)
    if (game.status != "open" or seated >= game.setup.seats) and standbys >= MAX_STANDBYS:
        return f"Game {game_id} has every seat and its {MAX_STANDBYS} standby places taken."
    return None


def _address_problem(address: str, domain: str) -> str | None:
    """Why ``address`` may not join a game: not a plain address, one of ours, or a robot's."""
    local, _, at = address.rpartition("@")
    domain = domain.lower()
    if PLAIN_ADDRESS.fullmatch(address) is None or at == domain or at.endswith("." + domain):
        return "Only a plain personal mail address may join a game: write from your own mailbox."
    base = local.split("+", 1)[0]
    if base in ROBOTS or base.endswith(ROBOT_ENDINGS) or base.startswith(("bounce", "owner-")):
        return "A robot's address (no-reply, a list, a bounce address) may not join: write from your own."
    return None


def _places(mail: Inbound, address: str) -> int:
    """The seats and standby places ``address`` holds in games not over."""
    games = {p.game_id for p in mail.store.players_by_address(address) if p.role != "removed"}
    return sum(1 for g in games if (found := mail.store.game(g)) is not None and found.status != "over")


CONFIRM_ASK = (
    "Someone, we hope you, asked to join game {game_id} ({title}) with this address. To take "
    "your place, reply to this mail, or send a mail whose first line is the line below. If it "
    "was not you, do nothing: the request lapses in {days} days and nothing happens."
)
CONFIRM_NONE = (
    "There is no JOIN waiting for this token from your address: it was confirmed already, or "
    "asked more than {days} days ago, or from another address. Send JOIN <game> <your name> "
    "again from the address you will play from."
)

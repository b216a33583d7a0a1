"""Missed turns: the GM alerted when a player reaches the game's limit of turns missed in a row, and
the game's ``missed_action`` taken (the seat to a robot or the first standby); the player whose
seat that gives away told so by a mail of their own, once (every other missed turn is said on top
of the player's results mail: functions/host/missed_notice.py)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from functions.host.claimed import TURN_LEASE
from functions.host.hosts import HOSTS
from functions.host.notices import game_notice
from functions.host.ports import TurnStore
from functions.host.seats import SeatError, seat_player
from functions.host.sending import send_once
from functions.mail.compose import OutgoingMail
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
    PlayerRecord,
)

ROBOT_LEVEL = "cadet"
"""The robot a seat goes to after too many missed turns (``Schedule.missed_action`` "robot")."""


# --- Missed turns ---


def reached_limit(before: GameRecord, after: GameRecord) -> list[str]:
    """The players whose missed turns in a row went up to a multiple of the game's limit."""
    limit = after.schedule.missed_limit
    return [
        player
        for player, count in sorted(after.missed.items())
        if count > before.missed.get(player, 0) and count % limit == 0
    ]


def finish_alerts(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> int:
    """The missed-turn alerts of the latest version an earlier attempt did not finish."""
    limit = game.schedule.missed_limit
    if game.version == 0 or not any(count % limit == 0 for count in game.missed.values()):
        return 0
    before, _ = store.state(game.game_id, game.version - 1)
    return alert_missed(store, mailer, settings, before, game, players, now)


def alert_missed(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    before: GameRecord,
    after: GameRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> int:
    """For each player who reached the missed-turn limit with the step from ``before`` to
    ``after``: the game's ``missed_action`` taken, once, the player told what became of their
    seat (unless the action is only the alert), once, and the GM alerted by mail, once."""
    by_id = {p.player_id: p for p in players}
    alerts = 0
    for player_id in reached_limit(before, after):
        player = by_id.get(player_id)
        if player is None or player.robot is not None:
            continue
        done = take_missed_action(store, mailer, settings, after, player, players, now)
        if after.schedule.missed_action != "alert":
            told = f"missed-notice/{after.game_id}/{after.version}/{player_id}"
            notice = partial(player_mail, after, player, _seat_changed(store, player))
            reason_told = f"{player_id} told: {after.missed[player_id]} turns missed in a row"
            send_once(store, mailer, settings, told, notice, now, reason_told, after.committed_at)
        key = f"missed-alert/{after.game_id}/{after.version}/{player_id}"
        reason = f"GM alert: {player_id} missed {after.missed[player_id]} turns in a row"
        to = after.gm_address or settings.sender
        mail = partial(alert_mail, after, player, to, done)
        alerts += send_once(store, mailer, settings, key, mail, now, reason, after.committed_at)
    return alerts


def take_missed_action(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    player: PlayerRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> str:
    """Take the game's ``missed_action`` for ``player``'s seat, unless an earlier attempt did;
    what was done, for the GM."""
    action = game.schedule.missed_action
    if action == "alert":
        return ACTION_NONE
    key = f"missed-action/{game.game_id}/{game.version}/{player.player_id}"
    claim = store.claim(key, now, TURN_LEASE)
    if claim is None:
        return ACTION_EARLIER.format(action=action)
    if claim.attempt > 1 and _seat_changed(store, player):
        # Taken over from an attempt killed after it gave the seat away: never a second time
        # (a second standby must not replace the first).
        store.complete(key)
        return ACTION_EARLIER.format(action=action)
    try:
        if action == "robot":
            store.update_player(player.model_copy(update={"robot": ROBOT_LEVEL}))
            done = ACTION_ROBOT.format(level=ROBOT_LEVEL)
        else:
            done = seat_standby(store, mailer, settings, game, player, players, now)
    except Exception:
        store.release(key)
        raise
    store.complete(key)
    return done


def _seat_changed(store: TurnStore, player: PlayerRecord) -> bool:
    """Whether ``player``'s seat is now someone else's, or a robot's."""
    now_held = next((p for p in store.players(player.game_id) if p.player_id == player.player_id), None)
    return now_held is None or (now_held.address, now_held.robot) != (player.address, player.robot)


def seat_standby(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    player: PlayerRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> str:
    """The first standby (by player id) takes ``player``'s seat (functions/host/seats.py)."""
    standby = min((p for p in players if p.role == "standby"), key=lambda p: p.player_id, default=None)
    if standby is None:
        return ACTION_NO_STANDBY
    try:
        # The player leaving is told by the missed-turn rule's own mail (``player_mail``).
        seat_player(
            store, mailer, settings, game, player.player_id, standby.address, standby.name, now, goodbye=False
        )
    except SeatError as error:
        return ACTION_STANDBY_FAILED.format(name=standby.name, address=standby.address, why=error)
    return ACTION_STANDBY.format(name=standby.name, address=standby.address)


def alert_mail(game: GameRecord, player: PlayerRecord, to: str, done: str, _: datetime) -> OutgoingMail:
    """The GM's alert: the game, the player, their missed turns in a row, what was done, and
    the console commands that give the seat to someone else."""
    count = game.missed[player.player_id]
    title = f"{player.name} ({player.player_id}) missed {count} turns in a row in game {game.game_id}"
    paragraphs = [
        ALERT.format(
            name=player.name,
            player_id=player.player_id,
            address=player.address,
            count=count,
            game_id=game.game_id,
            title=game.title,
            limit=game.schedule.missed_limit,
        ),
        done,
        ALERT_COMMANDS,
    ]
    block = COMMANDS.format(game_id=game.game_id, player_id=player.player_id)
    return game_notice(game, to, title, paragraphs, block)


def player_mail(game: GameRecord, player: PlayerRecord, seat_gone: bool, _: datetime) -> OutgoingMail:
    """What the player who reached the limit is told: their turns missed, the limit, and whether
    their seat went to a robot or a standby (they get no results any more) or stays theirs (no
    standby could take it)."""
    count = game.missed[player.player_id]
    turns = "turn" if count == 1 else "turns"
    title = f"You missed {count} {turns} in a row in game {game.game_id}"
    action = game.schedule.missed_action
    fate = (PLAYER_ROBOT if action == "robot" else PLAYER_STANDBY) if seat_gone else PLAYER_KEPT
    host = HOSTS[game.game]
    paragraphs = [
        PLAYER_MISSED.format(
            count=count,
            turns=turns,
            game_id=game.game_id,
            title=game.title,
            limit=game.schedule.missed_limit,
            held=host.without_orders("turn", "past"),
            rounds=host.without_orders("round", "past"),
        ),
        fate,
    ]
    return game_notice(game, player.address, title, paragraphs, player_id=player.player_id)


PLAYER_MISSED = (
    "You sent no orders for {count} {turns} in a row in game {game_id} ({title}). Each was "
    "waived: no orders were used ({held}; {rounds}). The game's limit is {limit} in a row."
)
PLAYER_ROBOT = (
    "As the game's rules say, a computer player now plays your seat, and you get no more results. "
    "Write to the GM if you want to play it again."
)
PLAYER_STANDBY = (
    "As the game's rules say, a standby player now holds your seat, so mail from you is no longer "
    "read as orders for it. Thank you for playing; write to the GM if you think this is a mistake."
)
PLAYER_KEPT = (
    "The game's rules give your seat to a standby player at that point, but none could take it: "
    "the seat is still yours. Send your orders before the next deadline, or ABSENT if you are away."
)
ALERT = (
    "{name} ({player_id}, {address}) has sent no orders for {count} turns in a row in game "
    "{game_id} ({title}); the game's limit is {limit}. Their turns were waived."
)
ALERT_COMMANDS = "To give the seat to a standby, or to a robot, from the GM console:"
COMMANDS = (
    "warpmail player replace {game_id} {player_id} <standby-address>\n"
    "warpmail player robot {game_id} {player_id}"
)
ACTION_NONE = "Nothing was changed: the game's schedule asks only for this alert."
ACTION_ROBOT = "As the game's schedule asks, a robot ({level}) now plays the seat."
ACTION_NO_STANDBY = "The game's schedule gives the seat to a standby, but the game has none."
ACTION_STANDBY = "As the game's schedule asks, the standby {name} ({address}) now holds the seat."
ACTION_STANDBY_FAILED = "The standby {name} ({address}) could not take the seat: {why}."
ACTION_EARLIER = (
    "The game's schedule asks for the seat to go to a {action}: that was done when this turn was "
    "processed (`warpmail game show` tells who holds the seat now)."
)

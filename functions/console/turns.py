"""The GM's turn commands: run the workflow now, extend a deadline, show a turn's orders and
results, resend reports, roll back to an earlier turn, and replay a game to check its states.
(The turn service itself is functions/host/turns.py.)"""

from __future__ import annotations

import email
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime

from pydantic import BaseModel

from engine.core.mailgame import scope_turn
from engine.core.turnhost import TurnGame, Wanted
from engine.games import MAIL_GAMES
from functions import schedule
from functions.console.backend import Backend, WorkflowRun
from functions.console.errors import ConsoleError
from functions.console.games import host_of
from functions.console.lookup import change_game, human_seats, require_game, require_player
from functions.console.mail import NOT_SENT, SentMail, notify
from functions.host import due, sending
from functions.host.deadlines import deadline_text
from functions.mail.compose import MAIL_POLICY
from functions.mail.ses import MailNotSent
from functions.store import GameRecord, KeptResults, MailLogEntry, NewSubmission, PlayerRecord, Submission
from functions.store.keys import RESULTS_PREFIX
from functions.store.records import withheld

Progress = Callable[[int, int], None]
"""(done, total): called as long work goes on."""


# --- Run now, extend ---


class Run(BaseModel):
    game: GameRecord | None
    workflow: WorkflowRun


def run_now(backend: Backend, now: datetime, game_id: str | None = None, force: bool = False) -> Run:
    """Start the turn workflow now. With a game: a parked one is unparked first (the GM fixed
    what failed), and with ``force`` its deadlines are brought forward so that what it waits
    for is played now, missing orders waived."""
    game = None
    if game_id is not None:
        game = require_game(backend.store, game_id, "running")
        changes: dict[str, object] = {}
        if game.parked is not None:
            changes["parked"] = None
        if force:
            grace = timedelta(hours=game.schedule.grace_hours)
            changes["deadline"] = min(game.deadline or now, now - grace)
            changes["round_deadline"] = None if game.round_deadline is None else min(game.round_deadline, now)
        if changes:
            game = change_game(backend.store, game, now, **changes)
    workflow = backend.run_workflow(now)
    if game is not None:
        game = backend.store.game(game.game_id)
    return Run(game=game, workflow=workflow)


class Unparked(BaseModel):
    games: list[GameRecord]
    workflow: WorkflowRun


def unpark(backend: Backend, now: datetime, game_ids: Sequence[str], all_parked: bool) -> Unparked:
    """Release the parked games ``game_ids`` (with ``all_parked``: every parked game, or every
    one of ``game_ids`` that is parked), then start the turn workflow once for all of them: the
    GM fixed what failed (a bad deploy, a quota), and what each game owes is played and mailed."""
    if not game_ids and not all_parked:
        raise ConsoleError("name the games to unpark, or --all-parked: warpmail turn unpark --all-parked")
    if all_parked:
        named = set(game_ids)
        games = [
            g for g in backend.store.games() if g.parked is not None and (not named or g.game_id in named)
        ]
    else:
        games = [require_game(backend.store, game_id, "running") for game_id in game_ids]
        not_parked = [g.game_id for g in games if g.parked is None]
        if not_parked:
            raise ConsoleError(f"not parked: {', '.join(not_parked)} (warpmail game show <game> tells why)")
    released = [change_game(backend.store, game, now, parked=None, failures=0) for game in games]
    workflow = backend.run_workflow(now)
    return Unparked(games=[backend.store.game(g.game_id) or g for g in released], workflow=workflow)


class Extended(BaseModel):
    game: GameRecord
    mails: list[SentMail]


def extend(backend: Backend, game_id: str, hours: float, now: datetime) -> Extended:
    """The deadlines ``hours`` later; every player is told their new deadline."""
    game = require_game(backend.store, game_id, "running", "paused")
    try:
        later = schedule.extended(game, hours)
    except ValueError as error:
        raise ConsoleError(str(error)) from error
    changed = change_game(
        backend.store, game, now, deadline=later.deadline, round_deadline=later.round_deadline
    )
    mails = []
    for player in human_seats(backend.store.players(game.game_id)):
        deadline = deadline_text(changed.round_deadline or changed.deadline, player.timezone)
        paragraphs = [EXTENDED.format(game_id=game.game_id, hours=f"{hours:g}", deadline=deadline)]
        mails += notify(backend, changed, [player], "The deadline was extended", paragraphs, now)
    return Extended(game=changed, mails=mails)


# --- Show a turn ---


class OrdersShown(BaseModel):
    player_id: str
    scope: str
    version: int
    received_at: datetime
    lines: list[str]


class ResultsShown(BaseModel):
    player_id: str
    version: int
    key: str
    """The kept results mail (raw MIME) in the state bucket."""


class TurnView(BaseModel):
    game: GameRecord
    turn: int
    orders: list[OrdersShown]
    results: list[ResultsShown]


def show_turn(backend: Backend, game_id: str, turn: int | None = None) -> TurnView:
    """The latest orders of every player for turn ``turn`` (the current one when None), its
    combat rounds included, and the results mails kept for the versions of that turn."""
    game = require_game(backend.store, game_id)
    number = game.turn if turn is None else turn
    mailgame = MAIL_GAMES.get(game.game)
    found = backend.store.latest_submissions(game.game_id)
    orders = [
        OrdersShown(
            player_id=player_id,
            scope=scope,
            version=sub.version,
            received_at=sub.received_at,
            lines=mailgame.order_lines(scope, sub.orders_json) if mailgame is not None else [],
        )
        for (player_id, scope), sub in sorted(found.items(), key=lambda item: item[1].received_at)
        if scope_turn(scope) == number
    ]
    versions = {v.version for v in backend.store.versions(game.game_id) if v.turn == number}
    results = [r for r in kept_results(backend, game.game_id) if r.version in versions]
    return TurnView(game=game, turn=number, orders=orders, results=results)


def kept_results(backend: Backend, game_id: str) -> list[ResultsShown]:
    """Every results mail kept for the game, by version then player."""
    s3 = backend.store.s3
    shown = []
    prefix = f"{RESULTS_PREFIX}{game_id}/"
    for page in s3.get_paginator("list_objects_v2").paginate(
        Bucket=backend.settings.state_bucket, Prefix=prefix
    ):
        for entry in page.get("Contents", []):
            player_id, _, name = str(entry["Key"]).removeprefix(prefix).partition("/")
            version = name.removesuffix(".eml")
            if version.isdigit():
                shown.append(ResultsShown(player_id=player_id, version=int(version), key=entry["Key"]))
    return sorted(shown, key=lambda r: (r.version, r.player_id))


def results_text(backend: Backend, key: str) -> str:
    """The plain text of a kept results mail."""
    message = _kept_message(backend, key)
    body = message.get_body(preferencelist=("plain",))
    return "" if body is None else str(body.get_content()).replace("\r\n", "\n")


def _kept_message(backend: Backend, key: str) -> EmailMessage:
    raw = backend.store.s3.get_object(Bucket=backend.settings.state_bucket, Key=key)["Body"].read()
    message = email.message_from_bytes(raw, policy=MAIL_POLICY)
    assert isinstance(message, EmailMessage)  # the policy's message factory
    return message


# --- Resend, rollback ---


BOUNCING_SKIPPED = (
    "{name} ({player_id}) is bouncing ({mark}), so nothing was sent; once the player gives another "
    "address: warpmail player address {game_id} {player_id} <new-address>"
)


def bouncing_skipped(game: GameRecord, player: PlayerRecord, mark: str) -> str:
    """One line for the GM: whose address bounces (``mark``: why), and the command that fixes it."""
    return BOUNCING_SKIPPED.format(
        name=player.name, player_id=player.player_id, mark=mark, game_id=game.game_id
    )


def _send_again(
    backend: Backend, game: GameRecord, player: PlayerRecord, message: EmailMessage, now: datetime, key: str
) -> SentMail:
    """A kept results mail sent again to the player's address now (a new Message-ID and Date;
    its thread headers keep it in the game's thread), and logged under ``key``. Not to a
    bouncing address (functions/host/feedback.py): the error then names the player and the fix."""
    records = [player, *backend.store.players_by_address(player.address)]
    why = withheld(records, player.address)
    if why is not None:
        backend.store.log_mail(MailLogEntry.sent(message, game.game_id, now, why, key))
        mark = next(p.bouncing for p in records if p.bouncing)
        return SentMail(
            to=player.address, subject=str(message["Subject"]), error=bouncing_skipped(game, player, mark)
        )
    for name, value in (
        ("To", player.address),
        ("Date", format_datetime(now)),
        ("Message-ID", f"<resent.{uuid.uuid4().hex}@{backend.settings.mail_domain}>"),
    ):
        del message[name]
        message[name] = value
    sent = SentMail(to=player.address, subject=str(message["Subject"]))
    try:
        sent = sent.model_copy(update={"outbox_id": backend.mailer.send(message)})
    except MailNotSent as error:
        sent = sent.model_copy(update={"error": str(error)})
    reason = f"{NOT_SENT}{sent.error}" if sent.error else f"results sent again by the GM ({sent.outbox_id})"
    backend.store.log_mail(MailLogEntry.sent(message, game.game_id, now, reason, key))
    return sent


def resend(backend: Backend, game_id: str, now: datetime, player_id: str | None = None) -> list[SentMail]:
    """Every human player's latest results mail again (or only ``player_id``'s); a bouncing
    address is skipped, the error saying whose it is and how to fix it (``_send_again``)."""
    game = require_game(backend.store, game_id)
    players = human_seats(backend.store.players(game.game_id))
    if player_id is not None:
        players = [require_player(backend.store, game, player_id)]
    sent = []
    for player in players:
        kept = backend.store.latest_results(game.game_id, player.player_id)
        if kept is None:
            continue
        message = _kept_message(backend, kept[0].object_key)
        sent.append(_send_again(backend, game, player, message, now, f"resent/{uuid.uuid4().hex}"))
    return sent


class RolledBack(BaseModel):
    game: GameRecord
    to_version: int
    mails: list[SentMail]


def rollback(backend: Backend, game_id: str, turn: int, now: datetime, reason: str = "") -> RolledBack:
    """The game back at the version that opened turn ``turn``, as a new version with a fresh
    deadline; every player is told, and sent their report of that version again."""
    store = backend.store
    game = require_game(store, game_id, "running", "paused")
    opened = next((v for v in store.versions(game.game_id) if v.turn == turn and v.status == "running"), None)
    if opened is None or turn > game.turn:
        raise ConsoleError(
            f"game {game.game_id} has no turn {turn} to go back to (it is at turn {game.turn})"
        )
    target, state_json = store.state(game.game_id, opened.version)
    reopened = due.start(
        target.model_copy(update={"bulletin": game.bulletin, "committed_at": now}), state_json, now
    )
    # Set aside before the commit: the new version must never find them standing (the turn
    # workflow, or the due index the commit writes). A commit lost to a race leaves them set
    # aside for turns the GM is rolling back anyway, and says to run the command again.
    discard_orders(backend, game, turn, now)
    if not store.commit(reopened, state_json, expected_version=game.version):
        raise ConsoleError(f"game {game.game_id} changed meanwhile: run the command again")
    rolled = reopened.model_copy(update={"version": game.version + 1})
    mails = []
    kept = {(r.player_id, r.version): r.key for r in kept_results(backend, game.game_id)}
    for player in human_seats(store.players(game.game_id)):
        deadline = deadline_text(rolled.deadline, player.timezone)
        paragraphs = [ROLLED_BACK.format(game_id=game.game_id, turn=turn, deadline=deadline)]
        paragraphs += [f"The reason: {reason}"] if reason else []
        mails += notify(backend, rolled, [player], f"The game is back at turn {turn}", paragraphs, now)
        key = kept.get((player.player_id, opened.version))
        if key is not None:
            mails.append(_resend_kept(backend, rolled, player, key, now))
    return RolledBack(game=rolled, to_version=opened.version, mails=mails)


def discard_orders(backend: Backend, game: GameRecord, turn: int, now: datetime) -> list[Submission]:
    """Set aside every player's standing orders for turn ``turn`` and later (their combat rounds
    too): a ``discarded`` marker as each one's next version, so that the history keeps them and
    nothing applies them; the players send new ones, as the rollback mail asks."""
    standing = backend.store.latest_submissions(game.game_id)
    markers = [
        NewSubmission(
            game_id=game.game_id,
            player_id=player_id,
            scope=scope,
            received_at=now,
            message_id=f"rollback.{game.version + 1}",
            body="",
            orders_json="",
            discarded=True,
        )
        for (player_id, scope), _ in sorted(standing.items())
        if scope_turn(scope) >= turn
    ]
    return [backend.store.add_submission(marker) for marker in markers]


def _resend_kept(
    backend: Backend, game: GameRecord, player: PlayerRecord, key: str, now: datetime
) -> SentMail:
    """The kept report sent again as the player's latest results of ``game``'s version (so that
    REPORT sends it, and the turn service sees it sent)."""
    message = _kept_message(backend, key)
    sent = _send_again(
        backend, game, player, message, now, sending.sent_key(game, game.version, player.player_id)
    )
    kept = KeptResults(
        game_id=game.game_id, player_id=player.player_id, version=game.version, at=now, subject=sent.subject
    )
    backend.store.keep_results(kept, message.as_bytes())
    return sent


# --- Replay ---


class Mismatch(BaseModel):
    version: int
    why: str


class ReplayReport(BaseModel):
    """A replay: the steps played again and found equal, the versions skipped (metadata only, a
    rollback to an earlier state, or a seat renamed), and the versions not reproduced."""

    checked: int
    skipped: int
    mismatches: list[Mismatch]


def replay(backend: Backend, game_id: str, progress: Progress | None = None) -> ReplayReport:
    """Play the game again from its first running version with the stored orders, and check
    that every stored state is reproduced exactly (see ``_step_orders`` for which orders)."""
    store = backend.store
    game = require_game(store, game_id)
    host = host_of(game.game)
    versions = store.versions(game.game_id)
    checked = skipped = 0
    mismatches: list[Mismatch] = []
    previous: tuple[GameRecord, str] | None = None
    seen: set[str] = set()
    for done, record in enumerate(versions, start=1):
        if progress is not None:
            progress(done, len(versions))
        _, state_json = store.state(game.game_id, record.version)
        if not state_json:
            continue
        if previous is None or state_json == previous[1] or state_json in seen:
            skipped += previous is not None
        elif _renamed(game.game, previous[1], state_json):
            skipped += 1
        else:
            before, before_json = previous
            why = _replay_step(backend, host, before, before_json, record, state_json)
            if why is None:
                checked += 1
            else:
                mismatches.append(Mismatch(version=record.version, why=why))
        seen.add(state_json)
        previous = (record, state_json)
    return ReplayReport(checked=checked, skipped=skipped, mismatches=mismatches)


def _renamed(game: str, before_json: str, state_json: str) -> bool:
    """Whether ``state_json`` is ``before_json`` with seats renamed (a seat given to a newcomer)."""
    mailgame = MAIL_GAMES[game]
    names = mailgame.names(state_json)
    renamed = before_json
    for player, name in mailgame.names(before_json).items():
        if names.get(player, name) != name:
            renamed = mailgame.rename(renamed, player, names[player])
    return renamed != before_json and renamed == state_json


def _replay_step(
    backend: Backend, host: TurnGame, before: GameRecord, before_json: str, after: GameRecord, state_json: str
) -> str | None:
    """Why the step from ``before`` does not give ``after``'s state, or None when it does."""
    pending = host.pending(before_json, before.turn_mode, before.combat_mode)
    if pending is None:
        return f"version {before.version} is over, yet version {after.version} changed the state"
    orders = _step_orders(backend, before, pending.wants, after.committed_at)
    played = host.play(before_json, pending, orders)
    if played.state_json != state_json:
        return (
            f"the orders stored for {', '.join(sorted({w.scope for w in pending.wants}))} give another state"
        )
    return None


def _step_orders(
    backend: Backend, before: GameRecord, wants: tuple[Wanted, ...], committed_at: datetime | None
) -> dict[Wanted, str]:
    """Each awaited order as the step found it: the latest received by ``committed_at`` (a scope
    recurs after a rollback: later orders for it are the replayed turn's), none when that is a
    rollback's ``discarded`` marker."""
    orders = {}
    for wanted in wants:
        versions = backend.store.submissions(before.game_id, wanted.scope, wanted.player)
        usable = [s for s in versions if committed_at is None or s.received_at <= committed_at]
        if usable and not usable[-1].discarded:
            orders[wanted] = usable[-1].orders_json
    return orders


EXTENDED = "The GM extended the deadline of game {game_id} by {hours} hours: it is now {deadline}."
ROLLED_BACK = (
    "The GM took game {game_id} back to the start of turn {turn}: everything after it is undone. "
    "Your report of that turn follows. Send your orders for it again by the new deadline, {deadline}."
)

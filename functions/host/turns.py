"""The turn service: process one game, everything due at ``now``, and mail the results.

One *step* is what the game plays at once (a player-turn, or a round of every combat; see the
game's host, e.g. functions/host/warpwar_host.py). ``process_game`` loops: robots write their
orders for what the game waits for, the step is played if it is due (every awaited order in and
the game processes early, a combat round complete, or the deadline passed), the new state is
committed as the next version (conditional on the version read: of two concurrent runs exactly
one commits, the other stops and sends nothing), and every human player is mailed the step's
results, a copy of which is kept as their latest (``Store.keep_results``, for REPORT). It stops
when nothing more is due. Deadlines follow the game's schedule (functions/host/schedule.py): a
new player-turn's (cycle mode: game-turn's) deadline is ``deadline_after`` the moment it opens,
moved past the absences of the players it awaits when the game waits for them; a combat round's
is ``round_hours`` on. A paused game is not processed; ``resumed`` moves its deadlines on by the
time it was paused.

Before any step, the seated players whose player-turn orders are not in are reminded, when a
reminder time has come (``Store.note_reminders`` records it). A step that plays a player-turn
counts, for each player it awaited, the turns missed in a row (``GameRecord.missed``: no orders;
orders reset it, an absence leaves it); every ``Schedule.missed_limit`` of them the GM is
alerted by mail and the game's ``missed_action`` is taken: the seat goes to a robot (``cadet``)
or to the first standby.

Idempotency. Everything a step commits follows from the stored state, the stored orders and
``now`` (the workflow passes one ``now`` to a game's every attempt), so a retried run commits
exactly what the first would have. A run always begins by finishing the sending of the latest
version: the mails not logged as sent are rendered again from a replay of that version's step
(checked to give the very state committed), each claimed once (``Store.first_time``), sent, then
logged; a send that fails releases its claim (``Store.forget``) so the retry sends it. A version
the replay does not reproduce (a GM's change, a park) was not a step and is mailed nothing.
Reminders are claimed per game, deadline, reminder time and player; a missed-turn alert per
game, version and player, and the action it takes once more, separately, never released once
taken (a second standby must never replace the first).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from email.message import EmailMessage
from functools import partial
from typing import Literal, Protocol

from pydantic import BaseModel

from engine.core.mailgame import ScopedOrders
from functions.host import schedule
from functions.host.bulletin import with_bulletin
from functions.host.deadlines import deadline_attachments, deadline_text
from functions.host.inbound import render_notice
from functions.host.results import (
    GameHost,
    Pending,
    Played,
    Wanted,
    deadlines_for,
    results_mail,
)
from functions.host.warpwar_host import WarpWarHost
from functions.mail.compose import OutgoingMail, compose
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.keys import iso
from functions.store.records import (
    GameRecord,
    KeptResults,
    MailLogEntry,
    NewSubmission,
    PlayerRecord,
    Submission,
    awaited,
    split_awaited,
)

HOSTS: dict[str, GameHost] = {WarpWarHost.key: WarpWarHost()}
MAX_STEPS = 100
"""Steps in one run at most (robots playing each other would otherwise run on)."""
ROBOT_LEVEL = "cadet"
"""The robot a seat goes to after too many missed turns (``Schedule.missed_action`` "robot")."""


class TurnStore(Protocol):
    """The part of functions/store ``Store`` the turn service uses."""

    def game(self, game_id: str) -> GameRecord | None: ...
    def players(self, game_id: str) -> list[PlayerRecord]: ...
    def update_player(self, player: PlayerRecord) -> None: ...
    def state(self, game_id: str, version: int | None = None) -> tuple[GameRecord, str]: ...
    def commit(self, game: GameRecord, state_json: str, expected_version: int) -> bool: ...
    def update_game(self, game: GameRecord, expected_version: int) -> bool: ...
    def note_reminders(self, game: GameRecord, reminded_at: datetime) -> bool: ...
    def add_submission(self, new: NewSubmission) -> Submission: ...
    def latest_submissions(
        self, game_id: str, scope_prefix: str = ""
    ) -> dict[tuple[str, str], Submission]: ...
    def log_mail(self, entry: MailLogEntry, ttl_days: int = 400) -> None: ...
    def mail_log(self, game_id: str | None) -> list[MailLogEntry]: ...
    def first_time(self, message_id: str, ttl_days: int = 30, now: datetime | None = None) -> bool: ...
    def forget(self, message_id: str) -> None: ...
    def keep_results(self, kept: KeptResults, raw: bytes) -> bool: ...


Result = Literal["processed", "not_due", "not_running", "lost_race", "missing"]


class TurnSummary(BaseModel):
    """What one run did: ``result``, steps committed, the version it left, results mails sent
    (those of an earlier attempt's version finished here included), reminders and GM alerts."""

    game_id: str
    result: Result
    steps: int = 0
    version: int = 0
    mails: int = 0
    reminders: int = 0
    alerts: int = 0


def process_game(
    game_id: str,
    now: datetime,
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    max_steps: int = MAX_STEPS,
) -> TurnSummary:
    """Process everything due in game ``game_id`` at ``now`` (see the module doc)."""
    if store.game(game_id) is None:
        return TurnSummary(game_id=game_id, result="missing")
    game, state_json = load(store, game_id)
    players = store.players(game_id)
    host = HOSTS[game.game]
    if game.status != "running" or game.parked is not None:
        return TurnSummary(game_id=game_id, result="not_running", version=game.version)
    summary = TurnSummary(game_id=game_id, result="not_due")
    mails = finish_sending(store, mailer, settings, host, game, state_json, players, now)
    alerts = finish_alerts(store, mailer, settings, game, players, now)
    if alerts:
        game, state_json = load(store, game_id)
        players = store.players(game_id)
    game, reminders = send_reminders(store, mailer, settings, game, players, now)
    steps = 0
    while steps < max_steps:
        pending = host.pending(state_json, game.turn_mode, game.combat_mode)
        if pending is None:
            break
        submit_robot_orders(store, host, game, state_json, players, pending, now)
        orders = gather(store, game, pending)
        if not is_due(game, pending, orders, players, now):
            break
        played = host.play(state_json, pending, orders)
        after = host.pending(played.state_json, game.turn_mode, game.combat_mode)
        record = next_record(game, pending, after, played, now, orders, players)
        if not store.commit(record, played.state_json, expected_version=game.version):
            return summary.model_copy(
                update={"result": "lost_race", "steps": steps, "version": game.version, "mails": mails}
                | {"reminders": reminders, "alerts": alerts}
            )
        before, game = game, record.model_copy(update={"version": game.version + 1})
        state_json = played.state_json
        steps += 1
        mails += send_results(store, mailer, settings, game, players, played, now, bulletin_of=before)
        reached = alert_missed(store, mailer, settings, before, game, players, now)
        if reached:
            alerts += reached
            game, state_json = load(store, game_id)
            players = store.players(game_id)
    return summary.model_copy(
        update={"result": "processed" if steps else "not_due", "steps": steps, "version": game.version}
        | {"mails": mails, "reminders": reminders, "alerts": alerts}
    )


def load(store: TurnStore, game_id: str) -> tuple[GameRecord, str]:
    """The game's latest record and state. The record is the META item's when it is of the same
    version: reminders are noted there in place (``Store.note_reminders``), not in the state's."""
    game, state_json = store.state(game_id)
    meta = store.game(game_id)
    return (meta if meta is not None and meta.version == game.version else game), state_json


# --- Deciding what is due ---


def submit_robot_orders(
    store: TurnStore,
    host: GameHost,
    game: GameRecord,
    state_json: str,
    players: list[PlayerRecord],
    pending: Pending,
    now: datetime,
) -> None:
    """Computer players' orders for what the game waits for, stored as a player's are."""
    robots = {p.player_id: p.robot for p in players if p.robot is not None}
    scopes: dict[str, list[str]] = {}
    for wanted in pending.wants:
        if wanted.player in robots:
            scopes.setdefault(wanted.player, []).append(wanted.scope)
    for player, wanted_scopes in sorted(scopes.items()):
        stored = _latest(store, game, wanted_scopes)
        missing = [s for s in wanted_scopes if (player, s) not in stored]
        if not missing:
            continue
        level = robots[player] or ""
        for part, text in host.robot_orders(state_json, player, level, missing):
            store.add_submission(_robot_submission(game, player, part, text, now))


def _robot_submission(
    game: GameRecord, player: str, part: ScopedOrders, text: str, now: datetime
) -> NewSubmission:
    return NewSubmission(
        game_id=game.game_id,
        player_id=player,
        scope=part.scope,
        received_at=now,
        message_id=f"robot.{game.game_id}.{game.version}.{player}.{part.scope}",
        body=text,
        orders_json=part.orders_json,
    )


def _latest(store: TurnStore, game: GameRecord, scopes: list[str]) -> dict[tuple[str, str], Submission]:
    found: dict[tuple[str, str], Submission] = {}
    for scope in sorted(set(scopes)):
        found |= {k: s for k, s in store.latest_submissions(game.game_id, scope).items() if s.scope == scope}
    return found


def gather(store: TurnStore, game: GameRecord, pending: Pending) -> dict[Wanted, str]:
    """The latest orders in for each awaited (player, scope). Scopes never recur (a combat's
    names the turn it is fought in), so whatever is stored for one is for it."""
    latest = _latest(store, game, [w.scope for w in pending.wants])
    return {
        wanted: latest[(wanted.player, wanted.scope)].orders_json
        for wanted in pending.wants
        if (wanted.player, wanted.scope) in latest
    }


def is_due(
    game: GameRecord,
    pending: Pending,
    orders: Mapping[Wanted, str],
    players: list[PlayerRecord],
    now: datetime,
) -> bool:
    """Every awaited order in and its scopes run early (``schedule.runs_early``); else a combat
    round at its deadline, a player-turn at its deadline with every order in, or after the
    grace period without."""
    complete = all(w in orders for w in pending.wants)
    if complete and all(schedule.runs_early(game, w.scope, players) for w in pending.wants):
        return True
    due = game.round_deadline if pending.clock == "round" else schedule.processing_due(game, complete)
    return due is not None and due <= now


def next_record(
    game: GameRecord,
    before: Pending,
    after: Pending | None,
    played: Played,
    now: datetime,
    orders: Mapping[Wanted, str],
    players: list[PlayerRecord],
) -> GameRecord:
    """The game after a step: what it awaits, its deadlines, the turns missed in a row, and no
    bulletin (the step's results carry it). A new deadline period (a new player-turn, or
    game-turn in cycle mode) opens now, with its deadline from the schedule; every step that
    leaves combats to fight restarts the round clock, ``round_hours``."""
    changes: dict[str, object] = {
        "turn": played.turn,
        "missed": missed_turns(game, before, orders, players, now),
        "bulletin": "",
        "committed_at": now,
    }
    if after is None or played.over:
        return game.model_copy(
            update=changes | {"status": "over", "awaiting": (), "deadline": None, "round_deadline": None}
        )
    changes |= {
        "awaiting": tuple(awaited(w.scope, w.player) for w in after.wants),
        "round_deadline": now + game.round_period if after.clock == "round" else None,
    }
    if after.period != before.period or game.deadline is None:
        deadline = schedule.deadline_after(game.schedule, game.turn_hours, now)
        changes |= {"deadline": deadline, "opened_at": now, "reminded_at": None}
        return schedule.waiting_for_absences(game.model_copy(update=changes), players)
    return game.model_copy(update=changes)


def missed_turns(
    game: GameRecord,
    before: Pending,
    orders: Mapping[Wanted, str],
    players: list[PlayerRecord],
    now: datetime,
) -> dict[str, int]:
    """``GameRecord.missed`` after the step ``before``: a player-turn without a player's orders
    adds one to their count, with orders it is back to none; a player absent at the deadline
    (or now) is waived without counting. Combat rounds count nothing."""
    if before.clock != "turn":
        return game.missed
    counts = dict(game.missed)
    by_id = {p.player_id: p for p in players}
    for wanted in before.wants:
        player = by_id.get(wanted.player)
        if wanted in orders:
            counts.pop(wanted.player, None)
        elif player is None or not _absent(player, game, now):
            counts[wanted.player] = counts.get(wanted.player, 0) + 1
    return dict(sorted(counts.items()))


def _absent(player: PlayerRecord, game: GameRecord, now: datetime) -> bool:
    moments = [now] if game.deadline is None else [game.deadline, now]
    return any(schedule.absent_at(player, moment) is not None for moment in moments)


# --- Sending ---


def sent_key(game: GameRecord, version: int, player: str) -> str:
    return f"results/{game.game_id}/{version}/{player}"


def send_once(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    key: str,
    mail: Callable[[], OutgoingMail],
    now: datetime,
    reason: str,
    keep: Callable[[EmailMessage], object] | None = None,
) -> bool:
    """Send the mail ``mail`` makes unless ``key`` was claimed before (False then): claimed,
    composed, kept (``keep``), sent, logged with ``reason``; a failure releases the claim and
    is raised."""
    if not store.first_time(key, now=now):
        return False
    try:
        outgoing = mail()
        message = compose(outgoing, settings.sender, settings.mail_domain, now)
        if keep is not None:
            keep(message)
        outbox_id = mailer.send(message)
    except Exception:
        store.forget(key)
        raise
    store.log_mail(MailLogEntry.sent(message, outgoing.game_id, now, f"{reason} ({outbox_id})", key))
    return True


def send_results(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    players: list[PlayerRecord],
    played: Played,
    now: datetime,
    only: set[str] | None = None,
    bulletin_of: GameRecord | None = None,
) -> int:
    """Mail every seated human player (or those in ``only``) their results of the step that
    made ``game``'s version, the bulletin of ``bulletin_of`` (the record before the step) first;
    each mail is claimed once, kept as the player's latest, sent, and logged."""
    sent = 0
    for player in sorted(schedule.seated(players), key=lambda p: p.player_id):
        if player.robot is not None or (only is not None and player.player_id not in only):
            continue

        def mail(player: PlayerRecord = player) -> OutgoingMail:
            rendered = played.render(player.player_id, deadlines_for(game, player))
            if bulletin_of is not None:
                rendered = with_bulletin(bulletin_of, rendered)
            return results_mail(game, player, rendered)

        def keep(message: EmailMessage, player: PlayerRecord = player) -> bool:
            kept = KeptResults(
                game_id=game.game_id,
                player_id=player.player_id,
                version=game.version,
                at=now,
                subject=str(message["Subject"]),
            )
            return store.keep_results(kept, message.as_bytes())

        key = sent_key(game, game.version, player.player_id)
        reason = f"results of version {game.version}"
        sent += send_once(store, mailer, settings, key, mail, now, reason, keep)
    return sent


def finish_sending(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    host: GameHost,
    game: GameRecord,
    state_json: str,
    players: list[PlayerRecord],
    now: datetime,
) -> int:
    """Send what an earlier attempt committed but did not mail (see the module doc)."""
    logged = {e.key for e in store.mail_log(game.game_id) if e.direction == "out"}
    unsent = {
        p.player_id
        for p in schedule.seated(players)
        if p.robot is None and sent_key(game, game.version, p.player_id) not in logged
    }
    if not unsent:
        return 0
    replayed = replay(store, host, game, state_json)
    if replayed is None:
        return 0
    before, played = replayed
    return send_results(store, mailer, settings, game, players, played, now, only=unsent, bulletin_of=before)


def replay(
    store: TurnStore, host: GameHost, game: GameRecord, state_json: str
) -> tuple[GameRecord | None, Played] | None:
    """The step that made ``game``'s version, played again from the version before, with the
    record of that version; the game's opening when there is none or it had no state yet (a
    game made at its start); None when the replay does not give the state committed."""
    try:
        before, before_json = store.state(game.game_id, game.version - 1)
    except LookupError:
        return None, host.opening(state_json)
    if not before_json:
        return before, host.opening(state_json)
    pending = host.pending(before_json, before.turn_mode, before.combat_mode)
    if pending is None:
        return None
    played = host.play(before_json, pending, gather(store, before, pending))
    return (before, played) if played.state_json == state_json else None


# --- Reminders ---


def send_reminders(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    game: GameRecord,
    players: list[PlayerRecord],
    now: datetime,
) -> tuple[GameRecord, int]:
    """Remind the players whose player-turn orders are not in, if a reminder time has come and
    the turn is not played now anyway; the game with the reminders noted, and the mails sent."""
    handled = game.reminded_at
    due = [t for t in schedule.reminder_times(game) if t <= now and (handled is None or t > handled)]
    processing = schedule.processing_due(game)
    if not due or processing is None or processing <= now:
        return game, 0
    at = due[-1]
    sent = 0
    for player in reminded_players(store, game, players, now):
        key = f"reminder/{game.game_id}/{iso(processing)}/{iso(at)}/{player.player_id}"
        reason = f"reminder of the deadline {iso(processing)}"
        sent += send_once(
            store, mailer, settings, key, partial(reminder_mail, game, player, now), now, reason
        )
    store.note_reminders(game, at)
    return game.model_copy(update={"reminded_at": at}), sent


def reminded_players(
    store: TurnStore, game: GameRecord, players: list[PlayerRecord], now: datetime
) -> list[PlayerRecord]:
    """The seated human players, not absent now, with player-turn orders awaited and not in."""
    owed = [(s, p) for s, p in map(split_awaited, game.awaiting) if not s.startswith(schedule.COMBAT_PREFIX)]
    latest = _latest(store, game, [scope for scope, _ in owed])
    late = {player for scope, player in owed if (player, scope) not in latest}
    return [
        p
        for p in sorted(schedule.seated(players), key=lambda p: p.player_id)
        if p.player_id in late and p.robot is None and schedule.absent_at(p, now) is None
    ]


def reminder_mail(game: GameRecord, player: PlayerRecord, now: datetime) -> OutgoingMail:
    """A short reminder: the orders the game waits for, the deadline in the player's time zone
    (with the calendar file), what happens without them, and how to get the orders sheet."""
    deadline = deadline_text(game.deadline, player.timezone)
    processing = deadline_text(schedule.processing_due(game), player.timezone)
    title = f"Reminder: your orders for turn {game.turn} are due {deadline}"
    if game.deadline is not None and game.deadline <= now:
        when = REMINDER_LATE.format(deadline=deadline, processing=processing)
    elif processing != deadline:
        when = REMINDER_GRACE.format(deadline=deadline, processing=processing)
    else:
        when = REMINDER_DUE.format(deadline=deadline)
    paragraphs = [
        REMINDER.format(game_id=game.game_id, title=game.title, turn=game.turn),
        when,
        REMINDER_SHEET,
    ]
    text, html = render_notice(title, paragraphs)
    return OutgoingMail(
        to=player.address,
        subject=title,
        text=text,
        html=html,
        attachments=deadline_attachments(game, player),
        game_id=game.game_id,
        player_id=player.player_id,
        kind="notice",
    )


REMINDER = "Game {game_id} ({title}) is waiting for your orders for turn {turn}."
REMINDER_DUE = (
    "The deadline is {deadline} (your time zone; the attached calendar file has it). Without "
    "your orders by then your player-turn is waived: your ships hold, nothing is built, income "
    "still comes."
)
REMINDER_GRACE = (
    "The deadline is {deadline} (your time zone; the attached calendar file has it). The game "
    "waits for late orders until {processing}; after that your player-turn is waived: your ships "
    "hold, nothing is built, income still comes."
)
REMINDER_LATE = (
    "The deadline, {deadline}, has passed: the game waits for your orders until {processing}. "
    "After that your player-turn is waived: your ships hold, nothing is built, income still comes."
)
REMINDER_SHEET = (
    "Send REPORT to the game for your latest results and your orders sheet; an order block with "
    "no orders tells the game you have nothing to order. Going away? Send ABSENT with your CODE."
)


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
    ``after``: the game's ``missed_action`` taken, once, and the GM alerted by mail, once."""
    by_id = {p.player_id: p for p in players}
    alerts = 0
    for player_id in reached_limit(before, after):
        player = by_id.get(player_id)
        if player is None or player.robot is not None:
            continue
        done = take_missed_action(store, mailer, settings, after, player, players, now)
        key = f"missed-alert/{after.game_id}/{after.version}/{player_id}"
        reason = f"GM alert: {player_id} missed {after.missed[player_id]} turns in a row"
        to = after.gm_address or settings.sender
        alerts += send_once(
            store, mailer, settings, key, partial(alert_mail, after, player, to, done), now, reason
        )
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
    if not store.first_time(key, now=now):
        return ACTION_EARLIER.format(action=action)
    try:
        if action == "robot":
            store.update_player(player.model_copy(update={"robot": ROBOT_LEVEL}))
            return ACTION_ROBOT.format(level=ROBOT_LEVEL)
        return seat_standby(store, mailer, settings, game, player, players, now)
    except Exception:
        store.forget(key)
        raise


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
    # Imported here: the seats module uses this one's game hosts.
    from functions.host.seats import SeatError, seat_player

    standby = min((p for p in players if p.role == "standby"), key=lambda p: p.player_id, default=None)
    if standby is None:
        return ACTION_NO_STANDBY
    try:
        seat_player(store, mailer, settings, game, player.player_id, standby.address, standby.name, now)
    except SeatError as error:
        return ACTION_STANDBY_FAILED.format(name=standby.name, address=standby.address, why=error)
    return ACTION_STANDBY.format(name=standby.name, address=standby.address)


def alert_mail(game: GameRecord, player: PlayerRecord, to: str, done: str) -> OutgoingMail:
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
    text, html = render_notice(title, paragraphs, block)
    return OutgoingMail(to=to, subject=title, text=text, html=html, game_id=game.game_id, kind="notice")


ALERT = (
    "{name} ({player_id}, {address}) has sent no orders for {count} player-turns in a row in game "
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


# --- Starting and pausing ---


def start(game: GameRecord, state_json: str, now: datetime) -> GameRecord:
    """A game record ready to run from ``state_json``: what it awaits, the period opened now and
    its deadline from the schedule (for whoever creates or starts a game)."""
    host = HOSTS[game.game]
    first = host.pending(state_json, game.turn_mode, game.combat_mode)
    return game.model_copy(
        update={
            "status": "running",
            "turn": host.opening(state_json).turn,
            "awaiting": tuple(awaited(w.scope, w.player) for w in first.wants) if first else (),
            "deadline": schedule.deadline_after(game.schedule, game.turn_hours, now),
            "round_deadline": None,
            "opened_at": now,
            "reminded_at": None,
            "missed": {},
        }
    )


def resumed(game: GameRecord, now: datetime) -> GameRecord:
    """A paused game running again: its deadlines, and the reminders handled, moved on by the
    time it was paused (since ``paused_at``; the pausing change's ``committed_at`` when unset)."""
    since = game.paused_at or game.committed_at or now
    shift = max(now - since, timedelta(0))

    def moved(moment: datetime | None) -> datetime | None:
        return None if moment is None else moment + shift

    return game.model_copy(
        update={
            "status": "running",
            "pause_reason": "",
            "paused_at": None,
            "deadline": moved(game.deadline),
            "round_deadline": moved(game.round_deadline),
            "reminded_at": moved(game.reminded_at),
        }
    )

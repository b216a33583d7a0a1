"""Sending results: each mail claimed (with a lease, functions/host/claimed.py), composed, kept,
sent, logged and completed; the mails of a step an earlier attempt committed but did not send
(or was killed sending) are sent by replaying it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage

from functions import schedule
from functions.host.bulletin import with_bulletin
from functions.host.claimed import TURN_LEASE, send_claimed
from functions.host.due import gather
from functions.host.ports import TurnStore
from functions.host.results import (
    GameHost,
    Played,
    deadlines_for,
    results_mail,
)
from functions.mail.compose import GAME_HEADER, OutgoingMail, compose
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
    KeptResults,
    MailLogEntry,
    PlayerRecord,
)

MAX_LOOK_BACK = 20
"""Versions of metadata only (parks, pauses, the GM's changes) looked through for the step
whose results may be owed."""

# --- Sending ---


def sent_key(game: GameRecord, version: int, player: str) -> str:
    return f"results/{game.game_id}/{version}/{player}"


def send_once(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    key: str,
    mail: Callable[[datetime], OutgoingMail],
    now: datetime,
    reason: str,
    at: datetime | None = None,
    keep: Callable[[EmailMessage], object] | None = None,
) -> bool:
    """Send the mail ``mail`` makes (given its time) under the claim ``key`` unless it is done or
    held by a live attempt (False then): claimed (an attempt killed past its lease is taken
    over), composed at ``at`` (the moment the mail belongs to; else the claim's first time),
    kept (``keep``), sent, logged with ``reason``, completed (functions/host/claimed.py); a
    failure releases the claim and is raised."""

    def make(when: datetime) -> EmailMessage:
        message = compose(mail(when), settings.sender, settings.mail_domain, when, key=key)
        if keep is not None:
            keep(message)
        return message

    def log(message: EmailMessage, when: datetime, sent_id: str) -> None:
        game_id = message.get(GAME_HEADER)
        entry = MailLogEntry.sent(message, game_id and str(game_id), when, f"{reason} ({sent_id})", key)
        store.log_mail(entry)

    return send_claimed(store, mailer, key, make, now, TURN_LEASE, log, at) is not None


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
    each mail is claimed once, kept as the player's latest, sent, and logged. It is dated when
    the step was committed, whichever attempt sends it."""
    sent_at = game.committed_at or now
    sent = 0
    for player in sorted(schedule.seated(players), key=lambda p: p.player_id):
        if player.robot is not None or (only is not None and player.player_id not in only):
            continue

        def mail(_: datetime, player: PlayerRecord = player) -> OutgoingMail:
            rendered = played.render(player.player_id, deadlines_for(game, player))
            if bulletin_of is not None:
                rendered = with_bulletin(bulletin_of, rendered)
            return results_mail(game, player, rendered)

        def keep(message: EmailMessage, player: PlayerRecord = player) -> bool:
            kept = KeptResults(
                game_id=game.game_id,
                player_id=player.player_id,
                version=game.version,
                at=sent_at,
                subject=str(message["Subject"]),
            )
            return store.keep_results(kept, message.as_bytes())

        key = sent_key(game, game.version, player.player_id)
        reason = f"results of version {game.version}"
        sent += send_once(store, mailer, settings, key, mail, now, reason, sent_at, keep)
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
    """Send what an earlier attempt committed but did not mail: the results of the latest step
    whose claims are not done (absent, or in progress past their lease: a killed attempt's).
    Versions that changed only the game's metadata (a park, an unpark, a pause, the GM's
    changes) are looked through to the step before them, so an unparked game sends what the
    park held back."""
    if not _unsent(store, game, players):
        return 0
    step = latest_step(store, game, state_json)
    if step is None:
        return 0
    record, record_json, before = step
    unsent = _unsent(store, record, players)
    if not unsent:
        return 0
    replayed = replay(store, host, record, record_json, before)
    if replayed is None:
        return 0
    bulletin_of, played = replayed
    return send_results(
        store, mailer, settings, record, players, played, now, only=unsent, bulletin_of=bulletin_of
    )


def _unsent(store: TurnStore, game: GameRecord, players: list[PlayerRecord]) -> set[str]:
    """The seated human players whose results of ``game``'s version are not done."""
    keys = {
        sent_key(game, game.version, p.player_id): p.player_id
        for p in schedule.seated(players)
        if p.robot is None
    }
    done = store.done(list(keys)) if keys else set()
    return {player for key, player in keys.items() if key not in done}


Stored = tuple[GameRecord, str]


def latest_step(
    store: TurnStore, game: GameRecord, state_json: str, limit: int = MAX_LOOK_BACK
) -> tuple[GameRecord, str, Stored | None] | None:
    """The latest version at or before ``game``'s that changed the state (a step, a start, a
    rollback), with its state and the version before it (None for the first version); None
    past ``limit`` versions of metadata only."""
    record, record_json = game, state_json
    for _ in range(limit):
        try:
            before = store.state(game.game_id, record.version - 1)
        except LookupError:
            return record, record_json, None
        if before[1] != record_json:
            return record, record_json, before
        record, record_json = before
    return None


def replay(
    store: TurnStore, host: GameHost, game: GameRecord, state_json: str, before: Stored | None
) -> tuple[GameRecord | None, Played] | None:
    """The step that made ``game``'s version, played again from ``before`` (the version before,
    with its record); the game's opening when there is none or it had no state yet (a game made
    at its start); None when the replay does not give the state committed."""
    if before is None:
        return None, host.opening(state_json)
    record, before_json = before
    if not before_json:
        return record, host.opening(state_json)
    pending = host.pending(before_json, record.turn_mode, record.combat_mode)
    if pending is None:
        return None
    played = host.play(before_json, pending, gather(store, record, pending))
    return (record, played) if played.state_json == state_json else None

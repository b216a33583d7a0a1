"""Sending results: each mail claimed once, composed, kept, sent and logged; the mails of a step an
earlier attempt committed but did not send are sent by replaying it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage

from functions import schedule
from functions.host.bulletin import with_bulletin
from functions.host.due import gather
from functions.host.ports import TurnStore
from functions.host.results import (
    GameHost,
    Played,
    deadlines_for,
    results_mail,
)
from functions.mail.compose import OutgoingMail, compose
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
    KeptResults,
    MailLogEntry,
    PlayerRecord,
)

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

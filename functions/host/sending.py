"""Sending results: each mail claimed once, composed, kept, sent and logged; the mails of a step an
earlier attempt committed but did not send are sent by replaying it.

A step mails only the players it tells (``Played.tells``): one that fought only combat rounds a
player is not in mails them nothing, in blind and open games alike (an open game shows every
combat to everyone, but a mail per round asks nothing of a player who is not fighting: they read
the whole player-turn at its end, in one mail, as they read a player-turn without combats). The
steps a player was not told are replayed from the stored versions (``Untold``) and joined with
the step that tells them (``GameHost.joined``), so that mail carries everything they saw since
their last, the bulletins of those steps too."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from email.message import EmailMessage

from functions import schedule
from functions.host.bulletin import with_bulletin
from functions.host.due import gather
from functions.host.hosts import HOSTS
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
    """Mail every seated human player (or those in ``only``) the step tells (``Played.tells``)
    their results of the step that made ``game``'s version, joined with the steps before it they
    were not told; the bulletin of ``bulletin_of`` (the record before the step) first, after
    those of the records before the steps joined. Each mail is claimed once, kept as the
    player's latest, sent, and logged."""
    sent = 0
    untold = Untold(store, game)
    for player in sorted(schedule.seated(players), key=lambda p: p.player_id):
        if player.robot is not None or (only is not None and player.player_id not in only):
            continue
        if not played.tells(player.player_id):
            continue

        def mail(player: PlayerRecord = player) -> OutgoingMail:
            earlier = untold.before(player.player_id)
            steps = [step for _, step in earlier] + [played]
            joined = HOSTS[game.game].joined(steps) if earlier else played
            rendered = joined.render(player.player_id, deadlines_for(game, player))
            # Newest first: each bulletin goes above the ones added before it.
            for record in (bulletin_of, *(before for before, _ in reversed(earlier))):
                if record is not None:
                    rendered = with_bulletin(record, rendered)
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
    played = play_again(store, host, before, before_json, state_json)
    return None if played is None else (before, played)


def play_again(
    store: TurnStore, host: GameHost, before: GameRecord, before_json: str, state_json: str
) -> Played | None:
    """The step from ``before`` (its state ``before_json``) played again with the orders stored;
    None unless it gives ``state_json``."""
    pending = host.pending(before_json, before.turn_mode, before.combat_mode)
    if pending is None:
        return None
    played = host.play(before_json, pending, gather(store, before, pending))
    return played if played.state_json == state_json else None


MAX_UNTOLD = 200
"""Steps replayed back at most for one mail: more than the rounds of any combat by mail."""


class Untold:
    """The steps before ``game``'s version, replayed from the stored versions newest first, only
    as far back as a player needs them (most often none)."""

    def __init__(self, store: TurnStore, game: GameRecord) -> None:
        self.store, self.game = store, game
        self.steps: list[tuple[GameRecord, Played]] = []
        """Newest first: each step played again, with the record before it."""
        self.cursor: tuple[int, str] | None = None
        """The version the next step back made, and its state (None: not read yet)."""
        self.ended = False

    def before(self, player: str) -> list[tuple[GameRecord, Played]]:
        """Oldest first: the steps since the last one that told ``player`` (``Played.tells``)."""
        count = 0
        while (count < len(self.steps) or self._one_more()) and not self.steps[count][1].tells(player):
            count += 1
        return self.steps[:count][::-1]

    def _one_more(self) -> bool:
        """Replay one more step back; False when there is none: the game's first version, a
        version the replay does not reproduce (a GM's change), or ``MAX_UNTOLD`` reached."""
        if self.ended or len(self.steps) >= MAX_UNTOLD or self.game.version < 1:
            return False
        if self.cursor is None:
            self.cursor = (
                self.game.version - 1,
                self.store.state(self.game.game_id, self.game.version - 1)[1],
            )
        found = self._step_to(*self.cursor)
        if found is None:
            self.ended = True
            return False
        before, version, before_json, played = found
        self.steps.append((before, played))
        self.cursor = (version, before_json)
        return True

    def _step_to(self, version: int, state_json: str) -> tuple[GameRecord, int, str, Played] | None:
        """The step that made the state of ``version``: the record it was played from, that
        version and its state, and the step played again. Versions that changed only the game's
        record (a pause, the GM's bulletin) are passed over."""
        for earlier in range(version - 1, -1, -1):
            try:
                before, before_json = self.store.state(self.game.game_id, earlier)
            except LookupError:
                return None
            if before_json != state_json:
                break
        else:
            return None
        if not before_json:
            return None
        played = play_again(self.store, HOSTS[self.game.game], before, before_json, state_json)
        return None if played is None else (before, earlier, before_json, played)

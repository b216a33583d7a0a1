"""Sending results: each mail claimed (with a lease, functions/host/claimed.py), composed, kept,
sent, logged and completed; the mails of a step an earlier attempt committed but did not send
(or was killed sending) are sent by replaying it.

A step mails only the players it tells (``Played.tells``; WarpWar's rule: engine/warpwar/host.py ``_told``):
one that fought only combat rounds a player is not in mails them nothing, in blind and open
games alike (an open game shows every combat to everyone, but a mail per round asks nothing of a
player who is not fighting); a player-turn mails the player who played it and the one whose
player-turn begins, not the others (they have nothing to do until their own), so a game of N
renders about 2N reports a game-turn, not N². The steps a player was not told are replayed from
the stored versions (``Untold``) and joined with the step that tells them
(``TurnGame.joined``), so that mail carries everything they saw since their last, the bulletins
of those steps too.

A run mails each player once (issue 14, item 5): by the newest of its steps that tells them,
the run's earlier steps joined in. Which steps are joined follows from the stored versions
alone (a step committed at the same moment as the one mailed, in the same run, whose own mail to
the player is not done), so a retry renders the very same mail: an attempt killed after a
commit mails that step on its own first (finish_sending), and the steps its retry plays next
are mailed without it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.utils import parseaddr
from itertools import chain

from engine.core.turnhost import Played, TurnGame
from functions import schedule
from functions.host.bulletin import with_bulletin
from functions.host.claimed import TURN_LEASE, send_claimed
from functions.host.history import Final, play_again
from functions.host.hosts import HOSTS
from functions.host.missed_notice import missed_words, with_missed
from functions.host.ports import TurnStore
from functions.host.results import deadlines_for, results_mail
from functions.mail.compose import GAME_HEADER, OutgoingMail, compose
from functions.mail.ses import Mailer
from functions.render.results import render_results
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
    KeptResults,
    MailLogEntry,
    PlayerRecord,
    withheld,
)

# --- Sending ---


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
    failure releases the claim and is raised. A mail to a bouncing address is composed and
    kept (REPORT sends it once the address is fixed) but not sent: its claim is completed and
    the log says why, so no retry sends it (False)."""
    held = _Withholding(mailer, store)

    def make(when: datetime) -> EmailMessage:
        message = compose(mail(when), settings.sender, settings.mail_domain, when, key=key)
        if keep is not None:
            keep(message)
        return message

    def log(message: EmailMessage, when: datetime, sent_id: str) -> None:
        game_id = message.get(GAME_HEADER)
        logged = held.why or f"{reason} ({sent_id})"
        store.log_mail(MailLogEntry.sent(message, game_id and str(game_id), when, logged, key))

    return send_claimed(store, held, key, make, now, TURN_LEASE, log, at) is not None and not held.why


@dataclass
class _Withholding:
    """A mailer that sends nothing to a bouncing address (``why`` then says so)."""

    mailer: Mailer
    store: TurnStore
    why: str | None = None

    def send(self, message: EmailMessage) -> str:
        to = parseaddr(str(message["To"]))[1]
        self.why = withheld(self.store.players_by_address(to), to)
        return "" if self.why else self.mailer.send(message)


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
    """Mail the results of a run: its latest step (``played``, from the record ``bulletin_of``)
    made ``game``'s version. Every seated human player (or those in ``only``) is mailed once, by
    the newest step of the run that tells them, the run's earlier steps and those they were not
    told joined in (``Untold``): a player-turn and the robots' turns played at once after it are
    one mail, headed with the turn whose sheet it holds."""
    left = {
        p.player_id
        for p in schedule.seated(players)
        if p.robot is None and (only is None or p.player_id in only)
    }
    untold = Untold(store, game)
    latest = UntoldStep(made=game, before=bulletin_of, played=played)
    sent = 0
    for step in chain((latest,), untold.same_run()):
        if not left:
            break
        told = {player for player in left if step.played.tells(player)}
        if told:
            earlier = untold if step is latest else Untold(store, step.made)
            sent += _send_step(store, mailer, settings, step, players, now, told, earlier)
        left -= told
    return sent


def _send_step(
    store: TurnStore,
    mailer: Mailer,
    settings: Settings,
    step: UntoldStep,
    players: list[PlayerRecord],
    now: datetime,
    only: set[str],
    untold: Untold,
) -> int:
    """Mail the players in ``only`` their results of ``step``, joined with the steps before it
    they were not told (``untold``), under a notice of each turn they missed; the bulletin of the
    record it was played from first, after those of the records before the steps joined.
    Each mail is claimed once, kept as the player's latest, sent, and logged. It is dated when
    the step was committed, whichever attempt sends it."""
    game, played = step.made, step.played
    sent_at = game.committed_at or now
    sent = 0
    final = Final(store, game) if played.over else None
    for player in sorted(schedule.seated(players), key=lambda p: p.player_id):
        if player.robot is not None or player.player_id not in only:
            continue

        def mail(_: datetime, player: PlayerRecord = player) -> OutgoingMail:
            earlier = untold.before(player.player_id)
            steps = [*earlier, step]
            joined = HOSTS[game.game].joined([s.played for s in steps]) if earlier else played
            results = joined.results(player.player_id, deadlines_for(game, player))
            rendered = render_results(game.game, results)
            if final is not None:
                rendered = final.with_replay(rendered, player.player_id)
            rendered = with_missed(
                rendered, [missed_words(s.before, s.made, player.player_id) for s in steps]
            )
            # Newest first: each bulletin goes above the ones added before it; the GM's come first.
            for record in reversed([s.before for s in steps]):
                if record is not None:
                    rendered = with_bulletin(record, rendered)
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
    host: TurnGame,
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
    return send_results(store, mailer, settings, record, players, played, now, unsent, bulletin_of)


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
    store: TurnStore, host: TurnGame, game: GameRecord, state_json: str, before: Stored | None
) -> tuple[GameRecord | None, Played] | None:
    """The step that made ``game``'s version, played again from ``before`` (the version before,
    with its record); the game's opening when there is none or it had no state yet (a game made
    at its start); None when the replay does not give the state committed."""
    if before is None:
        return None, host.opening(state_json)
    record, before_json = before
    if not before_json:
        return record, host.opening(state_json)
    played = play_again(store, host, record, before_json, state_json)
    return None if played is None else (record, played)


MAX_UNTOLD = 200
"""Steps replayed back at most for one mail: more than the rounds of any combat by mail."""


@dataclass(frozen=True)
class UntoldStep:
    """A step: the record of the version it ``made``, the record it was played from
    (``before``; None: the game's opening), and the step as ``played``."""

    made: GameRecord
    before: GameRecord | None
    played: Played


class Untold:
    """The steps before ``game``'s version, replayed from the stored versions newest first, only
    as far back as a player needs them (most often none)."""

    def __init__(self, store: TurnStore, game: GameRecord) -> None:
        self.store, self.game = store, game
        self.steps: list[UntoldStep] = []
        """Newest first: each step played again."""
        self.cursor: tuple[GameRecord, str] | None = None
        """The record of the version the next step back made, and its state (None: not read yet)."""
        self.ended = False

    def before(self, player: str) -> list[UntoldStep]:
        """Oldest first: the steps since the last one that told ``player`` (``Played.tells``)
        and was mailed to them on its own. A step of the same run as ``game``'s (committed at the
        same moment) whose results were not mailed to them is joined in: the run mails each
        player once (``send_results``)."""
        count = 0
        while (count < len(self.steps) or self._one_more()) and self._untold(self.steps[count], player):
            count += 1
        return self.steps[:count][::-1]

    def same_run(self) -> Iterator[UntoldStep]:
        """Newest first: the steps before ``game``'s committed at the same moment (in one run)."""
        count = 0
        while (count < len(self.steps) or self._one_more()) and self._same_run(self.steps[count]):
            yield self.steps[count]
            count += 1

    def _untold(self, step: UntoldStep, player: str) -> bool:
        if not step.played.tells(player):
            return True
        key = sent_key(step.made, step.made.version, player)
        # A claim done: mailed on its own (by a retry that sent it before playing on).
        return self._same_run(step) and not self.store.done([key])

    def _same_run(self, step: UntoldStep) -> bool:
        return self.game.committed_at is not None and step.made.committed_at == self.game.committed_at

    def _one_more(self) -> bool:
        """Replay one more step back; False when there is none: the game's first version, a
        version the replay does not reproduce (a GM's change), or ``MAX_UNTOLD`` reached."""
        if self.ended or len(self.steps) >= MAX_UNTOLD or self.game.version < 1:
            return False
        if self.cursor is None:
            self.cursor = self.store.state(self.game.game_id, self.game.version - 1)
        found = self._step_to(*self.cursor)
        if found is None:
            self.ended = True
            return False
        step, before_json = found
        self.steps.append(step)
        assert step.before is not None  # a step replayed has the record it was played from
        self.cursor = (step.before, before_json)
        return True

    def _step_to(self, made: GameRecord, state_json: str) -> tuple[UntoldStep, str] | None:
        """The step that made the state of ``made``'s version, and the state it was played from.
        Versions that changed only the game's record (a pause, the GM's bulletin) are passed
        over: ``made`` becomes the step's own version's record."""
        for earlier in range(made.version - 1, -1, -1):
            try:
                before, before_json = self.store.state(self.game.game_id, earlier)
            except LookupError:
                return None
            if before_json != state_json:
                break
            made = before
        else:
            return None
        if not before_json:
            return None
        played = play_again(self.store, HOSTS[self.game.game], before, before_json, state_json)
        return None if played is None else (UntoldStep(made=made, before=before, played=played), before_json)

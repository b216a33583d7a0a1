"""The turn service: process one game, everything due at ``now``, and mail the results.

One *step* is what the game plays at once (a player-turn, or a round of every combat; see the
game, e.g. engine/warpwar/host.py). ``process_game`` loops: robots write their
orders for what the game waits for, the step is played if it is due (every awaited order in and
the game processes early, a combat round complete, or the deadline passed), the new state is
committed as the next version (conditional on the version read: of two concurrent runs exactly
one commits, the other stops and sends nothing more). It stops when nothing more is due; then
every human player is mailed once, by the newest step of the run that tells them
(``Played.tells``: a step that fought only combat rounds a player is not in tells them nothing;
functions/host/sending.py ``send_results``), joined with the run's earlier steps and the steps they
were not told: a player-turn, then the robots' turns played at once after it, or combat rounds
fought from standing orders, are one mail, headed with the turn whose sheet it holds. A copy is
kept as their latest (``Store.keep_results``, for REPORT). A player-turn a player missed is
said on top of that mail (functions/host/missed_notice.py). Deadlines follow the game's schedule
(functions/schedule.py): a new player-turn's (cycle mode: game-turn's) deadline is
``deadline_after`` the moment it opens, moved past the absences of the players it awaits when
the game waits for them; a combat round's is ``round_hours`` on. A paused game is not
processed; ``resumed`` moves its deadlines on by the time it was paused.

Before any step, the seated players whose player-turn orders are not in are reminded, when a
reminder time has come (``Store.note_reminders`` records it). A step that plays a player-turn
counts, for each player it awaited, the turns missed in a row (``GameRecord.missed``: no orders;
orders reset it, an absence leaves it); every ``Schedule.missed_limit`` of them the GM is
alerted by mail and the game's ``missed_action`` is taken: the seat goes to a robot (``cadet``)
or to the first standby.

Idempotency. Everything a step commits follows from the stored state, the stored orders and
``now`` (the workflow passes one ``now`` to a game's every attempt), so a retried run commits
exactly what the first would have. A run always begins by finishing the sending of the latest
step and of the steps of its run (versions of metadata only, a park or an unpark, looked
through): the mails whose claims are not done (``Store.done``) are rendered again from a replay
of those steps (checked to give the
very state committed), each claimed with a lease (functions/host/claimed.py: an attempt killed
mid-send is taken over once its lease runs out), sent dated at the step's commit with a
Message-ID from its claim (the same bytes whichever attempt sends it), logged, completed; a send
that fails releases its claim so the retry sends it. A version the replay does not reproduce (a
GM's rollback) was not a step and is mailed nothing. Reminders are claimed per game, deadline,
reminder time and player; a missed-turn alert per game, version and player, and the action it
takes once more, separately, never taken twice (an attempt taking it over from a killed one
leaves a seat that changed hands alone: a second standby must never replace the first)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from engine.core.turnhost import Played
from functions.host.due import gather, is_due, next_record, submit_robot_orders
from functions.host.hosts import HOSTS
from functions.host.missed import alert_missed, finish_alerts
from functions.host.ports import TurnStore
from functions.host.reminders import send_reminders
from functions.host.sending import finish_sending, send_results
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import (
    GameRecord,
)

MAX_STEPS = 100
"""Steps in one run at most (robots playing each other would otherwise run on)."""


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
    latest: tuple[GameRecord, GameRecord, Played] | None = None
    """The run's latest step: the record it was played from, the one it made, and the step."""
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
        latest = (before, game, played)
        reached = alert_missed(store, mailer, settings, before, game, players, now)
        if reached:
            alerts += reached
            game, state_json = load(store, game_id)
            players = store.players(game_id)
    if latest is not None:
        # Mailed once the run has played all it could: steps played at once are one mail.
        before, made, played = latest
        mails += send_results(store, mailer, settings, made, players, played, now, bulletin_of=before)
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

"""Exactly once although a Lambda may be killed at any point (issue 13): the fault matrix of the
inbound path and of the turn path (tests/functions/faults.py). For every kill point, a retry
past the leases ends with every mail of an uninterrupted run delivered, byte for byte (same
Message-IDs, dates, bodies), none missing and none extra, and the same stored state."""

from __future__ import annotations

import contextlib
import importlib
import re
from datetime import timedelta
from typing import Any

import pytest

from functions.host import inbound, turns
from functions.mail.codes import code_matches
from functions.resources import Settings
from functions.store import GameSetup, PendingJoin, Schedule, Store
from tests.functions import test_inbound as mails
from tests.functions import test_turns as turn_game
from tests.functions.faults import (
    INBOUND_RETRY,
    TURN_RETRY,
    Faults,
    Killed,
    Mailbox,
    Scenario,
    matrix,
    processing,
    receiving,
    table,
)

GAME = "g1"
JOIN_CODE = "JOIN-CODE-01"
JOIN_TOKEN = "K7QM-9XDA"
NOW = mails.NOW
# The module, not the command function the package exports under the same name.
join = importlib.import_module("functions.host.commands.join")


def with_id(raw: bytes, message_id: str) -> bytes:
    """``raw`` with ``message_id`` for its Message-ID."""
    return re.sub(rb"Message-ID: <[^>]*>", b"Message-ID: " + message_id.encode(), raw, count=1)


def described() -> Any:
    from tests.functions.conftest import deployment

    return deployment()


def as_intake(settings: Settings) -> Settings:
    """``settings`` trusting the local intake: the mails here carry no SES verdicts."""
    return settings.model_copy(update={"trust_intake": True})


# --- The inbound path ---


def _hosted(status: str = "running", seats: int = 2) -> Any:
    def prepare(store: Store) -> None:
        game = mails.game_record(status).model_copy(update={"setup": GameSetup(seats=seats)})
        store.create_game(game, mails.players(), mails.STATE_JSON)

    return prepare


def _inbound_state(key: str) -> Any:
    def state(store: Store) -> object:
        subs = sorted(
            (s.player_id, s.scope, s.version, s.received_at, s.message_id)
            for s in store.latest_submissions(GAME).values()
        )
        players = sorted((p.player_id, p.address, p.role, p.joined_by) for p in store.players(GAME))
        entries = [e for log in (GAME, None) for e in store.mail_log(log) if e.direction != "out"]
        return subs, players, sorted((e.direction, e.reason, e.at, e.key) for e in entries if e.key == key)

    return state


def orders_scenario() -> Scenario:
    settings = as_intake(described().settings())
    raw = with_id(mails.raw_mail(mails.orders(), to=f"g1@{settings.mail_domain}"), "<o1@example.org>")
    return Scenario(
        name="inbound orders",
        prepare=_hosted(),
        attempt=receiving(raw, "inbound/orders", settings),
        at=NOW,
        later=INBOUND_RETRY,
        state=_inbound_state("inbound/orders"),
    )


def join_scenario() -> Scenario:
    """A JOIN: the pending JOIN stored and its confirmation mailed, once."""
    settings = as_intake(described().settings())
    raw = with_id(
        mails.raw_mail("JOIN g1 Newbie\n", sender="new@example.org", to=f"host@{settings.mail_domain}"),
        "<join@example.org>",
    )

    def state(store: Store) -> object:
        token = store.claimed("in/inbound/join/token")
        return _inbound_state("inbound/join")(store), (token.state, token.data) if token else None

    return Scenario(
        name="inbound JOIN (asks for a CONFIRM)",
        prepare=_hosted("open", 3),
        attempt=receiving(raw, "inbound/join", settings),
        at=NOW,
        later=INBOUND_RETRY,
        state=state,
    )


def _pending(seats: int) -> Any:
    def prepare(store: Store) -> None:
        _hosted("open", seats)(store)
        asked = PendingJoin(
            game_id=GAME,
            address="new@example.org",
            name="Newbie",
            asked_at=NOW,
            expires_at=NOW + timedelta(days=2),
        )
        store.add_pending_join(JOIN_TOKEN, asked)

    return prepare


def confirm_mail(settings: Settings, message_id: str) -> bytes:
    return with_id(
        mails.raw_mail(
            f"CONFIRM {JOIN_TOKEN}\n", sender="new@example.org", to=f"host@{settings.mail_domain}"
        ),
        message_id,
    )


def confirm_scenario(seats: int) -> Scenario:
    """A CONFIRM: the newcomer seated (or a standby) and welcomed with the code, once."""
    settings = as_intake(described().settings())
    raw = confirm_mail(settings, f"<confirm{seats}@example.org>")
    return Scenario(
        name=f"inbound CONFIRM ({'seat' if seats > 2 else 'standby'})",
        prepare=_pending(seats),
        attempt=receiving(raw, "inbound/confirm", settings),
        at=NOW,
        later=INBOUND_RETRY,
        state=_inbound_state("inbound/confirm"),
    )


# --- The turn path ---


def _turn_state(store: Store) -> object:
    game = store.game(GAME)
    assert game is not None
    kept = [store.latest_results(GAME, p) for p in ("P1", "P2")]
    return game.version, game.turn, game.awaiting, [k[0].version if k else None for k in kept]


def _committed(store: Store) -> bool:
    game = store.game(GAME)
    return game is not None and game.version > 0


def step_scenario() -> Scenario:
    """A two-player game, the opening sent, P1's orders in: the step, its results to both."""
    settings = as_intake(described().settings())
    start = turn_game.START

    def prepare(store: Store) -> None:
        turn_game.new_game(store, robot_seat=False)
        processing(GAME, settings)(store, Mailbox(), start)
        turn_game.mail_orders(store, "P1", start + timedelta(minutes=30))

    return Scenario(
        name="turn: step and results",
        prepare=prepare,
        attempt=processing(GAME, settings),
        at=start + timedelta(hours=1),
        later=TURN_RETRY,
        state=_turn_state,
        committed=_committed,
    )


def reminders_scenario() -> Scenario:
    """Both players of a cycle-mode game reminded 2 hours before the deadline."""
    settings = as_intake(described().settings())
    start = turn_game.START

    def prepare(store: Store) -> None:
        schedule = Schedule(reminders=(2,))
        turn_game.new_game(store, robot_seat=False, turn_mode="cycle", schedule=schedule)
        processing(GAME, settings)(store, Mailbox(), start)

    return Scenario(
        name="turn: reminders",
        prepare=prepare,
        attempt=processing(GAME, settings),
        at=start + timedelta(hours=22, minutes=30),
        later=TURN_RETRY,
        state=_turn_state,
        committed=_committed,
    )


SCENARIOS = {
    "orders": orders_scenario,
    "join": join_scenario,
    "confirm-standby": lambda: confirm_scenario(2),
    "confirm-seat": lambda: confirm_scenario(3),
    "step": step_scenario,
    "reminders": reminders_scenario,
}


@pytest.fixture
def fixed_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """JOIN's random token and CONFIRM's random code fixed, so that runs compare byte for byte."""
    monkeypatch.setattr(join, "new_code", lambda: JOIN_CODE)
    monkeypatch.setattr(join, "_token", lambda: JOIN_TOKEN)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_kill_point_ends_with_each_mail_once_and_the_same_bytes_and_state(
    name: str, aws_clients: dict[str, Any], fixed_code: None
) -> None:
    rows = matrix(SCENARIOS[name](), described(), aws_clients["dynamodb"], aws_clients["s3"])
    print(f"\n{name}\n{table(rows)}")
    assert len(rows) >= 4, "the scenario's run makes calls to kill after"
    assert [r for r in rows if not r.ok] == []


# --- What the matrix rests on ---


def test_a_kill_is_no_exception_and_leaves_the_mail_claimed_until_its_lease(store: Store) -> None:
    _hosted()(store)
    settings = as_intake(store.settings)
    raw = mails.raw_mail(mails.orders(), to=f"g1@{settings.mail_domain}")
    faults = Faults(kill_after=2)
    with pytest.raises(Killed):
        inbound.receive(raw, "inbound/k", NOW, faults.proxy(store, "store"), Mailbox(), settings)
    busy = inbound.receive(raw, "inbound/k", NOW + timedelta(seconds=5), store, Mailbox(), settings)
    assert busy.status == "duplicate" and " is being handled (claimed until " in busy.reason
    mailbox = Mailbox()
    retried = inbound.receive(raw, "inbound/k", NOW + INBOUND_RETRY, store, mailbox, settings)
    assert retried.status == "accepted"
    [(_, sub)] = store.latest_submissions(GAME).items()
    assert sub.received_at == NOW, "handled as of its first attempt"
    assert len(mailbox.raw) == 1


def test_a_replay_with_a_new_message_id_but_the_same_dkim_body_is_a_duplicate(store: Store) -> None:
    _hosted()(store)
    settings = as_intake(store.settings)
    dkim = "v=1; a=rsa-sha256; d=Example.org; s=s1; bh=AbC123+/=; b=xyz"
    first = mails.raw_mail(mails.orders(), to=f"g1@{settings.mail_domain}", DKIM_Signature=dkim)
    replay = first.replace(b"Message-ID: <", b"Message-ID: <replayed.")
    mailbox = Mailbox()
    assert inbound.receive(first, "inbound/1", NOW, store, mailbox, settings).status == "accepted"
    again = inbound.receive(replay, "inbound/2", NOW, store, mailbox, settings)
    assert again.status == "duplicate"
    assert again.reason == inbound.REPLAYED.format(identity="dkim:example.org:AbC123+/=", key="inbound/1")
    assert len(mailbox.raw) == 1, "a replay is not answered"
    assert len(store.submissions(GAME, "turn:1", "P1")) == 1


def test_a_mail_with_two_message_ids_is_a_duplicate_if_either_was_seen(store: Store) -> None:
    _hosted()(store)
    settings = as_intake(store.settings)
    first = mails.raw_mail(mails.orders(), to=f"g1@{settings.mail_domain}")
    second = first.replace(b"Message-ID: <", b"Message-ID: <other@example.org>\nMessage-ID: <", 1)
    mailbox = Mailbox()
    assert inbound.receive(first, "inbound/1", NOW, store, mailbox, settings).status == "accepted"
    assert inbound.receive(second, "inbound/2", NOW, store, mailbox, settings).status == "duplicate"
    assert len(mailbox.raw) == 1


def test_another_mail_reusing_a_message_id_is_logged_and_its_registered_sender_told(store: Store) -> None:
    _hosted()(store)
    settings = as_intake(store.settings)
    same = "<same@example.org>"
    first = with_id(mails.raw_mail(mails.orders(), to=f"g1@{settings.mail_domain}"), same)
    other_orders = mails.orders("BUILD WARPSHIP AT 0606 PD=2 B=1")
    other = with_id(mails.raw_mail(other_orders, to=f"g1@{settings.mail_domain}"), same)
    stranger = with_id(mails.raw_mail("Hello", sender="who@example.com"), same)
    mailbox = Mailbox()
    inbound.receive(first, "inbound/1", NOW, store, mailbox, settings)
    outcome = inbound.receive(other, "inbound/2", NOW, store, mailbox, settings)
    assert (outcome.status, outcome.reason) == (
        "duplicate",
        inbound.REUSED.format(identity="<same@example.org>", key="inbound/1"),
    )
    assert len(mailbox.raw) == 2 and b"To: red@example.org" in mailbox.raw[1]
    assert b"carried the Message-ID" in mailbox.raw[1].replace(b"=\r\n", b"")
    assert inbound.receive(stranger, "inbound/3", NOW, store, mailbox, settings).status == "duplicate"
    assert len(mailbox.raw) == 2, "a stranger is not answered"
    assert len(store.submissions(GAME, "turn:1", "P1")) == 1
    rejected = [e.key for e in store.mail_log(GAME) + store.mail_log(None) if e.direction == "rejected"]
    assert sorted(rejected) == ["inbound/2", "inbound/3"]


def test_orders_without_turn_written_before_the_turn_opened_are_refused(store: Store) -> None:
    opened = NOW - timedelta(hours=1)
    game = mails.game_record().model_copy(update={"opened_at": opened})
    store.create_game(game, mails.players(), mails.STATE_JSON)
    settings = as_intake(store.settings)
    body = mails.orders().replace("TURN 1\n", "")
    old = mails.raw_mail(body, to=f"g1@{settings.mail_domain}", Date="Fri, 07 Mar 2025 10:00:00 +0000")
    future = mails.raw_mail(body, to=f"g1@{settings.mail_domain}", Date="Fri, 07 Mar 2030 10:00:00 +0000")
    with_turn = mails.raw_mail(
        mails.orders(), to=f"g1@{settings.mail_domain}", Date="Fri, 07 Mar 2025 10:00:00 +0000"
    )
    mailbox = Mailbox()
    refused = inbound.receive(old, "inbound/old", NOW, store, mailbox, settings)
    assert (refused.status, refused.reason) == ("rejected", "orders without TURN written before turn 1 began")
    assert b"TURN 1" in mailbox.raw[0]
    assert inbound.receive(future, "inbound/future", NOW, store, mailbox, settings).status == "accepted"
    assert inbound.receive(with_turn, "inbound/turn", NOW, store, mailbox, settings).status == "accepted"


def test_a_retried_join_makes_one_player_with_the_code_its_welcome_gave(
    store: Store, fixed_code: None
) -> None:
    _pending(3)(store)
    settings = as_intake(store.settings)
    raw = confirm_mail(settings, "<confirm@example.org>")
    for kill_after in range(1, 12):
        faults = Faults(kill_after=kill_after)
        with contextlib.suppress(Killed):
            inbound.receive(raw, "inbound/j", NOW, faults.proxy(store, "store"), Mailbox(), settings)
    mailbox = Mailbox()
    inbound.receive(raw, "inbound/j", NOW + timedelta(hours=1), store, mailbox, settings)
    [newbie] = [p for p in store.players(GAME) if p.address == "new@example.org"]
    assert newbie.code_hash and code_matches(JOIN_CODE, newbie.code_hash)
    claim = store.claimed("in/inbound/j/code")
    assert claim is not None and (claim.state, claim.data) == ("done", {}), "the clear code is gone"


def test_an_unparked_game_sends_the_results_its_park_held_back(store: Store) -> None:
    settings = as_intake(store.settings)
    start = turn_game.START
    turn_game.new_game(store, robot_seat=False)
    turns.process_game(GAME, start, store, Mailbox(), settings)
    turn_game.mail_orders(store, "P1", start + timedelta(minutes=30))
    with pytest.raises(Killed):
        turns.process_game(GAME, start + timedelta(hours=1), store, _KillOnSend(), settings)
    game = store.game(GAME)
    assert game is not None and game.version == 1, "committed, then killed sending"
    parked = game.model_copy(update={"parked": "killed twice"})
    assert store.update_game(parked, 1)
    assert turns.process_game(GAME, start + timedelta(hours=2), store, Mailbox(), settings).mails == 0
    assert store.update_game(parked.model_copy(update={"parked": None, "version": 2}), 2)
    mailbox = Mailbox()
    summary = turns.process_game(GAME, start + timedelta(hours=3), store, mailbox, settings)
    assert summary.mails == 2
    assert sorted(m.split(b"\r\nTo: ")[1].split(b"\r\n")[0] for m in mailbox.raw) == [
        b"one@example.org",
        b"two@example.org",
    ]
    assert all(b"Date: Sat, 01 Mar 2025 13:00:00 +0000" in m for m in mailbox.raw), "dated at the commit"


class _KillOnSend:
    def send(self, message: Any) -> str:
        raise Killed("killed while sending")

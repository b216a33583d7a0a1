"""The fault matrix (issue 13, "Exactly once"): a Lambda killed after each call it makes to the
store or the mailer, then retried later (past every lease), against an uninterrupted run.

A kill is ``Killed``, a ``BaseException``: like a timeout or running out of memory, nothing
after it runs and no ``except Exception`` sees it. ``Faults`` wraps the store and the mailer and
counts their calls; the kill comes right after call N (that call took effect), so N = 1, 2, ...
covers every step: after the claim, after each store write, after each mail sent, before the
last log entry. ``matrix`` runs a scenario for every N until a run makes fewer than N calls,
and says for each kill point what came of it. benchmarks/fault_matrix.py prints it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Any

from moto import mock_aws

from functions.host import inbound, turns
from functions.host.claimed import INBOUND_LEASE, TURN_LEASE
from functions.resources import Resources, Settings
from functions.store import Store, provision


class Killed(BaseException):
    """The Lambda was killed (timeout, out of memory)."""


@dataclass
class Faults:
    """Counts the calls made through its proxies; raises ``Killed`` right after call ``kill_after``."""

    kill_after: int | None = None
    calls: list[str] = field(default_factory=list)

    def proxy(self, target: Any, label: str) -> Any:
        return _Proxy(target, self, label)

    def step(self, name: str) -> None:
        self.calls.append(name)
        if self.kill_after is not None and len(self.calls) == self.kill_after:
            raise Killed(f"killed after call {len(self.calls)}: {name}")


class _Proxy:
    def __init__(self, target: Any, faults: Faults, label: str) -> None:
        self._target, self._faults, self._label = target, faults, label

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if name.startswith("_") or not callable(value):
            return value

        def call(*args: Any, **kwargs: Any) -> Any:
            result = value(*args, **kwargs)
            self._faults.step(f"{self._label}.{name}")
            return result

        return call


class Mailbox:
    """A mailer whose every send is kept (``raw``, repeats too), as SES would deliver them."""

    def __init__(self) -> None:
        self.raw: list[bytes] = []

    def send(self, message: EmailMessage) -> str:
        self.raw.append(message.as_bytes())
        return f"m{len(self.raw)}"

    def by_id(self) -> dict[str, bytes]:
        """Message-ID -> the bytes sent under it (a mail client shows one message per id)."""
        found: dict[str, bytes] = {}
        for raw in self.raw:
            found.setdefault(_message_id(raw), raw)
        return found


def _message_id(raw: bytes) -> str:
    for line in raw.split(b"\r\n"):
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode()
    raise ValueError("a mail without a Message-ID")


Run = Callable[[Store, Any, datetime], object]
"""One attempt: the service run against the store and mailer given, at a time."""


@dataclass(frozen=True)
class Scenario:
    """``prepare`` sets up the store; ``attempt`` is what may be killed; ``later`` is how long
    after its first attempt the retry comes (past every lease); ``state`` reads what must come
    out the same whatever the kill."""

    name: str
    prepare: Callable[[Store], None]
    attempt: Run
    at: datetime
    later: timedelta
    state: Callable[[Store], object]
    committed: Callable[[Store], bool] = lambda store: True
    """Whether the killed attempt made the step durable (a commit): the retry then finishes it;
    if not, the retry is a first run of its own, compared with an uninterrupted run at its time."""


@dataclass(frozen=True)
class Row:
    kill_after: int
    call: str
    outcome: str
    ok: bool


@contextmanager
def fresh_store(described: Resources, dynamodb: Any, s3: Any) -> Iterator[Store]:
    with mock_aws():
        provision(described, dynamodb, s3)
        yield Store(described.settings(), dynamodb, s3)


def matrix(scenario: Scenario, described: Resources, dynamodb: Any, s3: Any) -> list[Row]:
    """Every kill point of ``scenario`` and what came of it (see the module doc)."""
    expected: dict[bool, tuple[dict[str, bytes], object]] = {}

    def uninterrupted(committed: bool) -> tuple[dict[str, bytes], object]:
        if committed not in expected:
            with fresh_store(described, dynamodb, s3) as store:
                scenario.prepare(store)
                mailbox = Mailbox()
                if committed:
                    scenario.attempt(store, mailbox, scenario.at)
                scenario.attempt(store, mailbox, scenario.at + scenario.later)
                expected[committed] = (mailbox.by_id(), scenario.state(store))
        return expected[committed]

    rows: list[Row] = []
    kill_after = 1
    while True:
        faults = Faults(kill_after)
        with fresh_store(described, dynamodb, s3) as store:
            scenario.prepare(store)
            mailbox = Mailbox()
            try:
                scenario.attempt(faults.proxy(store, "store"), faults.proxy(mailbox, "mail"), scenario.at)
            except Killed:
                pass
            else:
                return rows
            committed = scenario.committed(store)
            scenario.attempt(store, mailbox, scenario.at + scenario.later)
            got = scenario.state(store)
        mails, state = uninterrupted(committed)
        rows.append(_row(kill_after, faults.calls[-1], mailbox, mails, state, got))
        kill_after += 1


def _row(
    kill_after: int, call: str, mailbox: Mailbox, mails: dict[str, bytes], state: object, got: object
) -> Row:
    problems = []
    delivered = mailbox.by_id()
    if set(delivered) != set(mails):
        problems.append(f"mails {sorted(set(delivered) ^ set(mails))} differ from an uninterrupted run")
    elif any(delivered[i] != mails[i] for i in mails):
        problems.append("a mail's bytes differ from an uninterrupted run")
    if got != state:
        problems.append(f"end state differs: {got!r} != {state!r}")
    resent = len(mailbox.raw) - len(delivered)
    outcome = "; ".join(problems) or ("same mails" + (f", {resent} sent again, same bytes" if resent else ""))
    return Row(kill_after=kill_after, call=call, outcome=outcome, ok=not problems)


def table(rows: list[Row]) -> str:
    """The matrix as text: kill point, the call it came after, outcome."""
    lines = [f"{'kill after':>10}  {'call':<28} outcome"]
    lines += [f"{r.kill_after:>10}  {r.call:<28} {r.outcome}" for r in rows]
    return "\n".join(lines)


# --- Scenarios ---


def receiving(raw: bytes, key: str, settings: Settings) -> Run:
    """An inbound mail handled (the retry: the same raw mail and key, later)."""

    def attempt(store: Store, mailer: Any, now: datetime) -> object:
        return inbound.receive(raw, key, now, store, mailer, settings)

    return attempt


def processing(game_id: str, settings: Settings) -> Run:
    def attempt(store: Store, mailer: Any, now: datetime) -> object:
        return turns.process_game(game_id, now, store, mailer, settings)

    return attempt


INBOUND_RETRY = INBOUND_LEASE + timedelta(minutes=1)
TURN_RETRY = TURN_LEASE + timedelta(minutes=1)

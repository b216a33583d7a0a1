"""The local host: the whole pipeline on this machine, in one object.

Folders under ``root``: ``inbox/`` (drop ``.eml`` files; delivered ones move to ``inbox/done/``),
``outbox/`` (every mail the host sent, as ``.eml``, ``.html`` and ``.txt``) and ``state/`` (the
snapshot of the table and buckets that makes a restart keep the games).

Deliveries, ticks and saves take one lock, so mail arriving by SMTP, by the drop folder and the
schedule's executions never interleave in moto.

Several processes share a folder, one operation at a time: ``root/host.lock`` is an exclusive
``flock`` (the holder's process id written in it; the lock goes with the process, so a crash
leaves none behind). By default a host holds it from start to stop, as a GM console command
does: the command is its one operation. A host started with ``share`` (``warpmail local serve``
and ``play``) takes it for each operation only: each mail delivered, each workflow run, and
whatever runs under :meth:`LocalHost.operation`. Before the operation it reloads the snapshot when
another process has saved since (its fingerprint changed), and it saves after, so neither loses
the other's writes. Waiting for the lock is bounded (``lock_wait``): then :class:`HostBusyError`,
one line naming the holder.
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any

from functions.local import persist
from functions.local.aws import ACCOUNT_ID, LocalAws
from functions.local.clock import SCHEDULE_INPUT, Clock, ExecutionResult, Ticker
from functions.local.intake import DropFolder, SmtpIntake, TryLaterError, store_raw_mail
from functions.local.outbox import OutboxEntry, SesCapture, outbox_listing
from functions.resources import Resources, resources

LOCK_FILE = "host.lock"
LOCK_WAIT = 60.0
"""Seconds an operation waits for another process's operation to end (a GM command, a workflow
run over many games) before giving up."""
_POLL = 0.05


class HostBusyError(TryLaterError):
    """Another process held the local host's folder for longer than the wait."""


class FolderLock:
    """The exclusive hold of a local host's folder (see the module doc)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: Any = None

    def acquire(self, wait: float = 0.0) -> None:
        """Take it, waiting up to ``wait`` seconds for another process to let it go."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        file = self.path.open("a+", encoding="utf-8")
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    file.seek(0)
                    holder = file.read().strip() or "?"
                    file.close()
                    raise HostBusyError(
                        f"the local host in {self.path.parent} is in use by process {holder} and was "
                        f"not free within {wait:g} s (a long workflow run?): try again in a moment"
                    ) from None
                time.sleep(_POLL)
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()}\n")
        file.flush()
        self._file = file

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


class LocalHost:
    """Start with :meth:`start` (or ``with LocalHost(root) as host:``), stop with :meth:`stop`.

    ``smtp_port``: serve SMTP on 127.0.0.1 at that port; ``watch_seconds``: scan ``inbox/`` that
    often; ``tick_seconds``: run the workflow that often. Each is off when None; :meth:`deliver`,
    :meth:`scan_inbox` and :meth:`tick` do the same on demand. ``on_demand``: make the functions,
    the inbound notification and the state machine at the first delivery or tick, not at start:
    they cost seconds that a process only reading and writing the games (a GM console command)
    need not pay. ``share``: hold the folder's lock per operation, not from start to stop (the
    module doc); then write to the games only through :meth:`deliver`, :meth:`tick` and inside
    :meth:`operation`, as what is written outside is neither saved nor safe from a reload.
    ``lock_wait``: seconds to wait for the lock (default :data:`LOCK_WAIT`).
    """

    def __init__(
        self,
        root: Path,
        resources_: Resources | None = None,
        smtp_port: int | None = None,
        watch_seconds: float | None = None,
        tick_seconds: float | None = None,
        on_demand: bool = False,
        share: bool = False,
        lock_wait: float | None = None,
    ) -> None:
        self.root = root
        # The intake plays SES but checks nothing: the host trusts it (functions/local/intake.py).
        self.resources = (resources_ or resources("local")).model_copy(update={"trust_intake": True})
        self.inbox = root / "inbox"
        self.outbox_folder = root / "outbox"
        self.state_folder = root / "state"
        self.aws = LocalAws(self.resources)
        self.smtp_port = smtp_port
        self.watch_seconds = watch_seconds
        self.tick_seconds = tick_seconds
        self.on_demand = on_demand
        self.share = share
        self.lock_wait = LOCK_WAIT if lock_wait is None else lock_wait
        self.restored = persist.Snapshot()
        self.folder_lock = FolderLock(root / LOCK_FILE)
        self._lock = threading.RLock()
        self._fingerprint: str | None = None
        """Of the snapshot this process's games match (None: unknown, reload before using them)."""
        self._depth = 0
        self._capture: SesCapture | None = None
        self._clock: Clock | None = None
        self._drop = DropFolder(self.inbox, self._deliver_raw)
        self._smtp: SmtpIntake | None = None
        self._ticker: Ticker | None = None

    def __enter__(self) -> LocalHost:
        self.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._capture is not None

    def start(self) -> None:
        """Raises HostBusyError when another process holds ``root`` for longer than the wait."""
        self.folder_lock.acquire(self.lock_wait)
        try:
            self._start()
        except BaseException:
            # What did start (moto, the capture) stops again: nothing is left half running.
            self.stop(save=False)
            self.folder_lock.release()
            raise
        if self.share:
            self.folder_lock.release()

    def _start(self) -> None:
        self.outbox_folder.mkdir(parents=True, exist_ok=True)
        self.aws.start(restore=self._restore)
        self._capture = SesCapture(self.outbox_folder, ACCOUNT_ID, self.resources.region)
        if not self.on_demand or self.tick_seconds is not None:
            self._wire()
        if self.smtp_port is not None:
            smtp = SmtpIntake(self._deliver_raw, self.resources.mail_domain, self.smtp_port)
            smtp.start()
            self._smtp = smtp
        if self.watch_seconds is not None:
            self._drop.start(self.watch_seconds)
        if self.tick_seconds is not None and self._clock is not None:
            self._ticker = Ticker(self.tick, self.tick_seconds)
            self._ticker.start()

    def stop(self, save: bool = True) -> None:
        """Stop taking mail and ticking, collect the mail sent into the outbox, save the state
        (unless ``save`` is False), stop moto. A shared host saved after each operation already."""
        if not self.running:
            return
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        self._drop.stop()
        if self._smtp is not None:
            self._smtp.stop()
            self._smtp = None
        if not self.share:
            self.collect()
            if save:
                self.save()
        self.aws.stop()
        self._capture = None
        self._clock = None
        self._fingerprint = None
        if not self.share:
            self.folder_lock.release()

    def client(self, service: str) -> Any:
        """A botocore client on the emulated AWS (valid while the host runs)."""
        return self.aws.client(service)

    @property
    def smtp_address(self) -> tuple[str, int] | None:
        return None if self._smtp is None else self._smtp.address

    def deliver(self, mail: Path | bytes, envelope_from: str | None = None) -> str:
        """Receive one raw message (bytes, or an ``.eml`` file left where it is); returns its S3
        key. The inbound function has run and any reply is in the outbox when this returns."""
        raw = mail.read_bytes() if isinstance(mail, Path) else mail
        return self._deliver_raw(raw, envelope_from, ())

    def scan_inbox(self) -> list[str]:
        """Deliver the ``.eml`` files in ``inbox/`` now (moved to ``inbox/done/``)."""
        return self._drop.scan()

    def tick(
        self, now: datetime | None = None, payload: dict[str, Any] | None = None, timeout: float = 600.0
    ) -> ExecutionResult:
        """One run of the turn workflow, as the schedule starts it; mail sent is in the outbox.

        ``now``: the time the workflow runs at (to pass a deadline without waiting for it); by
        default it reads the clock as in AWS. ``payload`` replaces the whole input. ``timeout``:
        seconds to wait for the run's end (a run over thousands of games takes longer in moto)."""
        self._wire()
        if self._clock is None:
            raise RuntimeError(f"no state machine: is {self.resources.state_machine_file} there?")
        if payload is None and now is not None:
            payload = SCHEDULE_INPUT | {"now": now.isoformat()}
        with self.operation():
            result = self._clock.tick(payload, timeout)
            self.collect()
        return result

    def outbox(self) -> list[OutboxEntry]:
        """Every mail sent so far (including any sent outside a delivery or a tick)."""
        self.collect()
        return outbox_listing(self.outbox_folder)

    @contextmanager
    def operation(self) -> Iterator[None]:
        """One operation on the games: a shared host takes the folder's lock, catches up with
        what another process saved meanwhile, and saves and lets go after (module doc); nested
        operations are one. Raises HostBusyError when the lock was not free in time."""
        with self._lock:
            if not self.share or self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self.folder_lock.acquire(self.lock_wait)
            self._depth = 1
            try:
                self._catch_up()
                try:
                    yield
                finally:
                    self.collect()
                    self.save()
            finally:
                self._depth = 0
                self.folder_lock.release()

    def save(self) -> persist.Snapshot:
        with self._lock:
            saved = persist.save(self.state_folder, self.client("dynamodb"), self.client("s3"))
            self._fingerprint = saved.fingerprint
            return saved

    def _restore(self) -> None:
        self.restored = persist.restore(self.state_folder, self.client("dynamodb"), self.client("s3"))
        self._fingerprint = self.restored.fingerprint

    def _catch_up(self) -> None:
        """The games as another process saved them, if one did since this one last looked."""
        if persist.fingerprint(self.state_folder) == self._fingerprint:
            return
        # Unknown until the reload is through: a reload cut short is done again next time.
        self._fingerprint = None
        with self.aws.inbound_paused():
            self.restored = persist.reload(self.state_folder, self.client("dynamodb"), self.client("s3"))
        self._fingerprint = self.restored.fingerprint

    def _deliver_raw(self, raw: bytes, envelope_from: str | None, recipients: Sequence[str]) -> str:
        with self.operation():
            self._wire()
            key = store_raw_mail(
                self.client("s3"),
                self.resources.mail_bucket,
                self.resources.inbound_prefix,
                raw,
                envelope_from,
            )
            self.collect()
        return key

    def _wire(self) -> None:
        with self._lock:
            self.aws.wire()
            if self._clock is None and self.aws.state_machine_arn:
                self._clock = Clock(self.client("stepfunctions"), self.aws.state_machine_arn)

    def collect(self) -> list[str]:
        """Write the mail sent since the last collect into the outbox; their outbox ids."""
        with self._lock:
            return [] if self._capture is None else self._capture.collect()

"""Work done once though a Lambda may be killed at any point (issue 13, "Exactly once").

Each piece of work (an inbound mail's handling, one outgoing mail) is claimed in the store with
a lease (``Store.claim``): the claimer's function timeout and a margin, past which no attempt
of it can still be running, so the next attempt takes the claim over. The claim is completed
when the work is done; a clean failure (an ``Exception``) releases it, so a retry claims it at
once. A kill (timeout, out of memory: nothing runs after it) leaves it in progress until the
lease runs out.

A mail is sent under its claim: composed with the claim's first time as its ``Date`` (unless
the caller gives the moment the mail belongs to) and a Message-ID made from the claim's key, so
that whichever attempt sends it, the bytes are the same. The one window left is between SES
accepting a mail and the claim's completion: a kill there sends the mail again, the very same
message (same Message-ID), which mail clients show once.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import Protocol

from functions.mail.ses import Mailer
from functions.resources import FUNCTIONS
from functions.store.records import Claim

LEASE_MARGIN = timedelta(seconds=15)
"""Beyond the function's timeout: clock differences between Lambda hosts are far smaller."""


def lease_for(function: str) -> timedelta:
    """How long a claim made by ``function`` (a key of functions/resources.py) is held."""
    spec = next(f for f in FUNCTIONS if f.key == function)
    return timedelta(seconds=spec.timeout_s) + LEASE_MARGIN


INBOUND_LEASE = lease_for("inbound")
TURN_LEASE = lease_for("process_game")


class ClaimStore(Protocol):
    """The store's claims (functions/store ``Store``)."""

    def claim(
        self, key: str, now: datetime, lease: timedelta, data: dict[str, str] | None = None
    ) -> Claim | None: ...
    def complete(self, key: str) -> None: ...
    def release(self, key: str) -> None: ...


def send_claimed(
    store: ClaimStore,
    mailer: Mailer,
    key: str,
    make: Callable[[datetime], EmailMessage],
    now: datetime,
    lease: timedelta,
    log: Callable[[EmailMessage, datetime, str], None],
    at: datetime | None = None,
) -> str | None:
    """Send the message ``make`` builds (given its date) under the claim ``key``: None when the
    claim is done or held by a live attempt. Claimed (taken over past a killed attempt's lease),
    built (dated ``at``, else the claim's first time; its Message-ID should come from ``key``:
    ``compose(..., key=key)``), sent, logged (``log``: the message, its date, the mailer's id,
    which is returned), completed; an ``Exception`` releases the claim and is raised."""
    claim = store.claim(key, now, lease)
    if claim is None:
        return None
    when = at if at is not None else claim.at
    try:
        message = make(when)
        sent_id = mailer.send(message)
        log(message, when, sent_id)
    except Exception:
        store.release(key)
        raise
    store.complete(key)
    return sent_id

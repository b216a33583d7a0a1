"""The hostile mail corpus (benchmarks/hostile_corpus.py), a fast subset: one mail of every
variant of every category (a pair for each kind of replay), through the real inbound handler
against two running WarpWar games under moto, each held to the invariants of issue 13:

- the handler never fails (no outcome "failed", nothing escapes);
- a mail that is not a valid order mail from the right player with the right code changes no
  state (no write but its mail-log entries and the host's bookkeeping: identities seen, claims,
  rate-limit counters);
- every raw mail has a mail-log entry carrying its S3 key;
- no reply carries a recipient or header the inbound mail injected;
- valid orders (the control group) are accepted and stored.

The full corpus (10,000 mails, with the replies counted per address) is the benchmark's:
``python -m benchmarks.hostile_corpus``; docs/reliability.md has its figures and what it found
(every defect found is fixed: each variant that showed one is a case here).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from moto import mock_aws

from benchmarks import hostile_corpus as corpus
from benchmarks.hostile_corpus import Host, Mail, Result
from functions.store import provision
from tests.functions.conftest import REGION, deployment

SEED = 1


TARGETS = corpus.targets(deployment().settings().mail_domain)
EXTREMES = {
    "deep nesting": range(21, 26),
    "giant headers and parts": (133, 135, 136, 137, 138),
}
"""Mails at the extreme sizes (depth 1,000; 50,000 headers, a 1 MB header line, a 9.9 MB part, a
9 MB line, a 12 MB mail), by index. The 100,000-part mail (index 134) takes some 20 s: the
benchmark's."""


def cases() -> list[tuple[Mail, ...]]:
    """The first mail of each variant of each category, and the extremes; each with the mail
    before it that it needs (a replay's original)."""
    found: list[tuple[Mail, ...]] = []
    for generator in corpus.CATEGORIES:
        seen: set[str] = set()
        mails = list(
            generator(SEED, 2 * len(corpus.REPLAYS) if generator is corpus.replays else 140, TARGETS)
        )
        for at, mail in enumerate(mails):
            extreme = mail.index in EXTREMES.get(mail.category, ())
            if (mail.variant in seen or mail.variant.endswith("(original)")) and not extreme:
                continue
            seen.add(mail.variant)
            before = (mails[at - 1],) if generator is corpus.replays else ()
            found.append((*before, mail))
    return found


def _param(case: tuple[Mail, ...]) -> Any:
    return pytest.param(case, id=case[-1].name)


def test_the_benchmark_prints_a_row_per_category(capsys: pytest.CaptureFixture[str]) -> None:
    # First in the module: the benchmark runs its own moto, which must not nest in the module's.
    assert corpus.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "p95 ms" in out and "state changes" in out and "logged %" in out
    for generator in corpus.CATEGORIES:
        assert next(generator(SEED, 1, TARGETS)).category in out


@pytest.fixture(scope="module")
def host(aws_clients: dict[str, Any]) -> Iterator[Host]:
    """One host for the module: each mail's effects are measured on their own (the writes it
    makes, the mail it sends), so the mails need no fresh games each."""
    with mock_aws():
        described = deployment()
        provision(described, aws_clients["dynamodb"], aws_clients["s3"])
        sesv2 = boto3.client("sesv2", region_name=REGION)
        yield Host.start(described, aws_clients["dynamodb"], aws_clients["s3"], sesv2)


def deliver(host: Host, case: tuple[Mail, ...]) -> list[Result]:
    keys: dict[int, str] = {}
    with host.installed() as handler:
        return [host.deliver(handler, mail, keys) for mail in case]


@pytest.mark.parametrize("case", [_param(case) for case in cases()])
def test_a_hostile_mail_keeps_the_invariants(host: Host, case: tuple[Mail, ...]) -> None:
    for result in deliver(host, case):
        mail = result.mail
        assert not result.failed, f"{mail.name}: the handler failed: {result.reason}"
        if not mail.authorized:
            assert result.state_writes == [], f"{mail.name} changed state ({result.status}: {result.reason})"
        assert result.logged, f"{mail.name}: no mail-log entry has the key {result.key} ({result.status})"
        assert result.injected == [], f"{mail.name}: a reply carries {result.injected}"
        if mail.control:
            assert result.status == "accepted", f"{mail.name}: {result.reason}"
            assert any("SUB#" in write for write in result.state_writes), "the orders are stored"


def test_the_cases_cover_every_variant_of_every_category() -> None:
    names = {case[-1].variant for case in cases()}
    variants = [
        *corpus.MALFORMED_MIME, *corpus.DEEP_NESTING, *corpus.GIANT, *corpus.CHARSETS,
        *corpus.CONTROL_CHARACTERS, *corpus.HEADER_INJECTION, *corpus.LOOKALIKE_ADDRESSES,
        *corpus.FORGED_FROM, *corpus.VERDICTS, *corpus.AUTO_REPLIES, *corpus.COMMANDS, *corpus.VALID_ORDERS,
    ]  # fmt: skip
    assert {variant.name for variant in variants} | set(corpus.REPLAYS) == names


def test_generation_is_deterministic_and_lazy() -> None:
    first = list(corpus.corpus(SEED, 20, TARGETS))
    again = list(corpus.corpus(SEED, 20, TARGETS))
    assert [mail.build() for mail in first] == [mail.build() for mail in again]
    assert len(first) >= 20 * len(corpus.CATEGORIES)
    other = [mail.build() for mail in corpus.corpus(SEED + 1, 20, TARGETS)]
    assert other != [mail.build() for mail in first]

"""Target: the inbound handler takes under 100 ms per order mail at the 95th percentile, in
process against moto.

    python -m benchmarks.inbound_mail [--repeat N] [--quick]

Timed: ``functions.handlers.inbound.handle_object`` for one order mail already in the mail
bucket: read from S3, parse the MIME, de-duplicate (DynamoDB), find game and player (GSI query),
check the secret code (scrypt), load the state, read and check the orders, store the submission,
render and send the acknowledgement through SES v2, and the mail-log entries. The game is a
classic-map WarpWar game at its start; each mail is a fresh message from the player to move,
with one order from its orders sheet. moto answers in microseconds where AWS answers in a few
milliseconds per call: the AWS calls are counted, so the real figure can be estimated.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import make_msgid

import boto3
from moto import mock_aws

from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.mailgame import WarpWarMail
from engine.warpwar.state import GameConfig, PlayerSpec, Scenario, Visibility
from functions.mail.codes import hash_code
from functions.mail.safety import Verdicts
from functions.resources import resources
from functions.store import GameRecord, PlayerRecord, Store, provision

TARGET_MS = 100.0
CODE = "K7QM-9XDA-2P"
PLAYER = "red@example.org"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    repeat = 5 if "--quick" in args else 100
    if "--repeat" in args:
        repeat = int(args[args.index("--repeat") + 1])
    described = resources("bench")
    os.environ.update(
        {
            "AWS_ACCESS_KEY_ID": "testing",
            "AWS_SECRET_ACCESS_KEY": "testing",
            "AWS_DEFAULT_REGION": described.region,
            "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
            "POWERTOOLS_TRACE_DISABLED": "1",
            "POWERTOOLS_LOG_LEVEL": "WARNING",
            **described.handler_environment(),
        }
    )
    with mock_aws():
        timings = _run(repeat)
    timings.sort()
    p50 = statistics.median(timings) * 1000
    p95 = timings[max(0, round(len(timings) * 0.95) - 1)] * 1000
    print(f"inbound order mail, in process against moto ({len(timings)} mails)")
    print(f"  p50 {p50:7.1f} ms")
    print(f"  p95 {p95:7.1f} ms")
    print(f"  max {timings[-1] * 1000:7.1f} ms")
    print(f"target: p95 < {TARGET_MS:.0f} ms: {'met' if p95 < TARGET_MS else 'NOT met'}")
    return 0


SES_PASSED = Verdicts(spam="PASS", virus="PASS", spf="PASS", dkim="PASS", dmarc="PASS")
"""What SES's receipt notification says of a player's mail (as in AWS)."""


def _run(repeat: int) -> list[float]:
    from functions.handlers import inbound

    described = resources("bench")
    settings = described.settings()
    s3 = boto3.client("s3", region_name=described.region)
    provision(described, boto3.client("dynamodb", region_name=described.region), s3)
    boto3.client("sesv2", region_name=described.region).create_email_identity(
        EmailIdentity=settings.mail_domain
    )
    state_json = _state_json()
    Store(settings).create_game(
        GameRecord(game_id="g1", title="Benchmark", status="running", turn=1),
        [PlayerRecord(game_id="g1", player_id="P1", name="Red", address=PLAYER, code_hash=hash_code(CODE))],
        state_json,
    )
    order = next(
        line[2:] for line in WarpWarMail().sheet(state_json, "P1").splitlines() if line.startswith("# BUILD")
    )
    body = f"GAME g1\nPLAYER P1\nTURN 1\nCODE {CODE}\n{order}\nEND\n"
    inbound.dependencies.cache_clear()
    timings = []
    for index in range(repeat + 3):
        key = f"inbound/{index:05d}"
        s3.put_object(Bucket=settings.mail_bucket, Key=key, Body=_mail(body, f"g1@{settings.mail_domain}"))
        start = time.perf_counter()
        outcome = inbound.handle_object(settings.mail_bucket, key, SES_PASSED)
        elapsed = time.perf_counter() - start
        if outcome["status"] != "accepted":
            raise SystemExit(f"mail {key} was not accepted: {outcome}")
        if index >= 3:  # the first mails warm up clients, templates and caches
            timings.append(elapsed)
    return timings


def _state_json() -> str:
    players = (PlayerSpec(id="P1", name="Red"), PlayerSpec(id="P2", name="Blue"))
    config = GameConfig(
        game_id="g1", scenario=Scenario.ADVANCED, visibility=Visibility.OPEN, players=players, turn_limit=40
    )
    return WarpWar().new_game(Setup(config=config), 1).state.model_dump_json()


def _mail(body: str, to: str) -> bytes:
    message = EmailMessage()
    message["From"] = f"Red <{PLAYER}>"
    message["To"] = to
    message["Subject"] = "Orders"
    message["Date"] = datetime.now(UTC).strftime("%a, %d %b %Y %H:%M:%S +0000")
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(body)
    return bytes(message)


if __name__ == "__main__":
    raise SystemExit(main())

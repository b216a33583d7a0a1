"""The AWS cost of one game-turn (2 and 8 players) and of the idle deployment, from counts measured
in the local pipeline (functions/local: the same handlers and state machine, on moto).

    python -m benchmarks.cost_model [--players 2,8] [--turns N] [--quick]

Then, from those measurements: the cost per player-turn, the idle month, the canary's month, and
a month at 100, 1,000 and 10,000 active games of 2 and of 8 players.

Each game is played by mail: every player is a person whose orders (written by the cadet robot
from that player's own view, with the player's secret code) arrive as mail; the schedule's
workflow runs whenever something is due (every order is in: early processing). Counted from the
first player-turn of turn 1 until turn ``1 + N`` begins, then divided by ``N``:

- Lambda invocations per function, and their durations: measured in this process (moto emulates
  each AWS call in a few milliseconds, about a real call's latency), scaled by the CPU share of
  the function's memory (Lambda gives one vCPU at 1,769 MB, proportionally less below);
- Step Functions state transitions: the ``...StateEntered`` events of each execution's history
  for the top-level states, plus, for each game the Distributed Map processes, its child
  execution: one transition to start it (AWS bills one per child workflow execution started)
  and its own ``ProcessGame`` state (moto's histories do not show child executions);
- DynamoDB request units, from every call's items (botocore event hooks on the clients): a write
  unit per KB written (twice in a transaction), once more per index the item is in; a read unit
  per 4 KB read (half when eventually consistent). Reads of projected queries are counted at the
  projected size, so slightly low; an ``UpdateItem`` counts 1 unit per table and index it touches
  (it only ever updates a game's meta item, under 1 KB);
- S3 requests and bytes (the results mails kept for REPORT apart: they are stored 365 days, and
  their whole storage is charged to the turn that wrote them); SES mails sent and their raw size,
  and mails received.

Prices are the public on-demand prices for eu-west-1 as assumed on ``PRICES_AS_OF`` (named
constants below), without the free tiers. SES is priced "a la carte" (the pricing of accounts that
sent mail before July 2026; docs/performance.md cites the sources and the newer plans' prices).
The idle cost per month is what the deployment costs with no game due: the schedule's 8,640
workflow runs (every 5 minutes), each running FindDue only, measured the same way, plus the
stack's fixed resources (alarms, dashboard, KMS keys: counts checked against the synthesized stack
by tests/infra) and logs; priced without, then with, AWS's always-free tier (which is the account's:
other stacks and environments share it).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any
from unittest.mock import patch

from benchmarks.timing import machine, table
from engine.warpwar import robot
from engine.warpwar.game import Setup, WarpWar
from engine.warpwar.mapgen import MapSpec
from engine.warpwar.state import GameConfig, GameState, PlayerSpec, Scenario, Visibility
from engine.warpwar.views import player_view
from functions import clients
from functions.host import due
from functions.local.host import LocalHost
from functions.mail.codes import hash_code
from functions.mail.compose import game_address
from functions.resources import GSI1PK, GSI2PK, Resources, resources
from functions.store import GameRecord, PlayerRecord, Store, split_awaited
from functions.store.keys import RESULTS_PREFIX

# --- Prices: eu-west-1 (Ireland), on demand, as assumed on PRICES_AS_OF; no free tier -------------
PRICES_AS_OF = "2026-11-22"
LAMBDA_ARM_GB_SECOND = 0.0000133334
LAMBDA_REQUEST = 0.20 / 1_000_000
STEP_FUNCTIONS_TRANSITION = 0.025 / 1000  # standard workflows
DYNAMODB_WRITE_UNIT = 0.7068 / 1_000_000  # on-demand, after the November 2024 price cut
DYNAMODB_READ_UNIT = 0.1413 / 1_000_000
DYNAMODB_GB_MONTH = 0.283
S3_WRITE_REQUEST = 0.005 / 1000  # PUT, COPY, POST, LIST
S3_READ_REQUEST = 0.0004 / 1000  # GET and the rest
S3_GB_MONTH = 0.023
SES_MAIL_SENT = 0.10 / 1000  # a la carte: per recipient; every WarpMail mail has one
SES_ATTACHMENT_GB = 0.12  # SES bills the size of the mail sent as "attachment data"
SES_MAIL_RECEIVED = 0.10 / 1000
SES_RECEIVED_CHUNK = 0.09 / 1000  # per 256 KB of each mail received
CLOUDWATCH_ALARM_METRIC_MONTH = 0.10  # standard resolution, per metric an alarm reads
CLOUDWATCH_DASHBOARD_MONTH = 3.00
CLOUDWATCH_METRIC_MONTH = 0.30  # a custom metric published all month (billed by the hour), first 10,000
CLOUDWATCH_LOG_INGEST_GB = 0.57
CLOUDWATCH_LOG_STORE_GB_MONTH = 0.03
KMS_KEY_MONTH = 1.00  # a customer managed key; its few requests are within KMS's free 20,000 a month
SNAPSTART_CACHE_GB_SECOND = 0.0000015046  # Python: the snapshot cached while its version exists
SNAPSTART_RESTORE_GB = 0.0001397998  # Python: each new execution environment restored from it

# --- Assumptions ------------------------------------------------------------------------------------
RESULTS_KEPT_MONTHS = 12
"""The results mails kept for REPORT expire after 365 days (``warpmail:resultsRetentionDays``)."""
CHILD_TRANSITIONS = 2
"""Per game the Distributed Map processes: starting its child execution, and its ProcessGame state."""
PLAYER_TURNS_PER_GAME_DAY = 1
"""An active game plays one player-turn a day (a 24-hour deadline, orders often in early)."""
DAYS_PER_MONTH = 30
ACTIVE_GAMES = (100, 1_000, 10_000)
ACTIVE_METRICS = 14
"""Custom metrics a deployment with games always due keeps alive all month: find_due's DueGames,
OldestDueMinutes and SesQuotaUsedPercent, process_game's StepsPlayed, ResultsMailsSent,
RemindersSent and MissedTurnAlerts, and the inbound function's Inbound<outcome> (7 outcomes)."""
FULL_CPU_MB = 1769
"""Lambda memory at which a function gets one full vCPU; below it, CPU time stretches."""
LOG_BYTES_PER_INVOCATION = 1500
"""Lambda's START/END/REPORT lines, one Powertools log line and the metrics (EMF) blob."""
# --- Always-free tier (per account and month) --------------------------------------------------
FREE_TRANSITIONS = 4000
FREE_ALARM_METRICS = 10
FREE_DASHBOARDS = 3
FREE_DASHBOARD_METRICS = 50
FREE_TIER_SERVICES = ("Lambda", "CloudWatch Logs")
"""Services whose idle use the free tier covers whole: 1 million Lambda requests and 400,000
GB-s, 5 GB of logs ingested and stored, against some 9,000 requests, 200 GB-s and 13 MB."""

# --- The stack's fixed resources (infra/monitoring.py, infra/mail.py) ------------------------------
ALARMS = 13
ALARM_METRICS = 25
"""The metrics the alarms read: AWS bills an alarm per metric it reads ("per alarm metric"), so a
metric-math alarm over the five functions' errors counts five."""
DASHBOARDS = 1
DASHBOARD_METRICS = 38
KMS_KEYS = 1
"""The feedback topic's key (infra/mail.py): SES publishes only to a topic whose key lets it."""
IDLE_METRICS = 0
"""Custom metrics published by idle runs: none (find_due publishes DueGames, OldestDueMinutes and
SesQuotaUsedPercent only when some game is due; published every 5 minutes each would be billed all
month, $0.30)."""
RUNS_PER_MONTH = DAYS_PER_MONTH * 24 * 60 // 5
# --- The canary (infra/canary.py; only with warpmail:canaryGame) ----------------------------------
CANARY_RUNS_PER_MONTH = DAYS_PER_MONTH * 24 * 60 // 15
CANARY_PROBE_BYTES = 2048
"""A probe's raw size as SES stores it (headers, DKIM signature, a STATUS line)."""
CANARY_SECONDS = 0.3
"""Each run: one Query and one SES send (the canary), one S3 GET, two PutItems (the inbound
function logging the probe), about 0.3 s of Lambda time each at 256 and 512 MB."""
CANARY_WRITE_UNITS = 3
CANARY_READ_UNITS = 1
ITEM_OVERHEAD = 100
"""DynamoDB's storage overhead per item, in bytes."""
WRITES = frozenset({"PutObject", "CopyObject", "ListObjects", "ListObjectsV2", "CreateMultipartUpload"})
KB = 1024
GB = 1024**3


@dataclass
class Invocation:
    function: str
    seconds: float
    memory_mb: int


@dataclass
class Counts:
    """Everything the pipeline asked of AWS while it was counting."""

    invocations: list[Invocation] = field(default_factory=list)
    transitions: int = 0
    executions: int = 0
    write_units: float = 0.0
    read_units: float = 0.0
    dynamodb_calls: Counter[str] = field(default_factory=Counter)
    stored_bytes: int = 0
    s3_writes: int = 0
    s3_reads: int = 0
    s3_bytes_put: int = 0
    results_bytes: int = 0
    """Of ``s3_bytes_put``, the results mails kept for REPORT."""
    mails_sent: int = 0
    mail_bytes_sent: int = 0
    received_sizes: list[int] = field(default_factory=list)

    @property
    def mails_received(self) -> int:
        return len(self.received_sizes)


class Meter:
    """Counts AWS calls through botocore's event hooks, on every client of the default session."""

    def __init__(self) -> None:
        self.counts = Counts()
        self.on = False

    def install(self) -> None:
        """Hook every client made from now on (the handlers make theirs on first use)."""
        session = clients.session()  # the botocore session the handlers and the local host share
        session.register("before-parameter-build", self._before)
        session.register("after-call", self._after)

    def _before(self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        # The request's own parameters travel to its after-call in its context (calls nest: an
        # S3 put runs the inbound function, whose calls finish first).
        context["metered_params"] = params

    def _after(self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        if not self.on:
            return
        params = context.get("metered_params", {})
        service = model.service_model.service_name
        if service == "dynamodb":
            self._dynamodb(model.name, params, parsed)
        elif service == "s3":
            self._s3(model.name, params)
        elif service == "sesv2" and model.name == "SendEmail":
            self.counts.mails_sent += 1
            self.counts.mail_bytes_sent += len(params["Content"]["Raw"]["Data"])

    def _dynamodb(self, operation: str, params: dict[str, Any], parsed: dict[str, Any]) -> None:
        counts = self.counts
        counts.dynamodb_calls[operation] += 1
        if operation == "PutItem":
            counts.write_units += _write_units(params["Item"])
            counts.stored_bytes += _item_size(params["Item"]) + ITEM_OVERHEAD
        elif operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                item = entry.get("Put", {}).get("Item")
                if item is not None:
                    counts.write_units += _write_units(item, transactional=True)
                    counts.stored_bytes += _item_size(item) + ITEM_OVERHEAD
        elif operation == "BatchWriteItem":
            for requests in params["RequestItems"].values():
                for request in requests:
                    item = request.get("PutRequest", {}).get("Item")
                    counts.write_units += _write_units(item) if item else 1
        elif operation == "UpdateItem":
            # Only ever a game's meta item (under 1 KB), and the index entries its update names.
            names = set(params.get("ExpressionAttributeNames", {}).values())
            counts.write_units += 1 + len(names & {GSI1PK, GSI2PK})
        elif operation == "DeleteItem":
            counts.write_units += 1
        elif operation == "GetItem":
            size = _item_size(parsed.get("Item", {}))
            counts.read_units += _read_units(size, params.get("ConsistentRead", False))
        elif operation == "Query":
            size = sum(_item_size(item) for item in parsed.get("Items", []))
            counts.read_units += _read_units(size, params.get("ConsistentRead", False))

    def _s3(self, operation: str, params: dict[str, Any]) -> None:
        if operation in WRITES:
            size = _body_size(params.get("Body", b""))
            self.counts.s3_writes += 1
            self.counts.s3_bytes_put += size
            if str(params.get("Key", "")).startswith(RESULTS_PREFIX):
                self.counts.results_bytes += size
        else:
            self.counts.s3_reads += 1


def _body_size(body: Any) -> int:
    """An S3 body's size: bytes, or the in-memory file botocore has already wrapped them in."""
    if isinstance(body, bytes | str):
        return len(body)
    return body.getbuffer().nbytes if hasattr(body, "getbuffer") else 0


def _write_units(item: dict[str, Any], transactional: bool = False) -> float:
    units = math.ceil(max(_item_size(item), 1) / KB)
    indexes = sum(key in item for key in (GSI1PK, GSI2PK))
    return units * (2 if transactional else 1) + units * indexes


def _read_units(size: int, consistent: bool) -> float:
    units = max(1, math.ceil(size / (4 * KB)))
    return units if consistent else units / 2


def _item_size(item: dict[str, Any]) -> int:
    """DynamoDB's size of an item in its wire format: names plus values."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    kind, data = next(iter(value.items()))
    if kind == "S":
        return len(data.encode())
    if kind == "N":
        return len(data.lstrip("-").replace(".", "")) // 2 + 2
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + _value_size(element) for element in data)
    if kind == "M":
        return 3 + sum(len(name.encode()) + 1 + _value_size(element) for name, element in data.items())
    return sum(len(str(element)) for element in data)  # sets


@contextmanager
def timed_handlers(described: Resources, meter: Meter) -> Iterator[None]:
    """Each function's handler, timed while the meter is on (the local host imports the handler
    by name at every invocation, so replacing the module attribute times every call)."""
    import importlib

    originals: list[tuple[Any, str, Callable[..., Any]]] = []
    for spec in described.functions:
        module_name, _, name = spec.handler.rpartition(".")
        module = importlib.import_module(module_name)
        _new_container(module)
        original = getattr(module, name)
        originals.append((module, name, original))
        setattr(module, name, _timed(original, spec.key, spec.memory_mb, meter))
    try:
        yield
    finally:
        for module, name, original in originals:
            setattr(module, name, original)


def _new_container(module: Any) -> None:
    """Forget the clients and settings a handler module made earlier in this process (against
    another emulated AWS, in a test run), as a new Lambda container would not have them."""
    for value in vars(module).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()


def _timed(handler: Callable[..., Any], key: str, memory_mb: int, meter: Meter) -> Callable[..., Any]:
    def timed(event: Any, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return handler(event, context)
        finally:
            if meter.on:
                meter.counts.invocations.append(Invocation(key, time.perf_counter() - start, memory_mb))

    return timed


# --- The game, played by mail ---------------------------------------------------------------------


def new_game(store: Store, game_id: str, players: int, now: datetime) -> dict[str, str]:
    """A running game of ``players`` people; returns each player's secret code."""
    specs = tuple(PlayerSpec(id=f"P{n}", name=f"Player {n}") for n in range(1, players + 1))
    config = GameConfig(
        game_id=game_id, scenario=Scenario.ADVANCED, visibility=Visibility.BLIND, players=specs, turn_limit=40
    )
    star_map = "classic" if players == 2 else MapSpec(name="Cost map", players=players)
    state_json = WarpWar().new_game(Setup(config=config, map=star_map), 7).state.model_dump_json()
    game = due.start(GameRecord(game_id=game_id, title="Cost model", status="open"), state_json, now)
    codes = {spec.id: f"C0DE-{spec.id}-XX".replace("0", "Q").replace("1", "R") for spec in specs}
    records = [
        PlayerRecord(
            game_id=game_id,
            player_id=spec.id,
            name=spec.name,
            address=f"{spec.id.lower()}@example.org",
            code_hash=hash_code(codes[spec.id]),
        )
        for spec in specs
    ]
    store.create_game(game, records, state_json)
    return codes


def orders_mail(state: GameState, game_id: str, player: str, code: str, scope: str, domain: str) -> bytes:
    """What ``player`` sends for ``scope``: the cadet robot's orders from the player's view."""
    text = robot.write_for(state, player_view(state, player), scope)
    lines = text.splitlines()
    message = EmailMessage()
    message["From"] = f"{player} <{player.lower()}@example.org>"
    message["To"] = game_address(game_id, domain)
    message["Subject"] = f"Orders, {scope}"
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content("\n".join([lines[0], f"CODE {code}", *lines[1:]]) + "\n")
    return message.as_bytes()


def play(host: LocalHost, meter: Meter, game_id: str, players: int, game_turns: int) -> Counts:
    """Count ``game_turns`` game-turns of a new game of ``players`` people."""
    store = Store(host.resources.settings(), dynamodb=host.client("dynamodb"), s3=host.client("s3"))
    clock = datetime(2026, 1, 5, 18, 0, tzinfo=UTC)
    codes = new_game(store, game_id, players, clock)
    game = store.game(game_id)
    assert game is not None
    first_turn = GameState.model_validate_json(store.state(game_id)[1]).turn
    sent = set[tuple[int, str, str]]()
    meter.counts, meter.on = Counts(), True
    while game.status == "running" and game.turn < first_turn + game_turns:
        owed = [
            (scope, player)
            for scope, player in map(split_awaited, game.awaiting)
            if (game.version, scope, player) not in sent
        ]
        if owed:
            _, state_json = store.state(game_id)
            state = GameState.model_validate_json(state_json)
            for scope, player in owed:
                sent.add((game.version, scope, player))
                raw = orders_mail(state, game_id, player, codes[player], scope, host.resources.mail_domain)
                meter.counts.received_sizes.append(len(raw))
                host.deliver(raw)
        version = game.version
        result = host.tick(now=clock)
        meter.counts.executions += 1
        if result.status != "SUCCEEDED":
            raise SystemExit(f"the workflow failed: {result.error} {result.cause}")
        game = store.game(game_id)
        assert game is not None
        if game.version == version and not owed:
            deadline = game.round_deadline or game.deadline
            if deadline is None or deadline <= clock:
                raise SystemExit(f"game {game_id} is stuck at turn {game.turn}")
            clock = deadline
    meter.on = False
    meter.counts.transitions = _transitions(host, last=meter.counts.executions)
    return meter.counts


def idle_run(host: LocalHost, meter: Meter) -> Counts:
    """One scheduled workflow run with no game due."""
    meter.counts, meter.on = Counts(), True
    host.tick(now=datetime(2026, 1, 5, 18, 0, tzinfo=UTC))
    meter.counts.executions = 1
    meter.on = False
    meter.counts.transitions = _transitions(host, last=1)
    return meter.counts


def _transitions(host: LocalHost, last: int) -> int:
    """State transitions of the top-level states of the state machine's ``last`` executions (the
    child executions' are counted apart: ``CHILD_TRANSITIONS``)."""
    top_level = set(json.loads(host.resources.state_machine_file.read_text(encoding="utf-8"))["States"])
    stepfunctions = host.client("stepfunctions")
    executions = stepfunctions.list_executions(stateMachineArn=host.aws.state_machine_arn)["executions"]
    executions.sort(key=lambda e: e["startDate"])
    total = 0
    for execution in executions[-last:]:
        history = stepfunctions.get_execution_history(executionArn=execution["executionArn"], maxResults=1000)
        total += sum(
            event["type"].endswith("StateEntered") and event["stateEnteredEventDetails"]["name"] in top_level
            for event in history["events"]
        )
    return total


# --- Dollars -------------------------------------------------------------------------------------------


def billed_seconds(invocation: Invocation) -> float:
    """The measured duration, stretched by the CPU share of the function's memory; Lambda bills
    by the millisecond."""
    stretch = max(1.0, FULL_CPU_MB / invocation.memory_mb)
    return math.ceil(invocation.seconds * stretch * 1000) / 1000


def cost_lines(counts: Counts, per: float = 1.0) -> list[tuple[str, str, float]]:
    """(service, what was counted, dollars), every count divided by ``per`` (the game-turns)."""
    by_function: dict[str, list[Invocation]] = defaultdict(list)
    for invocation in counts.invocations:
        by_function[invocation.function].append(invocation)
    lines = []
    for function, invoked in sorted(by_function.items()):
        gb_seconds = sum(billed_seconds(c) * c.memory_mb / 1024 for c in invoked) / per
        median = statistics.median(billed_seconds(c) for c in invoked)
        dollars = gb_seconds * LAMBDA_ARM_GB_SECOND + len(invoked) / per * LAMBDA_REQUEST
        what = f"{len(invoked) / per:.1f} invocations, median {median * 1000:.0f} ms, {gb_seconds:.2f} GB-s"
        lines.append((f"Lambda {function}", what, dollars))
    children = sum(invocation.function == "process_game" for invocation in counts.invocations) / per
    transitions = counts.transitions / per + children * CHILD_TRANSITIONS
    executions = (
        f"{counts.executions / per:.1f} executions, {children:.1f} child executions, "
        f"{transitions:.1f} transitions"
    )
    lines.append(("Step Functions", executions, transitions * STEP_FUNCTIONS_TRANSITION))
    wru, rru = counts.write_units / per, counts.read_units / per
    calls = ", ".join(f"{op} {n / per:.1f}" for op, n in counts.dynamodb_calls.most_common())
    dynamodb = wru * DYNAMODB_WRITE_UNIT + rru * DYNAMODB_READ_UNIT
    lines.append(("DynamoDB requests", f"{wru:.1f} WRU, {rru:.1f} RRU ({calls})", dynamodb))
    s3_writes, s3_reads = counts.s3_writes / per, counts.s3_reads / per
    s3 = f"{s3_writes:.1f} writes ({counts.s3_bytes_put / per / KB:.0f} KB), {s3_reads:.1f} reads"
    lines.append(("S3 requests", s3, s3_writes * S3_WRITE_REQUEST + s3_reads * S3_READ_REQUEST))
    sent, received = counts.mails_sent / per, counts.mails_received / per
    sent_gb = counts.mail_bytes_sent / per / GB
    chunks = sum(max(1, math.ceil(size / (256 * KB))) for size in counts.received_sizes) / per
    ses = (
        sent * SES_MAIL_SENT
        + sent_gb * SES_ATTACHMENT_GB
        + received * SES_MAIL_RECEIVED
        + chunks * SES_RECEIVED_CHUNK
    )
    lines.append(("SES", f"{sent:.1f} sent ({sent_gb * GB / KB:.0f} KB), {received:.1f} received", ses))
    log_gb = len(counts.invocations) / per * LOG_BYTES_PER_INVOCATION / GB
    lines.append(
        ("CloudWatch Logs", f"{log_gb * GB / KB:.0f} KB ingested", log_gb * CLOUDWATCH_LOG_INGEST_GB)
    )
    return lines


def storage_lines(counts: Counts, per: float = 1.0) -> list[tuple[str, str, float]]:
    """What the game-turn adds to storage: the results mails for the 365 days they are kept, the
    rest (table items, raw mail, states: kept) for one month."""
    results_gb = counts.results_bytes / per / GB
    dynamodb_gb = counts.stored_bytes / per / GB
    s3_gb = (counts.s3_bytes_put - counts.results_bytes + sum(counts.received_sizes)) / per / GB
    what = f"DynamoDB {dynamodb_gb * GB / KB:.0f} KB, S3 {s3_gb * GB / KB:.0f} KB"
    results = f"{results_gb * GB / KB:.0f} KB for {RESULTS_KEPT_MONTHS} months"
    return [
        ("results mail kept (S3)", results, results_gb * S3_GB_MONTH * RESULTS_KEPT_MONTHS),
        ("other storage (a month)", what, dynamodb_gb * DYNAMODB_GB_MONTH + s3_gb * S3_GB_MONTH),
    ]


def canary_lines() -> list[tuple[str, str, float]]:
    """A month of the canary: a probe every 15 minutes, through SES both ways, the two functions,
    the table and the mail bucket; its custom metric and its alarm's."""
    runs = CANARY_RUNS_PER_MONTH
    gb_seconds = runs * CANARY_SECONDS * (256 + 512) / 1024
    chunks = runs * max(1, math.ceil(CANARY_PROBE_BYTES / (256 * KB)))
    ses = runs * (SES_MAIL_SENT + SES_MAIL_RECEIVED) + chunks * SES_RECEIVED_CHUNK
    ses += runs * CANARY_PROBE_BYTES / GB * SES_ATTACHMENT_GB
    lambda_ = gb_seconds * LAMBDA_ARM_GB_SECOND + 2 * runs * LAMBDA_REQUEST
    storage = runs * (CANARY_WRITE_UNITS * DYNAMODB_WRITE_UNIT + CANARY_READ_UNITS * DYNAMODB_READ_UNIT)
    storage += runs * (S3_WRITE_REQUEST + S3_READ_REQUEST)
    return [
        ("SES", f"{runs:,} probes sent and received", ses),
        ("Lambda", f"{2 * runs:,} invocations (canary, inbound), {gb_seconds:.0f} GB-s", lambda_),
        ("DynamoDB and S3 requests", f"{runs:,} probes logged and stored", storage),
        ("custom metric", "CanaryAckMissing", CLOUDWATCH_METRIC_MONTH),
        ("alarm", "1 alarm metric", CLOUDWATCH_ALARM_METRIC_MONTH),
    ]


def player_turn_cost(lines: Sequence[tuple[str, str, float]], players: int) -> float:
    """One player-turn's share of a game-turn of ``players`` (sequential mode: a player-turn each)."""
    return sum(dollars for _, _, dollars in lines) / players


def month_rows(per_player_turn: dict[int, float], idle_month: float) -> list[tuple[str, ...]]:
    """Dollars a month at ``ACTIVE_GAMES`` active games of each size measured: the idle deployment,
    the custom metrics games keep alive, and each game's player-turns."""
    rows = []
    active_metrics = ACTIVE_METRICS * CLOUDWATCH_METRIC_MONTH
    for games in ACTIVE_GAMES:
        turns = games * PLAYER_TURNS_PER_GAME_DAY * DAYS_PER_MONTH
        row = [f"{games:,}", f"{turns:,}"]
        for players in sorted(per_player_turn):
            row.append(f"{idle_month + active_metrics + turns * per_player_turn[players]:,.2f}")
        rows.append(tuple(row))
    return rows


def idle_lines(run: Counts, free_tier: bool = False) -> list[tuple[str, str, float]]:
    """A month of the idle deployment: ``run`` is one scheduled run with no game due."""
    per_run = sum(dollars for _, _, dollars in cost_lines(run))
    transitions = run.transitions * RUNS_PER_MONTH
    schedule = per_run * RUNS_PER_MONTH
    if free_tier:
        covered = sum(d for service, _, d in cost_lines(run) if service.startswith(FREE_TIER_SERVICES))
        free_transitions = min(transitions, FREE_TRANSITIONS) * STEP_FUNCTIONS_TRANSITION
        schedule -= covered * RUNS_PER_MONTH + free_transitions
    alarm_metrics = max(0, ALARM_METRICS - FREE_ALARM_METRICS) if free_tier else ALARM_METRICS
    free_dashboards = FREE_DASHBOARDS if DASHBOARD_METRICS <= FREE_DASHBOARD_METRICS else 0
    dashboards = max(0, DASHBOARDS - free_dashboards) if free_tier else DASHBOARDS
    logs = (
        0.0 if free_tier else RUNS_PER_MONTH * LOG_BYTES_PER_INVOCATION / GB * CLOUDWATCH_LOG_STORE_GB_MONTH
    )
    return [
        (
            "schedule runs (FindDue only)",
            f"{RUNS_PER_MONTH:,} runs, {transitions:,} transitions, ${per_run:.7f} a run",
            schedule,
        ),
        (
            "alarms",
            f"{ALARMS} alarms reading {ALARM_METRICS} metrics, {alarm_metrics} billed",
            alarm_metrics * CLOUDWATCH_ALARM_METRIC_MONTH,
        ),
        (
            "dashboard",
            f"{DASHBOARDS} of {DASHBOARD_METRICS} metrics, {dashboards} billed",
            dashboards * CLOUDWATCH_DASHBOARD_MONTH,
        ),
        ("custom metrics", f"{IDLE_METRICS} published by idle runs", IDLE_METRICS * CLOUDWATCH_METRIC_MONTH),
        ("KMS keys", f"{KMS_KEYS} customer managed (the feedback topic's)", KMS_KEYS * KMS_KEY_MONTH),
        ("log storage", "one month of the runs' logs kept", logs),
    ]


def snap_start_lines(memory_mb: int) -> list[tuple[str, str, float]]:
    """A month of SnapStart on the inbound function (only with warpmail:inboundSnapStart): its one
    published version's snapshot cached all month (superseded versions are deleted on deploy),
    and what each restore costs (one per new execution environment; none while idle)."""
    gb = memory_mb / 1024
    seconds = DAYS_PER_MONTH * 24 * 3600
    return [
        ("snapshot cache", f"{gb:g} GB for {seconds:,} s", gb * seconds * SNAPSTART_CACHE_GB_SECOND),
        ("restores", f"${gb * SNAPSTART_RESTORE_GB:.7f} each, none while idle", 0.0),
    ]


def _print_costs(title: str, lines: Sequence[tuple[str, str, float]]) -> float:
    total = sum(dollars for _, _, dollars in lines)
    print(f"\n{title}")
    rows = [(service, what, f"{dollars:.6f}") for service, what, dollars in lines]
    print(table(("service", "counted", "USD"), [*rows, ("total", "", f"{total:.6f}")]))
    return total


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    quick = "--quick" in args
    sizes = [2] if quick else [2, 8]
    if "--players" in args:
        sizes = [int(n) for n in args[args.index("--players") + 1].split(",")]
    game_turns = 1 if quick or "--turns" not in args else int(args[args.index("--turns") + 1])
    print(f"AWS cost model, eu-west-1 prices as assumed on {PRICES_AS_OF} (no free tier)")
    print(f"machine: {machine()}")
    meter = Meter()
    described = resources("local")
    # The handlers read their environment at import, and are imported here to be timed.
    with (
        patch.dict(os.environ, described.handler_environment()),
        tempfile.TemporaryDirectory() as root,
        LocalHost(Path(root), described) as host,
    ):
        meter.install()  # inside moto, which gives boto3 a default session of its own
        with timed_handlers(host.resources, meter):
            if not quick:
                # Warm containers, as a busy deployment has: cold starts are counted apart.
                play(host, meter, "warmup", 2, 1)
            idle = idle_run(host, meter)
            per_player_turn = {}
            for players in sizes:
                counts = play(host, meter, f"cost{players}", players, game_turns)
                lines = [*cost_lines(counts, per=game_turns), *storage_lines(counts, per=game_turns)]
                _print_costs(f"one game-turn, {players} players (mean of {game_turns})", lines)
                per_player_turn[players] = player_turn_cost(lines, players)
                print(f"per player-turn, {players} players: ${per_player_turn[players]:.6f}")
        idle_month = _print_costs(
            f"idle deployment, per month (schedule every 5 minutes: {RUNS_PER_MONTH:,} runs), no free tier",
            idle_lines(idle),
        )
        month = _print_costs("idle deployment, per month, with the always-free tier", idle_lines(idle, True))
    _print_costs("the canary, per month (only with warpmail:canaryGame), no free tier", canary_lines())
    _print_costs(
        "SnapStart on the inbound function, per month (only with warpmail:inboundSnapStart)",
        snap_start_lines(described.function("inbound").memory_mb),
    )
    print(
        f"\nper month at {PLAYER_TURNS_PER_GAME_DAY} player-turn per active game a day, no free tier "
        f"(the idle deployment, {ACTIVE_METRICS} custom metrics kept alive, the player-turns)"
    )
    headers = (
        "active games",
        "player-turns",
        *(f"{players}-player games USD" for players in sorted(per_player_turn)),
    )
    print(table(headers, month_rows(per_player_turn, idle_month)))
    print(f"target: idle < $1 a month (with the always-free tier): {'met' if month < 1 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

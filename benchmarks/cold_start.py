"""Target: an inbound function's cold start, measured as Lambda runs it: the init duration plus the
first mail's time under 1 s on this machine (docs/performance.md, "Cold start, measured as it runs").

    python -m benchmarks.cold_start [--runs N] [--quick]

The inbound package is built as infra/bundle.py builds it for the deployment (pyproject's runtime
dependencies pinned by .ci/constraints.txt, the project's ``engine`` and ``functions``, compiled
to unchecked-hash bytecode by Python 3.12, the runtime's, the dependencies' sources removed), but
for this machine's platform: the arm64 package does not load on x86_64 (pydantic-core is compiled
code). botocore, which the runtime ships, is installed beside it with its bytecode. Built once per
source tree under the system's temporary folder (``warpmail-cold-start-<hash>``).

Each run is a fresh ``python3.12`` process with the package first on ``sys.path`` (as
``/var/task`` is), ``PYTHONDONTWRITEBYTECODE`` (Lambda's file system is read-only), the
environment Lambda sets (``AWS_LAMBDA_FUNCTION_NAME``, ``LAMBDA_TASK_ROOT``, the function's
settings), and AWS emulated by moto's server (``AWS_ENDPOINT_URL``; ``moto_server`` on the
PATH or in ``WARPMAIL_MOTO_SERVER``): what the handler's clients call is a real HTTP request. It reports:

- interpreter start: from the process's start to the first line of the bootstrap script;
- init: importing the handler module (``functions.handlers.inbound``), which does all of its
  one-time work (:func:`functions.handlers.inbound.init`): Lambda's ``Init Duration``;
- first mail: the handler's first invocation with SES's receipt notification for an order mail
  (a player's orders for a running game, with the secret code) stored in the mail bucket: read,
  checked, stored, acknowledged through SES;
- warm mail: a second such mail in the same process, for scale.

The medians over the runs are printed; the cold start is init plus first mail.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from benchmarks.timing import machine, speed_note, table
from infra import bundle

TARGET_MS = 1000.0
MEMORY_MB = 512
CODE = "K7QM-9XDA-2P"
PLAYER = "red@example.org"
ENVIRONMENT = "bench"
MOTO_SERVER_VARIABLE = "WARPMAIL_MOTO_SERVER"

BOOTSTRAP = """
import json, sys, time
started = time.time()
class Context:
    function_name = "warpmail-bench-inbound"
    function_version = "1"
    invoked_function_arn = "arn:aws:lambda:eu-west-1:123456789012:function:warpmail-bench-inbound"
    memory_limit_in_mb = {memory}
    aws_request_id = "cold-start"
    log_group_name = "/aws/lambda/warpmail-bench-inbound"
    log_stream_name = "cold-start"
    def get_remaining_time_in_millis(self):
        return 30000
before = time.perf_counter()
import functions.handlers.inbound as inbound
imported = time.perf_counter()
first = inbound.handler(json.loads(sys.argv[1]), Context())
answered = time.perf_counter()
second = inbound.handler(json.loads(sys.argv[2]), Context())
again = time.perf_counter()
print(json.dumps({{
    "started": started, "module": inbound.__file__, "init": imported - before, "first": answered - imported,
    "warm": again - answered, "outcomes": first["outcomes"] + second["outcomes"],
}}))
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    runs = 3 if "--quick" in args else 7
    if "--runs" in args:
        runs = int(args[args.index("--runs") + 1])
    interpreter = bundle.runtime_interpreter()
    package, runtime = build(interpreter)
    port = _free_port()
    server = subprocess.Popen(
        [moto_server(), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        endpoint = f"http://127.0.0.1:{port}"
        _wait_for(port)
        environment = lambda_environment(package, runtime, endpoint)
        mail_bucket, orders = provision_game(endpoint, environment)
        measured = [
            _run(interpreter, environment, endpoint, (mail_bucket, orders), index) for index in range(runs)
        ]
    finally:
        server.terminate()
        server.wait()
    print(f"inbound cold start, median of {runs} fresh {Path(interpreter).name} processes (moto server)")
    print(f"machine: {machine()}; {speed_note()}")
    print(f"package: {package} (bytecode by {_version(interpreter)})")
    rows: list[tuple[str, float, float | str, float | str]] = []
    for label, key in (
        ("interpreter start", "start"),
        ("init (import, one-time work)", "init"),
        ("first mail", "first"),
        ("warm mail", "warm"),
    ):
        values = [run[key] * 1000 for run in measured]
        rows.append((label, statistics.median(values), min(values), max(values)))
    cold = statistics.median((run["init"] + run["first"]) * 1000 for run in measured)
    rows.append(("cold start: init + first mail", cold, "", ""))
    print(table(("what", "median ms", "min ms", "max ms"), rows))
    print(f"target: init + first mail < {TARGET_MS:.0f} ms: {'met' if cold < TARGET_MS else 'NOT met'}")
    return 0


def build(interpreter: str) -> tuple[Path, Path]:
    """The inbound package and the runtime's botocore, built once per source tree."""
    digest = hashlib.sha256(bundle.source_hash(bundle.Package.PLAIN).encode() + interpreter.encode())
    root = Path(tempfile.gettempdir()) / f"warpmail-cold-start-{digest.hexdigest()[:16]}"
    package, runtime = root / "package", root / "runtime"
    if (root / "built").exists():
        return package, runtime
    shutil.rmtree(root, ignore_errors=True)
    site = root / "site"
    _pip(interpreter, site, bundle.requirements())
    _pip(interpreter, runtime, [f"botocore=={bundle.pins()['botocore']}"])
    bundle.assemble(package, site, bundle.Package.PLAIN)
    bundle.compile_package(package, interpreter)
    subprocess.run([interpreter, "-m", "compileall", "-q", "-j0", str(runtime)], check=True)
    (root / "built").touch()
    return package, runtime


def _pip(interpreter: str, target: Path, specs: Sequence[str]) -> None:
    """Wheels for this machine, pinned like the deployment's, without bytecode (compiled after)."""
    command = [interpreter, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    command += ["--no-compile", "--only-binary=:all:", "--target", str(target)]
    subprocess.run([*command, "--constraint", str(bundle.CONSTRAINTS), *specs], check=True)


def lambda_environment(package: Path, runtime: Path, endpoint: str) -> dict[str, str]:
    """What Lambda gives the function's process, with AWS at ``endpoint``."""
    from functions.resources import resources

    described = resources(ENVIRONMENT)
    keep = {name: os.environ[name] for name in ("PATH", "HOME", "TMPDIR") if name in os.environ}
    return {
        **keep,
        "PYTHONPATH": f"{package}{os.pathsep}{runtime}",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LAMBDA_TASK_ROOT": str(package),
        "AWS_LAMBDA_FUNCTION_NAME": described.function_name("inbound"),
        "AWS_LAMBDA_FUNCTION_MEMORY_SIZE": str(MEMORY_MB),
        "AWS_EXECUTION_ENV": "AWS_Lambda_python3.12",
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": described.region,
        "AWS_DEFAULT_REGION": described.region,
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
        "POWERTOOLS_LOG_LEVEL": "WARNING",
        # Traced as in Lambda (Tracer, its botocore patch), an invocation X-Ray does not sample.
        "_X_AMZN_TRACE_ID": "Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=0",
        **described.handler_environment(),
    }


def provision_game(endpoint: str, environment: dict[str, str]) -> tuple[str, str]:
    """The deployment's table and buckets at ``endpoint``, and a running game whose player P1
    (``PLAYER``, secret code ``CODE``) is to move; returns the mail bucket and P1's orders."""
    from benchmarks.inbound_mail import _state_json
    from engine.warpwar.mailgame import WarpWarMail
    from functions import clients
    from functions.mail.codes import hash_code
    from functions.resources import resources
    from functions.store import GameRecord, PlayerRecord, Store, provision

    described = resources(ENVIRONMENT)
    settings = described.settings()
    os.environ.update({k: v for k, v in environment.items() if k.startswith("AWS_")})

    def client(service: str) -> Any:
        return clients.session().create_client(service, region_name=described.region, endpoint_url=endpoint)

    dynamodb, s3 = client("dynamodb"), client("s3")
    provision(described, dynamodb, s3)
    client("sesv2").create_email_identity(EmailIdentity=settings.mail_domain)
    state_json = _state_json()
    Store(settings, dynamodb=dynamodb, s3=s3).create_game(
        GameRecord(game_id="g1", title="Cold start", status="running", turn=1),
        [PlayerRecord(game_id="g1", player_id="P1", name="Red", address=PLAYER, code_hash=hash_code(CODE))],
        state_json,
    )
    sheet = WarpWarMail().sheet(state_json, "P1").splitlines()
    order = next(line[2:] for line in sheet if line.startswith("# BUILD"))
    return settings.mail_bucket, f"GAME g1\nPLAYER P1\nTURN 1\nCODE {CODE}\n{order}\nEND\n"


def _run(
    interpreter: str, environment: dict[str, str], endpoint: str, mail: tuple[str, str], index: int
) -> dict[str, float]:
    """One fresh process: its interpreter start, init, first and second mail (seconds)."""
    from functions import clients
    from functions.resources import resources

    described = resources(ENVIRONMENT)
    s3 = clients.session().create_client("s3", region_name=described.region, endpoint_url=endpoint)
    bucket, orders = mail
    events = []
    for message_id in (f"cold-{index}", f"warm-{index}"):
        raw = order_mail(orders, described.mail_domain)
        s3.put_object(Bucket=bucket, Key=described.inbound_prefix + message_id, Body=raw)
        events.append(json.dumps(receipt(message_id)))
    started = time.time()
    done = subprocess.run(
        [interpreter, "-c", BOOTSTRAP.format(memory=MEMORY_MB), *events],
        capture_output=True,
        text=True,
        env=environment,
        # Lambda's working directory is the package (``/var/task``): ``-c`` puts it first on the
        # path, where this repository's sources would otherwise be found before the package.
        cwd=environment["LAMBDA_TASK_ROOT"],
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"the handler's process failed:\n{done.stderr}")
    result = json.loads(done.stdout.splitlines()[-1])
    if not result["module"].startswith(environment["LAMBDA_TASK_ROOT"]):
        raise SystemExit(f"the handler was not imported from the package: {result['module']}")
    statuses = [outcome["status"] for outcome in result["outcomes"]]
    if statuses != ["accepted", "accepted"]:
        raise SystemExit(f"the order mails were not accepted: {result['outcomes']}")
    return {
        "start": result["started"] - started,
        "init": result["init"],
        "first": result["first"],
        "warm": result["warm"],
    }


def order_mail(orders: str, domain: str) -> bytes:
    """Player P1's mail of ``orders``, as their mail client sends it."""
    message = EmailMessage()
    message["From"] = f"Red <{PLAYER}>"
    message["To"] = f"g1@{domain}"
    message["Subject"] = "Orders"
    message["Date"] = format_datetime(datetime.now(UTC))
    message["Message-ID"] = make_msgid(domain="example.org")
    message.set_content(orders)
    return bytes(message)


def receipt(message_id: str) -> dict[str, Any]:
    """SES's receipt notification for the mail its S3 action stored under ``message_id``."""
    passed = {"status": "PASS"}
    verdicts = {f"{name}Verdict": passed for name in ("spam", "virus", "spf", "dkim", "dmarc")}
    record = {"eventSource": "aws:ses", "ses": {"mail": {"messageId": message_id}, "receipt": verdicts}}
    return {"Records": [record]}


def moto_server() -> str:
    """moto's server: the project's environment has no Flask, so it runs from one of its own."""
    found = os.environ.get(MOTO_SERVER_VARIABLE) or shutil.which("moto_server")
    if not found:
        raise SystemExit(
            f"This benchmark needs moto's server: set {MOTO_SERVER_VARIABLE} to its moto_server, made "
            "with: python3.12 -m venv /tmp/moto-server && /tmp/moto-server/bin/pip install -c "
            ".ci/constraints.txt 'moto[server]'"
        )
    return found


def _wait_for(port: int, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"moto's server did not listen on port {port} within {seconds:.0f} s")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _version(interpreter: str) -> str:
    done = subprocess.run([interpreter, "--version"], capture_output=True, text=True, check=True)
    return done.stdout.strip()


if __name__ == "__main__":
    raise SystemExit(main())

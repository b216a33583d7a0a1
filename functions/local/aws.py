"""AWS emulated in-process by moto, provisioned from the one description of the resources.

moto does S3, DynamoDB, SES sending and Step Functions executions, but it runs Lambda code only
inside Docker. Here the Lambda model's one invocation method is replaced so that an invoke
imports the function's handler string and calls it in this process, with the function's
environment and a Lambda-like context. That depends on moto internals (moto is pinned, and
``tests/functions/test_local_aws.py`` fails loudly if they change).

Everything else is provisioned through the public APIs, as the deployment would: the table and
buckets (through :func:`functions.store.provision`), the SES identity, one Lambda function per
:class:`functions.resources.FunctionSpec`, the S3 notification that starts the inbound function
for each raw mail stored under the inbound prefix, and the state machine from the same Amazon States
Language file as CDK, with the local function ARNs in place of its ``${...FunctionArn}``
placeholders.
"""

from __future__ import annotations

import importlib
import io
import json
import logging
import os
import re
import sys
import threading
import time
import traceback
import uuid
import zipfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from moto import mock_aws
from moto.awslambda.models import LambdaFunction
from moto.core.models import DEFAULT_ACCOUNT_ID

from functions import clients
from functions.handlers import new_container
from functions.resources import Resources
from functions.store import provision

ACCOUNT_ID = DEFAULT_ACCOUNT_ID
RUNTIME = "python3.11"
_PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
_TRUST = {
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Principal": {"Service": "{service}"}, "Action": "sts:AssumeRole"}],
}

log = logging.getLogger("warpmail.local")


def local_environment(region: str) -> dict[str, str]:
    """Process environment for local mode: fake credentials (nothing may reach a real account),
    the region, and the switches moto and Powertools need."""
    return {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_SECURITY_TOKEN": "testing",
        "AWS_SESSION_TOKEN": "testing",
        "AWS_DEFAULT_REGION": region,
        "AWS_REGION": region,
        "AWS_ACCOUNT_ID_ENDPOINT_MODE": "disabled",
        "POWERTOOLS_TRACE_DISABLED": "1",
    }


@dataclass(frozen=True)
class LambdaContext:
    """What a Lambda handler reads from its context object (Powertools Logger, idempotency)."""

    function_name: str
    function_version: str
    invoked_function_arn: str
    memory_limit_in_mb: int
    aws_request_id: str
    log_group_name: str
    log_stream_name: str
    deadline: float

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self.deadline - time.monotonic()) * 1000))


def _handler_function(handler: str) -> Callable[[Any, Any], Any]:
    module_name, _, name = handler.rpartition(".")
    function: Callable[[Any, Any], Any] = getattr(importlib.import_module(module_name), name)
    return function


def _context(function: LambdaFunction) -> LambdaContext:
    return LambdaContext(
        function_name=function.function_name,
        function_version=str(function.version),
        invoked_function_arn=function.function_arn,
        memory_limit_in_mb=int(function.memory_size),
        aws_request_id=str(uuid.uuid4()),
        log_group_name=function.logs_group_name,
        log_stream_name=f"local/{function.function_name}",
        deadline=time.monotonic() + float(function.timeout),
    )


MAP_RECURSION_LIMIT = 50_000
"""The recursion limit while moto runs: moto's Distributed Map worker (moto 5.2.1,
``DistributedItemProcessorWorker._eval_pool``) calls itself once per item it processes, so with
Python's default limit of 1,000 each of the Map's ``MaxConcurrency`` workers dies after about
985 items and the map run never ends: about 9,850 games at a concurrency of 10. 50,000 lets a
local run take some 490,000. The frames are Python's own (no C stack in 3.11), so a high limit
costs nothing until it is used."""

# One handler runs at a time, as moto's backends are not made for concurrent writers; re-entrant
# because a handler may itself cause an invocation (an S3 put starting the inbound function).
_INVOKE_LOCK = threading.RLock()


def invoke_in_process(function: LambdaFunction, event: Any = None) -> tuple[str, bool, str]:
    """Replacement for ``LambdaFunction._invoke_lambda``: (payload JSON, errored, logs).

    An exception becomes Lambda's error payload (``errorType`` is what Step Functions' Retry and
    Catch match), and is logged, since S3 notifications swallow invocation errors silently.
    """
    if isinstance(event, str | bytes):
        event = json.loads(event or "{}")
    with _INVOKE_LOCK:
        os.environ.update({k: str(v) for k, v in function.environment_vars.items()})
        try:
            result = _handler_function(str(function.handler))(event, _context(function))
        except Exception as error:
            log.exception("%s failed", function.function_name)
            payload = {
                "errorType": type(error).__name__,
                "errorMessage": str(error),
                "stackTrace": traceback.format_exception(error),
            }
            return json.dumps(payload), True, ""
    return json.dumps(result, default=str), False, ""


@contextmanager
def in_process_lambdas() -> Iterator[None]:
    """moto's Lambda runs handlers in this process while the context is open.

    ``docker_client`` is neutralised too: moto's state dump (``/moto-api/data.json``) reads it,
    and with no Docker engine that fails.
    """
    original_invoke = LambdaFunction.__dict__["_invoke_lambda"]
    original_docker = LambdaFunction.__dict__.get("docker_client")
    LambdaFunction._invoke_lambda = invoke_in_process  # type: ignore[method-assign,assignment]
    LambdaFunction.docker_client = property(lambda _self: None)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        LambdaFunction._invoke_lambda = original_invoke  # type: ignore[method-assign]
        if original_docker is None:
            del LambdaFunction.docker_client
        else:
            LambdaFunction.docker_client = original_docker  # type: ignore[method-assign]


def substitute(definition: str, values: Mapping[str, str]) -> str:
    """``${Name}`` placeholders replaced (as CDK's ``definition_substitutions`` does); an unknown
    placeholder is an error naming it, not a state machine that fails later."""
    unknown = sorted({name for name in _PLACEHOLDER.findall(definition) if name not in values})
    if unknown:
        raise ValueError(f"state machine placeholders with no local value: {', '.join(unknown)}")
    return _PLACEHOLDER.sub(lambda match: values[match.group(1)], definition)


def _placeholder_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("README.txt", "local mode: the handler runs in-process from the source tree\n")
    return buffer.getvalue()


@dataclass
class LocalAws:
    """moto started in this process with the WarpMail resources in it."""

    resources: Resources
    function_arns: dict[str, str] = field(default_factory=dict)
    state_machine_arn: str = ""
    wired: bool = False
    _mock: Any = None
    _lambdas: Any = None
    _saved_environment: dict[str, str | None] = field(default_factory=dict)
    _saved_recursion_limit: int = 0
    _clients: dict[str, Any] = field(default_factory=dict)

    def start(self, restore: Callable[[], None] | None = None) -> None:
        """Start moto, provision the storage and run ``restore`` (a snapshot put back before
        :meth:`wire` makes the inbound notification, so restored mail is not processed again)."""
        environment = local_environment(self.resources.region)
        self._saved_environment = {name: os.environ.get(name) for name in environment}
        self._saved_recursion_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(self._saved_recursion_limit, MAP_RECURSION_LIMIT))
        os.environ.update(environment)
        new_container()
        logging.getLogger("moto.stepfunctions").setLevel(logging.CRITICAL)
        self._mock = mock_aws(config={"stepfunctions": {"execute_state_machine": True}})
        self._mock.start()
        self._lambdas = in_process_lambdas()
        self._lambdas.__enter__()
        provision(self.resources, self.client("dynamodb"), self.client("s3"))
        self._verify_sender()
        if restore is not None:
            restore()

    def wire(self) -> None:
        """Create the functions, the inbound notification and the state machine, once.

        Apart from :meth:`start` because it costs seconds (moto imports its Lambda and Step
        Functions backends on their first call), which a process using only the store and SES
        need not pay."""
        if self.wired:
            return
        self._create_functions()
        self._notify_inbound()
        self._create_state_machine()
        self.wired = True

    def stop(self) -> None:
        if self._mock is None:
            return
        self._lambdas.__exit__(None, None, None)
        self._mock.stop()
        self._mock = None
        self._clients.clear()
        self.function_arns.clear()
        self.state_machine_arn = ""
        self.wired = False
        for name, value in self._saved_environment.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        sys.setrecursionlimit(self._saved_recursion_limit)

    def client(self, service: str) -> Any:
        """One client per service while moto runs, from the handlers' botocore session (one
        session for every call the host and its handlers make)."""
        if service not in self._clients:
            self._clients[service] = clients.client(service, self.resources.region)
        return self._clients[service]

    def _role(self, service: str) -> str:
        policy = json.dumps(_TRUST).replace("{service}", service)
        name = f"warpmail-{self.resources.env}-{service.split('.')[0]}"
        role = self.client("iam").create_role(RoleName=name, AssumeRolePolicyDocument=policy)
        return str(role["Role"]["Arn"])

    def _verify_sender(self) -> None:
        self.client("sesv2").create_email_identity(EmailIdentity=self.resources.mail_domain)

    def _create_functions(self) -> None:
        role = self._role("lambda.amazonaws.com")
        client = self.client("lambda")
        code = _placeholder_zip()
        variables = self.resources.handler_environment()
        for spec in self.resources.functions:
            created = client.create_function(
                FunctionName=self.resources.function_name(spec.key),
                Runtime=RUNTIME,
                Role=role,
                Handler=spec.handler,
                Code={"ZipFile": code},
                MemorySize=spec.memory_mb,
                Timeout=spec.timeout_s,
                Environment={"Variables": variables},
            )
            self.function_arns[spec.key] = created["FunctionArn"]

    def _notify_inbound(self) -> None:
        inbound = self.function_arns.get("inbound")
        if inbound is None:
            return
        self.client("lambda").add_permission(
            FunctionName=inbound,
            StatementId="s3-inbound",
            Action="lambda:InvokeFunction",
            Principal="s3.amazonaws.com",
            SourceArn=f"arn:aws:s3:::{self.resources.mail_bucket}",
        )
        self._put_inbound_notification(inbound)

    def _put_inbound_notification(self, inbound: str | None) -> None:
        """Raw mail stored under the inbound prefix starts ``inbound`` (nothing when None)."""
        configurations = [
            {
                "LambdaFunctionArn": inbound,
                "Events": ["s3:ObjectCreated:*"],
                "Filter": {
                    "Key": {"FilterRules": [{"Name": "prefix", "Value": self.resources.inbound_prefix}]}
                },
            }
        ]
        self.client("s3").put_bucket_notification_configuration(
            Bucket=self.resources.mail_bucket,
            NotificationConfiguration={"LambdaFunctionConfigurations": configurations if inbound else []},
        )

    @contextmanager
    def inbound_paused(self) -> Iterator[None]:
        """No inbound function for raw mail stored meanwhile: mail put back from a snapshot was
        handled when it arrived."""
        inbound = self.function_arns.get("inbound")
        if inbound is None:
            yield
            return
        self._put_inbound_notification(None)
        try:
            yield
        finally:
            self._put_inbound_notification(inbound)

    def substitutions(self) -> dict[str, str]:
        return self.resources.state_machine_substitutions(self.function_arns)

    def _create_state_machine(self) -> None:
        path = self.resources.state_machine_file
        if not path.exists():
            log.warning("no state machine definition at %s: ticking is off", path)
            return
        definition = substitute(path.read_text(encoding="utf-8"), self.substitutions())
        created = self.client("stepfunctions").create_state_machine(
            name=self.resources.state_machine,
            definition=definition,
            roleArn=self._role("states.amazonaws.com"),
        )
        self.state_machine_arn = str(created["stateMachineArn"])

"""Where the console's data is: the local host's folder, or a deployed stack.

Local (``--local ROOT``): the local host (functions/local/host.py) is started in this process,
which restores its saved games; the command runs; stopping it saves them, and the mail sent is
in ``ROOT/outbox/``. The command holds the folder's lock meanwhile; a ``warpmail local serve`` on
the same folder takes it per mail and per workflow run, so the command waits (a bounded wait)
for the one in hand, and serve reloads what the command saved.

A stack (``--stack NAME``): its resources are named by its CloudFormation outputs, the clients
come from a boto3 session (``--profile``, ``--region``); AWS credentials are the only
authorisation.
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import boto3
from botocore.exceptions import BotoCoreError, ClientError
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from functions.console.choice import Choice
from functions.console.errors import ConsoleError
from functions.mail.ses import Mailer, SesMailer
from functions.resources import Settings
from functions.store import Store

if TYPE_CHECKING:
    from functions.local.host import LocalHost

INBOUND_PREFIX = "inbound/"
"""Where the receipt rule stores raw mail (``Resources.inbound_prefix``)."""


class WorkflowRun(BaseModel):
    """One start of the turn workflow: its execution name, and its status when the console
    waited for it (the local host does; a stack's runs on, to be followed in its console)."""

    name: str
    status: str
    detail: str = ""


class Backend(Protocol):
    """What every console service uses."""

    store: Store
    mailer: Mailer
    settings: Settings

    def run_workflow(self, now: datetime) -> WorkflowRun:
        """Start the turn workflow, as the schedule does."""
        ...

    def deliver(self, raw: bytes) -> str:
        """Store one raw mail where the receipt rule would; the inbound function reads it."""
        ...

    def close(self) -> None: ...


class StackOutputs(BaseModel):
    """The outputs of a deployed WarpMail stack (infra/)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    environment: str = Field(alias="Environment")
    mail_domain: str = Field(alias="MailDomain")
    sender: str = Field(alias="Sender")
    table: str = Field(alias="TableName")
    mail_bucket: str = Field(alias="MailBucket")
    state_bucket: str = Field(alias="StateBucket")
    state_machine_arn: str = Field(alias="StateMachineArn")
    inbound_function: str = Field(alias="InboundFunctionName")
    configuration_set: str = Field("", alias="ConfigurationSetName")

    def settings(self) -> Settings:
        """What the deployed functions are told (the console sends as they do: through the
        configuration set that keeps bounced addresses suppressed)."""
        return Settings(**self.model_dump(include=set(Settings.model_fields)))


class StackBackend:
    """A deployed stack, through one boto3 session."""

    def __init__(self, session: Any, outputs: StackOutputs) -> None:
        self.outputs = outputs
        self.settings = outputs.settings()
        self.store = Store(self.settings, session.client("dynamodb"), session.client("s3"))
        self.mailer: Mailer = SesMailer(session.client("sesv2"), self.settings.configuration_set)
        self.session = session

    @cached_property
    def stepfunctions(self) -> Any:
        """Made when first used: a client costs a fifth of a second, and few commands run turns."""
        return self.session.client("stepfunctions")

    def run_workflow(self, now: datetime) -> WorkflowRun:
        name = f"console-{now:%Y%m%dT%H%M%S}-{uuid.uuid4().hex[:8]}"
        started = self.stepfunctions.start_execution(
            stateMachineArn=self.outputs.state_machine_arn, name=name, input=json.dumps({})
        )
        return WorkflowRun(name=name, status="STARTED", detail=str(started["executionArn"]))

    def deliver(self, raw: bytes) -> str:
        key = f"{INBOUND_PREFIX}console-{uuid.uuid4().hex}"
        self.store.s3.put_object(Bucket=self.settings.mail_bucket, Key=key, Body=raw)
        return key

    def close(self) -> None:
        """Nothing is held open."""


def stack_outputs(session: Any, stack: str) -> StackOutputs:
    """The outputs of ``stack``; a clear ConsoleError when it cannot be read."""
    try:
        described = session.client("cloudformation").describe_stacks(StackName=stack)
    except (ClientError, BotoCoreError) as error:
        raise ConsoleError(f"cannot read stack {stack}: {error}") from error
    outputs = {o["OutputKey"]: o["OutputValue"] for o in described["Stacks"][0].get("Outputs", [])}
    try:
        return StackOutputs.model_validate(outputs)
    except ValidationError as error:
        missing = sorted(str(e["loc"][0]) for e in error.errors())
        raise ConsoleError(
            f"stack {stack} is not a WarpMail stack: no output {', '.join(missing)}"
        ) from error


def open_stack(stack: str, profile: str | None, region: str | None) -> StackBackend:
    try:
        session = boto3.Session(profile_name=profile, region_name=region)
    except BotoCoreError as error:
        raise ConsoleError(f"cannot use AWS profile {profile}: {error}") from error
    return StackBackend(session, stack_outputs(session, stack))


class LocalBackend:
    """The local host at ``root``, started for one command; or ``host``, one running already
    (``warpmail local play`` setting up its game), which ``close`` leaves running."""

    def __init__(self, root: Path, host: LocalHost | None = None) -> None:
        # Imported here: the local host needs moto, which only the local mode installs.
        from functions.local.host import HostBusyError, LocalHost

        # The handlers run in this process: their structured logs only for warnings.
        os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
        os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
        self.owned = host is None
        if host is None:
            # A command rarely delivers mail or runs the workflow: the functions are made if it does.
            host = LocalHost(root, on_demand=True)
            try:
                host.start()
            except HostBusyError as error:
                raise ConsoleError(str(error)) from error
        self.host = host
        self.settings = self.host.resources.settings()
        self.store = Store(self.settings, self.host.client("dynamodb"), self.host.client("s3"))
        self.mailer: Mailer = SesMailer(self.host.client("sesv2"))

    def run_workflow(self, now: datetime) -> WorkflowRun:
        result = self.host.tick(now)
        return WorkflowRun(name=result.name, status=result.status, detail=result.error or "")

    def deliver(self, raw: bytes) -> str:
        return self.host.deliver(raw)

    def close(self) -> None:
        if self.owned:
            self.host.stop()


def open_backend(choice: Choice) -> Backend:
    if choice.stack:
        return open_stack(choice.stack, choice.profile, choice.region)
    return LocalBackend(choice.local)

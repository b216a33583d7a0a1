"""The one description of WarpMail's AWS resources.

Everything that names a resource reads it from here: the CDK app (``infra/``) to deploy, the local
mode to provision moto with boto3 (:func:`functions.store.provision`), the tests, and the handlers,
which get the names through their environment (:meth:`Resources.handler_environment`, read back by
:meth:`Settings.from_environment`). The table's keys and indexes are described here too, so the
deployed table and the local one cannot drift apart.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

SERVICE = "warpmail"
METRICS_NAMESPACE = "WarpMail"
ENVIRONMENT_VARIABLE = "WARPMAIL_ENV"
"""The deployment's name (``Resources.env``) in a handler's environment."""
ENVIRONMENT_DIMENSION = "environment"
"""The dimension every custom metric carries the deployment's name in, beside ``service``: two
deployments in one region then publish different metrics, and each one's alarms watch its own."""
INBOUND_PREFIX = "inbound/"
STATE_MACHINE_FILE = Path(__file__).parent / "statemachine" / "turn.asl.json"

# Attribute names of the single table (see docs/architecture.md for what each item puts in them).
PK = "PK"
SK = "SK"
GSI1 = "GSI1"
GSI1PK = "GSI1PK"
GSI1SK = "GSI1SK"
GSI2 = "GSI2"
GSI2PK = "GSI2PK"
GSI2SK = "GSI2SK"
TTL_ATTRIBUTE = "expires"


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class FunctionSpec(Frozen):
    """One Lambda function: ``key`` names it in the workflow, ``handler`` is its dotted entry point."""

    key: str
    handler: str
    memory_mb: int
    timeout_s: int

    @property
    def placeholder(self) -> str:
        """Its ARN's placeholder in the state machine file: ``find_due`` -> "FindDueFunctionArn"."""
        return "".join(part.capitalize() for part in self.key.split("_")) + "FunctionArn"


class IndexSpec(Frozen):
    """A global secondary index: both keys are strings, every attribute is projected."""

    name: str
    partition_key: str
    sort_key: str


class TableSpec(Frozen):
    """The single table: string partition and sort keys, on-demand billing, TTL on ``ttl_attribute``
    (epoch seconds)."""

    partition_key: str = PK
    sort_key: str = SK
    ttl_attribute: str = TTL_ATTRIBUTE
    indexes: tuple[IndexSpec, ...] = (
        IndexSpec(name=GSI1, partition_key=GSI1PK, sort_key=GSI1SK),
        IndexSpec(name=GSI2, partition_key=GSI2PK, sort_key=GSI2SK),
    )

    def key_attributes(self) -> tuple[str, ...]:
        """Every attribute used as a key of the table or of an index, in a stable order."""
        names = [self.partition_key, self.sort_key]
        for index in self.indexes:
            names += [index.partition_key, index.sort_key]
        return tuple(dict.fromkeys(names))


FUNCTIONS = (
    FunctionSpec(key="inbound", handler="functions.handlers.inbound.handler", memory_mb=512, timeout_s=30),
    FunctionSpec(key="find_due", handler="functions.handlers.workflow.find_due", memory_mb=256, timeout_s=30),
    FunctionSpec(
        key="process_game", handler="functions.handlers.workflow.process_game", memory_mb=1024, timeout_s=300
    ),
    FunctionSpec(
        key="park_failed", handler="functions.handlers.workflow.park_failed", memory_mb=256, timeout_s=30
    ),
)
CANARY = FunctionSpec(key="canary", handler="functions.handlers.canary.handler", memory_mb=256, timeout_s=30)
"""The synthetic canary (functions/handlers/canary.py): deployed only when a canary game is set,
and no part of the turn workflow, so not among ``FUNCTIONS``."""
FEEDBACK = FunctionSpec(
    key="feedback", handler="functions.handlers.feedback.handler", memory_mb=256, timeout_s=30
)
"""SES's bounces and complaints (functions/handlers/feedback.py), from the configuration set's
topic: only a deployment has one (the local mode sends through no configuration set, and moto
publishes no SES events), and it is no part of the turn workflow, so not among ``FUNCTIONS``."""
CANARY_MINUTES = 15
"""How often the canary runs."""
CANARY_GAME_VARIABLE = "WARPMAIL_CANARY_GAME"
CANARY_LOCAL_PART = "canary"
"""The canary mails from ``canary@<mail domain>``."""


class Resources(Frozen):
    """The names and sizes of one deployment (``env``: "local", "test", "prod", ...)."""

    env: str
    region: str
    table: str
    table_spec: TableSpec = TableSpec()
    mail_bucket: str
    inbound_prefix: str = INBOUND_PREFIX
    state_bucket: str
    mail_domain: str
    sender: str
    functions: tuple[FunctionSpec, ...] = FUNCTIONS
    canary: FunctionSpec = CANARY
    feedback: FunctionSpec = FEEDBACK
    state_machine: str
    state_machine_file: Path = STATE_MACHINE_FILE
    schedule_minutes: int = 5
    configuration_set: str = ""
    """The SES configuration set mail is sent with: "" in the local mode, which has none."""
    trust_intake: bool = False
    """Whether mail whose stored copy carries no SES verdicts is trusted: only the local host,
    whose intake checks nothing (functions/local/intake.py); never a deployment."""

    def function(self, key: str) -> FunctionSpec:
        """The function with this key; KeyError names the keys there are."""
        every = (*self.functions, self.feedback, self.canary)
        for spec in every:
            if spec.key == key:
                return spec
        known = ", ".join(f.key for f in every)
        raise KeyError(f"no function {key!r}; there are {known}")

    def function_name(self, key: str) -> str:
        """The deployed name of the function with this key, e.g. "warpmail-prod-inbound"."""
        return f"{SERVICE}-{self.env}-{self.function(key).key.replace('_', '-')}"

    @property
    def canary_address(self) -> str:
        return f"{CANARY_LOCAL_PART}@{self.mail_domain}"

    def settings(self) -> Settings:
        return Settings(
            table=self.table,
            mail_bucket=self.mail_bucket,
            state_bucket=self.state_bucket,
            mail_domain=self.mail_domain,
            sender=self.sender,
            configuration_set=self.configuration_set,
            trust_intake=self.trust_intake,
            inbound_prefix=self.inbound_prefix,
        )

    def state_machine_substitutions(self, function_arns: Mapping[str, str]) -> dict[str, str]:
        """The values of the state machine file's ``${...}`` placeholders: each function's ARN
        (``function_arns`` by function key) and the names of the table and buckets."""
        values = {self.function(key).placeholder: arn for key, arn in function_arns.items()}
        return values | {
            "TableName": self.table,
            "MailBucket": self.mail_bucket,
            "StateBucket": self.state_bucket,
        }

    def with_configuration_set(self) -> Resources:
        """These resources sending through the deployment's SES configuration set, "warpmail-<env>"."""
        return self.model_copy(update={"configuration_set": f"{SERVICE}-{self.env}"})

    def handler_environment(self) -> dict[str, str]:
        """The environment every handler is given (the CDK app and the local mode both set it)."""
        return self.settings().environment() | {
            ENVIRONMENT_VARIABLE: self.env,
            "POWERTOOLS_SERVICE_NAME": SERVICE,
            "POWERTOOLS_METRICS_NAMESPACE": METRICS_NAMESPACE,
            # The functions use no pydantic plugin: without this, the first model built reads the
            # entry points of every installed distribution to find some (docs/performance.md).
            "PYDANTIC_DISABLE_PLUGINS": "__all__",
        }

    def metric_dimensions(self) -> dict[str, str]:
        """The dimensions of this deployment's custom metrics (namespace ``METRICS_NAMESPACE``)."""
        return {"service": SERVICE, ENVIRONMENT_DIMENSION: self.env}


def resources(env: str = "local", mail_domain: str = "warpmail.test", region: str = "eu-west-1") -> Resources:
    """The resources of deployment ``env``, receiving mail for ``mail_domain``."""
    prefix = f"{SERVICE}-{env}"
    return Resources(
        env=env,
        region=region,
        table=prefix,
        mail_bucket=f"{prefix}-mail",
        state_bucket=f"{prefix}-state",
        mail_domain=mail_domain,
        sender=f"{SERVICE}@{mail_domain}",
        state_machine=f"{prefix}-turns",
    )


ENVIRONMENT = {
    "table": "WARPMAIL_TABLE",
    "mail_bucket": "WARPMAIL_MAIL_BUCKET",
    "state_bucket": "WARPMAIL_STATE_BUCKET",
    "mail_domain": "WARPMAIL_DOMAIN",
    "sender": "WARPMAIL_SENDER",
    "configuration_set": "WARPMAIL_CONFIGURATION_SET",
    "trust_intake": "WARPMAIL_TRUST_INTAKE",
    "inbound_prefix": "WARPMAIL_INBOUND_PREFIX",
}
OPTIONAL_SETTINGS = frozenset({"configuration_set", "trust_intake", "inbound_prefix"})
"""Settings a handler may be given empty."""


def _variable(value: str | bool) -> str:
    """A setting as an environment variable: a flag is "true" or ""."""
    if isinstance(value, bool):
        return "true" if value else ""
    return value


class MissingSettingError(RuntimeError):
    """A handler started without the environment its deployment should have given it."""


class Settings(Frozen):
    """What a handler needs to know about its deployment, read from its environment."""

    table: str
    mail_bucket: str
    state_bucket: str
    mail_domain: str
    sender: str
    configuration_set: str = ""
    inbound_prefix: str = INBOUND_PREFIX
    """Where the receipt rule stores mail in the mail bucket (SES's notification names only the
    message id)."""
    trust_intake: bool = False
    """Mail handed over with no SES verdicts is trusted (the local host's own intake); when
    False, as in every deployment, a mail whose verdicts cannot be read is not
    (functions/mail/safety.py)."""

    @field_validator("trust_intake", "inbound_prefix", mode="before")
    @classmethod
    def _default_when_empty(cls, value: object, info: ValidationInfo) -> object:
        """An optional environment variable left empty is the field's default."""
        return value if value != "" else cls.model_fields[str(info.field_name)].default

    def environment(self) -> dict[str, str]:
        values = self.model_dump()
        return {variable: _variable(values[field]) for field, variable in ENVIRONMENT.items()}

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> Settings:
        """The settings in ``environ`` (the process environment by default)."""
        source = os.environ if environ is None else environ
        missing = [
            variable
            for field, variable in ENVIRONMENT.items()
            if not source.get(variable) and field not in OPTIONAL_SETTINGS
        ]
        if missing:
            raise MissingSettingError(f"environment variables not set: {', '.join(missing)}")
        return cls(**{field: source.get(variable, "") for field, variable in ENVIRONMENT.items()})

"""The deployment's settings, read from CDK context (``-c warpmail:<key>=<value>`` or cdk.json) and
checked before anything is built: a bad value stops the synth with a message naming the key.

Names of resources are not settings: they follow from the environment name and the mail domain
through :func:`functions.resources.resources`, the one description of the resources.
"""

from __future__ import annotations

from typing import Any, Protocol

from aws_cdk import aws_logs as logs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.alias_generators import to_camel

from functions.mail.compose import valid_game_id
from functions.resources import Resources, resources

PREFIX = "warpmail:"
LOG_RETENTION = {
    1: logs.RetentionDays.ONE_DAY,
    3: logs.RetentionDays.THREE_DAYS,
    5: logs.RetentionDays.FIVE_DAYS,
    7: logs.RetentionDays.ONE_WEEK,
    14: logs.RetentionDays.TWO_WEEKS,
    30: logs.RetentionDays.ONE_MONTH,
    60: logs.RetentionDays.TWO_MONTHS,
    90: logs.RetentionDays.THREE_MONTHS,
    120: logs.RetentionDays.FOUR_MONTHS,
    150: logs.RetentionDays.FIVE_MONTHS,
    180: logs.RetentionDays.SIX_MONTHS,
    365: logs.RetentionDays.ONE_YEAR,
    400: logs.RetentionDays.THIRTEEN_MONTHS,
    545: logs.RetentionDays.EIGHTEEN_MONTHS,
    731: logs.RetentionDays.TWO_YEARS,
    1096: logs.RetentionDays.THREE_YEARS,
    1827: logs.RetentionDays.FIVE_YEARS,
}
"""The retention periods CloudWatch Logs accepts, in days (up to five years)."""
_DOMAIN = r"^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$"
_ADDRESS = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


class ContextReader(Protocol):
    def try_get_context(self, key: str) -> Any: ...


class ConfigError(ValueError):
    """The context settings are missing or wrong; the message names each key and what to do."""


class DeployConfig(BaseModel):
    """One deployment's settings; each context key is ``warpmail:`` and the field's name in camel case."""

    model_config = ConfigDict(frozen=True, populate_by_name=True, extra="forbid", alias_generator=to_camel)

    environment: str = Field("dev", pattern=r"^[a-z]([a-z0-9-]{0,18}[a-z0-9])?$")
    mail_domain: str = Field(pattern=_DOMAIN, max_length=253)
    sender: str = Field("", pattern=rf"^$|{_ADDRESS}")
    operator_email: str = Field(pattern=_ADDRESS)
    region: str = Field("eu-west-1", pattern=r"^[a-z]{2}(-[a-z]+)+-\d$")
    schedule_minutes: int = Field(Resources.model_fields["schedule_minutes"].default, ge=1, le=1440)
    archive_days: int = Field(90, ge=30)
    raw_mail_days: int = Field(365, ge=0)  # 0: raw inbound mail is kept forever
    results_retention_days: int = Field(365, ge=1)
    log_retention_days: int = 30
    inbound_concurrency: int = Field(5, ge=0, le=1000)
    inbound_snap_start: bool = False
    """SnapStart on the inbound function: off by default, as its snapshot's cache alone costs
    more a month than the idle deployment's target (docs/operations.md, "Costs")."""
    bounce_rate_alarm: float = Field(0.04, gt=0, lt=1)
    complaint_rate_alarm: float = Field(0.0008, gt=0, lt=1)
    ses_quota_alarm_percent: float = Field(80, gt=0, le=100)
    backlog_alarm_minutes: int = Field(30, ge=5)
    monthly_budget_usd: float = Field(20, gt=0)
    canary_game: str = ""
    """The game the synthetic canary mails every 15 minutes ("": no canary; infra/canary.py)."""

    @field_validator("log_retention_days")
    @classmethod
    def _a_retention_logs_accept(cls, value: int) -> int:
        if value not in LOG_RETENTION:
            kept = ", ".join(map(str, LOG_RETENTION))
            raise ValueError(f"CloudWatch Logs keeps logs for one of {kept} days")
        return value

    @field_validator("canary_game")
    @classmethod
    def _a_game_address(cls, value: str) -> str:
        if value and not valid_game_id(value):
            raise ValueError("a game id: lower-case letters, digits, - and _, not a reserved name")
        return value

    @model_validator(mode="after")
    def _sender_in_the_domain(self) -> DeployConfig:
        if self.sender and not self.sender.lower().endswith("@" + self.mail_domain):
            raise ValueError(
                f"{PREFIX}sender {self.sender} must be an address at {PREFIX}mailDomain {self.mail_domain}"
            )
        return self

    def log_retention(self) -> logs.RetentionDays:
        return LOG_RETENTION[self.log_retention_days]

    def resources(self) -> Resources:
        """The resources of this deployment, sending through its SES configuration set."""
        described = resources(self.environment, self.mail_domain, self.region).with_configuration_set()
        update: dict[str, Any] = {"schedule_minutes": self.schedule_minutes}
        if self.sender:
            update["sender"] = self.sender
        return described.model_copy(update=update)


def context_key(field: str) -> str:
    """The context key of a :class:`DeployConfig` field: ``mail_domain`` -> ``warpmail:mailDomain``."""
    info = DeployConfig.model_fields[field]
    return PREFIX + (info.alias or field)


def from_context(node: ContextReader) -> DeployConfig:
    """The settings in the CDK context; ConfigError names every missing or wrong key."""
    values = {
        info.alias or name: value
        for name, info in DeployConfig.model_fields.items()
        if (value := node.try_get_context(context_key(name))) is not None
    }
    try:
        return DeployConfig.model_validate(values)
    except ValidationError as error:
        raise ConfigError(_explain(error)) from None


def _explain(error: ValidationError) -> str:
    lines = ["The deployment's settings are not right (CDK context, cdk.json or -c KEY=VALUE):"]
    for problem in error.errors():
        key = PREFIX + ".".join(str(part) for part in problem["loc"]) if problem["loc"] else "(settings)"
        given = f" (given: {problem['input']!r})" if problem["type"] != "missing" else ""
        lines.append(f"  {key}: {_plain(problem['msg'])}{given}")
    lines.append("See docs/operations.md, 'Settings', for every key and its default.")
    return "\n".join(lines)


def _plain(message: str) -> str:
    if message == "Field required":
        return "not set: give it with -c KEY=VALUE or in cdk.json's context"
    return message.removeprefix("Value error, ")

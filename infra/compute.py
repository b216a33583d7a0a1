"""The four Lambda functions of ``Resources.functions``: arm64 on python3.12 (Pillow's and resvg's
arm64 wheels need Amazon Linux 2023's glibc), memory and timeout from the description, the
handlers' environment from ``Resources.handler_environment()``, JSON logs into a log group with
retention, X-Ray tracing, and a role each that allows exactly what its handler calls
(:data:`ACCESS`).

The SES receipt rule invokes the inbound function (its Lambda action, asynchronously, after its S3
action has stored the mail) with the receipt notification that carries SES's verdicts; only SES,
for this account's receipt rule, may invoke it. With ``inboundSnapStart`` the rule invokes the
alias ``live`` of the function's latest published version, which SnapStart restores from the
snapshot taken when it was published (docs/operations.md says what it costs); older versions are
deleted on deploy, as each one's snapshot is billed while it exists. The roles name the buckets
by their ARNs, which the names in the description fix.

The functions invoked asynchronously (inbound by SES, feedback by SNS) are retried twice by
Lambda, then what they were given waits in a dead-letter queue of their own (an alarm watches
every dead-letter queue: infra/monitoring.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import ArnFormat, Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_ses_actions as ses_actions
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from constructs import Construct

from functions.resources import GSI2, FunctionSpec, Resources
from functions.store.keys import RESULTS_PREFIX, STATE_PREFIX, WORK_PREFIX, WORKFLOW
from infra import bundle
from infra.assets import lambda_code
from infra.checks import acknowledge
from infra.config import DeployConfig
from infra.mail import Mail
from infra.storage import Storage

RUNTIME = lambda_.Runtime.PYTHON_3_12
TABLE_READS = ("dynamodb:GetItem", "dynamodb:Query")
TABLE_WRITES = (
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:ConditionCheckItem",
)
SEND_MAIL = ("ses:SendEmail", "ses:SendRawEmail")
"""SES v2 SendEmail with raw content: both actions, as SES may authorise it as either."""
DLQ_RETENTION = Duration.days(14)
ASYNC_RETRIES = 2
ASYNCHRONOUS = ("inbound", "feedback")
"""The functions an AWS service invokes asynchronously: each has its dead-letter queue."""
LIVE_ALIAS = "live"
"""The inbound function's alias the receipt rule invokes when SnapStart is on."""


@dataclass(frozen=True)
class Access:
    """What one function's handler calls (functions/store/store.py, functions/mail/ses.py)."""

    table_writes: bool = False
    table_actions: tuple[str, ...] | None = None
    """Its actions on the table's items, when not every read (and every write with
    ``table_writes``)."""
    leading_keys: tuple[str, ...] = ()
    """The partition keys of the only items ``table_actions`` may touch (none: any)."""
    indexes: tuple[str, ...] | None = None
    """The indexes it queries (None: every one)."""
    describes_runs: bool = False
    """It asks Step Functions whether a run of the turn workflow still runs."""
    reads_inbound_mail: bool = False
    reads: tuple[str, ...] = ()
    """State bucket prefixes it reads."""
    writes: tuple[str, ...] = ()
    """State bucket prefixes it writes."""
    sends_mail: bool = False


ACCESS = {
    "inbound": Access(
        table_writes=True, reads_inbound_mail=True, reads=(STATE_PREFIX, RESULTS_PREFIX), sends_mail=True
    ),
    # The due index; the run lease, read and written; its run's work list (Store.lease_run,
    # due_game_ids, put_work_list) and the state of the run holding the lease.
    "find_due": Access(
        table_actions=("dynamodb:GetItem", "dynamodb:PutItem"),
        leading_keys=(WORKFLOW,),
        indexes=(GSI2,),
        writes=(WORK_PREFIX,),
        describes_runs=True,
    ),
    "process_game": Access(
        table_writes=True, reads=(STATE_PREFIX,), writes=(STATE_PREFIX, RESULTS_PREFIX), sends_mail=True
    ),
    # A game and its players and orders read, a new version written, the due index's keys set
    # (Store.update_game): no index read, nothing deleted; the GM mailed once (a claim, the mail
    # log: functions/host/parked.py).
    "park_failed": Access(
        table_actions=("dynamodb:GetItem", "dynamodb:Query", "dynamodb:PutItem", "dynamodb:UpdateItem"),
        indexes=(),
        sends_mail=True,
    ),
    "feedback": Access(table_writes=True, sends_mail=True),
}
"""Each function's access: by default every read of the table and its indexes."""


def dead_letter_queue(scope: Construct, construct_id: str) -> sqs.Queue:
    """An encrypted, TLS-only queue that keeps what could not be delivered for two weeks."""
    queue = sqs.Queue(
        scope,
        construct_id,
        encryption=sqs.QueueEncryption.SQS_MANAGED,
        enforce_ssl=True,
        retention_period=DLQ_RETENTION,
    )
    acknowledge(
        queue,
        "AwsSolutions-SQS3",
        "This queue is itself a dead-letter queue; what lands in it is kept 14 days for the operator to "
        "re-drive, with an alarm on its depth.",
    )
    return queue


class Compute(Construct):
    """The functions, their roles and log groups, and the receipt rule's invocation of inbound."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        resources: Resources,
        config: DeployConfig,
        storage: Storage,
        mail: Mail,
    ) -> None:
        super().__init__(scope, construct_id)
        self.resources = resources
        self.storage = storage
        self.mail = mail
        self.dead_letters = {
            key: dead_letter_queue(self, f"{key.capitalize()}DeadLetters") for key in ASYNCHRONOUS
        }
        # One asset per package, shared by the functions deployed with it (built once).
        self.code = {package: lambda_code(package, RUNTIME) for package in bundle.Package}
        self.functions = {spec.key: self._function(spec, config) for spec in resources.functions}
        self._receive_into_inbound(config)
        self.functions["feedback"] = self._feedback_from_ses(config)

    def _function(self, spec: FunctionSpec, config: DeployConfig) -> lambda_.Function:
        name = self.resources.function_name(spec.key)
        log_group = logs.LogGroup(
            self,
            f"{spec.key}-logs",
            log_group_name=f"/aws/lambda/{name}",
            retention=config.log_retention(),
            removal_policy=RemovalPolicy.DESTROY,
        )
        role = iam.Role(
            self,
            f"{spec.key}-role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=name,
        )
        log_group.grant_write(role)
        inbound = spec.key == "inbound"
        dead_letters = self.dead_letters.get(spec.key)
        snap_start = inbound and config.inbound_snap_start
        function = lambda_.Function(
            self,
            spec.key,
            function_name=name,
            description=f"WarpMail {self.resources.env}: {spec.handler}",
            runtime=RUNTIME,
            architecture=lambda_.Architecture.ARM_64,
            handler=spec.handler,
            code=self.code[bundle.package_of(spec.key)],
            memory_size=spec.memory_mb,
            timeout=Duration.seconds(spec.timeout_s),
            environment=self.resources.handler_environment(),
            logging_format=lambda_.LoggingFormat.JSON,
            application_log_level_v2=lambda_.ApplicationLogLevel.INFO,
            system_log_level_v2=lambda_.SystemLogLevel.WARN,
            log_group=log_group,
            tracing=lambda_.Tracing.ACTIVE,
            role=role,
            reserved_concurrent_executions=(config.inbound_concurrency or None) if inbound else None,
            dead_letter_queue=dead_letters,
            retry_attempts=ASYNC_RETRIES if dead_letters else None,
            snap_start=lambda_.SnapStartConf.ON_PUBLISHED_VERSIONS if snap_start else None,
            # A superseded version is deleted once the alias has moved on: its snapshot would be
            # billed for as long as it exists, and nothing invokes it.
            current_version_options=(
                lambda_.VersionOptions(removal_policy=RemovalPolicy.DESTROY) if snap_start else None
            ),
        )
        self._grant(role, ACCESS[spec.key])
        acknowledge(
            function,
            "AwsSolutions-L1",
            "python3.12 on purpose: the project is built and tested on Python 3.11/3.12 (pyproject's "
            "requires-python), and 3.12 is the first runtime on Amazon Linux 2023, whose glibc the arm64 "
            "Pillow and resvg wheels need. The runtime moves with the Python the project is tested on.",
        )
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::*]",
            "X-Ray's PutTraceSegments and PutTelemetryRecords, added for active tracing, take no "
            "resource-level permission: AWS requires Resource '*' for them.",
        )
        return function

    def _grant(self, role: iam.Role, access: Access) -> None:
        table = self.storage.table
        indexes = [
            f"{table.table_arn}/index/{index.name}"
            for index in self.resources.table_spec.indexes
            if access.indexes is None or index.name in access.indexes
        ]
        if access.table_actions is None:
            role.add_to_policy(
                iam.PolicyStatement(actions=list(TABLE_READS), resources=[table.table_arn, *indexes])
            )
        else:
            conditions = (
                {"ForAllValues:StringEquals": {"dynamodb:LeadingKeys": list(access.leading_keys)}}
                if access.leading_keys
                else None
            )
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=list(access.table_actions), resources=[table.table_arn], conditions=conditions
                )
            )
            if indexes:
                role.add_to_policy(iam.PolicyStatement(actions=["dynamodb:Query"], resources=indexes))
        if access.table_writes:
            role.add_to_policy(iam.PolicyStatement(actions=list(TABLE_WRITES), resources=[table.table_arn]))
        if access.describes_runs:
            role.add_to_policy(
                iam.PolicyStatement(actions=["states:DescribeExecution"], resources=[self._runs(role)])
            )
        if access.reads_inbound_mail:
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=["s3:GetObject"],
                    resources=[
                        self._objects(role, self.resources.mail_bucket, self.resources.inbound_prefix)
                    ],
                )
            )
        state = self.resources.state_bucket
        for actions, prefixes in ((["s3:GetObject"], access.reads), (["s3:PutObject"], access.writes)):
            if prefixes:
                objects = [self._objects(role, state, prefix) for prefix in prefixes]
                role.add_to_policy(iam.PolicyStatement(actions=actions, resources=objects))
        if access.sends_mail:
            role.add_to_policy(
                iam.PolicyStatement(
                    actions=list(SEND_MAIL),
                    resources=[self.mail.identity_arn, self.mail.configuration_set_arn],
                )
            )

    def _runs(self, role: iam.Role) -> str:
        """The ARN of the turn workflow's executions, from the state machine's name."""
        stack = Stack.of(self)
        acknowledge(
            role,
            "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:"
            f"{stack.region}:<AWS::AccountId>:execution:{self.resources.state_machine}:*]",
            "The executions of the one turn state machine: find_due asks whether the run holding the "
            "run lease still runs, and runs are named when the schedule starts them.",
        )
        return str(
            stack.format_arn(
                service="states",
                resource="execution",
                resource_name=f"{self.resources.state_machine}:*",
                arn_format=ArnFormat.COLON_RESOURCE_NAME,
            )
        )

    def _objects(self, role: iam.Role, bucket: str, prefix: str) -> str:
        """The ARN of the objects under ``prefix`` in ``bucket``, from the bucket's name."""
        acknowledge(
            role,
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::{bucket}/{prefix}*]",
            f"The wildcard stands for the object keys under one prefix ({prefix}) of one bucket: "
            "the function reads or writes objects it does not know the names of in advance.",
        )
        return str(
            Stack.of(self).format_arn(
                service="s3", region="", account="", resource=bucket, resource_name=f"{prefix}*"
            )
        )

    def _receive_into_inbound(self, config: DeployConfig) -> None:
        """The receipt rule's Lambda action, after its S3 action (actions run in order, and an
        action begins once the one before it succeeded): SES invokes the function (its SnapStart
        alias when ``inboundSnapStart``) with its verdicts once the mail is stored. Invocation
        type Event: SES does not wait, and Lambda retries then keeps the notification in the
        dead-letter queue."""
        inbound: lambda_.IFunction = self.functions["inbound"]
        if config.inbound_snap_start:
            inbound = self._live_alias(self.functions["inbound"])
        stack = Stack.of(self)
        rule = self.mail.inbound_rule
        rule_arn = stack.format_arn(
            service="ses",
            resource="receipt-rule-set",
            resource_name=f"{self.mail.rule_set_name}:receipt-rule/{self.mail.rule_name}",
        )
        # Made under the id CDK's Lambda action looks for ("AllowSes"), so that it adds no
        # permission of its own: this one names the receipt rule, not only the account.
        inbound.add_permission(
            "AllowSes",
            principal=iam.ServicePrincipal("ses.amazonaws.com"),
            action="lambda:InvokeFunction",
            source_account=stack.account,
            source_arn=rule_arn,
        )
        rule.add_action(
            ses_actions.Lambda(function=inbound, invocation_type=ses_actions.LambdaInvocationType.EVENT)
        )
        # SES checks that it may invoke the function when the rule is saved.
        rule.node.add_dependency(inbound.permissions_node.find_child("AllowSes"))

    def _live_alias(self, function: lambda_.Function) -> lambda_.Alias:
        """The alias of the latest published version, retried like the function itself: an
        asynchronous invocation's retries are set per version or alias, and the function's own
        setting is for its unpublished version only. The dead-letter queue is part of each
        published version's configuration."""
        return lambda_.Alias(
            self,
            "inbound-live",
            alias_name=LIVE_ALIAS,
            version=function.current_version,
            description="The published version SES invokes, restored from its SnapStart snapshot",
            retry_attempts=ASYNC_RETRIES,
        )

    def _feedback_from_ses(self, config: DeployConfig) -> lambda_.Function:
        """The feedback function, subscribed to the configuration set's bounces and complaints
        (infra/mail.py): SNS invokes it asynchronously, and only for this topic."""
        feedback = self._function(self.resources.feedback, config)
        self.mail.feedback_topic.add_subscription(subscriptions.LambdaSubscription(feedback))
        return feedback

"""The synthetic canary, deployed only when ``warpmail:canaryGame`` names a game: an EventBridge
rule runs ``functions/handlers/canary.py`` every ``CANARY_MINUTES``; it mails a probe to the
canary game through SES and, on its next run, looks for the probe in the game's mail log,
publishing ``CanaryAckMissing`` (0 or 1), which the ``canary`` alarm watches.

Its role may read the canary game's partition of the table only (the mail log lives there), and
send as the mail domain through the configuration set; it is not traced (no X-Ray grant).
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from functions.resources import CANARY_GAME_VARIABLE, CANARY_MINUTES, Resources
from functions.store.keys import log_pk
from infra.checks import acknowledge
from infra.compute import RUNTIME, SEND_MAIL
from infra.config import DeployConfig
from infra.mail import Mail
from infra.monitoring import SEE, AlarmSpec, custom_metric

PERIOD = Duration.minutes(CANARY_MINUTES)


class Canary(Construct):
    """The canary's function, role, log group and schedule."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        resources: Resources,
        config: DeployConfig,
        code: lambda_.Code,
        table: dynamodb.ITable,
        mail: Mail,
    ) -> None:
        super().__init__(scope, construct_id)
        spec = resources.canary
        name = resources.function_name(spec.key)
        log_group = logs.LogGroup(
            self,
            "Logs",
            log_group_name=f"/aws/lambda/{name}",
            retention=config.log_retention(),
            removal_policy=RemovalPolicy.DESTROY,
        )
        role = iam.Role(
            self, "Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"), description=name
        )
        log_group.grant_write(role)
        role.add_to_policy(
            iam.PolicyStatement(
                actions=["dynamodb:Query"],
                resources=[table.table_arn],
                conditions={
                    "ForAllValues:StringEquals": {"dynamodb:LeadingKeys": [log_pk(config.canary_game)]}
                },
            )
        )
        role.add_to_policy(
            iam.PolicyStatement(
                actions=list(SEND_MAIL), resources=[mail.identity_arn, mail.configuration_set_arn]
            )
        )
        self.function = lambda_.Function(
            self,
            "Function",
            function_name=name,
            description=f"WarpMail {resources.env}: {spec.handler}",
            runtime=RUNTIME,
            architecture=lambda_.Architecture.ARM_64,
            handler=spec.handler,
            code=code,
            memory_size=spec.memory_mb,
            timeout=Duration.seconds(spec.timeout_s),
            environment=resources.handler_environment() | {CANARY_GAME_VARIABLE: config.canary_game},
            logging_format=lambda_.LoggingFormat.JSON,
            application_log_level_v2=lambda_.ApplicationLogLevel.INFO,
            system_log_level_v2=lambda_.SystemLogLevel.WARN,
            log_group=log_group,
            role=role,
        )
        acknowledge(
            self.function,
            "AwsSolutions-L1",
            "python3.12 on purpose, as every WarpMail function: the project is built and tested on "
            "Python 3.11/3.12, and the canary ships in the same package as the other functions.",
        )
        self.rule = events.Rule(
            self,
            "Schedule",
            rule_name=f"{name}-schedule",
            description=f"WarpMail {resources.env}: the canary probe, every {CANARY_MINUTES} min",
            schedule=events.Schedule.rate(PERIOD),
            # No retry: a second probe from one tick would only blur the next check.
            targets=[targets.LambdaFunction(self.function, retry_attempts=0)],
        )
        self.alarm = AlarmSpec(
            "canary",
            {"CanaryAckMissing": custom_metric(resources, "CanaryAckMissing", "Maximum", PERIOD)},
            f"Two canary probes in a row (mailed to game {config.canary_game} every {CANARY_MINUTES} "
            f"minutes) did not reach the game's mail log, or the canary stopped reporting: mail is "
            f"not getting through SES, the mail bucket and the inbound function. {SEE}",
            periods=2,
            datapoints=2,
            missing_breaches=True,
            period=PERIOD,
        )

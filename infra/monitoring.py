"""Operations: the operator's SNS topic (TLS only) with their e-mail subscribed, the alarms, the
dashboard and the monthly budget; docs/operations.md prices them (benchmarks/cost_model.py) and
has a runbook section for every alarm.

An alarm watches several resources at once through metric math (every function's errors in one,
both dead-letter queues in one, ...). Every alarm is named ``warpmail-<env>-<what>`` and notifies
the operator's topic. Most treat missing data as fine (no data means nothing happened; the
handlers publish the backlog and quota metrics only when games are due); the two that watch for
something that must keep happening (the schedule's runs, the canary's probes) treat it as
breaching.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import get_args

from aws_cdk import Duration, Stack
from aws_cdk import aws_budgets as budgets
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from functions.host.received import InboundOutcome
from functions.resources import METRICS_NAMESPACE, SERVICE, Resources
from infra.checks import acknowledge
from infra.config import DeployConfig

PERIOD = Duration.minutes(5)
REPUTATION_PERIOD = Duration.hours(1)
SCHEDULE_SILENCE_MINUTES = 15
"""No workflow run started in this long (or three schedule intervals, if longer) raises an alarm."""
SLOW_RUN = Duration.minutes(15)
"""A run's p95 duration over a quarter of an hour: runs overlap three schedule ticks."""
FUNCTION_ERRORS = 3
"""Errors of the functions together, in each of 2 of 3 five-minute periods, that page: see
``alarm_specs``."""
TABLE_THROTTLES = 5
BUDGET_ALERTS = (80, 100)
"""Percentages of the monthly budget at which the operator is mailed."""
SEE = "See docs/operations.md, 'Alarms'."


@dataclass(frozen=True)
class AlarmSpec:
    """One alarm: ``what`` ends its name; it watches ``combine`` ("SUM", "MAX") of ``metrics``
    (by label), or the one metric; ``description`` says what it means and what to do."""

    what: str
    metrics: Mapping[str, cloudwatch.Metric]
    description: str
    combine: str = "SUM"
    threshold: float = 1
    periods: int = 1
    """Evaluation periods; ``datapoints`` of them must breach (M of N)."""
    datapoints: int = 1
    below: bool = False
    """Alarm when the value is under the threshold (else at or above it)."""
    missing_breaches: bool = False
    """Missing data breaches: for what must keep happening."""
    period: Duration = PERIOD

    def watched(self) -> cloudwatch.IMetric:
        """What the alarm compares with its threshold."""
        if len(self.metrics) == 1:
            return next(iter(self.metrics.values()))
        ids = {f"m{number}": metric for number, metric in enumerate(self.metrics.values())}
        # An array function, not "m0 + m1": a sum of time series has no value at a time one of them
        # has none, and most of these metrics have data only when something happened.
        return cloudwatch.MathExpression(
            expression=f"{self.combine}([{', '.join(ids)}])",
            using_metrics=ids,
            period=self.period,
            label=self.what,
        )


def custom_metric(
    resources: Resources, name: str, statistic: str = "Sum", period: Duration = PERIOD
) -> cloudwatch.Metric:
    """A metric the handlers publish through Powertools, this deployment's only."""
    return cloudwatch.Metric(
        namespace=METRICS_NAMESPACE,
        metric_name=name,
        dimensions_map=resources.metric_dimensions(),
        statistic=statistic,
        period=period,
    )


def _reputation(name: str) -> cloudwatch.Metric:
    return cloudwatch.Metric(
        namespace="AWS/SES", metric_name=name, statistic="Maximum", period=REPUTATION_PERIOD
    )


def alarm_specs(
    config: DeployConfig,
    resources: Resources,
    state_machine: sfn.StateMachine,
    functions: Mapping[str, lambda_.IFunction],
    queues: Mapping[str, sqs.IQueue],
    table: dynamodb.ITable,
) -> list[AlarmSpec]:
    """Every alarm of the deployment (the canary's is infra/canary.py's)."""
    silence = Duration.minutes(min(max(SCHEDULE_SILENCE_MINUTES, 3 * config.schedule_minutes), 1440))
    return [
        AlarmSpec(
            "workflow-failed",
            # Not ExecutionsAborted: a run is aborted only by someone stopping it, who knows.
            {
                "failed": state_machine.metric_failed(period=PERIOD, statistic="Sum"),
                "timed out": state_machine.metric_timed_out(period=PERIOD, statistic="Sum"),
            },
            "A turn workflow run failed (finding the due games, or parking a failed game) or ran past "
            f"the TimeoutSeconds of its definition (an hour). {SEE}",
        ),
        AlarmSpec(
            "games-parked",
            {"GamesParked": custom_metric(resources, "GamesParked")},
            f"A game failed every attempt and is parked for the GM: it will not run until released. {SEE}",
        ),
        AlarmSpec(
            "inbound-failed",
            {"InboundFailed": custom_metric(resources, "InboundFailed")},
            f"An incoming mail could not be handled (the raw mail is kept in the mail bucket). {SEE}",
        ),
        AlarmSpec(
            "dead-letters",
            {
                what: queue.metric_approximate_number_of_messages_visible(statistic="Maximum", period=PERIOD)
                for what, queue in queues.items()
            },
            f"Something is waiting in a dead-letter queue ({', '.join(queues)}). {SEE}",
            combine="MAX",
        ),
        AlarmSpec(
            "function-errors",
            {
                key: function.metric_errors(period=PERIOD, statistic="Sum")
                for key, function in functions.items()
            },
            # Not on one error: a failing game is retried (3 errors) and then parked, which
            # games-parked reports; a mail whose handling failed is retried, then dead-lettered,
            # which dead-letters reports; a lone timeout is retried and gone. This one is for
            # errors that go on: 3 or more in each of two of the last three 5-minute periods.
            f"The functions ({', '.join(functions)}) raised, timed out or ran out of memory "
            f"{FUNCTION_ERRORS} times or more in each of 2 of the last 3 five-minute periods. {SEE}",
            threshold=FUNCTION_ERRORS,
            periods=3,
            datapoints=2,
        ),
        AlarmSpec(
            "function-throttles",
            {
                key: function.metric_throttles(period=PERIOD, statistic="Sum")
                for key, function in functions.items()
            },
            f"A function ({', '.join(functions)}) was refused for lack of concurrency. {SEE}",
        ),
        AlarmSpec(
            "ses-bounce-rate",
            {"bounce rate": _reputation("Reputation.BounceRate")},
            f"The account's SES bounce rate is at {config.bounce_rate_alarm:.2%} or more "
            f"(SES reviews accounts at 5%). {SEE}",
            threshold=config.bounce_rate_alarm,
        ),
        AlarmSpec(
            "ses-complaint-rate",
            {"complaint rate": _reputation("Reputation.ComplaintRate")},
            f"The account's SES complaint rate is at {config.complaint_rate_alarm:.2%} or more "
            f"(SES reviews accounts at 0.1%). {SEE}",
            threshold=config.complaint_rate_alarm,
        ),
        AlarmSpec(
            "schedule-not-running",
            {"started": state_machine.metric_started(period=silence, statistic="Sum")},
            f"No turn workflow run started in {silence.to_minutes()} minutes: the schedule is disabled, "
            f"failing to start it, or the state machine is gone. No game is processed meanwhile. {SEE}",
            below=True,
            missing_breaches=True,
            period=silence,
        ),
        AlarmSpec(
            "due-backlog",
            {"OldestDueMinutes": custom_metric(resources, "OldestDueMinutes", "Maximum")},
            f"A due game has waited {config.backlog_alarm_minutes} minutes or more for the turn "
            f"workflow, twice in a row: games are due faster than they are processed, or one is "
            f"never settled. {SEE}",
            threshold=config.backlog_alarm_minutes,
            periods=2,
            datapoints=2,
        ),
        AlarmSpec(
            "workflow-slow",
            {"p95": state_machine.metric_time(period=SLOW_RUN, statistic="p95")},
            f"The turn workflow's runs took {SLOW_RUN.to_minutes()} minutes or more (p95 of those "
            f"that ended in the last {SLOW_RUN.to_minutes()}): runs overlap, and deadlines slip. {SEE}",
            threshold=SLOW_RUN.to_milliseconds(),
            period=SLOW_RUN,
        ),
        AlarmSpec(
            "ses-quota",
            {"SesQuotaUsedPercent": custom_metric(resources, "SesQuotaUsedPercent", "Maximum")},
            f"The account has sent {config.ses_quota_alarm_percent:g}% or more of its SES 24-hour "
            f"sending quota: at 100% SES refuses every mail until the window moves on. {SEE}",
            threshold=config.ses_quota_alarm_percent,
        ),
        AlarmSpec(
            "table-throttles",
            {
                name: table.metric(name, period=PERIOD, statistic="Sum")
                for name in ("ReadThrottleEvents", "WriteThrottleEvents")
            },
            f"The table refused {TABLE_THROTTLES} or more requests for lack of capacity in each of 2 of "
            f"the last 3 five-minute periods (the SDK retries them; errors follow if it goes on). {SEE}",
            threshold=TABLE_THROTTLES,
            periods=3,
            datapoints=2,
        ),
    ]


def inbound_outcomes(resources: Resources) -> dict[str, cloudwatch.Metric]:
    """The inbound function's count of mails by outcome (``Inbound<Status>``, and ``InboundFailed``)."""
    statuses = [*get_args(InboundOutcome.model_fields["status"].annotation), "failed"]
    return {status: custom_metric(resources, f"Inbound{status.capitalize()}") for status in statuses}


class Monitoring(Construct):
    """The operator's topic, the alarms and the dashboard."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        resources: Resources,
        config: DeployConfig,
        specs: list[AlarmSpec],
        functions: Mapping[str, lambda_.IFunction],
    ) -> None:
        super().__init__(scope, construct_id)
        self.topic = self._topic(resources, config)
        self.alarms = [self._alarm(resources, spec) for spec in specs]
        self.budget = self._budget(resources, config)
        durations = {
            key: function.metric_duration(period=PERIOD, statistic="Maximum")
            for key, function in functions.items()
        }
        graphs: list[cloudwatch.IWidget] = [
            _graph("inbound mails by outcome", inbound_outcomes(resources)),
            _graph("due games", {"DueGames": custom_metric(resources, "DueGames", "Maximum")}),
            *(_graph(spec.what, spec.metrics) for spec in specs),
            _graph("function-durations (maximum)", durations),
        ]
        self.dashboard = cloudwatch.Dashboard(
            self,
            "Dashboard",
            dashboard_name=f"{SERVICE}-{resources.env}",
            widgets=[
                [cloudwatch.AlarmStatusWidget(title="Alarms", alarms=self.alarms, width=24)],
                *(graphs[start : start + 3] for start in range(0, len(graphs), 3)),
            ],
        )

    def _topic(self, resources: Resources, config: DeployConfig) -> sns.Topic:
        stack = Stack.of(self)
        topic = sns.Topic(
            self,
            "Operations",
            topic_name=f"{SERVICE}-{resources.env}-operations",
            display_name=f"WarpMail {resources.env}",
            enforce_ssl=True,
        )
        acknowledge(
            topic,
            "AwsSolutions-SNS2",
            "Not encrypted at rest on purpose: CloudWatch alarms can publish only to a topic encrypted "
            "with a customer managed KMS key ($1 a month, the idle deployment's whole budget), and "
            "this topic carries alarm names, descriptions and metric values only, never player data "
            "or mail. Publishing and delivery require TLS (the topic policy).",
        )
        topic.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
                actions=["sns:Publish"],
                resources=[topic.topic_arn],
                conditions={
                    "StringEquals": {"aws:SourceAccount": stack.account},
                    "ArnLike": {
                        "aws:SourceArn": stack.format_arn(
                            service="cloudwatch", resource="alarm", resource_name="*"
                        )
                    },
                },
            )
        )
        topic.add_subscription(subscriptions.EmailSubscription(config.operator_email))
        return topic

    def _alarm(self, resources: Resources, spec: AlarmSpec) -> cloudwatch.Alarm:
        alarm = cloudwatch.Alarm(
            self,
            spec.what,
            alarm_name=f"{SERVICE}-{resources.env}-{spec.what}",
            alarm_description=spec.description,
            metric=spec.watched(),
            threshold=spec.threshold,
            evaluation_periods=spec.periods,
            datapoints_to_alarm=spec.datapoints,
            comparison_operator=(
                cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD
                if spec.below
                else cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD
            ),
            treat_missing_data=(
                cloudwatch.TreatMissingData.BREACHING
                if spec.missing_breaches
                else cloudwatch.TreatMissingData.NOT_BREACHING
            ),
        )
        alarm.add_alarm_action(actions.SnsAction(self.topic))
        return alarm

    def _budget(self, resources: Resources, config: DeployConfig) -> budgets.CfnBudget:
        """The account's monthly cost against ``monthlyBudgetUsd``, the operator mailed at each of
        :data:`BUDGET_ALERTS` percent (actual cost; AWS Budgets updates it a few times a day)."""
        return budgets.CfnBudget(
            self,
            "Budget",
            budget=budgets.CfnBudget.BudgetDataProperty(
                budget_name=f"{SERVICE}-{resources.env}-monthly",
                budget_type="COST",
                time_unit="MONTHLY",
                budget_limit=budgets.CfnBudget.SpendProperty(amount=config.monthly_budget_usd, unit="USD"),
            ),
            notifications_with_subscribers=[
                budgets.CfnBudget.NotificationWithSubscribersProperty(
                    notification=budgets.CfnBudget.NotificationProperty(
                        notification_type="ACTUAL",
                        comparison_operator="GREATER_THAN",
                        threshold=percent,
                        threshold_type="PERCENTAGE",
                    ),
                    subscribers=[
                        budgets.CfnBudget.SubscriberProperty(
                            subscription_type="EMAIL", address=config.operator_email
                        )
                    ],
                )
                for percent in BUDGET_ALERTS
            ],
        )


def _graph(title: str, metrics: Mapping[str, cloudwatch.IMetric]) -> cloudwatch.GraphWidget:
    """Each metric on its own line, labelled: the graph says which resource it was."""
    return cloudwatch.GraphWidget(
        title=title, left=[metric.with_(label=label) for label, metric in metrics.items()], width=8, height=5
    )

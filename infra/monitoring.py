"""Operations: the operator's SNS topic (TLS only) with their e-mail subscribed, the alarms, and a
dashboard, sized for CloudWatch's always-free tier (10 alarm metrics, 3 dashboards of up to 50
metrics each): docs/operations.md prices them (benchmarks/cost_model.py).

An alarm watches several resources at once through metric math (every function's errors in one,
both dead-letter queues in one, ...): eight alarms cover every failure the issue lists. Every
alarm is named ``warpmail-<env>-<what>``; docs/operations.md says for each what it means and what
to do. Alarms treat missing data as fine: no data means nothing happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from aws_cdk import Duration, Stack
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as actions
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from functions.resources import METRICS_NAMESPACE, SERVICE, Resources
from infra.checks import acknowledge
from infra.config import DeployConfig

PERIOD = Duration.minutes(5)
REPUTATION_PERIOD = Duration.hours(1)
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
            period=PERIOD,
            label=self.what,
        )

    def graphed(self) -> list[cloudwatch.IMetric]:
        """Each metric on its own line, labelled: the dashboard shows which resource it was."""
        return [metric.with_(label=label) for label, metric in self.metrics.items()]


def _custom(resources: Resources, name: str) -> cloudwatch.Metric:
    """A metric the handlers publish through Powertools, this deployment's only."""
    return cloudwatch.Metric(
        namespace=METRICS_NAMESPACE,
        metric_name=name,
        dimensions_map=resources.metric_dimensions(),
        statistic="Sum",
        period=PERIOD,
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
) -> list[AlarmSpec]:
    """Every alarm of the deployment."""
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
            {"GamesParked": _custom(resources, "GamesParked")},
            f"A game failed every attempt and is parked for the GM: it will not run until released. {SEE}",
        ),
        AlarmSpec(
            "inbound-failed",
            {"InboundFailed": _custom(resources, "InboundFailed")},
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
            f"A function ({', '.join(functions)}) raised, timed out or ran out of memory. {SEE}",
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
    ]


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
        durations = {
            key: function.metric_duration(period=PERIOD, statistic="Maximum")
            for key, function in functions.items()
        }
        graphs: list[cloudwatch.IWidget] = [
            *(
                cloudwatch.GraphWidget(title=spec.what, left=spec.graphed(), width=8, height=5)
                for spec in specs
            ),
            cloudwatch.GraphWidget(
                title="function-durations (maximum)",
                left=[metric.with_(label=key) for key, metric in durations.items()],
                width=8,
                height=5,
            ),
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
            evaluation_periods=1,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING,
        )
        alarm.add_alarm_action(actions.SnsAction(self.topic))
        return alarm

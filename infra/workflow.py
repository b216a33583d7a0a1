"""The turn workflow: the state machine from the same Amazon States Language file the local mode
runs (``Resources.state_machine_file``, its ``${...}`` placeholders substituted by CDK), logged and
traced, and the EventBridge schedule that starts it every ``schedule_minutes``, with a
dead-letter queue for the starts that fail.

The state machine's role may invoke the functions the file names, and nothing else; a Distributed
Map in the file adds what it needs: starting (and describing, stopping) child executions of this
state machine, and reading the runs' work lists from the state bucket for its ItemReader.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from aws_cdk import ArnFormat, Duration, RemovalPolicy, Stack
from aws_cdk import aws_events as events
from aws_cdk import aws_events_targets as targets
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_stepfunctions as sfn
from constructs import Construct

from functions.resources import Resources
from functions.store.keys import WORK_PREFIX
from infra.checks import acknowledge
from infra.compute import dead_letter_queue
from infra.config import DeployConfig

PLACEHOLDER = re.compile(r"\$\{(\w+)\}")
SCHEDULE_RETRIES = 2
SCHEDULE_EVENT_AGE = Duration.minutes(30)


def placeholders(definition: str) -> set[str]:
    return set(PLACEHOLDER.findall(definition))


def map_modes(node: Any) -> Iterator[str]:
    """The processing mode of every Map state in a parsed definition ("INLINE", "DISTRIBUTED")."""
    if isinstance(node, Mapping):
        if node.get("Type") == "Map":
            processor = node.get("ItemProcessor") or node.get("Iterator") or {}
            yield str(processor.get("ProcessorConfig", {}).get("Mode", "INLINE"))
        for value in node.values():
            yield from map_modes(value)
    elif isinstance(node, list):
        for value in node:
            yield from map_modes(value)


def item_readers(node: Any) -> Iterator[str]:
    """The resource of every Map state's ItemReader in a parsed definition."""
    if isinstance(node, Mapping):
        if node.get("Type") == "Map" and "ItemReader" in node:
            yield str(node["ItemReader"].get("Resource", ""))
        for value in node.values():
            yield from item_readers(value)
    elif isinstance(node, list):
        for value in node:
            yield from item_readers(value)


class Workflow(Construct):
    """The state machine, its log group, the schedule and the schedule's dead-letter queue."""

    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        resources: Resources,
        config: DeployConfig,
        functions: Mapping[str, lambda_.IFunction],
    ) -> None:
        super().__init__(scope, construct_id)
        definition = resources.state_machine_file.read_text(encoding="utf-8")
        substitutions = resources.state_machine_substitutions(
            # The workflow's own functions only (not, say, the feedback function the mail feeds)
            {spec.key: functions[spec.key].function_arn for spec in resources.functions}
        )
        unknown = sorted(placeholders(definition) - set(substitutions))
        if unknown:
            raise ValueError(
                f"{resources.state_machine_file.name}: placeholders with no value: {', '.join(unknown)}"
            )
        self.log_group = logs.LogGroup(
            self,
            "Logs",
            log_group_name=f"/aws/vendedlogs/states/{resources.state_machine}",
            retention=config.log_retention(),
            removal_policy=RemovalPolicy.DESTROY,
        )
        self.state_machine = sfn.StateMachine(
            self,
            "Turns",
            state_machine_name=resources.state_machine,
            definition_body=sfn.DefinitionBody.from_file(str(resources.state_machine_file)),
            definition_substitutions=substitutions,
            state_machine_type=sfn.StateMachineType.STANDARD,
            tracing_enabled=True,
            logs=sfn.LogOptions(
                destination=self.log_group, level=sfn.LogLevel.ALL, include_execution_data=True
            ),
        )
        used = placeholders(definition)
        invoked = [
            functions[spec.key].function_arn for spec in resources.functions if spec.placeholder in used
        ]
        # The unqualified ARNs only: the file names no version or alias.
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(actions=["lambda:InvokeFunction"], resources=invoked)
        )
        parsed = json.loads(PLACEHOLDER.sub("x", definition))
        if "DISTRIBUTED" in set(map_modes(parsed)):
            self._allow_child_executions(resources)
        if "arn:aws:states:::s3:getObject" in set(item_readers(parsed)):
            self._allow_work_lists(resources)
        acknowledge(
            self.state_machine.role,
            "AwsSolutions-IAM5[Resource::*]",
            "CloudWatch Logs delivery (logs:CreateLogDelivery and the like) and X-Ray tracing take no "
            "resource-level permission: AWS requires Resource '*' for the state machine's logs and traces.",
        )
        self.dead_letters = dead_letter_queue(self, "ScheduleDeadLetters")
        self.schedule = events.Rule(
            self,
            "Schedule",
            rule_name=f"{resources.state_machine}-schedule",
            description=f"WarpMail {resources.env}: the turn workflow, every {config.schedule_minutes} min",
            schedule=events.Schedule.rate(Duration.minutes(config.schedule_minutes)),
            targets=[
                targets.SfnStateMachine(
                    self.state_machine,
                    dead_letter_queue=self.dead_letters,
                    retry_attempts=SCHEDULE_RETRIES,
                    max_event_age=SCHEDULE_EVENT_AGE,
                )
            ],
        )

    def _allow_work_lists(self, resources: Resources) -> None:
        """The Distributed Map reads its run's work list, which find_due writes to the state bucket."""
        stack = Stack.of(self)
        objects = stack.format_arn(
            service="s3",
            region="",
            account="",
            resource=resources.state_bucket,
            resource_name=f"{WORK_PREFIX}*",
        )
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(actions=["s3:GetObject"], resources=[objects])
        )
        acknowledge(
            self.state_machine.role,
            f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::{resources.state_bucket}/{WORK_PREFIX}*]",
            "The work lists of the runs (one object per run, named when the run starts) under one prefix "
            "of the state bucket: the Distributed Map's ItemReader reads its run's.",
        )

    def _allow_child_executions(self, resources: Resources) -> None:
        """A Distributed Map runs its iterations as child executions of this state machine."""
        stack = Stack.of(self)
        own = stack.format_arn(
            service="states",
            resource="stateMachine",
            resource_name=resources.state_machine,
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        executions = stack.format_arn(
            service="states",
            resource="execution",
            resource_name=f"{resources.state_machine}/*",
            arn_format=ArnFormat.COLON_RESOURCE_NAME,
        )
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(actions=["states:StartExecution"], resources=[own])
        )
        self.state_machine.add_to_role_policy(
            iam.PolicyStatement(
                actions=["states:DescribeExecution", "states:StopExecution"], resources=[executions]
            )
        )
        acknowledge(
            self.state_machine.role,
            "AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:"
            f"{stack.region}:<AWS::AccountId>:execution:{resources.state_machine}/*]",
            "The Distributed Map's child executions of this one state machine: their names are made "
            "when the map runs, so they can only be named by this state machine's execution prefix.",
        )

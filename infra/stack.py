"""One WarpMail deployment as a CloudFormation stack, ``WarpMail-<env>``: storage, mail, the
functions, the turn workflow and operations, with the outputs the GM console reads."""

from __future__ import annotations

from aws_cdk import CfnOutput, Environment, Stack
from constructs import Construct

from infra.compute import Compute
from infra.config import DeployConfig
from infra.mail import Mail
from infra.monitoring import Monitoring, alarm_specs
from infra.storage import Storage
from infra.workflow import Workflow


def stack_name(environment: str) -> str:
    return f"WarpMail-{environment}"


class WarpMailStack(Stack):  # type: ignore[misc]  # Stack is Any to mypy (aws_cdk skipped: pyproject)
    def __init__(self, scope: Construct, config: DeployConfig, account: str | None = None) -> None:
        super().__init__(
            scope,
            stack_name(config.environment),
            env=Environment(account=account, region=config.region),
            description=f"WarpMail play-by-email host: {config.environment} ({config.mail_domain})",
        )
        resources = config.resources()
        storage = Storage(self, "Storage", resources, config)
        mail = Mail(self, "Mail", resources, storage.mail_bucket)
        compute = Compute(self, "Functions", resources, config, storage, mail)
        workflow = Workflow(self, "Workflow", resources, config, compute.functions)
        specs = alarm_specs(
            config,
            resources,
            workflow.state_machine,
            compute.functions,
            {"inbound": compute.inbound_dlq, "schedule": workflow.dead_letters},
        )
        monitoring = Monitoring(self, "Operations", resources, config, specs, compute.functions)
        outputs = {
            "Environment": resources.env,
            "MailDomain": resources.mail_domain,
            "Sender": resources.sender,
            "TableName": storage.table.table_name,
            "MailBucket": storage.mail_bucket.bucket_name,
            "StateBucket": storage.state_bucket.bucket_name,
            "StateMachineArn": workflow.state_machine.state_machine_arn,
            "InboundFunctionName": compute.functions["inbound"].function_name,
            "ReceiptRuleSetName": mail.rule_set.receipt_rule_set_name,
            "ConfigurationSetName": resources.configuration_set,
            "OperationsTopicArn": monitoring.topic.topic_arn,
            "DashboardName": monitoring.dashboard.dashboard_name,
        }
        for key, value in outputs.items():
            CfnOutput(self, key, value=value)

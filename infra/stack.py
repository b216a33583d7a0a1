"""One WarpMail deployment as a CloudFormation stack, ``WarpMail-<env>``: storage, mail, the
functions, the turn workflow, the canary (when set) and operations, with the outputs the GM
console reads. Every resource is tagged ``project=warpmail`` and ``environment=<env>``: activated
as cost allocation tags in the billing console, they split the bill by deployment."""

from __future__ import annotations

from aws_cdk import CfnOutput, Environment, Stack, Tags
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from functions.resources import SERVICE
from infra import bundle
from infra.canary import Canary
from infra.checks import acknowledge
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
        _read_sending_quota(self, compute.functions["find_due"])
        specs = alarm_specs(
            config,
            resources,
            workflow.state_machine,
            compute.functions,
            {**compute.dead_letters, "schedule": workflow.dead_letters},
            storage.table,
        )
        if config.canary_game:
            code = compute.code[bundle.package_of(resources.canary.key)]
            canary = Canary(self, "Canary", resources, config, code, storage.table, mail)
            specs.append(canary.alarm)
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
        Tags.of(self).add("project", SERVICE)
        Tags.of(self).add("environment", config.environment)


def _read_sending_quota(scope: Construct, find_due: lambda_.IFunction) -> None:
    """find_due publishes the SES sending quota (functions/mail/ses.py ``quota``): it may read it.
    A policy of its own, beside the function's grants (infra/compute.py)."""
    policy = iam.Policy(
        scope,
        "FindDueReadsSendingQuota",
        statements=[iam.PolicyStatement(actions=["ses:GetAccount"], resources=["*"])],
    )
    assert find_due.role is not None  # compute.py gives every function its role
    policy.attach_to_role(find_due.role)
    acknowledge(
        policy,
        "AwsSolutions-IAM5[Resource::*]",
        "ses:GetAccount reads the account's sending quota in the region and takes no resource-level "
        "permission: AWS requires Resource '*' for it. It reads; it sends or changes nothing.",
    )

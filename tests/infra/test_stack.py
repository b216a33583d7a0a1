"""The synthesized stack: every property that matters for safety, cost and operation."""

from __future__ import annotations

import json
from typing import Any

from functions.resources import METRICS_NAMESPACE, SERVICE, resources
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, OPERATOR, Synthesized

DESCRIBED = resources(ENVIRONMENT, MAIL_DOMAIN).with_configuration_set()


def bucket_named(synthesized: Synthesized, name: str) -> tuple[str, dict[str, Any]]:
    for logical_id, bucket in synthesized.resources("AWS::S3::Bucket").items():
        if bucket["Properties"].get("BucketName") == name:
            return logical_id, bucket
    raise AssertionError(f"no bucket {name}")


def refers_to(value: Any, logical_id: str) -> bool:
    return logical_id in json.dumps(value)


def test_the_stack_is_named_after_its_environment(synthesized: Synthesized) -> None:
    assert synthesized.stack.stack_name == f"WarpMail-{ENVIRONMENT}"


def test_every_bucket_is_private_encrypted_versioned_kept_and_tls_only(synthesized: Synthesized) -> None:
    buckets = synthesized.resources("AWS::S3::Bucket")
    assert len(buckets) == 3  # mail, state, and their access logs
    policies = synthesized.resources("AWS::S3::BucketPolicy").values()
    for logical_id, bucket in buckets.items():
        properties = bucket["Properties"]
        assert bucket["DeletionPolicy"] == "Retain" and bucket["UpdateReplacePolicy"] == "Retain"
        assert properties["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        encryption = properties["BucketEncryption"]["ServerSideEncryptionConfiguration"]
        assert encryption[0]["ServerSideEncryptionByDefault"]["SSEAlgorithm"] == "AES256"
        assert properties["VersioningConfiguration"] == {"Status": "Enabled"}
        (policy,) = [p for p in policies if refers_to(p["Properties"]["Bucket"], logical_id)]
        denials = [s for s in policy["Properties"]["PolicyDocument"]["Statement"] if s["Effect"] == "Deny"]
        assert any(s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}} for s in denials)


def test_mail_moves_to_cheaper_storage_and_raw_mail_expires_after_a_year(synthesized: Synthesized) -> None:
    _, mail = bucket_named(synthesized, DESCRIBED.mail_bucket)
    rules = mail["Properties"]["LifecycleConfiguration"]["Rules"]
    transitions = [t for rule in rules for t in rule.get("Transitions", [])]
    assert transitions == [{"StorageClass": "GLACIER_IR", "TransitionInDays": 90}]
    expiring = [rule for rule in rules if "ExpirationInDays" in rule or "NoncurrentVersionExpiration" in rule]
    assert expiring == [
        {
            "Id": "expire-raw-mail",
            "Prefix": DESCRIBED.inbound_prefix,
            "Status": "Enabled",
            "ExpirationInDays": 365,
            "NoncurrentVersionExpiration": {"NoncurrentDays": 30},
        }
    ]
    # Only what Glacier IR takes at its own size: S3 moves nothing under 128 KB (since 2024)
    assert [rule["ObjectSizeGreaterThan"] for rule in rules if "Transitions" in rule] == [128 * 1024 - 1]
    assert "LoggingConfiguration" in mail["Properties"]


def test_only_the_workflows_work_lists_and_the_kept_results_mail_expire_in_the_state_bucket(
    synthesized: Synthesized,
) -> None:
    _, state = bucket_named(synthesized, DESCRIBED.state_bucket)
    rules = state["Properties"]["LifecycleConfiguration"]["Rules"]
    expiring = [rule for rule in rules if "ExpirationInDays" in rule]
    assert [(rule["Prefix"], rule["ExpirationInDays"]) for rule in expiring] == [
        ("work/", 1),
        ("results/", 365),
    ]
    (archive,) = [rule for rule in rules if "Transitions" in rule]
    assert archive["Prefix"] == "states/"
    assert archive["Transitions"] == [{"StorageClass": "GLACIER_IR", "TransitionInDays": 90}]
    assert archive["ObjectSizeGreaterThan"] == 128 * 1024 - 1
    # Incomplete uploads are still cleaned up, by a rule S3 accepts without a size filter
    aborting = {rule["Prefix"] for rule in rules if "AbortIncompleteMultipartUpload" in rule}
    assert aborting >= {"states/", "results/"}
    assert all(
        "ObjectSizeGreaterThan" not in rule for rule in rules if "AbortIncompleteMultipartUpload" in rule
    )


def test_the_table_is_the_described_one_with_recovery_and_protection(synthesized: Synthesized) -> None:
    table = synthesized.one("AWS::DynamoDB::Table")
    properties = table["Properties"]
    spec = DESCRIBED.table_spec
    assert table["DeletionPolicy"] == "Retain"
    assert properties["TableName"] == DESCRIBED.table
    assert properties["BillingMode"] == "PAY_PER_REQUEST"
    assert properties["PointInTimeRecoverySpecification"] == {"PointInTimeRecoveryEnabled": True}
    assert properties["DeletionProtectionEnabled"] is True
    assert properties["TimeToLiveSpecification"] == {"AttributeName": spec.ttl_attribute, "Enabled": True}
    assert properties["KeySchema"] == [
        {"AttributeName": spec.partition_key, "KeyType": "HASH"},
        {"AttributeName": spec.sort_key, "KeyType": "RANGE"},
    ]
    indexes = {index["IndexName"]: index for index in properties["GlobalSecondaryIndexes"]}
    assert set(indexes) == {index.name for index in spec.indexes}
    for index in spec.indexes:
        assert indexes[index.name]["KeySchema"] == [
            {"AttributeName": index.partition_key, "KeyType": "HASH"},
            {"AttributeName": index.sort_key, "KeyType": "RANGE"},
        ]
        assert indexes[index.name]["Projection"] == {"ProjectionType": "ALL"}


def test_the_functions_are_the_described_ones_on_arm64_python312(synthesized: Synthesized) -> None:
    functions = {
        f["Properties"]["FunctionName"]: f["Properties"]
        for f in synthesized.resources("AWS::Lambda::Function").values()
    }
    described = (*DESCRIBED.functions, DESCRIBED.feedback)
    assert set(functions) == {DESCRIBED.function_name(spec.key) for spec in described}
    for spec in described:
        function = functions[DESCRIBED.function_name(spec.key)]
        assert function["Architectures"] == ["arm64"] and function["Runtime"] == "python3.12"
        assert (function["Handler"], function["MemorySize"], function["Timeout"]) == (
            spec.handler,
            spec.memory_mb,
            spec.timeout_s,
        )
        assert function["Environment"]["Variables"] == DESCRIBED.handler_environment()
        assert function["TracingConfig"] == {"Mode": "Active"}
        assert function["LoggingConfig"]["LogFormat"] == "JSON"


def test_every_log_group_has_a_retention(synthesized: Synthesized) -> None:
    groups = synthesized.resources("AWS::Logs::LogGroup")
    names = {group["Properties"]["LogGroupName"] for group in groups.values()}
    assert {f"/aws/lambda/{DESCRIBED.function_name(spec.key)}" for spec in DESCRIBED.functions} <= names
    assert f"/aws/vendedlogs/states/{DESCRIBED.state_machine}" in names
    assert all(group["Properties"]["RetentionInDays"] == 30 for group in groups.values())
    for function in synthesized.resources("AWS::Lambda::Function").values():
        group = function["Properties"]["LoggingConfig"]["LogGroup"]["Ref"]
        assert group in groups


def inbound_function(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    return next(
        (i, f)
        for i, f in synthesized.resources("AWS::Lambda::Function").items()
        if f["Properties"]["FunctionName"] == DESCRIBED.function_name("inbound")
    )


def test_the_inbound_function_is_invoked_by_ses_only_with_a_dead_letter_queue(
    synthesized: Synthesized,
) -> None:
    inbound_id, inbound = inbound_function(synthesized)
    _, mail = bucket_named(synthesized, DESCRIBED.mail_bucket)
    assert "NotificationConfiguration" not in mail["Properties"], "no S3 event: SES's carries the verdicts"
    # Its one permission (the feedback function has its own, for its topic)
    ((permission_id, permission),) = [
        (i, p)
        for i, p in synthesized.resources("AWS::Lambda::Permission").items()
        if p["Properties"]["FunctionName"] == {"Fn::GetAtt": [inbound_id, "Arn"]}
    ]
    properties = permission["Properties"]
    assert properties["Principal"] == "ses.amazonaws.com"
    assert "SourceAccount" in properties
    source = json.dumps(properties["SourceArn"])
    assert "receipt-rule-set/" in source and ":receipt-rule/" in source
    rule_id, _ = next(iter(synthesized.resources("AWS::SES::ReceiptRule").items()))
    assert permission_id in synthesized.template["Resources"][rule_id]["DependsOn"]
    # Async delivery: retried, then parked in an encrypted queue; concurrency bounded
    dlq = inbound["Properties"]["DeadLetterConfig"]["TargetArn"]["Fn::GetAtt"][0]
    assert synthesized.template["Resources"][dlq]["Properties"]["SqsManagedSseEnabled"] is True
    assert inbound["Properties"]["ReservedConcurrentExecutions"] == 5
    (retries,) = [
        c["Properties"]
        for c in synthesized.resources("AWS::Lambda::EventInvokeConfig").values()
        if refers_to(c, inbound_id)
    ]
    assert retries["MaximumRetryAttempts"] == 2


def test_ses_takes_the_domains_mail_over_tls_stores_it_under_inbound_with_scanning_then_invokes_inbound(
    synthesized: Synthesized,
) -> None:
    rule = synthesized.one("AWS::SES::ReceiptRule")["Properties"]["Rule"]
    assert rule["Recipients"] == [MAIL_DOMAIN] and rule["Enabled"] is True and rule["ScanEnabled"] is True
    assert rule["TlsPolicy"] == "Require"
    store, invoke = rule["Actions"]  # in this order: the mail is stored before the function reads it
    assert store["S3Action"]["ObjectKeyPrefix"] == DESCRIBED.inbound_prefix
    mail_id, _ = bucket_named(synthesized, DESCRIBED.mail_bucket)
    assert store["S3Action"]["BucketName"] == {"Ref": mail_id}
    inbound_id, _ = inbound_function(synthesized)
    assert invoke["LambdaAction"] == {
        "FunctionArn": {"Fn::GetAtt": [inbound_id, "Arn"]},
        "InvocationType": "Event",
    }
    policy = next(
        p
        for p in synthesized.resources("AWS::S3::BucketPolicy").values()
        if refers_to(p["Properties"]["Bucket"], mail_id)
    )
    ses_grant = next(
        s
        for s in policy["Properties"]["PolicyDocument"]["Statement"]
        if s.get("Principal") == {"Service": "ses.amazonaws.com"}
    )
    assert ses_grant["Action"] == "s3:PutObject" and "/inbound/*" in json.dumps(ses_grant["Resource"])
    assert "aws:SourceAccount" in json.dumps(ses_grant["Condition"])


def test_the_receipt_rule_keeps_its_logical_id(synthesized: Synthesized) -> None:
    """A new logical id would make CloudFormation create a second rule of the same name first."""
    [rule_id] = synthesized.resources("AWS::SES::ReceiptRule")
    assert rule_id.startswith("MailReceivingRule0")


def test_sending_suppresses_bouncing_addresses_and_publishes_bounces(synthesized: Synthesized) -> None:
    configuration_set = synthesized.one("AWS::SES::ConfigurationSet")["Properties"]
    assert configuration_set["Name"] == DESCRIBED.configuration_set
    assert sorted(configuration_set["SuppressionOptions"]["SuppressedReasons"]) == ["BOUNCE", "COMPLAINT"]
    assert configuration_set["ReputationOptions"] == {"ReputationMetricsEnabled": True}
    (destination,) = [
        d["Properties"]["EventDestination"]
        for d in synthesized.resources("AWS::SES::ConfigurationSetEventDestination").values()
        if "CloudWatchDestination" in d["Properties"]["EventDestination"]
    ]
    assert sorted(destination["MatchingEventTypes"]) == ["bounce", "complaint"]
    assert destination["Enabled"] is True


def test_the_schedule_starts_the_workflow_at_the_configured_rate_with_a_dead_letter_queue(
    synthesized: Synthesized,
) -> None:
    rule = synthesized.one("AWS::Events::Rule")["Properties"]
    assert rule["ScheduleExpression"] == f"rate({DESCRIBED.schedule_minutes} minutes)"
    assert rule["State"] == "ENABLED"
    (target,) = rule["Targets"]
    machine_id = next(iter(synthesized.resources("AWS::StepFunctions::StateMachine")))
    assert target["Arn"] == {"Ref": machine_id}
    queue_id = target["DeadLetterConfig"]["Arn"]["Fn::GetAtt"][0]
    assert synthesized.template["Resources"][queue_id]["Type"] == "AWS::SQS::Queue"
    assert target["RetryPolicy"]["MaximumRetryAttempts"] == 2


def test_the_state_machine_logs_everything_and_is_traced(synthesized: Synthesized) -> None:
    machine = synthesized.one("AWS::StepFunctions::StateMachine")["Properties"]
    assert machine["StateMachineName"] == DESCRIBED.state_machine
    assert machine["LoggingConfiguration"]["Level"] == "ALL"
    assert machine["TracingConfiguration"] == {"Enabled": True}
    assert machine["StateMachineType"] == "STANDARD"


def test_every_queue_is_encrypted_and_tls_only(synthesized: Synthesized) -> None:
    queues = synthesized.resources("AWS::SQS::Queue")
    assert len(queues) == 3  # the inbound and feedback functions' and the schedule's dead letters
    policies = synthesized.resources("AWS::SQS::QueuePolicy").values()
    for logical_id, queue in queues.items():
        assert queue["Properties"]["SqsManagedSseEnabled"] is True
        assert queue["Properties"]["MessageRetentionPeriod"] == 14 * 24 * 3600
        (policy,) = [p for p in policies if refers_to(p["Properties"]["Queues"], logical_id)]
        statements = policy["Properties"]["PolicyDocument"]["Statement"]
        assert any(
            s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
            for s in statements
        )


def operations_topic(synthesized: Synthesized) -> str:
    """The logical id of the operator's topic (the other is SES's feedback topic)."""
    (topic_id,) = [
        logical_id
        for logical_id, topic in synthesized.resources("AWS::SNS::Topic").items()
        if topic["Properties"]["TopicName"] == f"{SERVICE}-{ENVIRONMENT}-operations"
    ]
    return topic_id


def test_the_operations_topic_is_tls_only_takes_alarms_of_this_account_and_mails_the_operator(
    synthesized: Synthesized,
) -> None:
    topic_id = operations_topic(synthesized)
    topic = synthesized.template["Resources"][topic_id]
    # No customer managed key ($1 a month): the acknowledgement says why (the feedback topic's
    # key is its own: tests/infra/test_feedback_stack.py)
    assert "KmsMasterKeyId" not in topic["Properties"]
    (unencrypted,) = [
        rule
        for rule in topic["Metadata"]["cdk_nag"]["rules_to_suppress"]
        if rule["id"] == "AwsSolutions-SNS2"
    ]
    assert "player data" in unencrypted["reason"] and "TLS" in unencrypted["reason"]
    (policy,) = [
        p
        for p in synthesized.resources("AWS::SNS::TopicPolicy").values()
        if p["Properties"]["Topics"] == [{"Ref": topic_id}]
    ]
    statements = policy["Properties"]["PolicyDocument"]["Statement"]
    assert any(
        s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
        for s in statements
    )
    (publish,) = [s for s in statements if s["Effect"] == "Allow"]
    assert publish["Principal"] == {"Service": "cloudwatch.amazonaws.com"}
    assert publish["Action"] == "sns:Publish" and "aws:SourceAccount" in json.dumps(publish["Condition"])
    (subscription,) = [
        s["Properties"]
        for s in synthesized.resources("AWS::SNS::Subscription").values()
        if s["Properties"]["Protocol"] == "email"
    ]
    assert subscription["Endpoint"] == OPERATOR
    assert subscription["TopicArn"] == {"Ref": topic_id}


def alarms(synthesized: Synthesized) -> dict[str, dict[str, Any]]:
    """The alarms' properties by ``<what>`` (the name less ``warpmail-<env>-``)."""
    return {
        a["Properties"]["AlarmName"].removeprefix(f"{SERVICE}-{ENVIRONMENT}-"): a["Properties"]
        for a in synthesized.resources("AWS::CloudWatch::Alarm").values()
    }


def watched(alarm: dict[str, Any]) -> tuple[str | None, list[dict[str, Any]]]:
    """(the metric math expression or None, the metrics the alarm reads)."""
    if "Metrics" not in alarm:
        keys = ("Namespace", "MetricName", "Dimensions")
        return None, [{key: alarm[key] for key in keys if key in alarm}]
    (expression,) = [query["Expression"] for query in alarm["Metrics"] if query.get("ReturnData", True)]
    return expression, [query["MetricStat"]["Metric"] for query in alarm["Metrics"] if "MetricStat" in query]


def logical_id(metric: dict[str, Any]) -> str:
    value = metric["Dimensions"][0]["Value"]
    return str(value["Ref"] if "Ref" in value else value["Fn::GetAtt"][0])


def test_every_alarm_notifies_the_operator(synthesized: Synthesized) -> None:
    topic_id = operations_topic(synthesized)
    found = alarms(synthesized)
    assert found
    for what, alarm in found.items():
        assert alarm["AlarmActions"] == [{"Ref": topic_id}], what
        assert len(alarm["AlarmDescription"]) > 40
    # No data is fine, but for the schedule's runs, which must keep coming
    assert {what for what, alarm in found.items() if alarm["TreatMissingData"] != "notBreaching"} == {
        "schedule-not-running"
    }
    assert found["schedule-not-running"]["TreatMissingData"] == "breaching"


def test_the_alarms_watch_every_failure_the_issues_list(synthesized: Synthesized) -> None:
    found = alarms(synthesized)
    assert set(found) == {
        "workflow-failed",
        "games-parked",
        "inbound-failed",
        "dead-letters",
        "function-errors",
        "function-throttles",
        "ses-bounce-rate",
        "ses-complaint-rate",
        "schedule-not-running",
        "due-backlog",
        "workflow-slow",
        "ses-quota",
        "table-throttles",
    }
    machine = next(iter(synthesized.resources("AWS::StepFunctions::StateMachine")))
    expression, metrics = watched(found["workflow-failed"])
    assert expression == "SUM([m0, m1])"
    assert {(m["Namespace"], m["MetricName"]) for m in metrics} == {
        ("AWS/States", "ExecutionsFailed"),
        ("AWS/States", "ExecutionsTimedOut"),
    }
    assert {logical_id(m) for m in metrics} == {machine}
    queues = set(synthesized.resources("AWS::SQS::Queue"))
    expression, metrics = watched(found["dead-letters"])
    assert expression == "MAX([m0, m1, m2])" and found["dead-letters"]["Threshold"] == 1
    assert {m["MetricName"] for m in metrics} == {"ApproximateNumberOfMessagesVisible"}
    assert {logical_id(m) for m in metrics} == queues
    functions = set(synthesized.resources("AWS::Lambda::Function"))
    for what, name in (("function-errors", "Errors"), ("function-throttles", "Throttles")):
        expression, metrics = watched(found[what])
        assert expression == "SUM([m0, m1, m2, m3, m4])"  # the feedback function too
        assert {(m["Namespace"], m["MetricName"]) for m in metrics} == {("AWS/Lambda", name)}
        assert {logical_id(m) for m in metrics} == functions
    # One harmless error does not page: 3 or more in each of 2 of the last 3 five-minute periods
    errors = found["function-errors"]
    assert (errors["Threshold"], errors["DatapointsToAlarm"], errors["EvaluationPeriods"]) == (3, 2, 3)
    assert all(query["MetricStat"]["Period"] == 300 for query in errors["Metrics"] if "MetricStat" in query)
    # The schedule not running: fewer than 1 run started in 15 minutes, no data counting as none
    silent = found["schedule-not-running"]
    assert (silent["Namespace"], silent["MetricName"], silent["Statistic"]) == (
        "AWS/States",
        "ExecutionsStarted",
        "Sum",
    )
    assert (silent["ComparisonOperator"], silent["Threshold"], silent["Period"]) == (
        "LessThanThreshold",
        1,
        900,
    )
    assert {logical_id(m) for m in watched(silent)[1]} == {machine}
    # Slow runs: the p95 of the workflow's execution time, in milliseconds
    slow = found["workflow-slow"]
    assert (slow["MetricName"], slow["ExtendedStatistic"], slow["Threshold"]) == (
        "ExecutionTime",
        "p95",
        900_000,
    )
    # The backlog: the oldest due game waited 30 minutes, twice in a row
    backlog = found["due-backlog"]
    assert (backlog["MetricName"], backlog["Statistic"], backlog["Threshold"]) == (
        "OldestDueMinutes",
        "Maximum",
        30,
    )
    assert (backlog["DatapointsToAlarm"], backlog["EvaluationPeriods"]) == (2, 2)
    # The SES quota at 80 %
    assert (found["ses-quota"]["MetricName"], found["ses-quota"]["Threshold"]) == ("SesQuotaUsedPercent", 80)
    # The table's throttles, read and write
    table = next(iter(synthesized.resources("AWS::DynamoDB::Table")))
    expression, metrics = watched(found["table-throttles"])
    assert expression == "SUM([m0, m1])"
    assert {(m["Namespace"], m["MetricName"]) for m in metrics} == {
        ("AWS/DynamoDB", "ReadThrottleEvents"),
        ("AWS/DynamoDB", "WriteThrottleEvents"),
    }
    assert {logical_id(m) for m in metrics} == {table}
    assert found["ses-bounce-rate"]["MetricName"] == "Reputation.BounceRate"
    assert found["ses-bounce-rate"]["Threshold"] == 0.04
    assert found["ses-complaint-rate"]["MetricName"] == "Reputation.ComplaintRate"
    assert found["ses-complaint-rate"]["Threshold"] == 0.0008


def test_the_custom_metric_alarms_watch_this_environment_only(synthesized: Synthesized) -> None:
    found = alarms(synthesized)
    watches = (
        ("games-parked", "GamesParked"),
        ("inbound-failed", "InboundFailed"),
        ("due-backlog", "OldestDueMinutes"),
        ("ses-quota", "SesQuotaUsedPercent"),
    )
    for what, name in watches:
        assert (found[what]["Namespace"], found[what]["MetricName"]) == (METRICS_NAMESPACE, name)
        dimensions = {d["Name"]: d["Value"] for d in found[what]["Dimensions"]}
        assert dimensions == {"service": SERVICE, "environment": ENVIRONMENT}


def test_the_dashboard_shows_every_alarm_within_the_free_tier(synthesized: Synthesized) -> None:
    dashboard = synthesized.one("AWS::CloudWatch::Dashboard")["Properties"]["DashboardBody"]
    body = json.dumps(dashboard)
    for alarm_id in synthesized.resources("AWS::CloudWatch::Alarm"):
        assert alarm_id in body
    assert dashboard_metrics(synthesized) <= 50  # CloudWatch's always-free tier: 3 dashboards of 50


def test_the_dashboard_shows_mail_runs_backlog_quota_errors_and_throttles(synthesized: Synthesized) -> None:
    titles = [widget["properties"].get("title") for widget in dashboard_body(synthesized)["widgets"]]
    for title in (
        "inbound mails by outcome",
        "due games",
        "due-backlog",
        "schedule-not-running",
        "workflow-slow",
        "ses-quota",
        "function-errors",
        "function-throttles",
        "table-throttles",
    ):
        assert title in titles, title
    (outcomes,) = [
        w
        for w in dashboard_body(synthesized)["widgets"]
        if w["properties"].get("title") == "inbound mails by outcome"
    ]
    names = {line[1] for line in outcomes["properties"]["metrics"]}
    assert names == {
        f"Inbound{s}"
        for s in ("Accepted", "Acknowledged", "Command", "Rejected", "Ignored", "Duplicate", "Failed")
    }


def test_a_monthly_budget_mails_the_operator_at_80_and_100_percent(synthesized: Synthesized) -> None:
    budget = synthesized.one("AWS::Budgets::Budget")["Properties"]
    assert budget["Budget"]["TimeUnit"] == "MONTHLY" and budget["Budget"]["BudgetType"] == "COST"
    assert budget["Budget"]["BudgetLimit"] == {"Amount": 20, "Unit": "USD"}
    assert budget["Budget"]["BudgetName"] == f"warpmail-{ENVIRONMENT}-monthly"
    notifications = budget["NotificationsWithSubscribers"]
    assert sorted(n["Notification"]["Threshold"] for n in notifications) == [80, 100]
    for notification in notifications:
        assert notification["Notification"]["ThresholdType"] == "PERCENTAGE"
        assert notification["Subscribers"] == [{"SubscriptionType": "EMAIL", "Address": OPERATOR}]


def test_every_taggable_resource_carries_the_cost_allocation_tags(synthesized: Synthesized) -> None:
    expected = {"project": SERVICE, "environment": ENVIRONMENT}
    for kind in (
        "AWS::S3::Bucket",
        "AWS::DynamoDB::Table",
        "AWS::Lambda::Function",
        "AWS::StepFunctions::StateMachine",
    ):
        for logical_id, resource in synthesized.resources(kind).items():
            found = {tag["Key"]: tag["Value"] for tag in resource["Properties"]["Tags"]}
            assert found.items() >= expected.items(), (kind, logical_id)


def dashboard_body(synthesized: Synthesized) -> dict[str, Any]:
    parts = synthesized.one("AWS::CloudWatch::Dashboard")["Properties"]["DashboardBody"]["Fn::Join"][1]
    body: dict[str, Any] = json.loads("".join(part if isinstance(part, str) else "ref" for part in parts))
    return body


def dashboard_metrics(synthesized: Synthesized) -> int:
    """The metrics the dashboard's graphs show (CloudFormation joins the body from strings and
    references; each reference stands in as "ref" here)."""
    return sum(
        len(widget["properties"].get("metrics", [])) for widget in dashboard_body(synthesized)["widgets"]
    )


def test_the_outputs_the_gm_console_reads(synthesized: Synthesized) -> None:
    outputs = synthesized.template["Outputs"]
    keys = {
        "Environment",
        "MailDomain",
        "Sender",
        "TableName",
        "MailBucket",
        "StateBucket",
        "StateMachineArn",
    }
    assert keys | {"InboundFunctionName"} <= set(outputs)
    assert outputs["Environment"]["Value"] == ENVIRONMENT
    assert outputs["MailDomain"]["Value"] == MAIL_DOMAIN
    assert outputs["Sender"]["Value"] == DESCRIBED.sender
    table_id = next(iter(synthesized.resources("AWS::DynamoDB::Table")))
    assert outputs["TableName"]["Value"] == {"Ref": table_id}
    assert outputs["MailBucket"]["Value"] == {"Ref": bucket_named(synthesized, DESCRIBED.mail_bucket)[0]}
    assert outputs["StateMachineArn"]["Value"] == {
        "Ref": next(iter(synthesized.resources("AWS::StepFunctions::StateMachine")))
    }

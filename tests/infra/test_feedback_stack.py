"""SES's bounces and complaints reach the host (infra/mail.py, infra/compute.py): the configuration
set's second event destination is an encrypted, TLS-only topic only SES may publish to, for this
configuration set; the feedback function is subscribed to it, and may do what its handler does
and no more: read and write the table, send as the domain with the configuration set."""

from __future__ import annotations

import json
from typing import Any

from functions.resources import SERVICE, resources
from tests.infra.conftest import ENVIRONMENT, MAIL_DOMAIN, Synthesized
from tests.infra.test_iam import granted
from tests.infra.test_stack import logical_id, watched

DESCRIBED = resources(ENVIRONMENT, MAIL_DOMAIN).with_configuration_set()
TOPIC = f"{SERVICE}-{ENVIRONMENT}-ses-feedback"


def feedback_topic(synthesized: Synthesized) -> tuple[str, dict[str, Any]]:
    ((logical_id, topic),) = [
        (i, t)
        for i, t in synthesized.resources("AWS::SNS::Topic").items()
        if t["Properties"]["TopicName"] == TOPIC
    ]
    return logical_id, topic


def configuration_set_arn(value: Any) -> bool:
    """Whether ``value`` (a template expression) is the ARN of the deployment's configuration set."""
    text = json.dumps(value)
    return ":ses:" in text and ":configuration-set/" in text


def test_bounces_and_complaints_are_published_to_the_feedback_topic(synthesized: Synthesized) -> None:
    topic_id, _ = feedback_topic(synthesized)
    (destination,) = [
        d["Properties"]["EventDestination"]
        for d in synthesized.resources("AWS::SES::ConfigurationSetEventDestination").values()
        if "SnsDestination" in d["Properties"]["EventDestination"]
    ]
    assert destination["SnsDestination"] == {"TopicARN": {"Ref": topic_id}}
    assert sorted(destination["MatchingEventTypes"]) == ["bounce", "complaint"]
    assert destination["Enabled"] is True


def test_the_topic_is_encrypted_with_a_key_ses_may_use_for_this_configuration_set_only(
    synthesized: Synthesized,
) -> None:
    _, topic = feedback_topic(synthesized)
    key_id = topic["Properties"]["KmsMasterKeyId"]["Fn::GetAtt"][0]
    key = synthesized.template["Resources"][key_id]
    assert key["Type"] == "AWS::KMS::Key" and key["Properties"]["EnableKeyRotation"] is True
    (ses,) = [
        s
        for s in key["Properties"]["KeyPolicy"]["Statement"]
        if s["Principal"] == {"Service": "ses.amazonaws.com"}
    ]
    assert sorted(ses["Action"]) == ["kms:Decrypt", "kms:GenerateDataKey*"]
    conditions = ses["Condition"]["StringEquals"]
    assert conditions["aws:SourceAccount"] == {"Ref": "AWS::AccountId"}
    assert configuration_set_arn(conditions["aws:SourceArn"])


def test_the_topic_is_tls_only_and_only_ses_publishes_for_this_configuration_set(
    synthesized: Synthesized,
) -> None:
    topic_id, _ = feedback_topic(synthesized)
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
    allowed = [s for s in statements if s["Effect"] == "Allow"]
    assert allowed
    for statement in allowed:
        assert statement["Principal"] == {"Service": "ses.amazonaws.com"}
        assert statement["Action"] == "sns:Publish"
        conditions = {name.lower(): value for name, value in statement["Condition"]["StringEquals"].items()}
        assert conditions["aws:sourceaccount"] == {"Ref": "AWS::AccountId"}
        assert configuration_set_arn(conditions["aws:sourcearn"])


def test_the_feedback_function_is_subscribed_and_invoked_by_this_topic_only(synthesized: Synthesized) -> None:
    topic_id, _ = feedback_topic(synthesized)
    functions = {
        f["Properties"]["FunctionName"]: i for i, f in synthesized.resources("AWS::Lambda::Function").items()
    }
    function_id = functions[DESCRIBED.function_name("feedback")]
    function = synthesized.template["Resources"][function_id]["Properties"]
    assert function["Handler"] == "functions.handlers.feedback.handler"
    (subscription,) = [
        s["Properties"]
        for s in synthesized.resources("AWS::SNS::Subscription").values()
        if s["Properties"]["TopicArn"] == {"Ref": topic_id}
    ]
    assert subscription["Protocol"] == "lambda"
    assert subscription["Endpoint"] == {"Fn::GetAtt": [function_id, "Arn"]}
    (permission,) = [
        p["Properties"]
        for p in synthesized.resources("AWS::Lambda::Permission").values()
        if p["Properties"]["FunctionName"] == {"Fn::GetAtt": [function_id, "Arn"]}
    ]
    assert permission["Principal"] == "sns.amazonaws.com"
    assert permission["SourceArn"] == {"Ref": topic_id}


def test_the_feedback_function_reads_and_writes_the_table_and_sends_as_the_domain_only(
    synthesized: Synthesized,
) -> None:
    grants = granted(synthesized, "feedback")
    table = next(iter(synthesized.resources("AWS::DynamoDB::Table")))
    assert grants["dynamodb:PutItem"] == {json.dumps({"Fn::GetAtt": [table, "Arn"]})}
    assert {"dynamodb:Query", "dynamodb:GetItem", "dynamodb:UpdateItem"} <= set(grants)
    sends = grants["ses:SendEmail"]
    assert len(sends) == 2
    assert any(f":identity/{MAIL_DOMAIN}" in r for r in sends)
    assert any(f":configuration-set/{DESCRIBED.configuration_set}" in r for r in sends)
    # Nothing else: no bucket, no other service (X-Ray, its own logs and dead-letter queue aside)
    assert {action.split(":")[0] for action in grants} == {"dynamodb", "ses", "logs", "xray", "sqs"}
    assert not [action for action in grants if action.startswith("s3:") or action == "ses:GetAccount"]


def test_feedback_that_keeps_failing_waits_in_its_own_dead_letter_queue_under_the_alarm(
    synthesized: Synthesized,
) -> None:
    made = synthesized.resources("AWS::Lambda::Function").items()
    functions = {f["Properties"]["FunctionName"]: (i, f) for i, f in made}
    function_id, function = functions[DESCRIBED.function_name("feedback")]
    inbound_id, inbound = functions[DESCRIBED.function_name("inbound")]
    # Retried twice by Lambda, like the inbound function, then kept 14 days in an encrypted queue
    (retries,) = [
        c["Properties"]
        for c in synthesized.resources("AWS::Lambda::EventInvokeConfig").values()
        if c["Properties"]["FunctionName"] == {"Ref": function_id}
    ]
    assert retries["MaximumRetryAttempts"] == 2
    queue_id = function["Properties"]["DeadLetterConfig"]["TargetArn"]["Fn::GetAtt"][0]
    assert queue_id != inbound["Properties"]["DeadLetterConfig"]["TargetArn"]["Fn::GetAtt"][0]
    queue = synthesized.template["Resources"][queue_id]["Properties"]
    assert queue["SqsManagedSseEnabled"] is True and queue["MessageRetentionPeriod"] == 14 * 24 * 3600
    # The function may send to it (Lambda sends as the function's role)
    queue_arn = json.dumps({"Fn::GetAtt": [queue_id, "Arn"]})
    assert granted(synthesized, "feedback")["sqs:SendMessage"] == {queue_arn}
    # And the dead-letters alarm watches it, beside the others
    (alarm,) = [
        a["Properties"]
        for a in synthesized.resources("AWS::CloudWatch::Alarm").values()
        if a["Properties"]["AlarmName"] == f"{SERVICE}-{ENVIRONMENT}-dead-letters"
    ]
    _, metrics = watched(alarm)
    queues = {logical_id(metric) for metric in metrics}
    assert {queue_id, inbound_id} & queues == {queue_id}
    assert len(queues) == 3  # inbound, feedback, schedule
    assert "feedback" in alarm["AlarmDescription"]

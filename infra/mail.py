"""Mail in and out through SES: the receipt rule that stores every mail for the game domain in the
mail bucket under ``inbound/<SES message id>`` (spam and virus scanning on, so that SES gives its
verdicts), then hands its receipt notification with the verdicts to the inbound function (the
rule's second action, added by infra/compute.py: docs/architecture.md says why not an S3 event),
and the configuration set every mail is sent with.

The configuration set puts bounced and complaining addresses on the account's suppression list,
so SES stops mailing an address that bounces, and publishes bounce and complaint events to
CloudWatch, and to the feedback topic, which the feedback function is subscribed to (added by
infra/compute.py): the host marks the players of such an address, tells their GM and mails them
no more (functions/host/feedback.py). The topic carries players' addresses and mail headers:
encrypted with a key of its own (SES may publish only to a topic whose key lets it, which the
AWS managed key for SNS does not), TLS only, and only SES, for this configuration set, may
publish to it. The receipt rule set still has to be made active by hand (one per account and
region: docs/operations.md).
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_ses as ses
from aws_cdk import aws_ses_actions as ses_actions
from aws_cdk import aws_sns as sns
from constructs import Construct

from functions.resources import SERVICE, Resources

EVENTS_DIMENSION = "ses:configuration-set"
"""The dimension SES publishes bounce and complaint events under (SES's automatic message tag)."""


class Mail(Construct):
    """Receiving into the mail bucket, and sending with the configuration set."""

    def __init__(
        self, scope: Construct, construct_id: str, resources: Resources, mail_bucket: s3.IBucket
    ) -> None:
        super().__init__(scope, construct_id)
        self.rule_set_name = f"{SERVICE}-{resources.env}"
        self.rule_name = f"{SERVICE}-{resources.env}-inbound"
        """The names as plain strings: the permission to invoke the inbound function names the
        rule, which itself depends on that permission (a reference would be a cycle)."""
        self.rule_set = ses.ReceiptRuleSet(self, "Receiving", receipt_rule_set_name=self.rule_set_name)
        # "Rule0": the id ReceiptRuleSet(rules=[...]) gave it, so that the deployed rule is kept
        # (a new logical id would create a second rule of the same name, which fails).
        self.inbound_rule = self.rule_set.add_rule(
            "Rule0",
            receipt_rule_name=self.rule_name,
            recipients=[resources.mail_domain],
            actions=[ses_actions.S3(bucket=mail_bucket, object_key_prefix=resources.inbound_prefix)],
            scan_enabled=True,
            # Mail sent in the clear could have been read or changed on the way: refused.
            tls_policy=ses.TlsPolicy.REQUIRE,
            enabled=True,
        )
        self.configuration_set = ses.ConfigurationSet(
            self,
            "Sending",
            configuration_set_name=resources.configuration_set,
            suppression_reasons=ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
            reputation_metrics=True,
            sending_enabled=True,
        )
        self.configuration_set.add_event_destination(
            "BouncesAndComplaints",
            destination=ses.EventDestination.cloud_watch_dimensions(
                [
                    ses.CloudWatchDimension(
                        name=EVENTS_DIMENSION,
                        source=ses.CloudWatchDimensionSource.MESSAGE_TAG,
                        default_value=resources.configuration_set,
                    )
                ]
            ),
            events=[ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
        )
        stack = Stack.of(self)
        self.identity_arn = stack.format_arn(
            service="ses", resource="identity", resource_name=resources.mail_domain
        )
        self.configuration_set_arn = stack.format_arn(
            service="ses", resource="configuration-set", resource_name=resources.configuration_set
        )
        self.feedback_topic = self._feedback_topic(resources)
        self.configuration_set.add_event_destination(
            "FeedbackToTheHost",
            destination=ses.EventDestination.sns_topic(self.feedback_topic),
            events=[ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
        )

    def _feedback_topic(self, resources: Resources) -> sns.Topic:
        """The topic SES publishes the configuration set's bounces and complaints to."""
        stack = Stack.of(self)
        from_ses = {
            "StringEquals": {"aws:SourceAccount": stack.account, "aws:SourceArn": self.configuration_set_arn}
        }
        key = kms.Key(
            self,
            "FeedbackKey",
            description=f"WarpMail {resources.env}: SES bounces and complaints (the feedback topic)",
            enable_key_rotation=True,
            # It encrypts messages in flight only (SNS keeps none once delivered): nothing to
            # keep it for once the stack is gone.
            removal_policy=RemovalPolicy.DESTROY,
            pending_window=Duration.days(7),
        )
        key.add_to_resource_policy(
            iam.PolicyStatement(
                principals=[iam.ServicePrincipal("ses.amazonaws.com")],
                actions=["kms:GenerateDataKey*", "kms:Decrypt"],
                resources=["*"],
                conditions=from_ses,
            )
        )
        # The event destination (in __init__) adds the topic's policy that lets SES publish, for
        # this account's configuration set only.
        return sns.Topic(
            self,
            "Feedback",
            topic_name=f"{SERVICE}-{resources.env}-ses-feedback",
            display_name=f"WarpMail {resources.env} SES feedback",
            master_key=key,
            enforce_ssl=True,
        )

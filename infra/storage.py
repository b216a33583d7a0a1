"""Where WarpMail keeps things: the mail bucket (raw mail as SES stored it), the state bucket (large
game states and the results mail kept for REPORT), the access-log bucket, and the single table.

Nothing here is deleted with the stack (RemovalPolicy.RETAIN), no bucket is public, every bucket
is encrypted, versioned and refuses requests without TLS. Mail and states of 128 KB or more move to
cheaper storage after ``archive_days``. Three things expire: raw inbound mail after
``raw_mail_days`` (0: never), so players' mail is not kept longer than the operator chose, the
kept results mail (a newer one replaces it anyway), and the turn workflow's work lists (a day
after their run).
"""

from __future__ import annotations

from aws_cdk import Duration, RemovalPolicy
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_s3 as s3
from constructs import Construct

from functions.resources import Resources
from functions.store.keys import RESULTS_PREFIX, STATE_PREFIX, WORK_PREFIX
from infra.checks import acknowledge
from infra.config import DeployConfig

INCOMPLETE_UPLOAD_DAYS = 7
NONCURRENT_DAYS = 30
"""After this many days, an overwritten or deleted version of an expiring object is removed too."""


def _bucket(scope: Construct, construct_id: str, **options: object) -> s3.Bucket:
    """A private, encrypted, versioned, TLS-only bucket that outlives the stack."""
    return s3.Bucket(
        scope,
        construct_id,
        encryption=s3.BucketEncryption.S3_MANAGED,
        block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
        object_ownership=s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
        enforce_ssl=True,
        versioned=True,
        removal_policy=RemovalPolicy.RETAIN,
        **options,
    )


GLACIER_IR_MINIMUM = 128 * 1024
"""Glacier Instant Retrieval bills every object as at least 128 KB, and since September 2024 S3
transitions no object under 128 KB unless a rule's size filter asks it to."""


def _archive(prefix: str | None, days: int) -> tuple[s3.LifecycleRule, s3.LifecycleRule]:
    """Objects of 128 KB and more move to Glacier Instant Retrieval after ``days``. Smaller ones
    stay in Standard: S3 would not move them anyway (the 2024 default, written out here so the
    template says what the rule does), and moving them would cost more than it saves (each is
    billed as 128 KB there, plus the transition request). Most raw mail (order mails of a few
    KB) therefore stays in Standard, which for such sizes is the cheaper class. Incomplete
    uploads are cleaned up by a rule of their own: S3 takes no size filter on that action."""
    name = (prefix or "all").strip("/")
    return (
        s3.LifecycleRule(
            id=f"archive-{name}",
            prefix=prefix,
            object_size_greater_than=GLACIER_IR_MINIMUM - 1,
            transitions=[
                s3.Transition(
                    storage_class=s3.StorageClass.GLACIER_INSTANT_RETRIEVAL,
                    transition_after=Duration.days(days),
                )
            ],
            noncurrent_version_transitions=[
                s3.NoncurrentVersionTransition(
                    storage_class=s3.StorageClass.GLACIER_INSTANT_RETRIEVAL,
                    transition_after=Duration.days(days),
                )
            ],
        ),
        s3.LifecycleRule(
            id=f"abort-uploads-{name}",
            prefix=prefix,
            abort_incomplete_multipart_upload_after=Duration.days(INCOMPLETE_UPLOAD_DAYS),
        ),
    )


def _expire_raw_mail(prefix: str, days: int) -> list[s3.LifecycleRule]:
    """Raw mail under ``prefix`` is deleted ``days`` after it arrived (no rule for 0: kept forever).
    In a versioned bucket that deletion, or a re-drive copying the mail onto itself, leaves an older
    version: it goes ``NONCURRENT_DAYS`` later, or ``days`` if sooner, so no copy of a mail is kept
    much past the set time (not twice as long)."""
    if not days:
        return []
    return [
        s3.LifecycleRule(
            id="expire-raw-mail",
            prefix=prefix,
            expiration=Duration.days(days),
            noncurrent_version_expiration=Duration.days(min(days, NONCURRENT_DAYS)),
        )
    ]


class Storage(Construct):
    """The buckets and the table of one deployment."""

    def __init__(
        self, scope: Construct, construct_id: str, resources: Resources, config: DeployConfig
    ) -> None:
        super().__init__(scope, construct_id)
        self.access_logs = _bucket(
            self,
            "AccessLogs",
            lifecycle_rules=[
                s3.LifecycleRule(
                    id="expire-access-logs",
                    expiration=Duration.days(config.log_retention_days),
                    noncurrent_version_expiration=Duration.days(1),
                )
            ],
        )
        acknowledge(
            self.access_logs,
            "AwsSolutions-S1",
            "This is the server access log bucket of the mail and state buckets; logging its own "
            "access into itself would loop.",
        )
        self.mail_bucket = _bucket(
            self,
            "Mail",
            bucket_name=resources.mail_bucket,
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix=f"{resources.mail_bucket}/",
            lifecycle_rules=[
                *_archive(None, config.archive_days),
                *_expire_raw_mail(resources.inbound_prefix, config.raw_mail_days),
            ],
        )
        self.state_bucket = _bucket(
            self,
            "State",
            bucket_name=resources.state_bucket,
            server_access_logs_bucket=self.access_logs,
            server_access_logs_prefix=f"{resources.state_bucket}/",
            lifecycle_rules=[
                *_archive(STATE_PREFIX, config.archive_days),
                s3.LifecycleRule(
                    # A run's work list is read when the run starts its Map; a day on, nothing needs it.
                    id="expire-work-lists",
                    prefix=WORK_PREFIX,
                    expiration=Duration.days(1),
                    noncurrent_version_expiration=Duration.days(1),
                ),
                s3.LifecycleRule(
                    id="expire-results",
                    prefix=RESULTS_PREFIX,
                    expiration=Duration.days(config.results_retention_days),
                    noncurrent_version_expiration=Duration.days(NONCURRENT_DAYS),
                    abort_incomplete_multipart_upload_after=Duration.days(INCOMPLETE_UPLOAD_DAYS),
                ),
            ],
        )
        self.table = _table(self, resources)


def _table(scope: Construct, resources: Resources) -> dynamodb.Table:
    spec = resources.table_spec
    string = dynamodb.AttributeType.STRING
    table = dynamodb.Table(
        scope,
        "Table",
        table_name=resources.table,
        partition_key=dynamodb.Attribute(name=spec.partition_key, type=string),
        sort_key=dynamodb.Attribute(name=spec.sort_key, type=string),
        billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
        point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
            point_in_time_recovery_enabled=True
        ),
        deletion_protection=True,
        time_to_live_attribute=spec.ttl_attribute,
        removal_policy=RemovalPolicy.RETAIN,
    )
    for index in spec.indexes:
        table.add_global_secondary_index(
            index_name=index.name,
            partition_key=dynamodb.Attribute(name=index.partition_key, type=string),
            sort_key=dynamodb.Attribute(name=index.sort_key, type=string),
            projection_type=dynamodb.ProjectionType.ALL,
        )
    return table

"""The AWS clients the functions make, from botocore alone.

boto3 would add nothing a client needs here, and importing it imports s3transfer and
multiprocessing: ~74 M instructions, ~25 ms of every cold start (docs/performance.md). moto
intercepts botocore's clients as it does boto3's (boto3 makes its clients with botocore).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from botocore.session import Session, get_session


@cache
def session() -> Session:
    """The one botocore session of the process: its clients share the loaded service models
    (the first client costs ~200 ms here, each later one far less) and the credentials."""
    return get_session()


def client(service: str, region: str | None = None) -> Any:
    """A client of ``service`` ("dynamodb", "s3", "sesv2", ...), in ``region`` or the
    environment's (``AWS_DEFAULT_REGION``)."""
    return session().create_client(service, region_name=region)

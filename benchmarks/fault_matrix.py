"""Print the fault matrix (issue 13, "Exactly once"): for each scenario of the inbound and the
turn path, a kill after every call to the store or the mailer, the retry past the leases, and
what came of it against an uninterrupted run (tests/functions/faults.py).

    PYTHONPATH=$PWD python -m benchmarks.fault_matrix [scenario ...]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from unittest import mock


def main(argv: Sequence[str] | None = None) -> int:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        os.environ[name] = "testing"
    os.environ["AWS_DEFAULT_REGION"] = "eu-west-1"
    import boto3
    from moto import mock_aws  # noqa: F401 (imported first: it intercepts the clients made after)

    from tests.functions import test_exactly_once as scenarios
    from tests.functions.faults import matrix, table

    # JOIN's random token and code fixed, so that runs compare byte for byte (as the test's fixture does).
    fixed = (
        mock.patch.object(scenarios.join, "new_code", lambda: scenarios.JOIN_CODE),
        mock.patch.object(scenarios.join, "_token", lambda: scenarios.JOIN_TOKEN),
    )
    for patch in fixed:
        patch.start()
    dynamodb = boto3.client("dynamodb", region_name="eu-west-1")
    s3 = boto3.client("s3", region_name="eu-west-1")
    wanted = list(argv if argv is not None else sys.argv[1:]) or list(scenarios.SCENARIOS)
    failed = 0
    for name in wanted:
        rows = matrix(scenarios.SCENARIOS[name](), scenarios.described(), dynamodb, s3)
        failed += sum(not row.ok for row in rows)
        print(f"{name}: {len(rows)} kill points, {sum(r.ok for r in rows)} ok\n{table(rows)}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""docs/operations.md matches the stack: every setting, every alarm, and the alarms and dashboard
the cost model prices."""

from __future__ import annotations

from benchmarks import cost_model
from functions.resources import SERVICE
from infra.config import DeployConfig, context_key
from tests.infra.conftest import ENVIRONMENT, ROOT, Synthesized
from tests.infra.test_stack import dashboard_metrics, watched

DOC = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")


def test_every_setting_is_documented() -> None:
    for field in DeployConfig.model_fields:
        assert f"`{context_key(field)}`" in DOC, field


def runbook() -> dict[str, list[str]]:
    """The Alarms section's table: alarm -> (what it means, how to check, what to do)."""
    section = DOC[DOC.index("## Alarms") :]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if line.startswith("| `") and len(cells) >= 2:
            rows[cells[0].strip("`")] = cells[1:]
    return rows


def test_every_alarm_has_a_runbook_entry_what_it_means_how_to_check_what_to_do(
    synthesized: Synthesized,
) -> None:
    names = [a["Properties"]["AlarmName"] for a in synthesized.resources("AWS::CloudWatch::Alarm").values()]
    # The canary's alarm is in the stack only with a canary game (tests/infra/test_canary_stack.py)
    alarms = [name.removeprefix(f"{SERVICE}-{ENVIRONMENT}-") for name in names] + ["canary"]
    entries = runbook()
    assert len(alarms) == 14
    for alarm in alarms:
        assert alarm in entries, alarm
        means, check, do = entries[alarm]
        assert min(len(means), len(check), len(do)) > 40, (alarm, entries[alarm])
    assert set(entries) == set(alarms), "a runbook entry for an alarm the stack does not have"


def test_the_deploy_pipeline_has_staging_a_smoke_test_and_a_rollback_without_a_registry() -> None:
    pipeline = DOC[DOC.index("## Deploying from GitHub Actions") : DOC.index("## Rolling back")]
    assert "staging" in pipeline and "game list" in pipeline and "canary" in pipeline
    assert "upload-artifact" in pipeline
    rollback = DOC[DOC.index("## Rolling back") : DOC.index("## Upgrading")]
    assert "aws cloudformation deploy" in rollback and "cdk.out" in rollback
    assert not (ROOT / ".github" / "workflows" / "deploy.yml").exists(), "described, never run in this CI"


def test_the_costs_count_the_stacks_alarms_dashboard_and_keys(synthesized: Synthesized) -> None:
    # The cost model prices these counts; the doc's costs come from the cost model
    alarms = synthesized.resources("AWS::CloudWatch::Alarm").values()
    metrics = sum(len(watched(alarm["Properties"])[1]) for alarm in alarms)
    assert (len(alarms), metrics) == (cost_model.ALARMS, cost_model.ALARM_METRICS)
    assert len(synthesized.resources("AWS::CloudWatch::Dashboard")) == cost_model.DASHBOARDS
    assert dashboard_metrics(synthesized) == cost_model.DASHBOARD_METRICS
    assert len(synthesized.resources("AWS::KMS::Key")) == cost_model.KMS_KEYS
    assert f"{cost_model.ALARMS} CloudWatch alarms reading {cost_model.ALARM_METRICS} metrics" in DOC

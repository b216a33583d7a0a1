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


def test_every_alarm_is_documented_with_what_to_do(synthesized: Synthesized) -> None:
    names = [a["Properties"]["AlarmName"] for a in synthesized.resources("AWS::CloudWatch::Alarm").values()]
    for name in names:
        assert f"| `{name.removeprefix(f'{SERVICE}-{ENVIRONMENT}-')}` |" in DOC, name


def test_the_costs_count_the_stacks_alarms_and_dashboard(synthesized: Synthesized) -> None:
    # The cost model prices these counts; the doc's costs come from the cost model
    alarms = synthesized.resources("AWS::CloudWatch::Alarm").values()
    metrics = sum(len(watched(alarm["Properties"])[1]) for alarm in alarms)
    assert (len(alarms), metrics) == (cost_model.ALARMS, cost_model.ALARM_METRICS)
    assert len(synthesized.resources("AWS::CloudWatch::Dashboard")) == cost_model.DASHBOARDS
    assert dashboard_metrics(synthesized) == cost_model.DASHBOARD_METRICS
    assert f"{cost_model.ALARMS} CloudWatch alarms reading {cost_model.ALARM_METRICS} metrics" in DOC

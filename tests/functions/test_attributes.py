"""DynamoDB attribute values without boto3 (functions/store/attributes.py): the same as boto3's
TypeSerializer for every JSON value the store writes, and back unchanged."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal, Inexact
from typing import Any

import pytest
from boto3.dynamodb.types import TypeSerializer
from hypothesis import given, settings
from hypothesis import strategies as st

from functions.store.attributes import from_item, to_attribute, to_item

FLOATS = st.floats(allow_nan=False, allow_infinity=False)
STORABLE_FLOATS = FLOATS.filter(lambda number: number == 0 or 1e-100 < abs(number) < 1e100)
"""Within DynamoDB's number range (about 1e-130 to 1e126)."""


def json_values(floats: st.SearchStrategy[float]) -> st.SearchStrategy[Any]:
    return st.recursive(
        st.none() | st.booleans() | st.integers(min_value=-(10**37), max_value=10**37) | floats | st.text(),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4),
        max_leaves=12,
    )


LAMBDA_MODULES = ("functions.handlers.inbound", "functions.handlers.workflow", "functions.mail.ses")


def _decimals(value: Any) -> Any:
    """``value`` as boto3 accepts it, and as DynamoDB gives it back: numbers as decimals."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return Decimal(str(value))
    if isinstance(value, list):
        return [_decimals(item) for item in value]
    if isinstance(value, dict):
        return {name: _decimals(item) for name, item in value.items()}
    return value


@settings(max_examples=150)
@given(json_values(FLOATS))
def test_a_json_value_is_written_as_boto3_writes_it(value: Any) -> None:
    # Given a value of a record's JSON dump; when it is made an attribute value
    # Then it is what boto3's serializer makes of it (floats as the decimals they print as), or
    # refused as boto3 refuses it (beyond DynamoDB's range or precision)
    assert _outcome(to_attribute, value) == _outcome(TypeSerializer().serialize, _decimals(value))


def _outcome(serialize: Callable[[Any], Any], value: Any) -> Any:
    try:
        return serialize(value)
    except ArithmeticError as error:
        return type(error)


@settings(max_examples=150)
@given(st.dictionaries(st.text(min_size=1), json_values(STORABLE_FLOATS), max_size=5))
def test_an_item_reads_back_as_written(values: dict[str, Any]) -> None:
    assert from_item(to_item(values)) == _decimals(values)


def test_a_float_is_the_decimal_it_prints_as() -> None:
    assert to_attribute(0.1) == {"N": "0.1"}
    assert to_attribute((24.0, 2.5)) == {"L": [{"N": "24.0"}, {"N": "2.5"}]}


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (10**40 + 1, Inexact),
        (Decimal("1." + "1" * 40), Inexact),
        (float("nan"), TypeError),
        (float("inf"), TypeError),
        ({"a", "b"}, TypeError),
    ],
)
def test_what_dynamodb_cannot_hold_exactly_is_refused(value: Any, error: type[Exception]) -> None:
    with pytest.raises(error):
        to_attribute(value)


def test_the_store_does_not_import_boto3() -> None:
    # The point of the module: the functions' store and clients import botocore, not boto3
    imported = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, functions.store, functions.mail.ses; print('boto3' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert imported.stdout.strip() == "False"

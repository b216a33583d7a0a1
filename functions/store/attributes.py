"""DynamoDB attribute values to and from Python values, without boto3.

boto3's TypeSerializer would import all of boto3 into every function (docs/performance.md).
Reading uses Powertools' TypeDeserializer, boto3's conversions (numbers as ``Decimal``).
Writing covers what the store writes, JSON values (``model_dump(mode="json")``), with the same
precision check as boto3: a number DynamoDB would round is refused.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from aws_lambda_powertools.shared.dynamodb_deserializer import DYNAMODB_CONTEXT, TypeDeserializer

Item = dict[str, Any]

_deserializer = TypeDeserializer()


def to_item(values: Item) -> Item:
    """``values`` as DynamoDB attribute values: {"turn": 5} -> {"turn": {"N": "5"}}."""
    return {name: to_attribute(value) for name, value in values.items()}


def from_item(item: Item) -> Item:
    """The Python values of a DynamoDB item (numbers as ``Decimal``)."""
    return {name: _deserializer.deserialize(value) for name, value in item.items()}


def to_attribute(value: Any) -> Item:
    """One value as a DynamoDB attribute value; TypeError for a value JSON has no form for."""
    if value is None:
        return {"NULL": True}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, int | float | Decimal):
        return {"N": _number(value)}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, bytes):
        return {"B": value}
    if isinstance(value, list | tuple):
        return {"L": [to_attribute(item) for item in value]}
    if isinstance(value, dict):
        return {"M": to_item(value)}
    raise TypeError(f"no DynamoDB attribute value for a {type(value).__name__}: {value!r}")


def _number(value: int | float | Decimal) -> str:
    # A float as the decimal it prints as (0.1, not 0.1000000000000000055...): DynamoDB numbers
    # are decimals. The context raises Inexact or Rounded beyond DynamoDB's 38 digits.
    number = DYNAMODB_CONTEXT.create_decimal(str(value) if isinstance(value, float) else value)
    if not number.is_finite():
        raise TypeError(f"DynamoDB has no number {value!r}")
    return str(number)

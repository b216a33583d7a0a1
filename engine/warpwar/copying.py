"""Deep copies of plain pydantic data, for ``GameState.clone``.

The engine never changes a state it was given: every step works on a copy. A JSON round trip
(``model_validate(model_dump())``) makes a correct copy but re-validates every field of every
ship and rebuilds the map, whose cached look-ups (adjacency, ``star_at``) are then computed again
in every step; it dominated the cost of a step. Here the copy is planned once per model class
from the field types:

* what cannot change in place is shared: str, int, enums, frozen models (the map, the
  configuration, Attributes, orders, sightings) and tuples of those;
* lists and dicts are copied, their items too unless they cannot change;
* every other model is copied field by field, the same way.

The copy is equal (``==``) to the original and dumps to the same JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from types import UnionType
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

Copier = Callable[[Any], Any]
Model = TypeVar("Model", bound=BaseModel)


def _slot_setter(name: str) -> Callable[[Any, Any], None]:
    """The setter of one of ``BaseModel``'s own slots, called directly: what
    ``object.__setattr__(model, name, value)`` does (as ``BaseModel.__copy__`` sets them, past
    pydantic's ``__setattr__``) without looking the name up on every call; a state copy sets
    four for each of some forty models."""
    setter: Callable[[Any, Any], None] = BaseModel.__dict__[name].__set__
    return setter


_set_fields = _slot_setter("__dict__")
_set_fields_set = _slot_setter("__pydantic_fields_set__")
_set_extra = _slot_setter("__pydantic_extra__")
_set_private = _slot_setter("__pydantic_private__")

_new = object.__new__
"""Makes an instance without ``__init__``; looked up once, as ``cls.__new__`` goes through
pydantic's metaclass each time."""


def deep_copy(value: Any) -> Any:
    """A copy of ``value`` (models, lists, dicts, sets, tuples, scalars) that shares nothing
    that can change; used where the type is not known in advance."""
    if isinstance(value, BaseModel):
        return value if _frozen(type(value)) else copy_model(value)
    if isinstance(value, list):
        return [deep_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: deep_copy(item) for key, item in value.items()}
    if isinstance(value, set):
        return {deep_copy(item) for item in value}
    if isinstance(value, tuple):
        return tuple(deep_copy(item) for item in value)
    return value


def copy_model(model: Model) -> Model:
    """What ``model.__copy__()`` does, with each changeable field copied by its plan."""
    copied: Model = _model_copier(type(model))(model)
    return copied


def updated(model: Model, changes: Mapping[str, Any]) -> Model:
    """What ``model.model_copy(update=changes)`` makes, without ``copy.copy``'s generic dispatch:
    round reports are copied with changes for each player in every combat round. The changes are
    not validated, as with ``model_copy``: they must already have the fields' types."""
    cls = type(model)
    if not changes or not _plain(cls):
        return model.model_copy(update=changes)
    copied = _new(cls)
    fields = model.__dict__.copy()
    fields.update(changes)
    fields_set = model.__pydantic_fields_set__.copy()
    fields_set.update(changes)
    _set_fields(copied, fields)
    _set_extra(copied, None)
    _set_fields_set(copied, fields_set)
    _set_private(copied, None)
    return copied


@cache
def _model_copier(cls: type[BaseModel]) -> Copier:
    """The copier of one model class, with its plan and constructor looked up once: a state copy
    copies every ship, Base and player."""
    plan = _plan(cls)
    plain = _plain(cls)

    def copy(model: Any) -> Any:
        if type(model) is not cls:
            # A field of this class holding a subclass: that class's own copier.
            return copy_model(model)
        copied = _new(cls)
        fields = model.__dict__.copy()
        for name, copier in plan:
            fields[name] = copier(fields[name])
        _set_fields(copied, fields)
        _set_fields_set(copied, model.__pydantic_fields_set__.copy())
        if plain:
            _set_extra(copied, None)
            _set_private(copied, None)
        else:
            extra, private = model.__pydantic_extra__, model.__pydantic_private__
            _set_extra(copied, None if extra is None else deep_copy(extra))
            _set_private(copied, None if private is None else deep_copy(private))
        return copied

    return copy


@cache
def _plain(cls: type[BaseModel]) -> bool:
    """Whether the model class can hold neither extra fields nor private attributes: then both
    are always None and need not be read, as every attribute read on a model costs several times
    a plain object's (Python 3.11 does not specialise look-ups on classes with a ``__getattr__``)."""
    return cls.model_config.get("extra") != "allow" and not cls.__private_attributes__


@cache
def _plan(model: type[BaseModel]) -> tuple[tuple[str, Copier], ...]:
    """The fields of ``model`` that need copying, each with how to copy it."""
    plan = []
    for name, field in model.model_fields.items():
        copier = _copier(field.annotation)
        if copier is not None:
            plan.append((name, copier))
    return tuple(plan)


def _copier(annotation: Any) -> Copier | None:
    """How to copy a value of this type; None when it can be shared."""
    if _unchangeable(annotation):
        return None
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Annotated:
        return _copier(args[0])
    if origin is list and args:
        return _list_copier(_copier(args[0]))
    if origin is dict and args:
        return _dict_copier(_copier(args[1]))
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model_copier(annotation)
    return deep_copy


def _list_copier(item: Copier | None) -> Copier:
    if item is None:
        return list
    return lambda values: [item(value) for value in values]


def _dict_copier(item: Copier | None) -> Copier:
    if item is None:
        return dict
    return lambda values: {key: item(value) for key, value in values.items()}


def _unchangeable(annotation: Any) -> bool:
    """Whether a value of this type can never be changed in place."""
    if annotation in (str, int, float, bool, type(None)):
        return True
    origin = get_origin(annotation)
    if origin is Annotated:
        return _unchangeable(get_args(annotation)[0])
    if origin in (Union, UnionType, tuple):
        return all(arg is Ellipsis or _unchangeable(arg) for arg in get_args(annotation))
    if origin is Literal:
        return True
    if isinstance(annotation, type):
        return issubclass(annotation, Enum) or (issubclass(annotation, BaseModel) and _frozen(annotation))
    return False


def _frozen(model: type[BaseModel]) -> bool:
    return bool(model.model_config.get("frozen"))

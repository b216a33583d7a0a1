"""A game's own options as the GM writes them (``GameSetup.options_json``), read with the game's
pydantic model; what is wrong is said in the GM's words, not pydantic's."""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel, ValidationError

OptionsT = TypeVar("OptionsT", bound=BaseModel)


def read_options(model: type[OptionsT], options_json: str) -> OptionsT:
    """The options in ``options_json`` (``{}`` or "" for the defaults); ValueError says what is
    wrong with each, named."""
    try:
        return model.model_validate_json(options_json or "{}")
    except ValidationError as error:
        raise ValueError(said(error)) from None


def said(error: ValidationError) -> str:
    """A validation error in the GM's words: each problem with where it is (the option it is
    about)."""
    return "; ".join(
        (f"{'.'.join(map(str, e['loc']))}: " if e["loc"] else "") + e["msg"].removeprefix("Value error, ")
        for e in error.errors()
    )

"""The one Jinja2 environment every mail and report is rendered with.

Autoescaping is on for HTML templates (so nothing a player writes can inject markup) and
undefined names fail loudly (StrictUndefined), so a template that asks for something the
report does not have is an error in the tests, never a blank in a player's mail.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"


@cache
def environment(templates: Path = TEMPLATES) -> Environment:
    """Templates are looked up under ``templates`` (a GM may point this at restyled copies)."""
    return Environment(
        loader=FileSystemLoader(templates),
        autoescape=select_autoescape(enabled_extensions=("html", "htm", "xml", "svg"), default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(name: str, templates: Path = TEMPLATES, **context: object) -> str:
    return environment(templates).get_template(name).render(**context)

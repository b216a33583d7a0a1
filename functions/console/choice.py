"""Which backend a console command uses: light, as the command tree builds it for ``--help``."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel


class Choice(BaseModel):
    """A stack when one is named, else the local host's folder."""

    local: Path = Path("out/local")
    stack: str | None = None
    profile: str | None = None
    region: str | None = None

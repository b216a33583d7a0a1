"""The game hosts: how the turn service plays, and mails, each game hosted by mail."""

from __future__ import annotations

from functions.host.results import GameHost
from functions.host.warpwar_host import WarpWarHost

HOSTS: dict[str, GameHost] = {WarpWarHost.key: WarpWarHost()}

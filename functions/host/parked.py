"""A parked game's GM is told: the game, why it was parked, and the console command that releases
it once the cause is fixed (issue 15, "Failures that heal")."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from functions.host.notices import game_notice
from functions.host.ports import TurnStore
from functions.host.sending import send_once
from functions.mail.compose import OutgoingMail
from functions.mail.ses import Mailer
from functions.resources import Settings
from functions.store.records import GameRecord

PARKED = (
    "Game {game_id} ({title}) is parked: the turn workflow could not process it, and it will not "
    "run until it is released. The error: {reason}"
)
PARKED_WHAT = (
    "Nothing was lost: the game's last state stands and the players' orders are kept. Fix the "
    "cause (a bug: ask the operator for the fix; a quota: wait for it or raise it), then release "
    "the game; its turn is played and every result the park held back is mailed:"
)
RELEASE = "warpmail turn unpark {game_id}\nwarpmail turn unpark --all-parked"


def tell_gm_parked(
    store: TurnStore, mailer: Mailer, settings: Settings, game: GameRecord, now: datetime
) -> bool:
    """Mail the game's GM (the host's own address when it has none) that ``game`` is parked, once
    per park (the claim names the version that parked it); whether it was sent now."""
    to = game.gm_address or settings.sender
    key = f"parked/{game.game_id}/{game.version}"
    reason = f"GM told: game parked ({game.parked})"
    return send_once(store, mailer, settings, key, partial(parked_mail, game, to), now, reason)


def parked_mail(game: GameRecord, to: str, _: datetime) -> OutgoingMail:
    title = f"Game {game.game_id} is parked"
    paragraphs = [
        PARKED.format(game_id=game.game_id, title=game.title, reason=game.parked or "unknown"),
        PARKED_WHAT,
    ]
    return game_notice(game, to, title, paragraphs, RELEASE.format(game_id=game.game_id))

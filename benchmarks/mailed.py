"""Orders stored as if mailed, one submission an order block: how the benchmarks and the tests
that play whole games through the turn service (functions/host/turns.py) hand in a player's
orders without the inbound mail path."""

from __future__ import annotations

from datetime import datetime

from engine.warpwar.mailgame import WarpWarMail
from functions.store import NewSubmission, Store


def submit_orders(store: Store, game_id: str, state_json: str, player: str, text: str, now: datetime) -> int:
    """``text`` read as ``player``'s order mail against ``state_json`` and each of its blocks
    stored, received ``now``; how many. Each has a Message-ID of its own (time, player and
    scope), as a mail client would give it."""
    parts = WarpWarMail().read_orders(state_json, player, text).parts
    for part in parts:
        store.add_submission(
            NewSubmission(
                game_id=game_id,
                player_id=player,
                scope=part.scope,
                received_at=now,
                message_id=f"<{now.isoformat()}.{player}.{part.scope}@example.org>",
                body=text,
                orders_json=part.orders_json,
            )
        )
    return len(parts)

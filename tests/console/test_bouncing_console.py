"""A bouncing address at the GM console (issue 15): ``turn resend`` skips it in one line naming the
player and the fix, and ``player list`` shows the mark."""

from __future__ import annotations

import pytest

from tests.console.conftest import KeptOpen, outbox_mails, warpmail

MARK = "bounce 2026-11-27"


@pytest.fixture
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """A terminal wide enough that no table cell is wrapped."""
    monkeypatch.setenv("COLUMNS", "220")


def bouncing_game(console: KeptOpen, game: str) -> None:
    """A running game of two players, Ann and Bob, whose first results are out; Ann's address
    marked bouncing (as functions/host/feedback.py marks it)."""
    assert warpmail("game", "create", game, "--seed", "4") == 0
    assert warpmail("player", "invite", game, "ann@bounce.example", "--name", "Ann") == 0
    assert warpmail("player", "invite", game, "bob@fine.example", "--name", "Bob") == 0
    assert warpmail("game", "start", game) == 0
    ann = next(p for p in console.store.players(game) if p.name == "Ann")
    console.store.update_player(ann.model_copy(update={"bouncing": MARK}))


def test_resend_skips_a_bouncing_address_and_says_whose_and_the_fix(
    console: KeptOpen, capsys: pytest.CaptureFixture[str], wide: None
) -> None:
    # Given a game whose first results went out, then Ann's address bounced
    bouncing_game(console, "rb1")
    to_ann, to_bob = (len(outbox_mails(console.outbox, a)) for a in ("ann@bounce", "bob@fine"))
    assert to_ann and to_bob
    capsys.readouterr()
    # When the GM resends every player's latest results
    assert warpmail("turn", "resend", "rb1") == 0
    out = capsys.readouterr().out
    # Then Bob is mailed again, Ann is not, and one line names her and the command that fixes it
    assert len(outbox_mails(console.outbox, "bob@fine")) == to_bob + 1
    assert len(outbox_mails(console.outbox, "ann@bounce")) == to_ann
    skipped = [line for line in out.splitlines() if "ann@bounce.example" in line]
    assert len(skipped) == 1
    assert f"Ann (P1) is bouncing ({MARK})" in skipped[0]
    assert "warpmail player address rb1 P1 <new-address>" in skipped[0]
    # and the mail log says it was not sent, as for every mail withheld
    assert any(
        e.address == "ann@bounce.example" and e.reason == f"not sent: ann@bounce.example is bouncing ({MARK})"
        for e in console.store.mail_log("rb1")
    )
    # (the same for her alone)
    assert warpmail("turn", "resend", "rb1", "--player", "P1") == 0
    assert "warpmail player address rb1 P1" in capsys.readouterr().out
    assert len(outbox_mails(console.outbox, "ann@bounce")) == to_ann


def test_player_list_shows_the_bouncing_mark(
    console: KeptOpen, capsys: pytest.CaptureFixture[str], wide: None
) -> None:
    bouncing_game(console, "rb2")
    capsys.readouterr()
    assert warpmail("player", "list", "rb2") == 0
    rows = {line.split()[1]: line for line in capsys.readouterr().out.splitlines() if " P" in line}
    assert "ann@bounce.example (bouncing since 2026-11-27: bounce)" in rows["P1"]
    assert "bouncing" not in rows["P2"]

"""docs/gm.md, run: every ``warpmail`` line of its ``sh`` blocks, in order, with the mails it
shows delivered as written (the secret code a player would copy from their welcome mail filled
in), against a local host; then what each step should have left in the store and the outbox."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from engine.warpwar.options import WarpWarOptions
from functions.mail.compose import KIND_HEADER
from functions.resources import Resources
from tests.console.conftest import (
    KeptOpen,
    code_sent_to,
    fake_stack,
    outbox_mails,
    stack_store,
    text_of,
    warpmail,
)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "gm.md"
BLOCK = re.compile(r"(?:<!-- mail: (?P<file>\S+) -->\n)?```(?P<kind>\w+)\n(?P<body>.*?)```", re.DOTALL)
PLACEHOLDER = re.compile(r"<(\w+)'s code>")
TOKEN = re.compile(r"<(\S+@\S+)'s token>")
CONFIRM = re.compile(r"CONFIRM ([0-9A-Z]{4}-[0-9A-Z]{4})")
SECTION = re.compile(r"^## (\d+)\. (.+)$", re.MULTILINE)


def steps() -> list[tuple[str, str, str]]:
    """(kind, file, body) of each block of the guide, in order: "sh" blocks are commands, a
    "text" block marked with a file name is a mail."""
    return [
        (m["kind"], m["file"] or "", m["body"]) for m in BLOCK.finditer(GUIDE.read_text(encoding="utf-8"))
    ]


def player_code(local: KeptOpen, text: str) -> str:
    """The mail with each "<Name's code>" replaced by that player's code, and each "<address's
    token>" by the JOIN confirmation token mailed there, read from their mail."""
    players = {p.name: p.address for p in local.store.players("g1")}
    text = TOKEN.sub(lambda m: token_sent_to(local, m.group(1)), text)
    return PLACEHOLDER.sub(lambda m: code_sent_to(local.outbox, players[m.group(1)]), text)


def token_sent_to(local: KeptOpen, address: str) -> str:
    """The JOIN confirmation token in the latest confirmation mailed to ``address``."""
    for message in reversed(outbox_mails(local.outbox, address)):
        found = CONFIRM.search(str(message["Subject"]))
        if found:
            return found.group(1)
    raise AssertionError(f"no JOIN confirmation was mailed to {address}")


def test_the_guide_has_the_walkthrough_the_issue_asks_for() -> None:
    titles = [title for _, title in SECTION.findall(GUIDE.read_text(encoding="utf-8"))]
    for words in ("Create", "sign-up", "Invite", "Start", "turn runs", "standby", "Roll back", "Replay"):
        assert any(words in title for title in titles), words
    assert any("deployed stack" in title for title in titles)


class Walked:
    def __init__(self, printed: dict[str, str], prod: Resources) -> None:
        self.printed = printed
        self.prod = prod

    def __getitem__(self, fragment: str) -> str:
        """What the command line containing ``fragment`` printed."""
        return next(out for line, out in self.printed.items() if fragment in line)


@pytest.fixture
def walked(
    console: KeptOpen, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Walked:
    """The guide run; what each command printed, by command line."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "300")  # tables unwrapped, to read lines back
    prod = fake_stack("WarpMail-prod", "prod", console.backend.host.client)
    printed: dict[str, str] = {}
    for kind, file, body in steps():
        if file:
            (tmp_path / file).write_text(player_code(console, body), encoding="utf-8")
        if kind != "sh":
            continue
        for line in body.splitlines():
            if not line.startswith("warpmail "):
                continue
            code = warpmail(*shlex.split(line)[1:])
            out = capsys.readouterr()
            assert code == 0, f"{line}\n{out.out}\n{out.err}"
            printed[line] = out.out
    return Walked(printed, prod)


def test_walking_through_the_guide_runs_a_three_player_blind_game(walked: Walked, console: KeptOpen) -> None:
    store = console.store
    game = store.game("g1")
    assert game is not None
    # 1. Create: a blind game for three on a generated map, with the schedule asked for.
    options = WarpWarOptions.model_validate_json(game.setup.options_json)
    assert options.visibility == "blind" and options.map == "generated" and options.hexes == 600
    spec = options.map_spec(game.game_id, game.setup.seats)
    assert spec is not None and spec.players == 3
    assert game.schedule.deadline_time == "18:00" and game.schedule.timezone == "Europe/Paris"
    assert game.schedule.weekdays == (1, 2, 3, 4, 5) and game.schedule.missed_action == "standby"
    # 2. Sign-up by mail, 3. invitations: everyone had a welcome with a secret code.
    log = store.mail_log("g1")
    assert any(e.reason == "JOIN: Ann joined as P1" for e in log)
    assert any(e.reason == "JOIN: Bob joined as P2" for e in log)
    for address in ("ann@example.org", "bob@example.org", "cy@example.org", "dee@example.org"):
        assert code_sent_to(console.outbox, address)
    # 4. Start: every player had the opening results; 5. Ann's orders were played.
    turn_1 = store.latest_submissions("g1", "turn:1")
    assert ("P1", "turn:1") in turn_1 and "BUILD WARPSHIP AT 1116" in turn_1[("P1", "turn:1")].body
    shown = walked["turn show g1 --turn 1"]
    assert "BUILD WARPSHIP AT 1116" in shown and "results/g1/P1/" in shown
    # 6. Bob missed two turns in a row: Dee holds his seat, her standby place is closed.
    players = {p.player_id: p for p in store.players("g1")}
    assert (players["P2"].name, players["P2"].address, players["P2"].role) == (
        "Dee",
        "dee@example.org",
        "player",
    )
    assert [p.role for p in players.values() if p.name == "Dee" and p.player_id != "P2"] == ["removed"]
    # Bob is told once, by the missed-turn rule (not also by a GM's goodbye): a standby holds his seat
    to_bob = [str(m["Subject"]) for m in outbox_mails(console.outbox, "bob@")]
    assert any("You missed 2 turns in a row in game g1" in subject for subject in to_bob), to_bob
    assert not any("You have left game g1" in subject for subject in to_bob), to_bob
    # 7. Rollback: a version whose state is the opening of turn 2 again; everyone told.
    again = re.search(r"version (\d+) again, as version (\d+)", walked["turn rollback"])
    assert again is not None
    opened, rolled = (int(v) for v in again.groups())
    assert store.versions("g1")[opened].turn == 2
    assert store.state("g1", rolled)[1] == store.state("g1", opened)[1]
    for address in ("ann@example.org", "dee@example.org", "cy@example.org"):
        subjects = [str(m["Subject"]) for m in outbox_mails(console.outbox, address)]
        assert any("The game is back at turn 2" in s for s in subjects), address
    # 8. Replay: every step reproduced.
    assert "0 steps" not in walked["turn replay"]
    assert "not reproduced" not in walked["turn replay"]
    # 9. The bulletin went out first in the next results, then was cleared; Cy had direct mail.
    bulletin = "Welcome, Dee! Turn 2 is being replayed from its start."
    results = [m for m in outbox_mails(console.outbox, "ann@") if m[KIND_HEADER] == "results"]
    assert bulletin in " ".join(text_of(results[-1]).split())
    assert store.game("g1").bulletin == ""  # type: ignore[union-attr]
    assert any("your first deadline is close" in text_of(m) for m in outbox_mails(console.outbox, "cy@"))
    # 10. Pause and resume, mailed; the game runs again.
    subjects = [str(m["Subject"]) for m in outbox_mails(console.outbox, "cy@")]
    assert any("The game is paused" in s for s in subjects) and any("The game goes on" in s for s in subjects)
    assert store.game("g1").status == "running"  # type: ignore[union-attr]
    # 11. The mail log lists mail in and out.
    assert "JOIN: Ann joined as P1" in walked["mail log g1"]
    # 12. The stack: its own table holds the game created there.
    prod = stack_store(walked.prod, console.backend.host.client)
    assert [(g.game_id, g.status) for g in prod.games()] == [("g2", "open")]
    assert "STARTED" in walked["--region eu-west-1 turn run"]

"""The console's own path on a local folder: each command starts the local host (restoring the
games), runs, and stops it (saving them, the mail sent in the outbox).

Apart from test_commands.py: that module keeps one host open, and two local hosts in one process
would share moto's one set of backends."""

from __future__ import annotations

from pathlib import Path

import pytest

from functions.local.aws import LocalAws
from functions.local.host import LOCK_FILE, FolderLock
from tests.console.conftest import code_sent_to, warpmail


def test_each_command_on_a_local_folder_starts_and_saves_the_host(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    wirings: list[LocalAws] = []
    wire = LocalAws.wire

    def counted(aws: LocalAws) -> None:
        wirings.append(aws)
        wire(aws)

    monkeypatch.setattr(LocalAws, "wire", counted)
    root = ["--local", str(tmp_path)]
    assert warpmail(*root, "game", "create", "w1", "--seed", "1") == 0
    assert warpmail(*root, "game", "open", "w1") == 0
    assert warpmail(*root, "player", "invite", "w1", "ann@example.org", "--name", "Ann") == 0
    assert warpmail(*root, "game", "list") == 0
    assert "│ w1 " in capsys.readouterr().out, "the game was saved by one command, restored by the next"
    assert code_sent_to(tmp_path / "outbox", "ann@example.org"), "mail sent is in the outbox at stop"
    # Delivering mail and running turns do make them: tests/console/test_gm_walkthrough.py.
    assert wirings == [], "no functions nor state machine for commands that use the store and SES"
    held = FolderLock(tmp_path / LOCK_FILE)
    held.acquire()
    held.release()

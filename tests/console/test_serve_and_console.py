"""The GM console on a folder that ``warpmail local serve`` (here ``play``, which serves as it
does) is serving: serve holds the folder per mail and per workflow run only, so a console command
runs meanwhile, and each catches up with what the other saved, losing nothing."""

from __future__ import annotations

import smtplib
import threading
from pathlib import Path

import pytest

from functions.console.backend import LocalBackend
from functions.local import host as local_host
from functions.local.host import LOCK_FILE, FolderLock
from tests.console.conftest import warpmail
from tests.functions.test_local_play import start_play, the_mail, wait_for
from tests.functions.test_local_serve import START_TIMEOUT, free_port


def send(port: int, subject: str, printed: list[str]) -> None:
    mail = the_mail(printed)
    mail.replace_header("Subject", subject)
    with smtplib.SMTP("127.0.0.1", port, timeout=START_TIMEOUT) as smtp:
        smtp.send_message(mail)


def game_ids(root: Path) -> list[str]:
    backend = LocalBackend(root)
    try:
        return [game.game_id for game in backend.store.games()]
    finally:
        backend.close()


def game_status(root: Path) -> str:
    backend = LocalBackend(root)
    try:
        game = backend.store.game("play")
        assert game is not None
        return game.status
    finally:
        backend.close()


def test_the_console_works_while_serve_runs_and_neither_loses_the_others_writes(tmp_path: Path) -> None:
    # Given play serving a running game for zoe (no workflow run to get in the way)
    port = free_port()
    served, printed = start_play(tmp_path, port, "--address", "zoe@example.org", "--tick", "3600")
    root = ("--local", str(tmp_path))
    try:
        # When the GM pauses the game while it serves
        assert warpmail(*root, "game", "pause", "play", "--reason", "tea") == 0
        # And zoe's orders arrive after it
        send(port, "orders after the pause", printed)
        wait_for(tmp_path / "outbox", "*-zoe@example.org-ack.eml")
        # Then serve handled them on the paused game: its save did not undo the pause
        assert game_status(tmp_path) == "paused"
        # When the GM resumes the game while another mail of zoe's is being handled
        mailing = threading.Thread(target=send, args=(port, "orders during the resume", printed))
        mailing.start()
        assert warpmail(*root, "game", "resume", "play") == 0
        mailing.join(START_TIMEOUT)
        wait_for(tmp_path / "outbox", "*-zoe@example.org-ack.eml", count=2)
    finally:
        code, after = served.terminate()
    assert code == 0, after
    # Then the folder holds the GM's writes and serve's: the game running, both mails logged
    backend = LocalBackend(tmp_path)
    try:
        game = backend.store.game("play")
        assert game is not None and game.status == "running"
        subjects = {entry.subject for entry in backend.store.mail_log("play") if entry.direction == "in"}
        assert {"orders after the pause", "orders during the resume"} <= subjects, subjects
        assert backend.store.submissions("play", "turn:1", "P1"), "zoe's orders are stored"
    finally:
        backend.close()


def test_a_command_waits_for_an_operation_in_hand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the folder held by another operation, which ends within the wait
    monkeypatch.setattr(local_host, "LOCK_WAIT", 5.0)
    held = FolderLock(tmp_path / LOCK_FILE)
    held.acquire()
    threading.Timer(0.2, held.release).start()
    # Then a command waits for it, and runs (giving up is tests/console/test_commands.py's)
    assert warpmail("--local", str(tmp_path), "game", "create", "w1") == 0
    assert game_ids(tmp_path) == ["w1"]

"""``warpmail local play`` as a process: it starts a game against a robot for the player's
address, prints the mail to send (flushed: read here through a pipe while it runs), answers that
very mail, and stops cleanly on SIGTERM; a port in use or a bad address is one line."""

from __future__ import annotations

import queue
import re
import signal
import smtplib
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

from functions.local.play import free_game_id
from tests.functions.test_local_serve import START_TIMEOUT, free_port

REPLY_TIMEOUT = 30.0


class Played:
    """``play`` in a new interpreter, its standard error read as it comes (a reader thread: the
    banner comes in one write, which a select() on the pipe would see as one line)."""

    def __init__(self, root: Path, port: int, *options: str) -> None:
        command = [
            sys.executable,
            "-m",
            "functions.local.cli",
            "--root",
            str(root),
            "play",
            "--port",
            str(port),
        ]
        self.process = subprocess.Popen(
            [*command, *options], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.put(line.rstrip("\n"))

    def instructions(self) -> list[str]:
        """What it printed, up to its last instruction (how to stop)."""
        printed: list[str] = []
        deadline = time.monotonic() + START_TIMEOUT
        while not printed or not printed[-1].startswith("Ctrl-C"):
            try:
                printed.append(self.lines.get(timeout=max(0.0, deadline - time.monotonic())))
            except queue.Empty:
                self.process.kill()
                raise AssertionError(f"play did not print its instructions: {printed}") from None
        return printed

    def terminate(self) -> tuple[int, list[str]]:
        """SIGTERM; its exit code and what it printed after the instructions."""
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(START_TIMEOUT)
        self.reader.join(START_TIMEOUT)
        return code, list(self.lines.queue)


def start_play(root: Path, port: int, *options: str) -> tuple[Played, list[str]]:
    played = Played(root, port, *options)
    return played, played.instructions()


def the_mail(printed: list[str]) -> EmailMessage:
    """The mail the instructions say to send, as a newcomer would copy it."""
    sender, to = re.findall(r"^Mail your orders from (\S+) to (\S+)$", "\n".join(printed), re.MULTILINE)[0]
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = "my first orders"
    mail["Message-ID"] = f"<first-orders-{time.monotonic_ns()}@example.org>"
    mail.set_content("\n".join(line.strip() for line in printed if line.startswith("    ")) + "\n")
    return mail


def wait_for(outbox: Path, pattern: str, count: int = 1) -> list[Path]:
    deadline = time.monotonic() + REPLY_TIMEOUT
    while len(found := sorted(outbox.glob(pattern))) < count:
        assert time.monotonic() < deadline, f"no {pattern} in {sorted(p.name for p in outbox.iterdir())}"
        time.sleep(0.1)
    return found


def test_play_prints_the_mail_to_send_and_answers_it(tmp_path: Path) -> None:
    # Given play started for zoe on a free port, the workflow ticking every second
    port = free_port()
    played, printed = start_play(tmp_path, port, "--address", "zoe@example.org", "--tick", "1")
    try:
        # Then it printed the order block to send, with zoe's code, and where the replies go
        mail = the_mail(printed)
        assert mail["To"] == "play@warpmail.test"
        block = mail.get_content().splitlines()
        assert block[:3] == ["GAME play", "PLAYER P1", "TURN 1"] and block[-1] == "END", block
        code = next(line for line in block if line.startswith("CODE "))
        welcome = (tmp_path / "outbox").glob("*-zoe@example.org-notice.txt")
        assert code in next(welcome).read_text(encoding="utf-8"), "the code is the one mailed to zoe"
        assert f"Replies land in {tmp_path / 'outbox'}/" in "\n".join(printed)
        # When zoe sends exactly that mail over SMTP
        with smtplib.SMTP("127.0.0.1", port, timeout=START_TIMEOUT) as smtp:
            smtp.send_message(mail)
        # Then the acknowledgement takes the orders, and the results come after the robot's turn
        (ack,) = wait_for(tmp_path / "outbox", "*-zoe@example.org-ack.txt")
        answer = ack.read_text(encoding="utf-8")
        assert "ORDERS UNDERSTOOD" in answer and "BUILD WARPSHIP AT 0606" in answer, answer
        # (zoe's turn and the robot's, played in one run, are one mail: the opening's, then that)
        wait_for(tmp_path / "outbox", "*-zoe@example.org-results.txt", count=2)
        # And a second play on the same port says so in one line, exit code 1
        command = [sys.executable, "-m", "functions.local.cli", "--root", str(tmp_path), "play"]
        busy = subprocess.run([*command, "--port", str(port)], capture_output=True, text=True, timeout=60)
        assert (busy.returncode, busy.stderr.splitlines()) == (
            1,
            [f"error: 127.0.0.1:{port} is in use (another warpmail local serve?): try --port {port + 1}"],
        )
    finally:
        # When it gets SIGTERM, Then it stops cleanly
        code_, after = played.terminate()
    assert (code_, after) == (0, ["SIGTERM: stopping (the games are saved)"])


def test_play_lta_prints_a_movement_block_and_plays_the_phase_once_it_is_in(tmp_path: Path) -> None:
    # Given play started for a Lighter Than Air convoy game
    port = free_port()
    options = ("--address", "ann@example.org", "--tick", "1", "--game", "lta", "--scenario", "convoy")
    played, printed = start_play(tmp_path, port, *options)
    try:
        # Then it names the game and prints the movement sheet's block, a MOVE line a Zeppelin
        assert printed[0].startswith("Lighter Than Air Warfare: game play, you (ann@example.org, P1)")
        mail = the_mail(printed)
        block = mail.get_content().splitlines()
        assert block[:3] == ["GAME play", "PLAYER P1", "TURN 1"] and block[-1] == "END", block
        moves = [line for line in block if line.startswith("MOVE ")]
        assert moves and all(line.endswith(" STAY") for line in moves), block
        opening = next((tmp_path / "outbox").glob("*-ann@example.org-results.txt")).read_text(
            encoding="utf-8"
        )
        assert "Bulk Cargo" in opening, "the convoy's freighters carry Bulk Cargo"
        # When Ann sends exactly that mail over SMTP
        with smtplib.SMTP("127.0.0.1", port, timeout=START_TIMEOUT) as smtp:
            smtp.send_message(mail)
        # Then the acknowledgement takes the moves, and the map after movement comes at the next
        # run (the robot's orders were written when the game started: nothing waits a deadline)
        (ack,) = wait_for(tmp_path / "outbox", "*-ann@example.org-ack.txt")
        answer = ack.read_text(encoding="utf-8")
        assert "ORDERS UNDERSTOOD" in answer and moves[0] in answer, answer
        _, after = wait_for(tmp_path / "outbox", "*-ann@example.org-results.txt", count=2)
        assert "# Combat orders for turn 1" in after.read_text(encoding="utf-8")
    finally:
        code_, said = played.terminate()
    assert (code_, said) == (0, ["SIGTERM: stopping (the games are saved)"])


def test_a_bad_address_is_one_line() -> None:
    command = [sys.executable, "-m", "functions.local.cli", "play", "--address", "not an address"]
    bad = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert (bad.returncode, bad.stderr.splitlines()) == (
        2,
        ["error: 'not an address' is not a mail address: write e.g. --address you@example.com"],
    )


class Games:
    """The one store call free_game_id makes."""

    def __init__(self, *game_ids: str) -> None:
        self.game_ids = game_ids

    def game(self, game_id: str) -> object | None:
        return object() if game_id in self.game_ids else None


def test_each_play_is_a_new_game_beside_the_others() -> None:
    assert free_game_id(Games()) == "play"  # type: ignore[arg-type]
    assert free_game_id(Games("play", "demo")) == "play-2"  # type: ignore[arg-type]
    assert free_game_id(Games("play", "play-2", "play-4")) == "play-3"  # type: ignore[arg-type]

"""``warpmail local serve`` as a process: SIGTERM (``kill``, systemd, docker stop) stops it as Ctrl-C
does, saving the state, and a restart restores it."""

from __future__ import annotations

import json
import signal
import smtplib
import socket
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote

from functions.resources import resources

LOCAL = resources("local")
START_TIMEOUT = 30.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_serve(root: Path, port: int) -> subprocess.Popen[str]:
    """The CLI in a new interpreter, ticking and scanning rarely: only the mail sent here happens."""
    command = [sys.executable, "-m", "functions.local.cli", "--root", str(root), "serve", "--port", str(port)]
    served = subprocess.Popen(
        [*command, "--tick", "3600", "--watch", "3600"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        assert served.poll() is None, served.communicate()
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return served
        except OSError:
            time.sleep(0.1)
    served.kill()
    raise AssertionError(f"serve did not listen on port {port}: {served.communicate()}")


def terminate(served: subprocess.Popen[str]) -> tuple[int, str]:
    served.send_signal(signal.SIGTERM)
    _, err = served.communicate(timeout=START_TIMEOUT)
    return served.returncode, err


def help_mail(subject: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = "curious@example.org"
    mail["To"] = f"host@{LOCAL.mail_domain}"
    mail["Subject"] = subject
    mail["Message-ID"] = f"<{subject}@example.org>"
    mail.set_content("HELP\n")
    return mail


def test_sigterm_saves_the_state_and_a_restart_restores_it(tmp_path: Path) -> None:
    # Given serve running, and a mail sent to its SMTP port
    port = free_port()
    served = start_serve(tmp_path, port)
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=START_TIMEOUT) as smtp:
            smtp.send_message(help_mail("sigterm-test"))
    finally:
        # When it gets SIGTERM
        code, err = terminate(served)
    # Then it stopped cleanly, saying so, and the state folder holds the raw mail and the mail log
    assert code == 0, err
    assert "SIGTERM: stopping (the games are saved)" in err
    state = tmp_path / "state"
    kept = list((state / "s3" / LOCAL.mail_bucket).glob(quote(LOCAL.inbound_prefix, safe="") + "*"))
    assert len(kept) == 1 and b"Message-ID: <sigterm-test@example.org>" in kept[0].read_bytes()
    items = json.loads((state / "dynamodb" / f"{LOCAL.table}.json").read_text(encoding="utf-8"))
    assert any("sigterm-test" in json.dumps(item) for item in items), "the mail log entry"
    # ... and the help it answered is in the outbox
    assert any(
        "sigterm-test" in eml.read_text(errors="replace") for eml in (tmp_path / "outbox").glob("*.eml")
    )
    # When it starts again, Then it restores what was saved
    again = start_serve(tmp_path, free_port())
    code, err = terminate(again)
    assert code == 0, err
    assert f"restored: {{'{LOCAL.table}': {len(items)}}}" in err


def test_serve_on_a_port_in_use_says_so_in_one_line_and_exits_non_zero(tmp_path: Path) -> None:
    port = free_port()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        command = [sys.executable, "-m", "functions.local.cli", "--root", str(tmp_path), "serve"]
        ran = subprocess.run([*command, "--port", str(port)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 1
    assert ran.stderr.strip().splitlines() == [
        f"error: 127.0.0.1:{port} is in use (another warpmail local serve?): try --port {port + 1}"
    ]
    # Nothing was left half started: the folder is free for the next serve
    served = start_serve(tmp_path, free_port())
    assert terminate(served)[0] == 0

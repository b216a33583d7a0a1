"""``warpmail local``: the pipeline on this machine.

``serve`` runs the local host until Ctrl-C or SIGTERM (``kill``, systemd, docker stop): an SMTP
port on 127.0.0.1, the ``inbox/`` folder watched for ``.eml`` files, and the turn workflow
ticking; every mail sent lands in ``outbox/``, and the games are saved to ``state/`` on the way
out (and after every tick). ``run-demo`` plays the demo game (functions/local/demo.py) to its end
and leaves the outbox to read.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from functions.local.clock import Ticker
from functions.local.demo import run_demo
from functions.local.host import LocalHost

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _quiet() -> None:
    """The handlers' structured logs (one JSON line per call) only for warnings and errors."""
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def say(line: str) -> None:
    """One line to standard error, flushed at once: a service manager's log shows it as it happens."""
    print(line, file=sys.stderr, flush=True)


def serve(root: Path, port: int, tick_seconds: float, watch_seconds: float) -> int:
    # The stop signals are blocked in this thread, and so in every thread the host starts, and
    # waited for here: a signal during start-up still stops the host cleanly once it is up, and a
    # second one cannot cut the save short.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        host = LocalHost(root, smtp_port=port, watch_seconds=watch_seconds)
        try:
            host.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            say(f"error: 127.0.0.1:{port} is in use (another warpmail local serve?): try --port {port + 1}")
            return 1
        ticker = Ticker(lambda: (host.tick(), host.save()), tick_seconds)
        ticker.start()
        say(f"WarpMail local host in {root}/ (restored: {host.restored.items or 'nothing'})")
        say(f"  SMTP on 127.0.0.1:{port} for *@{host.resources.mail_domain}")
        say(f"  drop .eml files into {host.inbox}/, read replies in {host.outbox_folder}/")
        say(f"  the turn workflow runs every {tick_seconds:g} s; Ctrl-C or SIGTERM stops and saves")
        try:
            received = signal.sigwait(STOP_SIGNALS)
            say(f"{signal.Signals(received).name}: stopping, saving state...")
        finally:
            ticker.stop()
            host.stop()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="warpmail local", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("out/local"), help="folder (default out/local)")
    commands = parser.add_subparsers(dest="command", required=True)
    served = commands.add_parser("serve", help="SMTP port, inbox folder and schedule until Ctrl-C or SIGTERM")
    served.add_argument("--port", type=int, default=2525)
    served.add_argument("--tick", type=float, default=10.0, help="seconds between workflow runs")
    served.add_argument("--watch", type=float, default=1.0, help="seconds between inbox scans")
    demo = commands.add_parser("run-demo", help="play the demo game by mail to its end")
    demo.add_argument("--orders", type=Path, default=Path("examples/demo"), help="Red's order files")
    demo.add_argument("--record", type=Path, help="copy every order mail Red sends into this folder")
    demo.add_argument("--seed", type=int, default=4)
    demo.add_argument("--turn-limit", type=int, default=8)
    args = parser.parse_args(argv)
    _quiet()
    if args.command == "serve":
        return serve(args.root, args.port, args.tick, args.watch)
    result = run_demo(
        args.root,
        orders=args.orders,
        record=args.record,
        seed=args.seed,
        turn_limit=args.turn_limit,
        say=lambda line: print(line, flush=True),
    )
    print(
        f"{result.status} after game-turn {result.turn}: {result.ticks} workflow runs, "
        f"{result.mails_in} order mails in, {result.outbox} mails in {args.root / 'outbox'}/ "
        f"({result.seconds:.0f} s)"
    )
    return 0 if result.status == "over" else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""``warpmail local``: the pipeline on this machine.

``serve`` runs the local host until Ctrl-C or SIGTERM (``kill``, systemd, docker stop): an SMTP
port on 127.0.0.1, the ``inbox/`` folder watched for ``.eml`` files, and the turn workflow
ticking; every mail sent lands in ``outbox/``, and the games are saved to ``state/`` after each
mail and each workflow run. It holds the folder only for those (functions/local/host.py), so
the GM console works on the same folder meanwhile. ``play`` starts a game against a robot for
your address (functions/local/play.py), then serves as ``serve`` does. ``run-demo`` plays the
demo game (functions/local/demo.py) to its end and leaves the outbox to read.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from engine.games import DEFAULT_GAME, GAME_NAMES
from functions.local.clock import Ticker
from functions.local.demo import run_demo
from functions.local.host import HostBusyError, LocalHost

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _quiet() -> None:
    """The handlers' structured logs (one JSON line per call) only for warnings and errors."""
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")
    os.environ.setdefault("POWERTOOLS_METRICS_DISABLED", "true")
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


def say(line: str) -> None:
    """One line to standard error, flushed at once: a service manager's log shows it as it happens."""
    print(line, file=sys.stderr, flush=True)


def serve(
    root: Path,
    port: int,
    tick_seconds: float,
    watch_seconds: float,
    banner: Callable[[LocalHost], list[str]] | None = None,
) -> int:
    """Serve until a stop signal; ``banner``: what to say once the host is up (it may set up
    games first), instead of the serve banner."""
    # The stop signals are blocked in this thread, and so in every thread the host starts, and
    # waited for here: a signal during start-up still stops the host cleanly once it is up, and a
    # second one cannot cut the save short.
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        host = LocalHost(root, smtp_port=port, watch_seconds=watch_seconds, share=True)
        try:
            host.start()
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise
            say(f"error: 127.0.0.1:{port} is in use (another warpmail local serve?): try --port {port + 1}")
            return 1
        except HostBusyError as error:
            say(f"error: {error}")
            return 1
        ticker = Ticker(lambda: _tick(host), tick_seconds)
        try:
            lines = (banner or _serve_banner(port, tick_seconds))(host)
        except Exception as error:
            say(f"error: {error}")
            host.stop()
            return 1
        ticker.start()
        for line in lines:
            say(line)
        try:
            received = signal.sigwait(STOP_SIGNALS)
            say(f"{signal.Signals(received).name}: stopping (the games are saved)")
        finally:
            ticker.stop()
            host.stop()
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    return 0


def _serve_banner(port: int, tick_seconds: float) -> Callable[[LocalHost], list[str]]:
    def banner(host: LocalHost) -> list[str]:
        return [
            f"WarpMail local host in {host.root}/ (restored: {host.restored.items or 'nothing'})",
            f"  SMTP on 127.0.0.1:{port} for *@{host.resources.mail_domain}",
            f"  drop .eml files into {host.inbox}/, read replies in {host.outbox_folder}/",
            f"  the turn workflow runs every {tick_seconds:g} s; the games are saved after each mail and run",
            "  the GM console (warpmail game ...) works meanwhile; Ctrl-C or SIGTERM stops",
        ]

    return banner


def _tick(host: LocalHost) -> None:
    """One workflow run (saved by the host); skipped, in one line, when the folder stays busy."""
    try:
        host.tick()
    except HostBusyError as error:
        say(f"workflow run skipped: {error}")


def play(
    root: Path, port: int, tick_seconds: float, address: str, robot: str, game: str = "", scenario: str = ""
) -> int:
    from functions.console.players import ADDRESS
    from functions.local.play import instructions, new_play

    if ADDRESS.match(address.strip()) is None:
        say(f"error: '{address}' is not a mail address: write e.g. --address you@example.com")
        return 2

    def banner(host: LocalHost) -> list[str]:
        made = new_play(host, address, robot, datetime.now(UTC), game=game, scenario=scenario)
        return instructions(host, made, port, tick_seconds)

    return serve(root, port, tick_seconds, watch_seconds=1.0, banner=banner)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="warpmail local", description=__doc__)
    parser.add_argument("--root", type=Path, default=Path("out/local"), help="folder (default out/local)")
    commands = parser.add_subparsers(dest="command", required=True)
    served = commands.add_parser("serve", help="SMTP port, inbox folder and schedule until Ctrl-C or SIGTERM")
    served.add_argument("--port", type=int, default=2525)
    served.add_argument("--tick", type=float, default=10.0, help="seconds between workflow runs")
    served.add_argument("--watch", type=float, default=1.0, help="seconds between inbox scans")
    played = commands.add_parser("play", help="a new game against a robot for your address, then serve")
    played.add_argument(
        "--address", default="you@example.com", help="your mail address (default you@example.com)"
    )
    played.add_argument("--robot", choices=("cadet", "admiral"), default="cadet", help="the robot's level")
    played.add_argument(
        "--game", choices=sorted(GAME_NAMES), default=DEFAULT_GAME, help=f"the game (default {DEFAULT_GAME})"
    )
    played.add_argument(
        "--scenario", default="", help="the game's scenario, one of its own (its players' guide lists them)"
    )
    played.add_argument("--port", type=int, default=2525)
    played.add_argument("--tick", type=float, default=5.0, help="seconds between workflow runs")
    demo = commands.add_parser("run-demo", help="play the demo game by mail to its end")
    demo.add_argument("--orders", type=Path, default=Path("examples/demo"), help="Red's order files")
    demo.add_argument("--record", type=Path, help="copy every order mail Red sends into this folder")
    demo.add_argument("--seed", type=int, default=4)
    demo.add_argument("--turn-limit", type=int, default=8)
    args = parser.parse_args(argv)
    _quiet()
    if args.command == "serve":
        return serve(args.root, args.port, args.tick, args.watch)
    if args.command == "play":
        return play(args.root, args.port, args.tick, args.address, args.robot, args.game, args.scenario)
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

"""The ``warpmail`` command line.

``warpmail local ...`` runs the whole mail pipeline on this machine (functions/local/cli.py):
``run-demo`` plays a game by mail to its end, ``serve`` takes mail on a local SMTP port.
``warpmail demo`` plays a complete WarpWar game on the classic map between two computer
commanders writing their orders as mail, prints it turn by turn in the rules' notation, and
writes every player's results (text, HTML, PNG and SVG map, JSON) to a folder.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine.warpwar.robot import Level
from engine.warpwar.state import Scenario
from functions.demo import play_demo
from functions.local import cli as local_cli


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="warpmail", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo = commands.add_parser("demo", help="play a robot-vs-robot game on the classic map")
    demo.add_argument("--scenario", choices=[s.value for s in Scenario], default=Scenario.BASIC.value)
    demo.add_argument("--seed", type=int, default=4)
    demo.add_argument("--turn-limit", type=int, default=80)
    levels = [level.value for level in Level]
    demo.add_argument("--red", choices=levels, default=Level.CADET.value, help="Red's robot level")
    demo.add_argument("--blue", choices=levels, default=Level.CADET.value, help="Blue's robot level")
    demo.add_argument(
        "--out", type=Path, default=Path("out/demo"), help="folder for the reports (default out/demo)"
    )
    demo.add_argument("--no-reports", action="store_true", help="print the game only")
    commands.add_parser("local", help="the mail pipeline on this machine (warpmail local --help)")
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == ["local"]:
        # Its own parser, options and all (argparse would claim a leading --help for itself).
        return local_cli.main(arguments[1:])
    args = parser.parse_args(arguments)
    out = None if args.no_reports else args.out
    state, log = play_demo(
        Scenario(args.scenario),
        args.seed,
        args.turn_limit,
        levels={"Red": Level(args.red), "Blue": Level(args.blue)},
        out=out,
    )
    sys.stdout.write("\n".join(log) + "\n")
    if out is not None:
        sys.stderr.write(f"Each player's report after every game-turn is in {out}/turn-NN/\n")
    return 0 if state.winners else 1


if __name__ == "__main__":
    raise SystemExit(main())

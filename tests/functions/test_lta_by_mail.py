"""A Lighter Than Air game by mail, end to end, as a GM and a player play it (issue 16, "Done
when"): the GM creates the game with the console's functions (game "lta", a scenario, a short
turn limit), invites Ann and gives the other seat to a robot, and starts it; Ann writes every
order mail on the orders sheet she was mailed (her captain's choices, the robot's from her own
view, written onto the sheet), dropped into the local host's inbox -> the mail bucket -> the
inbound function; the schedule's ticks -> the turn workflow -> the outbox.

Each scenario's game is played in one test (a module fixture would be built again by every
pytest-xdist worker that runs one of its tests): the mails of each phase, a kept mail confirmed
with DONE, a ROLLS answer with Ann's dice only, and the end: the standings, every seed and roll
mailed, and every roll recomputed from its seed as docs/lta-dice.md's script does.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path
from typing import Any

import pytest

from engine.games import TURN_GAMES
from engine.lta.dice import Roll
from engine.lta.lang.rolls import roll_line
from engine.lta.standings import standings
from engine.lta.state import GameState, Phase
from functions.console.backend import LocalBackend
from functions.console.games import NewGame, create_game, game_setup, start_game
from functions.console.players import invite
from functions.local.host import LocalHost
from functions.mail.codes import ALPHABET
from functions.mail.compose import KIND_HEADER, game_address
from functions.store import GameRecord, Store, split_awaited

ANN = "ann@example.org"
DOCS = Path(__file__).resolve().parents[2] / "docs"
MAX_TICKS = 40
CODE = re.compile(rf"\bCODE\s+([{ALPHABET}]{{4}}-[{ALPHABET}]{{4}}-[{ALPHABET}]{{2}})\b")


@dataclass(frozen=True)
class Scenario:
    name: str
    seed: int
    turn_limit: int
    start: datetime


SCENARIOS = (
    Scenario("fleet", seed=5, turn_limit=4, start=datetime(2025, 3, 3, 18, 0, tzinfo=UTC)),
    Scenario("convoy", seed=3, turn_limit=3, start=datetime(2025, 4, 7, 18, 0, tzinfo=UTC)),
)


@dataclass
class Game:
    host: LocalHost
    store: Store
    game_id: str
    ann: str
    robot: str
    code: str
    clock: datetime
    sent: list[str] = field(default_factory=list)
    """The scope of each order mail Ann sent that counted as in."""

    def mails(self) -> list[EmailMessage]:
        """The mails about this game (the host holds the other scenario's too), in the order sent."""
        return [read(e.path) for e in self.host.outbox() if f" {self.game_id}] " in e.subject]

    def results(self) -> list[EmailMessage]:
        return [m for m in self.mails() if m[KIND_HEADER] == "results"]

    def state(self) -> tuple[GameRecord, str]:
        return self.store.state(self.game_id)

    def send(self, body: str, subject: str) -> list[EmailMessage]:
        """Ann's mail, dropped into the inbox and delivered; the mails it was answered with."""
        before = len(self.mails())
        mail = EmailMessage()
        mail["From"] = f"Ann <{ANN}>"
        mail["To"] = game_address(self.game_id, self.host.resources.mail_domain)
        mail["Subject"] = subject
        mail["Message-ID"] = make_msgid(domain="example.org")
        mail.set_content(body)
        name = f"{self.game_id}-{len(list(self.host.inbox.glob('**/*.eml'))):03d}.eml"
        self.host.inbox.mkdir(parents=True, exist_ok=True)
        (self.host.inbox / name).write_bytes(bytes(mail))
        assert len(self.host.scan_inbox()) == 1
        return self.mails()[before:]

    def tick(self) -> int:
        """One workflow run at the game's clock; the version after it."""
        execution = self.host.tick(now=self.clock)
        assert execution.status == "SUCCEEDED", execution
        record, _ = self.state()
        assert record.parked is None, record.parked
        return record.version


def read(path: Path) -> EmailMessage:
    message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert isinstance(message, EmailMessage)
    return message


def text(mail: EmailMessage) -> str:
    body = mail.get_body(("plain",))
    assert isinstance(body, EmailMessage)
    return str(body.get_content())


def attachment(mail: EmailMessage, name: str) -> str:
    [part] = [p for p in mail.iter_attachments() if p.get_filename() == name]
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode("utf-8")


def report_json(mail: EmailMessage) -> dict[str, Any]:
    [part] = [p for p in mail.iter_attachments() if p.get_content_type() == "application/json"]
    payload = part.get_payload(decode=True)
    assert isinstance(payload, bytes)
    found = json.loads(payload)
    assert isinstance(found, dict)
    return found


def sheet_of(mail: EmailMessage, game_id: str) -> list[str]:
    """The orders sheet at the end of a results mail: its lines from GAME to END."""
    lines = text(mail).splitlines()
    start = lines.index(f"GAME {game_id}")
    return lines[start : lines.index("END", start) + 1]


def captain(state_json: str, player: str, scope: str) -> list[str]:
    """The orders Ann's captain would give from her view: the robot's, its order lines only."""
    ((_, written),) = TURN_GAMES["lta"].robot_orders(state_json, player, "cadet", [scope])
    return [line for line in written.splitlines() if line.startswith(("MOVE ", "FIRE ", "DROP "))]


def filled(sheet: list[str], code: str, orders: list[str]) -> str:
    """The sheet as Ann fills it in: her code; each MOVE line her captain's; each shot her captain
    takes uncommented (the sheet offers every shot in reach; she takes no other)."""
    moves = {line.split()[1]: line for line in orders if line.startswith("MOVE ")}
    shots = [line for line in orders if not line.startswith("MOVE ")]
    out: list[str] = []
    for line in sheet:
        if line.startswith("CODE "):
            line = f"CODE {code}"
        elif line.startswith("MOVE "):
            line = moves.pop(line.split()[1], line)
        elif line.startswith("# FIRE "):
            offered = line[2:].split("   ")[0]
            if offered in shots:
                shots.remove(offered)
                line = offered
        out.append(line)
    assert not moves and not shots, f"the sheet has no line for {moves} {shots}"
    return "\n".join(["Here are my orders:", "", *out, "", "-- ", "Ann"]) + "\n"


def owed(game: Game, record: GameRecord) -> list[str]:
    return [scope for scope, player in map(split_awaited, record.awaiting) if player == game.ann]


def new_game(host: LocalHost, scenario: Scenario) -> Game:
    """As a GM would: created with the scenario and a turn limit, Ann invited, the other seat to
    a robot, started (Ann is mailed her welcome with her code, then the opening map and sheet)."""
    backend = LocalBackend(host.root, host=host)
    game_id = f"sky-{scenario.name}"
    options = {"scenario": scenario.name, "turn_limit": scenario.turn_limit}
    setup = game_setup("lta", options, seats=2, seed=scenario.seed)
    spec = NewGame(game_id=game_id, title=f"Zeppelins: {scenario.name}", game="lta", setup=setup)
    create_game(backend, spec, scenario.start)
    ann = invite(backend, game_id, ANN, scenario.start, name="Ann").player.player_id
    started = start_game(backend, game_id, scenario.start, fill="cadet")
    [robot] = [p.player_id for p in started.players if p.robot]
    game = Game(host, backend.store, game_id, ann, robot, "", scenario.start)
    welcome, opening = game.mails()
    assert "Welcome" in str(welcome["Subject"]) and opening[KIND_HEADER] == "results"
    code = CODE.search(text(welcome))
    assert code is not None
    game.code = code.group(1)
    return game


def play(game: Game, rolls_at_turn: int) -> str:
    """Tick and answer every phase until the game is over; the answer to the ROLLS mail Ann sends
    when turn ``rolls_at_turn`` begins. Turn 1's movement goes in twice: a mail with a bad line
    (kept, not in: the phase waits), then DONE (in: the phase is played)."""
    answered: set[tuple[int, str]] = set()
    rolls = ""
    for _ in range(MAX_TICKS):
        before, _ = game.state()
        version = game.tick()
        record, state_json = game.state()
        if record.status != "running":
            return rolls
        if not rolls and record.turn == rolls_at_turn:
            rolls = ask_rolls(game, state_json)
        scopes = [s for s in owed(game, record) if (version, s) not in answered]
        # Early processing: a phase is played as soon as Ann's orders are in, never left to wait
        assert scopes or version > before.version, f"stuck at version {version}: {record.awaiting}"
        for scope in scopes:
            answered.add((version, scope))
            send_orders(game, state_json, scope)
        game.clock += timedelta(minutes=1)
    raise AssertionError(f"the game is not over after {MAX_TICKS} workflow runs")


def send_orders(game: Game, state_json: str, scope: str) -> None:
    sheet = sheet_of(game.results()[-1], game.game_id)
    assert f"TURN {scope.split(':')[1]}" in sheet, "the last results mail carries the sheet for this phase"
    body = filled(sheet, game.code, captain(state_json, game.ann, scope))
    if scope == "move:1":
        kept_then_done(game, body)
    else:
        [ack] = game.send(body, f"Orders {scope}")
        assert "PROBLEMS" not in text(ack) and "Submitted:" in text(ack), text(ack)
        game.sent.append(scope)


def kept_then_done(game: Game, body: str) -> None:
    flawed = body.replace("\nEND\n", "\nMOVE Z9 FF\nEND\n")
    [kept] = game.send(flawed, "Orders, with a slip")
    assert "PROBLEMS" in text(kept) and "or a line DONE" in text(kept), text(kept)
    before, _ = game.state()
    game.clock += timedelta(minutes=1)
    assert game.tick() == before.version, "kept orders do not count as in: the phase waits"
    assert "move:1" in owed(game, game.state()[0])
    header = [line for line in body.splitlines() if line.startswith(("GAME ", "PLAYER ", "TURN ", "CODE "))]
    [confirmed] = game.send("\n".join([*header, "DONE", "END"]) + "\n", "DONE")
    assert "DONE: your movement orders count as in" in text(confirmed), text(confirmed)
    game.sent.append("move:1")


def ask_rolls(game: Game, state_json: str) -> str:
    [answer] = game.send(f"ROLLS\nCODE {game.code}\n", "ROLLS")
    body = text(answer)
    assert answer["To"] == ANN and f"Game {game.game_id}'s answer, for you alone:" in body
    state = GameState.model_validate_json(state_json)
    mine, theirs = state.player(game.ann).rolls, state.player(game.robot).rolls
    listed = [line for line in body.splitlines() if re.match(r"^\s+\d+  turn ", line)]
    assert listed == [roll_line(r) for r in mine], "exactly Ann's rolls, in the order drawn"
    assert mine and theirs, "both players have rolled by now"
    own_uses = {r.purpose for r in mine}
    assert not [r.purpose for r in theirs if r.purpose not in own_uses and r.purpose in body]
    assert str(state.player(game.robot).seed) not in body and str(state.player(game.ann).seed) not in body
    return body


def rolls_file(page: str) -> list[dict[str, Any]]:
    """The final ``<game>-rolls.txt`` read back as docs/lta-dice.md's script takes it."""
    records: list[dict[str, Any]] = []
    for line in page.splitlines():
        if found := re.match(r"^.+ \((\w+)\): seed (\d+)$", line):
            records.append({"player": found.group(1), "seed": int(found.group(2)), "rolls": []})
        elif found := re.match(r"^SHA-256 ([0-9a-f]{64})$", line):
            records[-1]["commitment"] = found.group(1)
        elif found := re.match(r"^\s*(\d+)  (\d+)\s+(\S+)\s+d(\d+)\s+(\d+)  (.+)$", line):
            n, turn, phase, sides, value, purpose = found.groups()
            records[-1]["rolls"].append(
                {
                    "n": int(n),
                    "turn": int(turn),
                    "phase": phase,
                    "sides": int(sides),
                    "value": int(value),
                    "purpose": purpose,
                }
            )
    return records


def docs_script() -> dict[str, Any]:
    code = re.search(r"```python\n(.*?)```", (DOCS / "lta-dice.md").read_text(encoding="utf-8"), re.DOTALL)
    assert code is not None
    namespace: dict[str, Any] = {"__name__": "lta_dice_doc"}
    exec(compile(code.group(1), "docs/lta-dice.md", "exec"), namespace)
    return namespace


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalHost]:
    with LocalHost(tmp_path_factory.mktemp("lta-by-mail")) as local:
        yield local


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_an_lta_game_by_mail_from_creation_to_the_audited_end(host: LocalHost, scenario: Scenario) -> None:
    game = new_game(host, scenario)
    rolls_answer = play(game, rolls_at_turn=2)
    record, state_json = game.state()
    final = GameState.model_validate_json(state_json)
    assert record.status == "over" and final.phase is Phase.OVER
    for player in final.players:
        assert any(r.purpose.startswith("to hit") for r in player.rolls), f"{player.id} fired in the game"
    assert rolls_answer, "Ann asked for her rolls while the game ran"
    results = game.results()
    assert {str(m["To"]) for m in game.mails()} == {ANN}, "the robot's seat gets no mail"
    check_every_phase_is_mailed(game, results, final)
    check_the_end(game, results[-1], final, results[0])


def check_every_phase_is_mailed(game: Game, results: list[EmailMessage], final: GameState) -> None:
    """The opening, then for each turn the map after movement with the combat sheet and the map
    after wind and combat with the next turn's movement sheet; each with its map inline."""
    # (a subject folded before its em dash unfolds with two spaces there: spaces are normalised)
    subjects = [" ".join(str(m["Subject"]).split("] ", 1)[1].split()) for m in results]
    expected = ["Turn 1: movement orders"]
    for turn in range(1, final.turn + 1):
        expected += [
            f"Turn {turn}: the map after movement \N{EM DASH} combat orders",
            f"Turn {turn}: the map after wind and combat \N{EM DASH} turn {turn + 1} movement orders",
        ]
    assert subjects[:-1] == expected[:-1]
    assert subjects[-1].startswith(f"Turn {final.turn}: the game is over, ")
    for mail, subject in zip(results[1:-1], subjects[1:-1], strict=True):
        body = text(mail)
        wanted = "# Combat orders for turn" if "after movement" in subject else "# Movement orders for turn"
        assert wanted in body, subject
        images = [p for p in mail.walk() if p.get_content_type() == "image/png"]
        assert len(images) == 1 and images[0].get_content_disposition() == "inline", subject
        assert any((p.get_filename() or "").endswith("-map.svg") for p in mail.iter_attachments()), subject
    assert game.sent == [f"{kind}:{turn}" for turn in range(1, final.turn + 1) for kind in ("move", "fire")]


def check_the_end(game: Game, last: EmailMessage, final: GameState, opening: EmailMessage) -> None:
    # The standings as the game gives them: who won, and why
    body = " ".join(text(last).split())
    names = " and ".join(final.player(w).name for w in final.winners)
    assert names and f"GAME OVER: won by {names}: {final.ended}" in body
    ending = standings(final).ending
    assert body.index("STANDINGS") < body.index("WHAT HAPPENED") and " ".join(ending.split()) in body
    assert report_json(last)["standings"]["ending"] == ending
    assert ending in attachment(last, f"{game.game_id}-replay.html").replace("&#39;", "'")
    assert "EVERY DIE ROLLED" in body
    assert '<section class="turn"' in attachment(last, f"{game.game_id}-replay.html")
    records = rolls_file(attachment(last, f"{game.game_id}-rolls.txt"))
    assert [r["player"] for r in records] == [p.id for p in final.players]
    verify = docs_script()["verify"]
    for record, player in zip(records, final.players, strict=True):
        assert verify(record) == len(player.rolls) > 0
        assert [Roll(stream=player.id, **r) for r in record["rolls"]] == list(player.rolls)
    published = report_json(opening)
    committed = next(line for line in published["happened"] if line.startswith("Dice committed"))
    for record in records:
        recomputed = hashlib.sha256(
            f"warpmail-lta-dice:{record['player']}:{record['seed']}".encode()
        ).hexdigest()
        assert recomputed == record["commitment"]
        assert f"{record['player']} {recomputed}" in committed, "every whole hash was published at the start"
    assert published["commitment"] == next(r["commitment"] for r in records if r["player"] == game.ann)


def test_ann_builds_her_fleet_by_mail_and_the_robot_flies_the_ready_made_one(host: LocalHost) -> None:
    """Option ``building``: the opening mail is the fleet-building sheet; Ann's fleet mail is
    checked line by line (a misspelt item is left out, with the known name suggested); when both
    fleets are in, they are placed and turn 1's movement orders are asked for."""
    start = datetime(2025, 5, 5, 18, 0, tzinfo=UTC)
    backend = LocalBackend(host.root, host=host)
    options = {"scenario": "fleet", "turn_limit": 1, "building": True}
    setup = game_setup("lta", options, seats=2, seed=9)
    create_game(
        backend, NewGame(game_id="sky-build", title="Zeppelins built", game="lta", setup=setup), start
    )
    ann = invite(backend, "sky-build", ANN, start, name="Ann").player.player_id
    started = start_game(backend, "sky-build", start, fill="cadet")
    [robot] = [p.player_id for p in started.players if p.robot]
    game = Game(host, backend.store, "sky-build", ann, robot, "", start)
    welcome, opening = game.mails()
    code = CODE.search(text(welcome))
    assert code is not None
    subject = str(opening["Subject"])
    assert subject.endswith("Fleet building: mail your fleet") and "your budget is 250" in text(opening)
    sheet = sheet_of(opening, game.game_id)
    assert "TURN 0" in sheet and any(line.startswith("SHIP Cruiser Dreadnought:") for line in sheet)
    header = [f"CODE {code.group(1)}" if line.startswith("CODE ") else line for line in sheet[:4]]
    fleet = [
        "SHIP Cruiser Victoria: L.Cannon F, Machine Gun F, S.Cannon A, Ammo L.Cannon, Patch Crew",
        "SHIP Escort Kite: S.Cannon Forward, Machine Gun Aft, Small Arms",
        "SHIP Scout Gnat: Machine Gunn F",
    ]
    [ack] = game.send("\n".join([*header, *fleet, "DONE", "END"]) + "\n", "My fleet")
    answer = " ".join(text(ack).split())
    assert "Submitted: 2 ships of your fleet; 1 line left out" in answer
    assert "the fleet costs 181 of your 250 Resource Points" in answer
    assert (
        'Line 7: "SHIP Scout Gnat: Machine Gunn F": "Machine Gunn F" is not a weapon or cargo. '
        "Did you mean Machine Gun?" in answer
    )
    game.tick()
    record, state_json = game.state()
    state = GameState.model_validate_json(state_json)
    assert (state.turn, state.phase) == (1, Phase.MOVEMENT) and owed(game, record) == ["move:1"]
    assert [s.name for s in state.ships if s.owner == ann] == ["Victoria", "Kite"]
    assert [s.name for s in state.ships if s.owner == robot] == ["Dreadnought", "Hornet", "Gadfly"]
    placed = game.results()[-1]
    assert str(placed["Subject"]).endswith(
        "Fleet building: the fleets are in place \N{EM DASH} turn 1 movement orders"
    )
    assert "your fleet of 2 flies: 181 of 250 Resource Points" in " ".join(text(placed).split())
    assert "MOVE A1 STAY" in sheet_of(placed, game.game_id)

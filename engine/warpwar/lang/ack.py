"""The acknowledgement of an order mail (issue 3: "orders understood (normalised, as they will be
executed), errors with suggestions, warnings, forecast, and the deadline").

The rule (stated in docs/players.md): orders that are understood and pass the checks are accepted;
a line with an error is listed and ignored, and the player may send it again corrected (with ADD,
so the accepted orders stay). Only a problem with the whole mail (no order block; another game,
player or turn; the game over) stops everything, and a mail marked CHECK is checked, never submitted.
Orders kept from a mail with refused lines are not *ready*: they do not count as in for early
processing until the player sends the lines again or confirms with a line DONE (or READY).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.core.orderblock import Header, Problem, find_block
from engine.warpwar.lang.check import check_rounds, check_turn, orders_turn, section_problem
from engine.warpwar.lang.context import LangContext
from engine.warpwar.lang.forecast import forecast
from engine.warpwar.lang.parser import ParsedOrders, parse_mail
from engine.warpwar.lang.printer import combat_order_text, order_text
from engine.warpwar.orders import RoundOrders, TurnOrders
from engine.warpwar.views import PlayerView

READY = "Your orders are in."
NOT_READY = (
    "Kept, but not counted as in until you fix the {lines} with problems (send them again, with ADD) "
    "or send DONE; at the deadline these orders are used as they are."
)


class UnderstoodLine(BaseModel):
    """One accepted order: its canonical text (as it will be executed) and the line it came from."""

    model_config = ConfigDict(frozen=True)

    line: int | None
    source: str
    text: str


class Acknowledgement(BaseModel):
    model_config = ConfigDict(frozen=True)

    game_id: str
    player: str
    turn: int
    header: Header
    understood: tuple[UnderstoodLine, ...]
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    forecast: tuple[str, ...]
    deadline: str | None
    verdict: str
    submitted: bool
    ready: bool
    """The orders submitted count as in: no line was refused, or the mail says DONE."""
    done: bool
    """The mail has a line DONE (or READY)."""
    orders: TurnOrders
    rounds: tuple[RoundOrders, ...]

    # What the acknowledgement mail shows (functions/templates/warpwar/ack.txt and ack.html).

    @property
    def title(self) -> str:
        return f"Orders received: game {self.game_id}, turn {self.turn}, player {self.player}"

    @property
    def ready_line(self) -> str | None:
        """Whether the orders submitted count as in (the game may play before the deadline), in
        plain words; None when nothing was submitted."""
        if not self.submitted:
            return None
        if self.ready:
            return READY
        refused = len({problem.line for problem in self.errors})
        return NOT_READY.format(lines="line" if refused == 1 else f"{refused} lines")

    @property
    def rows(self) -> tuple[tuple[str, str], ...]:
        """Each order understood as (the label of the line it came from, its text)."""
        return tuple(("" if u.line is None else f"line {u.line}", u.text) for u in self.understood)

    @property
    def problems(self) -> tuple[str, ...]:
        return tuple(p.describe() for p in self.errors)

    @property
    def cautions(self) -> tuple[str, ...]:
        return tuple(p.describe() for p in self.warnings)


def acknowledge(body: str, view: PlayerView, deadline: str | None = None) -> Acknowledgement:
    """Read, check and forecast an order mail from the player whose view is given."""
    parsed = parse_mail(body, LangContext.from_view(view))
    sources = {line.number: line.raw.strip() for line in find_block(body).lines}
    problems = sorted(
        (
            _with_source(p, sources)
            for p in (*parsed.problems, *check_turn(parsed, view), *check_rounds(parsed, view))
        ),
        key=_mail_order,
    )
    errors = tuple(p for p in problems if p.severity == "error")
    warnings = tuple(p for p in problems if p.severity == "warning")
    fatal = any(p.line is None for p in errors)
    bad_lines = {p.line for p in errors}
    kept = [] if fatal else [i for i, line in enumerate(parsed.turn_lines) if line not in bad_lines]
    orders = TurnOrders(player=parsed.turn.player, orders=tuple(parsed.turn.orders[i] for i in kept))
    rounds = _accepted_rounds(parsed, view, bad_lines, fatal)
    understood = _understood(parsed, kept, rounds, sources)
    submitted = bool(understood) and not parsed.header.check
    return Acknowledgement(
        game_id=view.game_id,
        player=view.player,
        # Turn orders sent early count for the player's next player-turn: the answer names it.
        turn=view.turn if rounds and not orders.orders else orders_turn(view),
        header=parsed.header,
        understood=understood,
        errors=errors,
        warnings=warnings,
        forecast=tuple(forecast(orders, view).lines()) if orders.orders else (),
        deadline=deadline,
        verdict=_verdict(len(understood), _badcount(errors, fatal), fatal, parsed.header.check, parsed.done),
        submitted=submitted,
        ready=submitted and (not errors or parsed.done),
        done=parsed.done,
        orders=orders,
        rounds=rounds,
    )


def _mail_order(problem: Problem) -> int:
    """Whole-mail problems first, then the rest in the order of the lines they are about."""
    return -1 if problem.line is None else problem.line


def _with_source(problem: Problem, sources: dict[int, str]) -> Problem:
    """Problems name the line as the player wrote it, not as the checker printed the order."""
    if problem.line is None or problem.line not in sources:
        return problem
    return problem.model_copy(update={"text": sources[problem.line]})


def _accepted_rounds(
    parsed: ParsedOrders, view: PlayerView, bad_lines: set[int | None], fatal: bool
) -> tuple[RoundOrders, ...]:
    if fatal:
        return ()
    kept = []
    for section, lines in zip(parsed.rounds, parsed.round_lines, strict=False):
        if section_problem(section, view) is not None:
            continue
        ships = {name: order for name, order in section.ships.items() if lines.get(name) not in bad_lines}
        if ships:
            kept.append(section.model_copy(update={"ships": ships}))
    return tuple(kept)


def _understood(
    parsed: ParsedOrders, kept: list[int], rounds: tuple[RoundOrders, ...], sources: dict[int, str]
) -> tuple[UnderstoodLine, ...]:
    rows = []
    for index in kept:
        line = parsed.turn_lines[index]
        text = order_text(parsed.turn.orders[index])
        rows.append(UnderstoodLine(line=line, source=sources.get(line, ""), text=text))
    section_lines = {
        (s.star, s.round): lines for s, lines in zip(parsed.rounds, parsed.round_lines, strict=False)
    }
    for section in rounds:
        lines = section_lines.get((section.star, section.round), {})
        for name in sorted(section.ships):
            ship_line = lines.get(name)
            text = round_order_text(section, name)
            rows.append(UnderstoodLine(line=ship_line, source=sources.get(ship_line or 0, ""), text=text))
    return tuple(sorted(rows, key=lambda row: row.line or 0))


def round_order_text(section: RoundOrders, ship: str) -> str:
    """A ship's order in a combat round as the acknowledgement lists it."""
    return f"COMBAT {section.star} ROUND {section.round}: {combat_order_text(ship, section.ships[ship])}"


def _badcount(errors: tuple[Problem, ...], fatal: bool) -> int:
    """Problems with the whole mail when there are any; else the lines with errors."""
    if fatal:
        return sum(p.line is None for p in errors)
    return len({p.line for p in errors})


def count(n: int, thing: str) -> str:
    """``n`` things in words: "1 line", "2 lines"."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _verdict(understood: int, bad: int, fatal: bool, check_only: bool, done: bool) -> str:
    """One line that says what became of the mail."""
    if fatal:
        return f"{count(bad, 'problem')} with the whole mail: nothing was submitted"
    if check_only:
        detail = f"{count(understood, 'order')} understood, {count(bad, 'line')} with problems"
        return f"Checked only (CHECK): nothing was submitted; {detail}"
    if understood == 0 and bad == 0:
        return "No orders in this mail: nothing was submitted"
    if bad == 0:
        return f"All {count(understood, 'order')} understood" if understood > 1 else "The order is understood"
    if understood == 0:
        return f"{count(bad, 'line')} with problems and no order understood: nothing was submitted"
    submitted = f"{count(understood, 'order')} understood and submitted; {count(bad, 'line')} with problems"
    if done:
        return f"{submitted} ignored; DONE: the orders understood count as in"
    return f"{submitted} ignored: send them again corrected, with ADD"

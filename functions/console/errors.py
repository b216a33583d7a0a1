"""What the console tells a GM who asked for something that cannot be done."""

from __future__ import annotations


class ConsoleError(Exception):
    """A GM's request refused, with one line saying why and what to do instead."""


def one_line(error: ValueError) -> str:
    """A ValueError (a pydantic ValidationError too) as one line: each problem, where it is."""
    problems = getattr(error, "errors", None)
    if not callable(problems):
        return " ".join(str(error).split())
    parts = []
    for problem in problems():
        where = ".".join(str(part) for part in problem.get("loc", ()))
        message = str(problem.get("msg", "")).removeprefix("Value error, ")
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)

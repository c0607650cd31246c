"""Reading a suite file of the hand-written benchmarks (``bench times``, ``bench updates``): one
line when it cannot be read, is not JSON, is a suite of the other kind, or breaks its format."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from ripplemem.errors import InvalidInputError

__all__ = ["SuiteKind", "format_problem", "read_suite"]


@dataclass(frozen=True, slots=True)
class _Kind:
    name: str  # as a message says it
    field: str  # the top-level list only this kind of suite has
    command: str  # the command that reads it
    example: str  # a file of this kind


SuiteKind = Literal["times", "updates"]
_KINDS: dict[SuiteKind, _Kind] = {
    "times": _Kind("a time-expression suite", "cases", "ripplemem bench times",
                   "benchmarks/data/times_blind.json"),
    "updates": _Kind("an update suite", "conversations", "ripplemem bench updates",
                     "benchmarks/data/updates_dev.json"),
}


def read_suite(path: str | Path, kind: SuiteKind) -> Any:
    """The JSON of the suite file at ``path``, or InvalidInputError (one line) when it cannot be
    read, is not JSON, or is a suite of the other kind (saying which command reads it)."""
    wanted = _KINDS[kind]
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise InvalidInputError(f"cannot read {path} ({error.strerror or error}); check the path") from None
    except UnicodeDecodeError as error:
        raise InvalidInputError(f"{path} is not UTF-8 text ({error.reason}); save it as UTF-8") from None
    except json.JSONDecodeError as error:
        raise InvalidInputError(
            f"{path} is not JSON ({error.msg} at line {error.lineno}, column {error.colno}); "
            f"see {wanted.example} for the format of {wanted.name}"
        ) from None
    if isinstance(data, dict) and wanted.field not in data:
        for other in _KINDS.values():
            if other is not wanted and other.field in data:
                raise InvalidInputError(
                    f"{path} is {other.name}, not {wanted.name} (it has {other.field!r}, not "
                    f"{wanted.field!r}); run it with: {other.command} {path}"
                )
    return data


def format_problem(path: str | Path, kind: SuiteKind, error: ValidationError) -> InvalidInputError:
    """What is wrong with a suite file of the right kind, in one line: the first problem's place
    and what it is, and how many more there are."""
    wanted = _KINDS[kind]
    problems = error.errors()
    first = problems[0]
    where = ".".join(str(part) for part in first["loc"]) or "the top level"
    more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
    return InvalidInputError(
        f"{path} is not {wanted.name}: {where}: {first['msg']}{more}; see {wanted.example} for "
        "the format"
    )

"""What the harness's commands share: writing a result, reading ``--sizes``."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from ripplemem_bench.results import Result

__all__ = ["save_result", "sizes_option"]


def save_result(path: Path, result: Result, out: Console) -> None:
    """Write ``result`` as indented JSON (creating folders) and say so."""
    from ripplemem_bench.results import write_result

    write_result(result, path)
    out.print(f"wrote {path}")


def sizes_option(sizes: str) -> list[int]:
    """``--sizes 1000,10_000`` as integers."""
    from ripplemem.errors import InvalidInputError

    try:
        return [int(part.replace("_", "")) for part in sizes.split(",") if part.strip()]
    except ValueError:
        raise InvalidInputError(
            f"--sizes must be comma-separated integers, not {sizes!r}"
        ) from None

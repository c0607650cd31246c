"""``ripplemem bench merge A.json B.json --json OUT``: one result from runs over disjoint questions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly
from ripplemem_bench.cli.output import save_result


@friendly
def merge(
    parts: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False,
                                                help="Result files written with --details.")],
    json_file: Annotated[Path, typer.Option("--json", dir_okay=False, help="Write the merged result here.")],
) -> None:
    """Merge retrieval results of disjoint question sets (e.g. --limit N and --skip N)."""
    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.reports.console import render_console
    from ripplemem_bench.results import RetrievalResult, load_result
    from ripplemem_bench.retrieval.merge import merge_results

    loaded = [load_result(path) for path in parts]
    for path, part in zip(parts, loaded, strict=True):
        if not isinstance(part, RetrievalResult):
            raise InvalidInputError(f"{path} is not one retrieval run (bench locomo / longmemeval)")
    result = merge_results(loaded)  # type: ignore[arg-type]
    out = console()
    render_console(result, out)
    save_result(json_file, result, out)

"""``ripplemem bench merge A.json B.json --json OUT``: one result from runs over disjoint questions."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly, write_json


@friendly
def merge(
    parts: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False,
                                                help="Result files written with --details.")],
    json_file: Annotated[Path, typer.Option("--json", dir_okay=False, help="Write the merged result here.")],
) -> None:
    """Merge retrieval results of disjoint question sets (e.g. --limit N and --skip N)."""
    import json

    from ripplemem.errors import InvalidInputError
    from ripplemem_bench.reports.result import render_console
    from ripplemem_bench.retrieval.merge import merge_results

    try:
        loaded = [json.loads(path.read_text(encoding="utf-8")) for path in parts]
    except (OSError, ValueError) as error:
        raise InvalidInputError(f"cannot read a result file: {error}") from error
    result = merge_results(loaded)
    out = console()
    render_console(result, out)
    write_json(json_file, result, out)

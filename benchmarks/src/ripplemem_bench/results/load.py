"""A result file to its typed record, whatever harness version wrote it.

:func:`parse_result` tells the kinds apart by their shape (older files carry no ``benchmark``
name for every kind) and validates the record; a file it cannot read raises
:class:`~ripplemem.errors.InvalidInputError` naming the file and the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ripplemem.errors import InvalidInputError
from ripplemem_bench.results.asso import AssoSpeedResult
from ripplemem_bench.results.base import Facts
from ripplemem_bench.results.growth import GrowthResult
from ripplemem_bench.results.index import IndexScaleResult
from ripplemem_bench.results.knn import KnnResult
from ripplemem_bench.results.retrieval import RetrievalResult, RetrievalVariants
from ripplemem_bench.results.service import ServeResult
from ripplemem_bench.results.times import TimesResult
from ripplemem_bench.results.updates import LmeUpdatesResult, UpdatesResult
from ripplemem_bench.results.writers import WritersResult

__all__ = ["OtherResult", "Result", "kind_of", "load_result", "parse_result", "write_result"]


class OtherResult(Facts):
    """A result of a kind the report does not know: shown as a table of its top-level values."""


Result = (
    RetrievalResult
    | RetrievalVariants
    | GrowthResult
    | IndexScaleResult
    | AssoSpeedResult
    | ServeResult
    | WritersResult
    | UpdatesResult
    | LmeUpdatesResult
    | KnnResult
    | TimesResult
    | OtherResult
)

_BENCHMARKS: dict[str, type[Result]] = {
    "speed": GrowthResult,
    "scale": GrowthResult,
    "scale_index": IndexScaleResult,
    "serve": ServeResult,
    "writers": WritersResult,
    "asso_speed": AssoSpeedResult,
    "knn": KnnResult,
    "times": TimesResult,
}


_KINDS: dict[str, type[Result]] = {"updates": UpdatesResult, "lme-updates": LmeUpdatesResult}


def _is_retrieval(data: Any) -> bool:
    recipes = data.get("recipes") if isinstance(data, dict) else None
    return isinstance(recipes, dict) and any(
        isinstance(block, dict) and "metrics" in block for block in recipes.values()
    )


def kind_of(data: dict[str, Any]) -> type[Result]:
    """The record class a result object is, by its shape."""
    if isinstance(data.get("recipes"), dict) and data.get("kind") in _KINDS:
        return _KINDS[data["kind"]]
    if data.get("benchmark") in _BENCHMARKS:
        return _BENCHMARKS[data["benchmark"]]
    if _is_retrieval(data):
        return RetrievalResult
    if data and all(_is_retrieval(value) for value in data.values()):
        return RetrievalVariants  # e.g. {"sqlite": run, "postgresql": run}
    if isinstance(data.get("ppr"), dict) and isinstance(data.get("updates"), list):
        return AssoSpeedResult  # files written before the benchmark was named
    return OtherResult


def parse_result(data: Any, source: str = "the result") -> Result:
    """The typed record of one result object; ``source`` names it in errors."""
    if not isinstance(data, dict):
        raise InvalidInputError(f"{source} is not a result: a JSON object was expected")
    record = kind_of(data)
    try:
        return record.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InvalidInputError(
            f"{source} does not read as a {record.__name__}: {where}: {first['msg']} "
            f"({error.error_count()} problem(s) in all); fix the file or re-run its benchmark"
        ) from error


def load_result(path: Path) -> Result:
    """Read and type one result file."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidInputError(f"cannot read {path}: {error}") from error
    return parse_result(data, str(path))


def write_result(result: Result, path: Path) -> None:
    """Write ``result`` as indented JSON, atomically (a file being replaced is never half there)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(result.to_json(), indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)

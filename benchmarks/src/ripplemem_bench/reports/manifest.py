"""The runs whose results are current: ``docs/results/manifest.json``.

``ripplemem bench report`` renders these runs and nothing else; a result file that the manifest
does not list is not current, and leaves the tree (git history keeps it). The manifest is::

    {"runs": [
        {"file": "locomo_dev.json", "page": "benchmarks/locomo.md"},
        {"file": "speed_fixed_input.json", "page": "benchmarks/speed.md", "plots": true}
    ]}

``file`` is a result JSON beside the manifest. ``page`` is the page (relative to the overview
page's folder) where the run's block goes when no page holds it yet; without it, the overview
page itself. ``plots: true`` draws the three growth plots of a speed or scale result beside its
page. At most :data:`MAX_PLOTS` plots in all keep the pages readable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ripplemem.errors import InvalidInputError
from ripplemem_bench.results import Result, load_result

__all__ = ["MAX_PLOTS", "CurrentRun", "Manifest", "load_manifest"]

MAX_PLOTS = 8
PLOTS_PER_RUN = 3  # insert, search, memory
_KEYS = {"file", "plots", "page"}


@dataclass(frozen=True, slots=True)
class CurrentRun:
    file: str
    plots: bool = False
    page: str | None = None  # relative to the overview page's folder; None: the overview page


@dataclass(frozen=True, slots=True)
class Manifest:
    folder: Path  # where the result files are
    runs: tuple[CurrentRun, ...]

    def results(self) -> dict[str, Result]:
        """``file -> typed result`` for every current run, in the manifest's order."""
        return {run.file: load_result(self.folder / run.file) for run in self.runs}

    def plotted(self) -> set[str]:
        return {run.file for run in self.runs if run.plots}

    def pages(self) -> dict[str, str | None]:
        return {run.file: run.page for run in self.runs}


def _run(path: Path, entry: object) -> CurrentRun:
    if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
        raise InvalidInputError(f"{path}: every run needs a file name, not {entry!r}")
    unknown = set(entry) - _KEYS
    if unknown:
        raise InvalidInputError(f"{path}: unknown keys {sorted(unknown)} in {entry!r}")
    page = entry.get("page")
    if page is not None and (
        not isinstance(page, str) or not page.endswith(".md") or PurePosixPath(page).is_absolute()
        or ".." in PurePosixPath(page).parts
    ):
        raise InvalidInputError(
            f"{path}: page must be a relative .md path below the overview's folder, not {page!r}"
        )
    return CurrentRun(entry["file"], bool(entry.get("plots", False)), page)


def load_manifest(path: Path) -> Manifest:
    """Read and check a manifest: known keys, no duplicate, at most :data:`MAX_PLOTS` plots."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidInputError(f"cannot read the manifest {path}: {error}") from error
    entries = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise InvalidInputError(f'{path} must be {{"runs": [{{"file": "...json"}}, ...]}}')
    runs = [_run(path, entry) for entry in entries]
    names = [run.file for run in runs]
    if len(set(names)) != len(names):
        raise InvalidInputError(f"{path} lists a file twice")
    plots = PLOTS_PER_RUN * sum(run.plots for run in runs)
    if plots > MAX_PLOTS:
        raise InvalidInputError(
            f"{path} asks for {plots} plots; at most {MAX_PLOTS} (three per plotted run)"
        )
    return Manifest(Path(path).parent, tuple(runs))

"""The runs whose results are current: ``docs/results/manifest.json``.

``ripplemem bench report`` renders these runs and nothing else; a result file that the manifest
does not list is not current, and leaves the tree (git history keeps it). The manifest is::

    {"runs": [
        {"file": "locomo_dev.json"},
        {"file": "speed_fixed_input.json", "plots": true}
    ]}

``file`` is a result JSON beside the manifest; ``plots: true`` draws its three growth plots
(speed and scale results only). At most :data:`MAX_PLOTS` plots in all keep the page readable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from ripplemem.errors import InvalidInputError

MAX_PLOTS = 8
PLOTS_PER_RUN = 3  # insert, search, memory


@dataclass(frozen=True, slots=True)
class CurrentRun:
    file: str
    plots: bool = False


@dataclass(frozen=True, slots=True)
class Manifest:
    folder: Path  # where the result files are
    runs: tuple[CurrentRun, ...]

    def results(self) -> dict[str, dict]:
        """``file -> result`` for every current run, in the manifest's order."""
        out: dict[str, dict] = {}
        for run in self.runs:
            path = self.folder / run.file
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise InvalidInputError(f"cannot read {path} (listed in the manifest): {error}") from error
            if not isinstance(data, dict):
                raise InvalidInputError(f"{path} is not a result: a JSON object was expected")
            out[run.file] = data
        return out

    def plotted(self) -> set[str]:
        return {run.file for run in self.runs if run.plots}


def load_manifest(path: Path) -> Manifest:
    """Read and check a manifest: known keys, no duplicate, at most :data:`MAX_PLOTS` plots."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise InvalidInputError(f"cannot read the manifest {path}: {error}") from error
    entries = data.get("runs") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise InvalidInputError(f'{path} must be {{"runs": [{{"file": "...json"}}, ...]}}')
    runs: list[CurrentRun] = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise InvalidInputError(f"{path}: every run needs a file name, not {entry!r}")
        unknown = set(entry) - {"file", "plots"}
        if unknown:
            raise InvalidInputError(f"{path}: unknown keys {sorted(unknown)} in {entry!r}")
        runs.append(CurrentRun(entry["file"], bool(entry.get("plots", False))))
    names = [run.file for run in runs]
    if len(set(names)) != len(names):
        raise InvalidInputError(f"{path} lists a file twice")
    plots = PLOTS_PER_RUN * sum(run.plots for run in runs)
    if plots > MAX_PLOTS:
        raise InvalidInputError(
            f"{path} asks for {plots} plots; at most {MAX_PLOTS} (three per plotted run)"
        )
    return Manifest(Path(path).parent, tuple(runs))

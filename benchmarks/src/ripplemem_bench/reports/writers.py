"""The page block of ``bench writers``: units/s per backend and layout, against one writer."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.writers import LayoutRun, WritersResult

__all__ = ["writers_section"]


def _rows(backend: str, layouts: list[LayoutRun]) -> list[list[str]]:
    rows = []
    one_writer: dict[bool, float] = {}  # per "one shared namespace?": the one-writer units/s
    for run in layouts:
        shared = run.namespaces == 1
        if run.processes == 1:
            one_writer[shared] = run.units_per_s
        base = one_writer.get(shared)
        rows.append([
            backend, run.layout, str(run.processes), str(run.namespaces), f"{run.units:,}",
            f"{run.wall_s:.1f}", f"{run.units_per_s:.1f}",
            "–" if base is None else f"{run.units_per_s / base:.2f}",
        ])
    return rows


def writers_section(result: WritersResult) -> str:
    given, settings = result.input, result.settings
    intro = (
        f"_{given.conversations} conversations of {settings.file}, {given.adds} adds (one per "
        f"session), {given.turns:,} turns · extractor and planner deterministic · embedder "
        f"{result.embedder_text()} · {result.date_text()} · commit `{result.commit_text()}` · "
        f"load {result.load_text()}._"
    )
    header = ["store", "layout", "processes", "namespaces", "units", "wall s", "units/s",
              "× 1 writer"]
    rows = [row for backend, runs in result.backends.items() for row in _rows(backend, runs)]
    return "\n".join([intro, "", *markdown_table(header, rows)]) + "\n"

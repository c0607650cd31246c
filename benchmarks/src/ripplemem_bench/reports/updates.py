"""The page block of the knowledge-update suite: per recipe, the share of each question kind."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.updates import UpdatesResult

__all__ = ["updates_section"]

#: the question kinds of the update suite, as its table heads them
KINDS = {"current": "current", "history": "history", "control": "controls"}


def updates_section(result: UpdatesResult) -> str:
    header = ["recipe", *KINDS.values()]
    rows = []
    for name, block in result.recipes.items():
        cells = []
        for kind in KINDS:
            score = block.summary.get(kind)
            cells.append("—" if score is None else
                         f"{score.share:.1f} % ({score.passed}/{score.questions})")
        rows.append([name, *cells])
    facts = (
        f"{result.conversations} conversations, {result.questions} questions, split "
        f"`{result.split or '?'}`, extractor {result.extractor or '?'}, embedder "
        f"{result.embedder_text()}, {result.date_text()}, commit `{result.commit_text()}`, "
        f"load {result.load_text()}."
    )
    return "\n".join([facts, "", *markdown_table(header, rows)]) + "\n"

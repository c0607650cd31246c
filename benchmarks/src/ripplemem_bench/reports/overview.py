"""The table of current runs: one row per result file, what ran on what, with which models, when."""

from __future__ import annotations

from collections.abc import Mapping

from ripplemem_bench.reports.sections import describe, facts_of
from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results import Result

__all__ = ["overview"]


def overview(results: Mapping[str, Result], links: Mapping[str, tuple[str, str | None]]) -> str:
    """``links[name]`` = (link to the result file, link to the page of its block or None)."""
    rows = []
    for name, result in results.items():
        facts = facts_of(result)
        what, data = describe(result)
        file_link, page_link = links[name]
        rows.append([
            f"[`{name}`]({file_link})",
            f"[{what}]({page_link})" if page_link else what,
            data,
            facts.embedder_text(),
            facts.llm_text(),
            facts.date_text(),
            f"`{facts.commit_text()}`",
            facts.load_text(),
        ])
    header = ["result", "what", "data", "embedder", "LLM", "date", "commit", "load"]
    return "\n".join(markdown_table(header, rows)) + "\n"

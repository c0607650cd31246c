"""The page block of the time-expression suite: cases passed and expressions found per language
and per kind of expression."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.times import TimesResult, TimesScore

__all__ = ["times_section"]


def _rows(scores: dict[str, TimesScore]) -> list[list[str]]:
    return [
        [name, f"{s.share:.1f} % ({s.passed}/{s.cases})",
         f"{s.found}/{s.expressions}" if s.expressions else "—"]
        for name, s in scores.items()
    ]


def times_section(result: TimesResult) -> str:
    facts = (
        f"{result.file or '?'}, split `{result.split or '?'}`, {result.cases} messages, "
        f"{result.ms_per_message:.2f} ms a message, {result.date_text()}, commit "
        f"`{result.commit_text()}`, load {result.load_text()}."
    )
    return "\n".join([
        facts, "",
        *markdown_table(["language", "messages right", "expressions found"], _rows(result.by_language)), "",
        *markdown_table(["kind", "messages right", "expressions found"], _rows(result.by_category)),
    ]) + "\n"

"""Small renderers shared by the report: Markdown tables, unit counts, verdict words."""

from __future__ import annotations

import re

__all__ = ["markdown_table", "short_units", "verdict_word"]

_NUMBER = re.compile(r"×?-?[\d.,]+( / -?[\d.,]+)?")


def verdict_word(met: bool) -> str:
    return "met" if met else "**missed**"


def markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """The lines of a Markdown table; numeric columns are right-aligned."""
    align = ["---", *("---:" if _numeric(i, rows) else "---" for i in range(1, len(header)))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def _numeric(column: int, rows: list[list[str]]) -> bool:
    cells = [row[column] for row in rows if column < len(row) and row[column] not in ("–", "?")]
    return bool(cells) and all(_NUMBER.fullmatch(c) for c in cells)


def short_units(units: int) -> str:
    """``1000`` -> ``1k``, ``1000000`` -> ``1M``, other counts with separators."""
    if units >= 1_000_000 and units % 1_000_000 == 0:
        return f"{units // 1_000_000}M"
    return f"{units // 1000}k" if units >= 1000 and units % 1000 == 0 else f"{units:,}"

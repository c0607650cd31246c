"""Small renderers shared by the benchmark report: Markdown tables and header cells."""

from __future__ import annotations

import re


def result_date(result: dict) -> str:
    return str(result.get("date") or "?")[:10]


def result_llm(result: dict) -> str:
    return str(result.get("llm") or "none")


def result_embedder(result: dict) -> str:
    embedder = result.get("embedder")
    if isinstance(embedder, dict):
        return str(embedder.get("name", "?"))
    return str(embedder or "?")


def result_load(result: dict) -> str:
    load = result.get("load")
    if load is None:
        machine = result.get("machine") or {}
        load = (
            machine.get("loadavg_end") or machine.get("loadavg_now") or machine.get("loadavg_start")
        )
    if isinstance(load, list | tuple) and load:
        return f"{load[0]:.1f}"
    return "?"


def verdict_word(met: bool) -> str:
    return "met" if met else "**missed**"


def markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    align = ["---", *("---:" if _numeric(i, rows) else "---" for i in range(1, len(header)))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def _numeric(column: int, rows: list[list[str]]) -> bool:
    cells = [row[column] for row in rows if column < len(row) and row[column] not in ("–", "?")]
    number = re.compile(r"×?-?[\d.,]+( / -?[\d.,]+)?")
    return bool(cells) and all(number.fullmatch(c) for c in cells)


def short_units(units: int) -> str:
    if units >= 1_000_000 and units % 1_000_000 == 0:
        return f"{units // 1_000_000}M"
    return f"{units // 1000}k" if units >= 1000 and units % 1000 == 0 else f"{units:,}"

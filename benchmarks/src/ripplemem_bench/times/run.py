"""Running the time-expression suite: each message through the grounding stage the write path uses."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import datetime

from ripplemem.grounding.ground_time import ground_times
from ripplemem_bench.results.times import TimesResult, TimesScore
from ripplemem_bench.times.cases import TimeCase
from ripplemem_bench.times.score import CaseScore, score_case

__all__ = ["run_times", "summarise"]

Progress = Callable[[str, int, int | None], None]


def summarise(rows: Sequence[CaseScore], key: Callable[[CaseScore], str]) -> dict[str, TimesScore]:
    """Cases passed and expressions found per ``key`` (a language, a category), and over all."""
    groups: dict[str, list[CaseScore]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
        groups["all"].append(row)
    return {
        name: TimesScore(
            cases=len(group),
            passed=sum(r.passed for r in group),
            share=round(100.0 * sum(r.passed for r in group) / len(group), 1),
            expressions=sum(r.expected for r in group),
            found=sum(r.found for r in group),
        )
        for name, group in sorted(groups.items(), key=lambda item: (item[0] == "all", item[0]))
    }


def run_times(cases: Sequence[TimeCase], *, progress: Progress | None = None) -> TimesResult:
    """Every case's message grounded against the time it was said, and scored."""
    rows: list[CaseScore] = []
    ground_times("warm up: yesterday, ayer, gestern", datetime(2024, 1, 1))  # the parser and the language model load
    started = time.perf_counter()
    for done, case in enumerate(cases):
        rows.append(score_case(case, ground_times(case.text, case.said_at)))
        if progress:
            progress("messages", done + 1, len(cases))
    seconds = time.perf_counter() - started
    return TimesResult(
        benchmark="times",
        cases=len(rows),
        ms_per_message=round(1000.0 * seconds / max(len(rows), 1), 2),  # once the models are loaded
        by_language=summarise(rows, lambda r: r.lang),
        by_category=summarise(rows, lambda r: r.category),
        rows=[r.to_json() for r in rows],
    )

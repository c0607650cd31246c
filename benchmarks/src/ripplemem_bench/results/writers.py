"""The result of ``bench writers``: ingest throughput of several writer processes against one."""

from __future__ import annotations

from typing import Literal

from ripplemem_bench.results.base import Facts, Record

__all__ = ["LayoutRun", "WritersInput", "WritersResult", "WritersSettings"]


class WritersSettings(Record):
    writers: int
    file: str
    sessions_per_conversation: int | None = None
    extractor: str | None = None
    planner: str | None = None


class WritersInput(Record):
    conversations: int
    adds: int
    turns: int


class LayoutRun(Record):
    """One layout of the same adds: how many processes wrote into how many namespaces."""

    layout: str
    processes: int
    namespaces: int
    units: int
    edges: int = 0
    wall_s: float
    units_per_s: float
    add_s_max: float = 0.0


class WritersResult(Facts):
    benchmark: Literal["writers"]
    settings: WritersSettings
    input: WritersInput
    backends: dict[str, list[LayoutRun]]

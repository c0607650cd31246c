"""The result of ``bench asso-speed``: PPR on a local subgraph, the clue-graph update cost."""

from __future__ import annotations

from typing import Literal

from ripplemem_bench.results.base import Facts, Record

__all__ = ["AssoSpeedResult", "ClueUpdate", "PprTiming"]


class PprTiming(Record):
    nodes: int
    edges: int
    repeats: int
    ppr_ms_p50: float
    ppr_ms_p95: float
    assembly_ms_p50: float


class ClueUpdate(Record):
    """The clue-graph update for one more session, in a store of ``units`` units."""

    units: int
    clues: int
    session_units: int
    update_ms_p50: float
    update_ms_max: float


class AssoSpeedResult(Facts):
    benchmark: Literal["asso_speed"] = "asso_speed"
    ppr: PprTiming
    updates: list[ClueUpdate]
    store: str = "?"
    ann_threshold: int | None = None

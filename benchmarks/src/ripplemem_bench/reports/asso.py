"""The page block of ``bench asso-speed``: PPR timing, then the clue-graph update per size."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.asso import AssoSpeedResult

__all__ = ["asso_speed_section"]


def asso_speed_section(result: AssoSpeedResult) -> str:
    ppr = result.ppr
    intro = (
        f"Personalised PageRank on {ppr.nodes:,} nodes / {ppr.edges:,} edges: p50 "
        f"{ppr.ppr_ms_p50:.2f} ms, p95 {ppr.ppr_ms_p95:.2f} ms (matrix assembly p50 "
        f"{ppr.assembly_ms_p50:.2f} ms). Clue-graph update per added session "
        f"({result.store} store, HNSW above {result.ann_threshold or '?'} vectors):"
    )
    header = ["units", "clues", "session units", "update ms p50", "update ms max"]
    rows = [
        [f"{row.units:,}", f"{row.clues:,}", str(row.session_units), f"{row.update_ms_p50:.1f}",
         f"{row.update_ms_max:.1f}"]
        for row in result.updates
    ]
    return "\n".join([intro, "", *markdown_table(header, rows)]) + "\n"

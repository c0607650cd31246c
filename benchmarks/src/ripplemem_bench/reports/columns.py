"""Which metrics a retrieval table shows, under which labels, formatted how.

Rates are printed as percentages (one decimal), token counts as integers, latencies in ms.
"""

from __future__ import annotations

from ripplemem_bench.results.retrieval import RetrievalResult

__all__ = [
    "DOC_GROUP_METRICS",
    "LEGEND",
    "format_value",
    "group_metric",
    "label",
    "metric_columns",
]

MAIN_COLUMNS: dict[str, tuple[str, ...]] = {
    "locomo": ("recall@5", "recall@10", "recall@30", "all@10", "all@30", "context_tokens@30"),
    "longmemeval": (
        "session_recall_any@5", "session_recall_all@5", "session_ndcg@5",
        "session_recall_any@10", "session_recall_all@10", "session_ndcg@10",
        "turn_recall_all@10", "context_tokens@30",
    ),
}
# with --token-budget every list is already cut: the budget columns replace the deep cut-offs
BUDGET_COLUMNS: dict[str, tuple[str, ...]] = {
    "locomo": ("recall@5", "recall@10", "recall@budget", "all@budget", "context_tokens@budget"),
    "longmemeval": (
        "session_recall_any@5", "session_recall_all@5", "turn_recall_any@budget",
        "turn_recall_all@budget", "context_tokens@budget",
    ),
}
GROUP_METRIC: dict[str, str] = {"locomo": "recall@30", "longmemeval": "session_recall_all@10"}
BUDGET_GROUP_METRIC: dict[str, str] = {
    "locomo": "recall@budget", "longmemeval": "turn_recall_all@budget",
}
#: the metrics the benchmarks pages break down by group (the default one when not listed)
DOC_GROUP_METRICS: dict[str, tuple[str, ...]] = {
    "longmemeval": ("session_recall_all@5", "session_recall_all@10", "session_ndcg@5"),
}
TIMING_COLUMNS = ("search_ms_p50", "search_ms_p95")
LABELS: dict[str, str] = {"search_ms_p50": "p50 ms", "search_ms_p95": "p95 ms"}
LEGEND = (
    "S = session level, T = turn level (official LongMemEval metrics, k in corpus turns); "
    "tokens = WordPiece tokens of the top-K restatements; p50/p95 = search latency"
)


def label(metric: str) -> str:
    """A short column label: ``session_recall_any@5`` -> ``S any@5``."""
    if metric in LABELS:
        return LABELS[metric]
    for prefix, short in (("session_", "S "), ("turn_", "T ")):
        if metric.startswith(prefix):
            return short + metric.removeprefix(prefix).removeprefix("recall_")
    return metric.replace("context_tokens", "tokens")


def format_value(metric: str, value: float | None) -> str:
    """Rates in %, token counts whole, latencies in ms; another number as it is."""
    if value is None:
        return "–"
    if metric.startswith("context_tokens") or metric in ("units", "edges"):
        return f"{value:,.0f}"
    if metric.startswith(("search_ms", "answer_ms")):
        return f"{value:.1f}"
    if "@" in metric or abs(value) <= 1.0:
        return f"{100.0 * value:.1f}"
    return f"{value:,.2f}"  # a metric of an unknown dataset that is not a rate


def metric_columns(result: RetrievalResult) -> list[str]:
    """The dataset's headline metrics that the run recorded (an unknown dataset: all of them)."""
    present = {m for block in result.recipes.values() for m in block.metrics}
    chosen = BUDGET_COLUMNS if result.token_budget else MAIN_COLUMNS
    if result.dataset in chosen:
        return [c for c in chosen[result.dataset] if c in present]
    return sorted(present)


def group_metric(result: RetrievalResult) -> str:
    """The metric a table by group shows when none is asked for."""
    chosen = BUDGET_GROUP_METRIC if result.token_budget else GROUP_METRIC
    return chosen[result.dataset]

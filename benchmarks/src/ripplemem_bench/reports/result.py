"""Benchmark result dicts as tables: rich for the console, Markdown for ``docs/benchmarks.md``.

Rates are printed as percentages (one decimal), token counts as integers, latencies in ms.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

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
BUDGET_GROUP_METRIC: dict[str, str] = {"locomo": "recall@budget", "longmemeval": "turn_recall_all@budget"}
GROUP_KEY: dict[str, str] = {"locomo": "per_category", "longmemeval": "per_question_type"}
#: the metrics the benchmarks page breaks down by group (the default one when not listed)
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
    if value is None:
        return "–"
    if metric.startswith("context_tokens") or metric in ("units", "edges"):
        return f"{value:,.0f}"
    if metric.startswith("search_ms"):
        return f"{value:.1f}"
    return f"{100.0 * value:.1f}"


def headline(result: dict) -> str:
    ingest = result.get("ingest", {})
    excluded = ", ".join(f"{k} {v}" for k, v in (result.get("excluded") or {}).items()) or "none"
    commit = (result.get("commit") or "?")[:10]
    return (
        f"{result['dataset']} · {result.get('split', '?')} · {result.get('questions', 0)} questions "
        f"(excluded: {excluded}) · embedder {result.get('embedder', '?')} · "
        f"extractor {result.get('extractor', '?')} · planner {result.get('planner', '?')} · "
        f"ingest {ingest.get('seconds_per_conversation', 0.0):.1f} s/conversation, "
        f"{ingest.get('units', 0):,} units, {ingest.get('edges', 0):,} edges · "
        f"commit {commit} · {result.get('date', '?')}"
        + "".join(
            f" · peer {name}: {peer.get('package', '?')} {peer.get('version', '?')}"
            for name, peer in (result.get("peers") or {}).items()
        )
        + (f" · token budget {result['token_budget']}" if result.get("token_budget") else "")
    )


def main_table(result: dict) -> tuple[list[str], list[list[str]]]:
    """(header, rows): one row per recipe, the dataset's headline metrics and search latency."""
    chosen = BUDGET_COLUMNS if result.get("token_budget") else MAIN_COLUMNS
    columns = [c for c in chosen[result["dataset"]] if _present(result, c)]
    header = ["recipe", *(label(c) for c in (*columns, *TIMING_COLUMNS))]
    rows = []
    for name, block in result["recipes"].items():
        metrics = block.get("metrics", {})
        row = [name, *(format_value(c, metrics.get(c)) for c in columns)]
        row += [format_value(c, block.get(c)) for c in TIMING_COLUMNS]
        rows.append(row)
    return header, rows


def group_table(result: dict, metric: str | None = None) -> tuple[list[str], list[list[str]], str]:
    """(header, rows, metric): one row per category / question type, one column per recipe
    (``metric``, or the dataset's default)."""
    dataset = result["dataset"]
    if metric is None:
        metric = (BUDGET_GROUP_METRIC if result.get("token_budget") else GROUP_METRIC)[dataset]
    key = GROUP_KEY[dataset]
    recipes = list(result["recipes"])
    groups: dict[str, int] = {}
    for block in result["recipes"].values():
        for group, values in block.get(key, {}).items():
            groups[group] = int(values.get("questions", 0))
        if "adversarial" in block:
            groups["adversarial (cat. 5)"] = int(block["adversarial"].get("questions", 0))
    rows = []
    for group, count in groups.items():
        row = [group, str(count)]
        for name in recipes:
            block = result["recipes"][name]
            values = block["adversarial"] if group.startswith("adversarial") else block.get(key, {}).get(group, {})
            row.append(format_value(metric, values.get(metric)))
        rows.append(row)
    return ["group", "questions", *recipes], rows, label(metric)


ANSWER_COLUMNS = ("f1", "bleu1", "j", "context_tokens", "answer_prompt_tokens", "planner_tokens")
ANSWER_LABELS = {
    "f1": "F1", "bleu1": "BLEU-1", "j": "J", "context_tokens": "ctx tokens",
    "answer_prompt_tokens": "prompt tokens", "planner_tokens": "planner tokens",
}


def answer_table(result: dict) -> tuple[list[str], list[list[str]], str] | None:
    """(header, rows, caption) of answer quality per system, or None without --answer."""
    answering = result.get("answering")
    if not answering:
        return None
    header = ["system", "questions", *(ANSWER_LABELS[c] for c in ANSWER_COLUMNS),
              "answer p50 ms", "answer p95 ms", "judge failures"]
    rows = []
    for name, block in result["recipes"].items():
        answers = block.get("answers") or {}
        metrics = answers.get("metrics", {})
        row = [name, str(answers.get("questions", 0))]
        for column in ANSWER_COLUMNS:
            value = metrics.get(column)
            if value is None:
                row.append("–")
            elif column in ("f1", "bleu1", "j"):
                row.append(f"{100.0 * value:.1f}")
            else:
                row.append(f"{value:,.0f}")
        row += [format_value("search_ms", answers.get(key)) for key in ("answer_ms_p50", "answer_ms_p95")]
        row.append(str(answers.get("judge_failures", 0)))
        rows.append(row)
    caption = (
        f"answers by {answering.get('answer_model')} · judge {answering.get('judge_model')} "
        f"({answering.get('judge_prompt')}) · F1/BLEU-1/J in %, tokens are means per question"
    )
    return header, rows, caption


def render_console(result: dict, console: Console) -> None:
    from rich.table import Table

    console.print(f"[bold]{headline(result)}[/]")
    header, rows = main_table(result)
    table = Table(title="retrieval (rates in %)")
    for index, name in enumerate(header):
        table.add_column(name, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    header, rows, metric = group_table(result)
    if rows:
        table = Table(title=f"{metric} by {GROUP_KEY[result['dataset']].removeprefix('per_')} (%)")
        for index, name in enumerate(header):
            table.add_column(name, justify="left" if index == 0 else "right")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    answers = answer_table(result)
    if answers is not None:
        header, rows, caption = answers
        table = Table(title=caption)
        for index, name in enumerate(header):
            table.add_column(name, justify="left" if index == 0 else "right")
        for row in rows:
            table.add_row(*row)
        console.print(table)


def render_markdown(result: dict) -> str:
    header, rows = main_table(result)
    parts = [f"_{headline(result)}_", "", *_markdown(header, rows), "", f"_{LEGEND}_"]
    header, rows, metric = group_table(result)
    if rows:
        parts += ["", f"{metric} (%) by {GROUP_KEY[result['dataset']].removeprefix('per_')}:", ""]
        parts += _markdown(header, rows)
    answers = answer_table(result)
    if answers is not None:
        header, rows, caption = answers
        parts += ["", f"{caption}:", "", *_markdown(header, rows)]
    return "\n".join(parts) + "\n"


def _markdown(header: list[str], rows: list[list[str]]) -> list[str]:
    align = ["---", *("---:" for _ in header[1:])]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in rows]
    return lines


def _present(result: dict, metric: str) -> bool:
    return any(metric in block.get("metrics", {}) for block in result["recipes"].values())

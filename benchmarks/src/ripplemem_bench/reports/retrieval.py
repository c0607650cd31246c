"""A retrieval result as tables: per recipe, per group of questions, answers (``--answer``).

:func:`render_markdown` is what ``bench locomo --markdown`` writes; :func:`retrieval_section`,
:func:`retrieval_headline` and :func:`variants_section` are the blocks of the benchmarks pages.
"""

from __future__ import annotations

from ripplemem_bench.reports.columns import (
    DOC_GROUP_METRICS,
    LEGEND,
    TIMING_COLUMNS,
    format_value,
    group_metric,
    label,
    metric_columns,
)
from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.retrieval import RetrievalResult, RetrievalVariants

__all__ = [
    "answer_table",
    "group_table",
    "headline",
    "main_table",
    "render_markdown",
    "retrieval_headline",
    "retrieval_section",
    "variants_section",
]

Table = tuple[list[str], list[list[str]]]


def headline(result: RetrievalResult) -> str:
    """One line: the run's split, questions, models, ingest cost, commit and date."""
    excluded = ", ".join(f"{k} {v}" for k, v in result.excluded.items()) or "none"
    ingest = result.ingest
    peers = "".join(
        f" · peer {name}: {peer.get('package', '?')} {peer.get('version', '?')}"
        for name, peer in result.peers.items()
    )
    budget = f" · token budget {result.token_budget}" if result.token_budget else ""
    return (
        f"{result.dataset} · {result.split or '?'} · {result.questions} questions "
        f"(excluded: {excluded}) · embedder {result.embedder_text()} · "
        f"extractor {result.extractor or '?'} · planner {result.planner or '?'} · "
        f"ingest {ingest.seconds_per_conversation:.1f} s/conversation, "
        f"{ingest.units:,} units, {ingest.edges:,} edges · "
        f"commit {result.commit_text(10)} · {result.date or '?'}{peers}{budget}"
    )


def main_table(result: RetrievalResult) -> Table:
    """(header, rows): one row per recipe, the dataset's headline metrics and search latency."""
    columns = metric_columns(result)
    header = ["recipe", *(label(c) for c in (*columns, *TIMING_COLUMNS))]
    rows = []
    for name, block in result.recipes.items():
        row = [name, *(format_value(c, block.metrics.get(c)) for c in columns)]
        row += [format_value(c, getattr(block, c)) for c in TIMING_COLUMNS]
        rows.append(row)
    return header, rows


def group_table(
    result: RetrievalResult, metric: str | None = None
) -> tuple[list[str], list[list[str]], str]:
    """(header, rows, label): one row per category / question type, one column per recipe
    (``metric``, or the dataset's default); LoCoMo's adversarial category last, apart."""
    metric = metric or group_metric(result)
    groups: dict[str, int] = {}
    for block in result.recipes.values():
        for group, scores in block.groups().items():
            groups[group] = scores.questions
        if block.adversarial is not None:
            groups["adversarial (cat. 5)"] = block.adversarial.questions
    rows = []
    for group, count in groups.items():
        row = [group, str(count)]
        for block in result.recipes.values():
            found = block.adversarial if group.startswith("adversarial") else (
                block.groups().get(group)
            )
            row.append(format_value(metric, found.get(metric) if found is not None else None))
        rows.append(row)
    return ["group", "questions", *result.recipes], rows, label(metric)


ANSWER_COLUMNS = ("f1", "bleu1", "j", "context_tokens", "answer_prompt_tokens", "planner_tokens")
ANSWER_LABELS = {
    "f1": "F1", "bleu1": "BLEU-1", "j": "J", "context_tokens": "ctx tokens",
    "answer_prompt_tokens": "prompt tokens", "planner_tokens": "planner tokens",
}


def answer_table(result: RetrievalResult) -> tuple[list[str], list[list[str]], str] | None:
    """(header, rows, caption) of answer quality per system, or None without --answer."""
    answering = result.answering
    if not answering:
        return None
    header = ["system", "questions", *(ANSWER_LABELS[c] for c in ANSWER_COLUMNS),
              "answer p50 ms", "answer p95 ms", "judge failures"]
    rows = []
    for name, block in result.recipes.items():
        answers = block.answers
        if answers is None:
            rows.append([name, "0", *("–" for _ in header[2:-1]), "0"])
            continue
        row = [name, str(answers.questions)]
        for column in ANSWER_COLUMNS:
            value = answers.metrics.get(column)
            rate = column in ("f1", "bleu1", "j")
            row.append("–" if value is None else f"{100.0 * value:.1f}" if rate else f"{value:,.0f}")
        row += [format_value("answer_ms", answers.answer_ms_p50),
                format_value("answer_ms", answers.answer_ms_p95), str(answers.judge_failures)]
        rows.append(row)
    caption = (
        f"answers by {answering.get('answer_model')} · judge {answering.get('judge_model')} "
        f"({answering.get('judge_prompt')}) · F1/BLEU-1/J in %, tokens are means per question"
    )
    return header, rows, caption


def render_markdown(result: RetrievalResult) -> str:
    """The whole run as Markdown: headline, recipes, the default group metric, answers."""
    parts = [f"_{headline(result)}_", "", *markdown_table(*main_table(result)), "", f"_{LEGEND}_"]
    if result.group_key() is not None:
        header, rows, metric = group_table(result)
        if rows:
            what = result.group_key().removeprefix("per_")  # type: ignore[union-attr]
            parts += ["", f"{metric} (%) by {what}:", "", *markdown_table(header, rows)]
    answers = answer_table(result)
    if answers is not None:
        header, rows, caption = answers
        parts += ["", f"{caption}:", "", *markdown_table(header, rows)]
    return "\n".join(parts) + "\n"


# --- the benchmarks pages --------------------------------------------------------------------


def _caption(result: RetrievalResult) -> str:
    ingest = result.ingest
    return (
        f"_{result.dataset} · split {result.split or '?'} · {result.questions} questions · "
        f"embedder {result.embedder_text()} · LLM {result.llm_text()} · extractor "
        f"{result.extractor or '?'} · planner {result.planner or '?'} · ingest "
        f"{ingest.seconds_per_conversation:.1f} s/conversation, {ingest.units:,} units, "
        f"{ingest.edges:,} edges · {result.date_text()} · commit `{result.commit_text()}` · "
        f"load {result.load_text()}. Rates in %._"
    )


def _group_tables(result: RetrievalResult) -> list[str]:
    key = result.group_key()
    if key is None:
        return []
    what = key.removeprefix("per_").replace("_", " ")
    wanted = (None,) if result.token_budget else DOC_GROUP_METRICS.get(result.dataset, (None,))
    lines: list[str] = []
    for metric in wanted:
        header, rows, shown = group_table(result, metric)
        if rows:
            lines += ["", f"{shown} (%) by {what}:", "", *markdown_table(header, rows)]
    return lines


def retrieval_section(result: RetrievalResult, *, groups: bool = True) -> str:
    """The page block of a run: its facts, every recipe, and the tables by group."""
    lines = [_caption(result), "", *markdown_table(*main_table(result))]
    if groups:
        lines += _group_tables(result)
    return "\n".join(lines) + "\n"


def retrieval_headline(result: RetrievalResult) -> str:
    """The overview page's block: the facts and one row per recipe."""
    return retrieval_section(result, groups=False)


def variants_section(variants: RetrievalVariants) -> str:
    """One table for a file of runs of the same kind: a row per recipe and variant, headed by
    the first run's facts."""
    first = variants.first()
    recipes = {
        f"{name} · {key}": block
        for key, run in variants.root.items()
        for name, block in run.recipes.items()
    }
    merged = first.model_copy(update={"recipes": recipes})
    return retrieval_section(merged, groups=False)

"""Merge retrieval results of disjoint question sets (runs with ``--details``) into one.

Two processes over two halves of a file (``--limit N`` and ``--skip N``, same code, same
embedder) cost the wall time of one half on a machine with a core to spare. The merged result
recomputes every mean from the per-question rows, sums the ingest, keeps the per-question rows,
and lists the parts it was made of (``merged_from``: split, skip, commit, questions, load). The
search timings are the worst of the parts' medians and 95th percentiles, no better.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import means
from ripplemem_bench.results.base import Scores
from ripplemem_bench.results.retrieval import (
    IngestSummary,
    MergedPart,
    QuestionRow,
    RecipeScores,
    RetrievalResult,
)

__all__ = ["merge_results"]

_SAME = ("dataset", "split", "embedder", "extractor", "planner", "profile", "token_budget")


def _check(parts: Sequence[RetrievalResult]) -> None:
    if len(parts) < 2:
        raise InvalidInputError("merge needs at least two result files")
    first = parts[0]
    for part in parts[1:]:
        for key in _SAME:
            if getattr(part, key) != getattr(first, key):
                raise InvalidInputError(f"cannot merge results that differ in {key!r}")
        if list(part.recipes) != list(first.recipes):
            raise InvalidInputError("cannot merge results of different recipes")
    ids = [row.id for part in parts for row in _rows(part, next(iter(first.recipes)))]
    if len(ids) != len(set(ids)):
        raise InvalidInputError("the results share questions: merge disjoint runs only")


def merge_results(parts: Sequence[RetrievalResult]) -> RetrievalResult:
    """One result from ``parts`` (same dataset, split, embedder, recipes; disjoint questions)."""
    _check(parts)
    excluded: dict[str, int] = defaultdict(int)
    for part in parts:
        for reason, count in part.excluded.items():
            excluded[reason] += count
    update = {
        "questions": sum(part.questions for part in parts),
        "excluded": dict(excluded),
        "ingest": _ingest([part.ingest for part in parts]),
        "load": max((part.load for part in parts), key=lambda load: load[0] if load else 0),
        "merged_from": [
            MergedPart(split=part.split, skip=part.skip, commit=part.commit,
                       questions=part.questions, load=part.load, date=part.date)
            for part in parts
        ],
        "recipes": {name: _recipe(name, parts) for name in parts[0].recipes},
    }
    return parts[0].model_copy(update=update)


def _rows(part: RetrievalResult, recipe: str) -> list[QuestionRow]:
    rows = part.recipes[recipe].per_question
    if rows is None:
        raise InvalidInputError("merge needs per-question rows: run the parts with --details")
    return rows


def _recipe(name: str, parts: Sequence[RetrievalResult]) -> RecipeScores:
    blocks = [part.recipes[name] for part in parts]
    rows = [row for part in parts for row in _rows(part, name)]
    scored = [row for row in rows if row.group != "adversarial"]
    groups: dict[str, list[QuestionRow]] = defaultdict(list)
    for row in scored:
        groups[row.group].append(row)
    per_group = {
        group: Scores(questions=len(members), metrics=means([row.values for row in members]))
        for group, members in sorted(groups.items())
    }
    key = "per_question_type" if blocks[0].per_question_type is not None else "per_category"
    timings = {}
    for timing in ("search_ms_p50", "search_ms_p95"):
        known = [value for block in blocks if (value := getattr(block, timing)) is not None]
        timings[timing] = max(known) if known else None
    update = {"metrics": means([row.values for row in scored]), key: per_group,
              "per_question": rows, **timings}
    adversarial = [row.values for row in rows if row.group == "adversarial"]
    if adversarial:  # LoCoMo's category 5, scored apart
        update["adversarial"] = Scores(questions=len(adversarial), metrics=means(adversarial))
    return blocks[0].model_copy(update=update)


def _ingest(parts: list[IngestSummary]) -> IngestSummary:
    conversations = sum(p.conversations for p in parts)
    total = sum(p.seconds_total for p in parts)
    units = sum(p.units for p in parts)
    tokens = sum(p.llm_tokens for p in parts)
    return IngestSummary(
        conversations=conversations,
        seconds_per_conversation=total / conversations if conversations else 0.0,
        seconds_total=total,
        units=units,
        units_per_conversation=units / conversations if conversations else 0.0,
        edges=sum(p.edges for p in parts),
        windows=sum(p.windows for p in parts),
        llm_tokens=tokens,
        llm_tokens_per_conversation=tokens / conversations if conversations else 0.0,
    )

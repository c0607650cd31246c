"""Merge retrieval results of disjoint question sets (runs with ``--details``) into one.

Two processes over two halves of a file (``--limit N`` and ``--skip N``, same code, same
embedder) cost the wall time of one half on a machine with a core to spare. The merged result
recomputes every mean from the per-question rows, sums the ingest, keeps the per-question rows,
and lists the parts it was made of (``merged_from``: split, skip, commit, questions, load). The
search timings are the percentiles over the parts' medians and 95th percentiles, no better.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ripplemem.errors import InvalidInputError
from ripplemem_bench.retrieval.scoring import _means

_SAME = ("dataset", "split", "embedder", "extractor", "planner", "profile", "token_budget")


def merge_results(parts: Sequence[dict]) -> dict:
    """One result from ``parts`` (same dataset, split, embedder, recipes; disjoint questions)."""
    if len(parts) < 2:
        raise InvalidInputError("merge needs at least two result files")
    first = parts[0]
    for part in parts[1:]:
        for key in _SAME:
            if part.get(key) != first.get(key):
                raise InvalidInputError(f"cannot merge results that differ in {key!r}")
        if list(part["recipes"]) != list(first["recipes"]):
            raise InvalidInputError("cannot merge results of different recipes")
    ids = [row["id"] for part in parts for row in _rows(part, next(iter(first["recipes"])))]
    if len(ids) != len(set(ids)):
        raise InvalidInputError("the results share questions: merge disjoint runs only")
    merged = {key: first[key] for key in first if key not in ("recipes", "ingest", "excluded")}
    merged["questions"] = sum(part["questions"] for part in parts)
    excluded: dict[str, int] = defaultdict(int)
    for part in parts:
        for reason, count in part["excluded"].items():
            excluded[reason] += count
    merged["excluded"] = dict(excluded)
    merged["ingest"] = _ingest([part["ingest"] for part in parts])
    merged["load"] = max((part["load"] for part in parts), key=lambda load: load[0] if load else 0)
    merged["merged_from"] = [
        {"split": part["split"], "skip": part.get("skip", 0), "commit": part["commit"],
         "questions": part["questions"], "load": part["load"], "date": part["date"]}
        for part in parts
    ]
    merged["recipes"] = {name: _recipe([p["recipes"][name] for p in parts], name, parts)
                         for name in first["recipes"]}
    return merged


def _rows(part: dict, recipe: str) -> list[dict]:
    rows = part["recipes"][recipe].get("per_question")
    if rows is None:
        raise InvalidInputError("merge needs per-question rows: run the parts with --details")
    return rows


def _recipe(blocks: list[dict], name: str, parts: Sequence[dict]) -> dict:
    rows = [row for part in parts for row in _rows(part, name)]
    scored = [row for row in rows if row["group"] != "adversarial"]
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in scored:
        groups[row["group"]].append(row)
    group_key = "per_question_type" if "per_question_type" in blocks[0] else "per_category"
    values = lambda row: {k: v for k, v in row.items() if k not in ("id", "group")}
    block = {key: blocks[0][key] for key in blocks[0]
             if key not in ("metrics", group_key, "per_question", "adversarial")}
    block["metrics"] = _means([values(row) for row in scored])
    block[group_key] = {
        group: {"questions": len(members), **_means([values(row) for row in members])}
        for group, members in sorted(groups.items())
    }
    for key in ("search_ms_p50", "search_ms_p95"):
        known = [b[key] for b in blocks if b.get(key) is not None]
        block[key] = max(known) if known else None
    block["per_question"] = rows
    return block


def _ingest(parts: list[dict]) -> dict:
    conversations = sum(p["conversations"] for p in parts)
    total = sum(p["seconds_total"] for p in parts)
    units = sum(p["units"] for p in parts)
    return {
        "conversations": conversations,
        "seconds_per_conversation": total / conversations if conversations else 0.0,
        "seconds_total": total,
        "units": units,
        "units_per_conversation": units / conversations if conversations else 0.0,
        "edges": sum(p["edges"] for p in parts),
        "windows": sum(p["windows"] for p in parts),
        "llm_tokens": sum(p["llm_tokens"] for p in parts),
        "llm_tokens_per_conversation": (
            sum(p["llm_tokens"] for p in parts) / conversations if conversations else 0.0
        ),
    }

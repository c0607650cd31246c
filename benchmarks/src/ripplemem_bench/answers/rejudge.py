"""Grade the answers of a finished ``--answer --details`` run again with another judge.

Answering and judging with a slow local model are separate costs: the answers of a run are kept
(``per_question`` in the result with ``--details``), so a stronger judge can grade the same answers
later without generating them again. The result gains ``rejudged``: per system, J with the new
judge, its failures and tokens, the agreement with the first judge, and the per-question verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ripplemem.errors import InvalidInputError
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.judge_prompt import JUDGE_PROMPT_VERSION


def rejudge(
    result: dict,
    judge: Judge,
    *,
    questions: Mapping[str, str] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict:
    """``result`` with a ``rejudged`` block graded by ``judge`` (the input is not changed).

    Question texts come from the rows (``question``) or from ``questions`` (id -> text)."""
    systems = {
        name: block["answers"]["per_question"]
        for name, block in result.get("recipes", {}).items()
        if "per_question" in block.get("answers", {})
    }
    if not systems:
        raise InvalidInputError(
            "the result has no per-question answers: run the benchmark with --answer --details"
        )
    questions = questions or {}
    total = sum(len(rows) for rows in systems.values())
    done = 0
    graded: dict[str, dict] = {}
    for name, rows in systems.items():
        verdicts = []
        for row in rows:
            if progress:
                progress(f"judge {name}", done, total)
            question = row.get("question") or questions.get(row["id"], "")
            if not question:
                raise InvalidInputError(f"no question text for {row['id']!r}: pass questions=")
            verdict = judge.judge(question, row["gold"], row["answer"])
            verdicts.append(
                {"id": row["id"], "group": row["group"], "verdict": verdict.label,
                 "first_verdict": row["verdict"], "tokens": verdict.tokens}
            )
            done += 1
        count = len(verdicts)
        correct = sum(v["verdict"] == "CORRECT" for v in verdicts)
        agree = sum(v["verdict"] == v["first_verdict"] for v in verdicts)
        graded[name] = {
            "questions": count,
            "j": correct / count if count else None,
            "judge_failures": sum(v["verdict"] == "FAILED" for v in verdicts),
            "agreement_with_first_judge": agree / count if count else None,
            "judge_tokens": sum(v["tokens"] for v in verdicts) / count if count else None,
            "per_question": verdicts,
        }
    return {
        **result,
        "rejudged": {"judge_model": judge.model, "judge_prompt": JUDGE_PROMPT_VERSION, "systems": graded},
    }

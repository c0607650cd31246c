"""Grade the answers of a finished ``--answer --details`` run again with another judge.

Answering and judging with a slow local model are separate costs: the answers of a run are kept
(``per_question`` in the result with ``--details``), so a stronger judge can grade the same answers
later without generating them again. The result gains ``rejudged``: per system, J with the new
judge, its failures and tokens, the agreement with the first judge, and the per-question verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ripplemem.errors import InvalidInputError
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.judge_prompt import JUDGE_PROMPT_VERSION
from ripplemem_bench.results.retrieval import (
    AnswerRow,
    Rejudged,
    RejudgedRow,
    RejudgedSystem,
    RetrievalResult,
)

Progress = Callable[[str, int, int], None]


def rejudge(
    result: RetrievalResult,
    judge: Judge,
    *,
    questions: Mapping[str, str] | None = None,
    progress: Progress | None = None,
) -> RetrievalResult:
    """``result`` with a ``rejudged`` block graded by ``judge`` (the input is not changed).

    Question texts come from the rows (``question``) or from ``questions`` (id -> text)."""
    systems = {
        name: block.answers.per_question
        for name, block in result.recipes.items()
        if block.answers is not None and block.answers.per_question is not None
    }
    if not systems:
        raise InvalidInputError(
            "the result has no per-question answers: run the benchmark with --answer --details"
        )
    total = sum(len(rows) for rows in systems.values())
    graded: dict[str, RejudgedSystem] = {}
    done = 0
    for name, rows in systems.items():
        verdicts = []
        for row in rows:
            if progress:
                progress(f"judge {name}", done, total)
            verdicts.append(_grade(judge, row, questions or {}))
            done += 1
        graded[name] = _system(verdicts)
    block = Rejudged(judge_model=judge.model, judge_prompt=JUDGE_PROMPT_VERSION, systems=graded)
    return result.model_copy(update={"rejudged": block})


def _grade(judge: Judge, row: AnswerRow, questions: Mapping[str, str]) -> RejudgedRow:
    question = row.question or questions.get(row.id, "")
    if not question:
        raise InvalidInputError(f"no question text for {row.id!r}: pass questions=")
    verdict = judge.judge(question, row.gold, row.answer)
    return RejudgedRow(id=row.id, group=row.group, verdict=verdict.label,
                       first_verdict=row.verdict, tokens=verdict.tokens)


def _system(verdicts: Sequence[RejudgedRow]) -> RejudgedSystem:
    count = len(verdicts)
    if not count:
        return RejudgedSystem(questions=0, per_question=[])
    correct = sum(v.verdict == "CORRECT" for v in verdicts)
    agree = sum(v.verdict == v.first_verdict for v in verdicts)
    return RejudgedSystem(
        questions=count,
        j=correct / count,
        judge_failures=sum(v.verdict == "FAILED" for v in verdicts),
        agreement_with_first_judge=agree / count,
        judge_tokens=sum(v.tokens for v in verdicts) / count,
        per_question=list(verdicts),
    )

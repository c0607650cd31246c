"""Per-question answer quality and cost, aggregated per recipe (or peer) and per group.

Each scored question yields a row: token ``f1`` and ``bleu1`` (reference §3), ``j`` (1 when the
judge said CORRECT; a FAILED verdict counts 0 and is counted in ``judge_failures``), and the
tokens spent: ``answer_prompt_tokens`` / ``answer_completion_tokens`` (from the endpoint's usage),
``context_tokens`` (WordPiece tokens of the evidence given to the answerer), ``planner_tokens``
(LLM recall planner, 0 when deterministic) and ``judge_tokens``; ``cited`` is 1 when the answer
cites at least one memory (its mean: the share of cited answers). Overall values are micro means
over questions; latency is the answer call's p50 / p95 in ms.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from ripplemem_bench.answers.answering import GeneratedAnswer
from ripplemem_bench.answers.judge import Judgement
from ripplemem_bench.answers.metrics import bleu1, token_f1
from ripplemem_bench.measure import means, percentile_or_none
from ripplemem_bench.results.base import Scores
from ripplemem_bench.results.retrieval import AnswerRow, AnswerScores

Row = dict[str, float]


class AnswerScorer:
    def __init__(self, systems: Sequence[str], *, details: bool = False) -> None:
        self.details = details
        self.rows: dict[str, list[tuple[str, str, Row, dict]]] = {name: [] for name in systems}

    def score(
        self,
        system: str,
        question_id: str,
        group: str,
        gold: str,
        answer: GeneratedAnswer,
        verdict: Judgement,
        *,
        planner_tokens: int = 0,
        question: str = "",
    ) -> Row:
        row: Row = {
            "f1": token_f1(answer.text, gold),
            "bleu1": bleu1(answer.text, gold),
            "j": 1.0 if verdict.correct else 0.0,
            "answer_prompt_tokens": float(answer.prompt_tokens),
            "answer_completion_tokens": float(answer.completion_tokens),
            "context_tokens": float(answer.context_tokens),
            "planner_tokens": float(planner_tokens),
            "judge_tokens": float(verdict.tokens),
            "cited": 0.0 if answer.uncited else 1.0,
        }
        extra = {
            "answer": answer.text,
            "gold": gold,
            "verdict": verdict.label,
            "seconds": answer.seconds,
            "answer_error": answer.error,
            "judge_error": verdict.error,
            "citations": list(answer.citations),
            "question": question,
        }
        self.rows[system].append((question_id, group, row, extra))
        return row

    def summary(self, system: str) -> AnswerScores:
        """The system's means overall and per group, failures and answer latency."""
        entries = self.rows[system]
        groups: dict[str, list[Row]] = defaultdict(list)
        for _, group, row, _ in entries:
            groups[group].append(row)
        millis = [1000.0 * extra["seconds"] for *_, extra in entries]
        result = AnswerScores(
            questions=len(entries),
            metrics=means([row for _, _, row, _ in entries]),
            groups={
                group: Scores(questions=len(rows), metrics=means(rows))
                for group, rows in sorted(groups.items())
            },
            answer_failures=sum(1 for *_, extra in entries if extra["answer_error"]),
            judge_failures=sum(1 for *_, extra in entries if extra["verdict"] == "FAILED"),
            answer_ms_p50=percentile_or_none(millis, 50),
            answer_ms_p95=percentile_or_none(millis, 95),
        )
        if self.details:
            result.per_question = [
                AnswerRow.model_validate({"id": qid, "group": group, **row, **extra})
                for qid, group, row, extra in entries
            ]
        return result

"""Per-question retrieval scoring and aggregation for the benchmark runner.

A scorer decides which questions count (``admit``), scores one recipe's evidence for one question
(``score``) and summarises each recipe (``summary``): overall means, means per category / question
type, and the excluded-question counts.

LoCoMo: categories 1-4 with at least one valid evidence id are scored; category 5 (adversarial)
with evidence is scored apart under ``"adversarial"``. Unit-level cut-offs K above the recipe's
evidence budget are left out (they would repeat the value at the budget).

LongMemEval: ``_abs`` questions and questions without a gold user turn are excluded (the official
script only drops ``_abs``; with no gold it would score recall_any 0 and recall_all 1). Returned
units are mapped to official corpus ids (user turns) in rank order, first occurrence kept.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from ripplemem.datasets import ANSWERABLE_CATEGORIES
from ripplemem_bench.measure import means
from ripplemem_bench.results.base import Scores
from ripplemem_bench.results.retrieval import QuestionRow, RecipeScores
from ripplemem_bench.retrieval.metrics import (
    LOCOMO_KS,
    LONGMEMEVAL_KS,
    context_tokens,
    evidence_all,
    evidence_recall,
    ranked_turns,
    session_scores,
    turn_scores,
)
from ripplemem_bench.tokens import count_tokens_batch

if TYPE_CHECKING:
    from ripplemem.datasets import LmeQuestion, Question
    from ripplemem.records import Evidence

LOCOMO_CATEGORIES = ANSWERABLE_CATEGORIES  # scored for retrieval
CONTEXT_KS = (10, 30)

Row = dict[str, float]


class HasBudget(Protocol):
    """A recipe or a peer: anything that returns at most ``budget`` evidence items."""

    @property
    def budget(self) -> int: ...


class _Scorer:
    group_key = "per_category"

    def __init__(
        self,
        recipes: Mapping[str, HasBudget],
        *,
        details: bool = False,
        token_budget: int | None = None,
    ) -> None:
        self.recipes = dict(recipes)
        self.details = details
        self.token_budget = token_budget
        self.scored = 0
        self.excluded: dict[str, int] = defaultdict(int)
        self.rows: dict[str, list[tuple[str, str, Row]]] = {name: [] for name in recipes}

    def _add(self, recipe: str, question_id: str, group: str, row: Row) -> None:
        self.rows[recipe].append((question_id, group, row))

    def summary(self, recipe: str) -> RecipeScores:
        """The recipe's means overall and per group (LoCoMo's adversarial questions apart)."""
        rows = [(group, row) for _, group, row in self.rows[recipe] if group != "adversarial"]
        groups: dict[str, list[Row]] = defaultdict(list)
        for group, row in rows:
            groups[group].append(row)
        per_group = {
            group: Scores(questions=len(members), metrics=means(members))
            for group, members in sorted(groups.items())
        }
        result = RecipeScores(
            budget=self.recipes[recipe].budget,
            token_budget=self.token_budget,
            metrics=means([row for _, row in rows]),
            **{self.group_key: per_group},
        )
        adversarial = [row for _, group, row in self.rows[recipe] if group == "adversarial"]
        if adversarial:
            result.adversarial = Scores(questions=len(adversarial), metrics=means(adversarial))
        if self.details:
            result.per_question = [
                QuestionRow(id=qid, group=group, values=dict(row))
                for qid, group, row in self.rows[recipe]
            ]
        return result


class LocomoScorer(_Scorer):
    group_key = "per_category"

    def scorable(self, question: Question) -> bool:
        """Whether :meth:`admit` would score ``question`` (nothing is counted)."""
        return bool(question.evidence) and (
            question.category in LOCOMO_CATEGORIES or question.category == 5
        )

    def admit(self, question: Question) -> bool:
        """Count the question once; True when it is scored (categories 1-4, or 5 apart)."""
        if not question.evidence:
            self.excluded["adversarial_no_evidence" if question.category == 5 else "no_evidence"] += 1
            return False
        if question.category in LOCOMO_CATEGORIES:
            self.scored += 1
            return True
        if question.category == 5:
            self.excluded["adversarial"] += 1  # scored apart, not in the overall numbers
            return True
        self.excluded["other_category"] += 1
        return False

    def score(self, recipe: str, question: Question, evidence: Sequence[Evidence]) -> Row:
        budget = self.recipes[recipe].budget
        turns = [item.unit.turn_ids for item in evidence]
        tokens = count_tokens_batch([item.unit.restatement for item in evidence])
        row: Row = {}
        for k in (k for k in LOCOMO_KS if k <= budget):
            row[f"recall@{k}"] = evidence_recall(turns, question.evidence, k)
        for k in (k for k in LOCOMO_KS if k <= budget):
            row[f"all@{k}"] = evidence_all(turns, question.evidence, k)
        for k in (k for k in CONTEXT_KS if k <= budget):
            row[f"context_tokens@{k}"] = float(context_tokens(tokens, k))
        if self.token_budget is not None:  # evidence was cut to the token budget already
            row["recall@budget"] = evidence_recall(turns, question.evidence, len(turns))
            row["all@budget"] = evidence_all(turns, question.evidence, len(turns))
            row["context_tokens@budget"] = float(sum(tokens))
        row["units_returned"] = float(len(evidence))
        group = "adversarial" if question.category == 5 else question.category_name
        self._add(recipe, question.id, group, row)
        return row


class LongMemEvalScorer(_Scorer):
    group_key = "per_question_type"

    def admit(self, question: LmeQuestion) -> bool:
        if question.abstention:
            self.excluded["abstention"] += 1
            return False
        if not question.gold_turns:
            self.excluded["no_gold"] += 1
            return False
        self.scored += 1
        return True

    def score(self, recipe: str, question: LmeQuestion, evidence: Sequence[Evidence]) -> Row:
        budget = self.recipes[recipe].budget
        ranked = ranked_turns(
            (item.unit.turn_ids for item in evidence), mapping=question.corpus_id_of.get
        )
        row: Row = {}
        for level, scorer in (("session", session_scores), ("turn", turn_scores)):
            for k in LONGMEMEVAL_KS:
                scores = scorer(ranked, question.gold_turns, question.corpus_ids, k)
                row[f"{level}_recall_any@{k}"] = scores.recall_any
                row[f"{level}_recall_all@{k}"] = scores.recall_all
                row[f"{level}_ndcg@{k}"] = scores.ndcg
        tokens = count_tokens_batch([item.unit.restatement for item in evidence])
        for k in (k for k in CONTEXT_KS if k <= budget):
            row[f"context_tokens@{k}"] = float(context_tokens(tokens, k))
        if self.token_budget is not None:  # evidence was cut to the token budget already
            every = turn_scores(ranked, question.gold_turns, question.corpus_ids, max(len(ranked), 1))
            row["turn_recall_any@budget"] = every.recall_any
            row["turn_recall_all@budget"] = every.recall_all
            row["context_tokens@budget"] = float(sum(tokens))
        row["units_returned"] = float(len(evidence))
        row["turns_returned"] = float(len(ranked))
        self._add(recipe, question.id, question.question_type, row)
        return row

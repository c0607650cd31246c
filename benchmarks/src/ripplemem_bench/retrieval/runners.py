"""Retrieval benchmarks: one run, one embedder, every recipe on the same ingested memory.

For each sample the conversation is ingested once (``Memory.add``) into a fresh namespace of one
store (a temporary SQLite file by default, or in memory), then every question is searched with
every recipe and scored with :mod:`ripplemem_bench.retrieval.metrics`. No LLM is needed unless the
settings configure one for extraction or planning.

``profile=True`` applies the paper's per-dataset settings (reference §1): LoCoMo windows 40/2 and
views 10/5/5; LongMemEval-S windows 10/0 and views 15/8/8 (plus a 100k-character message limit:
the S haystacks hold a few very long pasted messages). The result dict records the profile used.
The ``asso`` recipes return 6 units through the API; here they return the common budget (30, or
``budget``) so every recipe is compared at the same K.
A caller-supplied ``memory`` keeps its own write settings (only the view sizes apply) and its
namespaces are left in place for inspection.

Peers (``mem0``, see :mod:`ripplemem_bench.peers`) are named among the recipes and ingest the same
conversation with the same embedder; they are scored by the same code. ``token_budget`` cuts
every system's ranked evidence to at most that many context tokens before scoring and
answering. ``answering`` (an :class:`AnswerSetup`) adds answer generation, token F1, BLEU-1 and
the LLM judge J for every system (see :mod:`ripplemem_bench.answers.scoring`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, TypeVar, Unpack

from ripplemem import Settings
from ripplemem.errors import InvalidInputError
from ripplemem.training.workspace import StoreKind
from ripplemem_bench.answers.setup import AnswerSetup
from ripplemem_bench.measure import Progress
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.retrieval import QuestionSample, RetrievalResult
from ripplemem_bench.retrieval.run import DEFAULT_RECIPES, BenchRun

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.datasets import LmeSample, Question
    from ripplemem.records import Conversation, Evidence
    from ripplemem_bench.answers.scoring import AnswerScorer
    from ripplemem_bench.retrieval.scoring import LocomoScorer, LongMemEvalScorer

T = TypeVar("T")


class RunOptions(TypedDict, total=False):
    """How both runners set up their :class:`BenchRun` (its keyword arguments, same defaults)."""

    settings: Settings | None
    store: StoreKind  # "sqlite" (default) or "memory"
    memory: Memory | None
    profile: bool  # True (default): the paper's per-dataset settings
    budget: int | None
    token_budget: int | None
    force_fitted: bool
    keep: Path | None  # a SQLite file to keep the ingested conversations in and reuse


def run_locomo_bench(
    path: str | Path,
    *,
    recipes: Sequence[str] = DEFAULT_RECIPES,
    limit: int | None = None,
    progress: Progress | None = None,
    details: bool = False,
    answering: AnswerSetup | None = None,
    questions: int | None = None,
    seed: int = 0,
    **options: Unpack[RunOptions],
) -> RetrievalResult:
    """LoCoMo turn-level evidence recall; ``limit`` = number of conversations.

    With ``answering``, categories 1-4 are also answered and judged (category 5 is not).
    ``questions`` keeps a fixed random sample of that many scored questions per conversation
    (drawn with ``seed``, kept in file order): a budget for slow answer models. The result's
    ``questions`` counts the sampled ones; ``excluded["not_sampled"]`` the others.
    """
    from ripplemem.datasets import load_locomo
    from ripplemem_bench.retrieval.scoring import LocomoScorer

    path = Path(path)
    samples = load_locomo(path)[:limit] if limit else load_locomo(path)
    with BenchRun("locomo", path, recipes=recipes, **options) as run:
        scorer = LocomoScorer(run.systems, details=details, token_budget=run.token_budget)
        answers = _Answers.of(run, answering, details)
        for done, sample in enumerate(samples):
            name = sample.conversation.conversation_id
            _report(progress, f"ingest {name}", done, len(samples))
            scored = _admitted(scorer, sample.questions, questions, seed)
            _locomo_sample(run, scorer, answers, sample.conversation, scored)
        _report(progress, "done", len(samples), len(samples))
        result = _result(run, path, scorer, answers)
        if questions is not None:
            result.question_sample = QuestionSample(per_conversation=questions, seed=seed)
        return result


def _locomo_sample(
    run: BenchRun, scorer: LocomoScorer, answers: _Answers | None, conversation: Conversation,
    questions: Sequence[Question],
) -> None:
    """One conversation: ingested, each question searched by every recipe, scored (and
    categories 1-4 answered)."""
    for question in questions:
        run.check_fitted(question.id)
    with run.sample(conversation) as namespace:
        for question in questions:
            for name in run.order:
                evidence, planner_tokens = run.search_with_cost(
                    name, question.text, namespace, question.question_time
                )
                scorer.score(name, question, evidence)
                if answers is not None and question.category != 5:
                    asked = _Asked(question.id, question.category_name, question.text,
                                   question.answer, question.question_time, None)
                    answers.answer(name, asked, evidence, planner_tokens)


def _admitted(
    scorer: LocomoScorer, questions: Sequence[Question], size: int | None, seed: int
) -> list[Question]:
    """The questions of one conversation to score: every scorable one, or a fixed sample of
    ``size`` of them; the others are counted where the result says why they were left out
    (``not_sampled`` for the scorable ones the sample did not draw)."""
    chosen = {q.id for q in _sample([q for q in questions if scorer.scorable(q)], size, seed)}
    admitted = []
    for question in questions:
        if question.id in chosen or not scorer.scorable(question):
            if scorer.admit(question):
                admitted.append(question)
        else:
            scorer.excluded["not_sampled"] += 1
    return admitted


def _sample(items: list, size: int | None, seed: int) -> list:
    """A fixed random sample of ``size`` items, in their original order (all when None)."""
    if size is None or size >= len(items):
        return items
    import random

    chosen = set(random.Random(seed).sample(range(len(items)), size))
    return [item for index, item in enumerate(items) if index in chosen]


def run_longmemeval_bench(
    path: str | Path,
    *,
    recipes: Sequence[str] = DEFAULT_RECIPES,
    limit: int | None = None,
    progress: Progress | None = None,
    details: bool = False,
    answering: AnswerSetup | None = None,
    skip: int = 0,
    **options: Unpack[RunOptions],
) -> RetrievalResult:
    """LongMemEval official retrieval metrics; ``limit`` = the first N questions of the file
    after the first ``skip`` ones (a second, disjoint sample: ``skip=70, limit=70``).

    With ``answering``, every question is answered and judged with its type's rule, including
    ``_abs`` and no-gold questions (which retrieval scoring excludes).
    """
    from ripplemem.datasets import load_longmemeval
    from ripplemem_bench.retrieval.scoring import LongMemEvalScorer

    if skip < 0:
        raise InvalidInputError(f"skip must be a number of questions >= 0, got {skip}")
    path = Path(path)
    with BenchRun("longmemeval", path, recipes=recipes, **options) as run:
        scorer = LongMemEvalScorer(run.systems, details=details, token_budget=run.token_budget)
        answers = _Answers.of(run, answering, details)
        done = 0
        for sample in take(load_longmemeval(path), limit, skip):
            _report(progress, f"question {sample.question.id}", done, limit)
            _longmemeval_sample(run, scorer, answers, sample)
            done += 1
        _report(progress, "done", done, done)
        result = _result(run, path, scorer, answers)
        if skip:
            result.skip = skip  # questions 1..skip of the file were not read
        return result


def _longmemeval_sample(
    run: BenchRun, scorer: LongMemEvalScorer, answers: _Answers | None, sample: LmeSample
) -> None:
    """One question: its haystack ingested, searched by every recipe, scored (and answered)."""
    from ripplemem_bench.answers.judge_prompt import judge_kind

    question = sample.question
    retrieval = scorer.admit(question)
    if not retrieval and answers is None:
        return
    if retrieval:
        run.check_fitted(question.id)
    with run.sample(sample.conversation) as namespace:
        for name in run.order:
            evidence, planner_tokens = run.search_with_cost(
                name, question.text, namespace, question.question_time
            )
            if retrieval:
                scorer.score(name, question, evidence)
            if answers is not None:
                asked = _Asked(
                    question.id, "abstention" if question.abstention else question.question_type,
                    question.text, question.answer, question.question_time,
                    judge_kind(question.question_type, abstention=question.abstention),
                )
                answers.answer(name, asked, evidence, planner_tokens)


@dataclass(frozen=True, slots=True)
class _Asked:
    """A question as the answerer and the judge see it."""

    id: str
    group: str  # LoCoMo category, LongMemEval question type (or "abstention")
    text: str
    gold: str
    when: datetime | None
    kind: str | None  # the judge's rule (LongMemEval), None: the default rule


@dataclass(slots=True)
class _Answers:
    """``--answer``: each system's evidence answered, judged and scored."""

    setup: AnswerSetup
    scorer: AnswerScorer

    @classmethod
    def of(cls, run: BenchRun, setup: AnswerSetup | None, details: bool) -> _Answers | None:
        if setup is None:
            return None
        from ripplemem_bench.answers.scoring import AnswerScorer

        return cls(setup, AnswerScorer(run.order, details=details))

    def answer(
        self, system: str, asked: _Asked, evidence: Sequence[Evidence], planner_tokens: int
    ) -> None:
        from ripplemem_bench.answers.judge import Judgement

        generated = self.setup.answerer.answer(asked.text, evidence, asked.when)
        # no answer to grade: WRONG without a judge call, counted in answer_failures
        if generated.error:
            verdict = Judgement("WRONG", "no answer (endpoint unavailable)", 0, 0)
        else:
            verdict = self.setup.judge.judge(asked.text, asked.gold, generated.text, asked.kind)
        self.scorer.score(system, asked.id, asked.group, asked.gold, generated, verdict,
                          planner_tokens=planner_tokens, question=asked.text)


def _result(
    run: BenchRun, path: Path, scorer: LocomoScorer | LongMemEvalScorer, answers: _Answers | None
) -> RetrievalResult:
    """The run's result: the header, a block per recipe or peer, the answer setup."""
    blocks = {}
    for name in run.order:
        block = scorer.summary(name)
        block.search_ms_p50, block.search_ms_p95 = run.timing_percentiles(name)
        block.kind = "peer" if name in run.peers else "recipe"
        if answers is not None:
            block.answers = answers.scorer.summary(name)
        blocks[name] = block
    result = run.header(
        RetrievalResult, path.name, scorer.scored, dict(scorer.excluded), recipes=blocks
    )
    if answers is not None:
        result.answering = answers.setup.describe()
    return result


def take(items: Iterable[T], limit: int | None, skip: int = 0) -> Iterator[T]:
    """The ``limit`` items after the first ``skip`` (all of them without a limit)."""
    for index, item in enumerate(items):
        if index < skip:
            continue
        if limit is not None and index - skip >= limit:
            return
        yield item

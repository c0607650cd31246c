"""Benchmark questions with their gold turns, in one shape for fitting weights and exporting data.

Both benchmarks become ``(conversation, [GoldQuestion])`` pairs: one LoCoMo conversation with its
questions, or one LongMemEval haystack with its single question. ``gold_turns`` are in the turn-id
space of the records (``MemoryUnit.turn_ids``): LoCoMo evidence dia_ids; for LongMemEval the user
turns flagged ``has_answer`` (official corpus ids containing ``answer``, mapped back to record ids).

Admission follows the benchmark's retrieval scoring: LoCoMo categories 1–4 with evidence;
LongMemEval without ``_abs`` and with a gold turn. ``qtype`` is what :func:`classify_question` says
(the type the ranker will see at query time); ``benchmark_type`` is the benchmark's own label
mapped onto :data:`~ripplemem.read.asso.qtype.QUESTION_TYPES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from ripplemem.datasets import detect_format
from ripplemem.read.asso.qtype import benchmark_type, classify_question
from ripplemem.records import Conversation


@dataclass(frozen=True, slots=True)
class GoldQuestion:
    id: str
    text: str
    answer: str
    qtype: str
    benchmark_type: str | None
    question_time: datetime | None
    gold_turns: frozenset[str]  # record turn ids
    source: object = field(default=None, compare=False)  # the loader's Question / LmeQuestion

    def is_useful(self, turn_ids: tuple[str, ...] | list[str]) -> bool:
        """A unit is useful when one of its source turns is a gold turn."""
        return not self.gold_turns.isdisjoint(turn_ids)


def dataset_of(path: str | Path, dataset: str | None = None) -> str:
    """``locomo`` or ``longmemeval``: given, or detected from the file."""
    name = dataset or detect_format(path)
    if name not in ("locomo", "longmemeval"):
        from ripplemem.errors import InvalidInputError

        raise InvalidInputError(
            f"{path} is a {name!r} file; fitting and exporting need LoCoMo or LongMemEval "
            "(labelled evidence)"
        )
    return name


def iter_gold(
    path: str | Path, *, dataset: str | None = None, limit: int | None = None
) -> Iterator[tuple[Conversation, list[GoldQuestion]]]:
    """Conversations with their admitted questions; ``limit``: conversations (LoCoMo) or
    questions (LongMemEval) read from the file."""
    name = dataset_of(path, dataset)
    if name == "locomo":
        yield from _locomo(Path(path), limit)
    else:
        yield from _longmemeval(Path(path), limit)


def _locomo(path: Path, limit: int | None) -> Iterator[tuple[Conversation, list[GoldQuestion]]]:
    from ripplemem.datasets.locomo import ANSWERABLE_CATEGORIES, load_locomo

    samples = load_locomo(path)
    for sample in samples[:limit] if limit else samples:
        questions = [
            GoldQuestion(
                id=q.id,
                text=q.text,
                answer=q.answer,
                qtype=classify_question(q.text),
                benchmark_type=benchmark_type(locomo_category=q.category),
                question_time=q.question_time,
                gold_turns=frozenset(q.evidence),
                source=q,
            )
            for q in sample.questions
            if q.evidence and q.category in ANSWERABLE_CATEGORIES
        ]
        yield sample.conversation, questions


def _longmemeval(path: Path, limit: int | None) -> Iterator[tuple[Conversation, list[GoldQuestion]]]:
    from ripplemem.datasets.longmemeval import load_longmemeval

    for index, sample in enumerate(load_longmemeval(path)):
        if limit is not None and index >= limit:
            return
        q = sample.question
        if q.abstention or not q.gold_turns:
            continue
        gold = set(q.gold_turns)
        yield sample.conversation, [
            GoldQuestion(
                id=q.id,
                text=q.text,
                answer=q.answer,
                qtype=classify_question(q.text),
                benchmark_type=benchmark_type(lme_type=q.question_type),
                question_time=q.question_time,
                gold_turns=frozenset(t for t, cid in q.corpus_id_of.items() if cid in gold),
                source=q,
            )
        ]


def classifier_report(
    path: str | Path, *, dataset: str | None = None, limit: int | None = None
) -> dict[str, object]:
    """Accuracy of the rule-based classifier against the file's own labels (admitted questions)."""
    from ripplemem.read.asso.qtype import classifier_accuracy

    labelled = [
        (q.text, q.benchmark_type)
        for _, questions in iter_gold(path, dataset=dataset, limit=limit)
        for q in questions
    ]
    return {"dataset": dataset_of(path, dataset), "file": Path(path).name, **classifier_accuracy(labelled)}

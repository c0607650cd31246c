"""Collect labelled candidate signals from a benchmark: the input of weight fitting.

Each conversation (LoCoMo) or haystack (LongMemEval) is ingested into a fresh namespace with the
dataset workspace (:class:`~ripplemem.training.workspace.Workspace`, the paper's per-dataset profile);
then, for each admitted question, a :data:`SignalSource` returns the AssoMem candidates with their
``relevance`` / ``importance`` / ``temporal`` signals, and each candidate is labelled useful when
its source turns meet the question's gold turns (:class:`GoldQuestion.is_useful`).

The default source is :func:`rit_signals`, the RIT ranker's own ``candidate_signals`` on the
memory's store and clue graph, so the fitted weights describe exactly what the ranker fuses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ripplemem.errors import UnknownNamespaceError
from ripplemem.extensions import embedder_of, stages_of
from ripplemem.read.asso.rit import candidate_signals
from ripplemem.recipes import RecallRecipe
from ripplemem.records import MemoryUnit
from ripplemem.settings import Settings
from ripplemem.training.fit_weights import SignalRow
from ripplemem.training.gold_questions import GoldQuestion, dataset_of, iter_gold
from ripplemem.training.workspace import PROFILES, Workspace, dataset_recipe

if TYPE_CHECKING:
    from ripplemem.memory import Memory
    from ripplemem.training.workspace import Progress, StoreKind

Signals = dict[str, float]
SignalSource = Callable[["Memory", str, GoldQuestion, RecallRecipe], list[tuple[str, Signals]]]
DEFAULT_RECIPE = "asso"


def rit_signals(
    memory: Memory, namespace: str, question: GoldQuestion, recipe: RecallRecipe
) -> list[tuple[str, Signals]]:
    """The RIT ranker's candidates and raw signals for ``question`` (unit id -> signals)."""
    store = memory.store
    return candidate_signals(
        store, store.clues, embedder_of(memory), namespace,
        question.text, question.question_time, recipe,
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    unit: MemoryUnit
    signals: Signals
    label: bool


@dataclass(frozen=True, slots=True)
class CollectedQuestion:
    """One question with its labelled candidates (in the order the source returned them)."""

    question: GoldQuestion
    candidates: tuple[Candidate, ...]

    def rows(self) -> list[SignalRow]:
        q = self.question
        return [SignalRow(q.qtype, c.signals, c.label, q.id) for c in self.candidates]


@dataclass
class Collection:
    """Everything :func:`collect_signals` gathered, plus the run header for reports."""

    dataset: str
    questions: list[CollectedQuestion]
    header: dict

    def rows(self) -> list[SignalRow]:
        return [row for collected in self.questions for row in collected.rows()]


def collect_signals(
    path: str | Path,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    settings: Settings | None = None,
    store: StoreKind = "sqlite",
    memory: Memory | None = None,
    recipe: str = DEFAULT_RECIPE,
    source: SignalSource | None = None,
    keep: Callable[[GoldQuestion], bool] | None = None,
    progress: Progress | None = None,
    profile: bool = True,
) -> Collection:
    """Ingest each sample, ask ``source`` for every kept question, label the candidates."""
    name = dataset_of(path, dataset)
    source = source or rit_signals
    chosen = dataset_recipe(recipe, dataset=name, settings=settings or Settings(), profile=profile)
    collected: list[CollectedQuestion] = []
    ingest = {"conversations": 0, "units": 0, "edges": 0, "seconds_total": 0.0}
    with Workspace(name, settings=settings, store=store, memory=memory, profile=profile) as space:
        for done, (conversation, questions) in enumerate(iter_gold(path, dataset=name, limit=limit)):
            wanted = [q for q in questions if keep is None or keep(q)]
            if not wanted:
                continue
            if progress is not None:
                progress(f"collect {conversation.conversation_id}", done, None)
            with space.sample(conversation) as ingested:
                ingest["conversations"] += 1
                ingest["units"] += len(ingested.result.units)
                ingest["edges"] += ingested.result.edges
                ingest["seconds_total"] += ingested.seconds
                units: dict[str, MemoryUnit] = {}  # shared by the sample's questions, no vectors
                for question in wanted:
                    collected.append(_collect_one(
                        space.memory, ingested.namespace, question, chosen, source, units
                    ))
        header = _header(space, Path(path).name, len(collected), ingest)
    header["recipe"] = recipe
    return Collection(dataset=name, questions=collected, header=header)


def _header(space: Workspace, split: str, questions: int, ingest: dict) -> dict:
    """What the collection was made with (the start of a cross-fitted benchmark result)."""
    from datetime import UTC, datetime

    assert space.memory is not None
    stages = stages_of(space.memory)
    return {
        "dataset": space.dataset,
        "split": split,
        "questions": questions,
        "excluded": {},
        "embedder": stages.embedder,
        "extractor": stages.extractor_class,
        "planner": stages.planner_class,
        "store": "given" if space.given is not None else space.store_kind,
        "profile": PROFILES[space.dataset] if space.profile else None,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "ingest": ingest,
    }


def _collect_one(
    memory: Memory | None,
    namespace: str,
    question: GoldQuestion,
    recipe: RecallRecipe,
    source: SignalSource,
    by_id: dict[str, MemoryUnit],
) -> CollectedQuestion:
    assert memory is not None
    try:
        found = source(memory, namespace, question, recipe)
    except UnknownNamespaceError:  # the conversation yielded no unit
        found = []
    missing = [unit_id for unit_id, _ in found if unit_id not in by_id]
    for unit in memory.store.get_units(namespace, missing) if missing else []:
        by_id[unit.id] = replace(unit, vector=None)
    candidates = tuple(
        Candidate(by_id[unit_id], dict(signals), question.is_useful(by_id[unit_id].turn_ids))
        for unit_id, signals in found
        if unit_id in by_id
    )
    return CollectedQuestion(question, candidates)

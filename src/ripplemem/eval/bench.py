"""Retrieval benchmarks: one run, one embedder, every recipe on the same ingested memory.

For each sample the conversation is ingested once (``Memory.add``) into a fresh namespace of one
store (a temporary SQLite file by default, or in memory), then every question is searched with
every recipe and scored with :mod:`ripplemem.eval.metrics`. No LLM is needed unless the settings
configure one for extraction or planning.

``profile=True`` applies the paper's per-dataset settings (reference §1): LoCoMo windows 40/2 and
views 10/5/5; LongMemEval-S windows 10/0 and views 15/8/8 (plus a 100k-character message limit:
the S haystacks hold a few very long pasted messages). The result dict records the profile used.
A caller-supplied ``memory`` keeps its own write settings (only the view sizes apply) and its
namespaces are left in place for inspection.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Self

from ripplemem.errors import InvalidInputError, UnknownNamespaceError
from ripplemem.read.recipes import RecallRecipe, get_recipe
from ripplemem.settings import Settings

if TYPE_CHECKING:
    from ripplemem.memory import Memory
    from ripplemem.records import Conversation, Evidence

Progress = Callable[[str, int, int | None], None]  # (description, done, total or None)
StoreKind = Literal["sqlite", "memory"]
DEFAULT_RECIPES: tuple[str, ...] = ("ripple", "bm25", "dense", "hybrid")
PROFILES: dict[str, dict] = {
    "locomo": {"write": {"window_turns": 40, "window_overlap": 2},
               "recipe": {"dense_k": 10, "lexical_k": 5, "cue_k": 5}},
    "longmemeval": {"write": {"window_turns": 10, "window_overlap": 0, "max_message_chars": 100_000},
                    "recipe": {"dense_k": 15, "lexical_k": 8, "cue_k": 8}},
}


class BenchRun:
    """One memory, one embedder; ingests samples into fresh namespaces and times searches."""

    def __init__(
        self,
        dataset: str,
        path: Path,
        *,
        recipes: Sequence[str],
        settings: Settings | None,
        store: StoreKind,
        memory: Memory | None,
        profile: bool,
        budget: int | None,
    ) -> None:
        if not recipes:
            raise InvalidInputError("no recipes to benchmark: pass at least one, e.g. ripple,bm25")
        overrides = PROFILES[dataset]["recipe"] if profile else {}
        self.recipes: dict[str, RecallRecipe] = {}
        for name in recipes:
            recipe = get_recipe(name, **overrides)
            self.recipes[name] = recipe.with_(budget=budget) if budget else recipe
        self.dataset, self.path, self.profile = dataset, path, profile
        self.settings = _profiled(settings or Settings(), dataset) if profile else settings or Settings()
        self.store_kind = store
        self._given = memory
        self.memory: Memory | None = memory
        self._tmp: tempfile.TemporaryDirectory | None = None
        self.ingest_seconds: list[float] = []
        self.units = self.edges = self.windows = self.llm_tokens = 0
        self.timings: dict[str, list[float]] = {name: [] for name in self.recipes}

    def __enter__(self) -> Self:
        if self.memory is None:
            from ripplemem.memory import Memory

            if self.store_kind == "memory":
                from ripplemem.stores.memory import InMemoryStore

                self.memory = Memory(self.settings, store=InMemoryStore())
            elif self.store_kind == "sqlite":
                self._tmp = tempfile.TemporaryDirectory(prefix="ripplemem-bench-")
                store_path = Path(self._tmp.name) / "bench.db"
                self.memory = Memory(self.settings.model_copy(update={"store_path": store_path}))
            else:
                raise InvalidInputError(f"store must be 'sqlite' or 'memory', not {self.store_kind!r}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._given is None and self.memory is not None:
            self.memory.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    @contextmanager
    def sample(self, conversation: Conversation) -> Iterator[str]:
        """Ingest ``conversation`` into a fresh namespace; yield it; drop it afterwards."""
        assert self.memory is not None
        namespace = f"bench/{conversation.conversation_id}"
        if self.memory.store.count(namespace):
            self.memory.delete_all(namespace=namespace)
        started = time.perf_counter()
        result = self.memory.add(conversation, namespace=namespace)
        self.ingest_seconds.append(time.perf_counter() - started)
        self.units += len(result.units)
        self.edges += result.edges
        self.windows += result.windows
        self.llm_tokens += result.tokens
        try:
            yield namespace
        finally:
            if self._given is None:
                self.memory.delete_all(namespace=namespace)

    def search(self, name: str, question: str, namespace: str, when: datetime | None) -> list[Evidence]:
        assert self.memory is not None
        started = time.perf_counter()
        try:
            recall = self.memory.search(
                question, namespace=namespace, recipe=self.recipes[name], question_time=when
            )
            evidence = list(recall.evidence)
        except UnknownNamespaceError:  # the conversation yielded no unit at all
            evidence = []
        self.timings[name].append((time.perf_counter() - started) * 1000.0)
        return evidence

    def header(self, split: str, questions: int, excluded: dict[str, int]) -> dict:
        assert self.memory is not None
        parts = self.memory.parts
        conversations = len(self.ingest_seconds)
        from ripplemem.eval.measure import loadavg

        return {
            "dataset": self.dataset,
            "split": split,
            "questions": questions,
            "excluded": excluded,
            "embedder": parts.embedder.name,
            "extractor": type(parts.extractor).__name__,
            "planner": type(parts.planner).__name__,
            "store": "given" if self._given is not None else self.store_kind,
            "profile": PROFILES[self.dataset] if self.profile else None,
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": git_commit(),
            "llm": parts.chat.name if parts.chat is not None else None,  # for bench report
            "load": loadavg(),
            "ingest": {
                "conversations": conversations,
                "seconds_per_conversation": _safe_mean(self.ingest_seconds),
                "seconds_total": sum(self.ingest_seconds),
                "units": self.units,
                "units_per_conversation": self.units / conversations if conversations else 0.0,
                "edges": self.edges,
                "windows": self.windows,
                "llm_tokens": self.llm_tokens,
            },
        }

    def timing_summary(self, name: str) -> dict[str, float | None]:
        return {
            "search_ms_p50": percentile(self.timings[name], 50),
            "search_ms_p95": percentile(self.timings[name], 95),
        }


def run_locomo_bench(
    path: str | Path,
    *,
    recipes: Sequence[str] = DEFAULT_RECIPES,
    limit: int | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    store: StoreKind = "sqlite",
    memory: Memory | None = None,
    profile: bool = True,
    budget: int | None = None,
    details: bool = False,
) -> dict:
    """LoCoMo turn-level evidence recall; ``limit`` = number of conversations."""
    from ripplemem.eval.datasets.locomo import load_locomo
    from ripplemem.eval.retrieval_scoring import LocomoScorer

    path = Path(path)
    samples = load_locomo(path)[:limit] if limit else load_locomo(path)
    with BenchRun("locomo", path, recipes=recipes, settings=settings, store=store,
                  memory=memory, profile=profile, budget=budget) as run:
        scorer = LocomoScorer(run.recipes, details=details)
        for done, sample in enumerate(samples):
            conversation = sample.conversation
            _report(progress, f"ingest {conversation.conversation_id}", done, len(samples))
            scored = [q for q in sample.questions if scorer.admit(q)]
            with run.sample(conversation) as namespace:
                _report(progress, f"search {conversation.conversation_id}", done, len(samples))
                for question in scored:
                    for name in run.recipes:
                        evidence = run.search(name, question.text, namespace, question.question_time)
                        scorer.score(name, question, evidence)
        _report(progress, "done", len(samples), len(samples))
        result = run.header(path.name, scorer.scored, scorer.excluded)
        result["recipes"] = {
            name: {**scorer.summary(name), **run.timing_summary(name)} for name in run.recipes
        }
        return result


def run_longmemeval_bench(
    path: str | Path,
    *,
    recipes: Sequence[str] = DEFAULT_RECIPES,
    limit: int | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    store: StoreKind = "sqlite",
    memory: Memory | None = None,
    profile: bool = True,
    budget: int | None = None,
    details: bool = False,
) -> dict:
    """LongMemEval official retrieval metrics; ``limit`` = the first N questions of the file."""
    from ripplemem.eval.datasets.longmemeval import load_longmemeval
    from ripplemem.eval.retrieval_scoring import LongMemEvalScorer

    path = Path(path)
    with BenchRun("longmemeval", path, recipes=recipes, settings=settings, store=store,
                  memory=memory, profile=profile, budget=budget) as run:
        scorer = LongMemEvalScorer(run.recipes, details=details)
        done = 0
        for sample in _take(load_longmemeval(path), limit):
            question = sample.question
            _report(progress, f"question {question.id}", done, limit)
            if scorer.admit(question):
                with run.sample(sample.conversation) as namespace:
                    for name in run.recipes:
                        evidence = run.search(name, question.text, namespace, question.question_time)
                        scorer.score(name, question, evidence)
            done += 1
        _report(progress, "done", done, done)
        result = run.header(path.name, scorer.scored, scorer.excluded)
        result["recipes"] = {
            name: {**scorer.summary(name), **run.timing_summary(name)} for name in run.recipes
        }
        return result


def _profiled(settings: Settings, dataset: str) -> Settings:
    write = settings.write.model_copy(update=PROFILES[dataset]["write"])
    return settings.model_copy(update={"write": type(settings.write)(**write.model_dump())})


def _take(items: Iterable, limit: int | None) -> Iterator:
    for index, item in enumerate(items):
        if limit is not None and index >= limit:
            return
        yield item


def _report(progress: Progress | None, what: str, done: int, total: int | None) -> None:
    if progress is not None:
        progress(what, done, total)


def _safe_mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def percentile(values: Sequence[float], q: float) -> float | None:
    if not values:
        return None
    import numpy as np

    return float(np.percentile(np.asarray(values, dtype=float), q))


def git_commit() -> str | None:
    """The checked-out commit of the source tree, when it is a git checkout."""
    try:
        completed = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return completed.stdout.strip() or None if completed.returncode == 0 else None

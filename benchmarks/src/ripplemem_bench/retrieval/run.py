"""The state of one benchmark run: one memory, one embedder, every recipe and peer.

:class:`BenchRun` ingests each sample into a fresh namespace (the library's dataset
:class:`~ripplemem.training.workspace.Workspace`, with the paper's per-dataset profile), times
every search and writes the result header (split, embedder, extractor, planner, profile, commit,
load). The runners in :mod:`ripplemem_bench.retrieval.runners` drive it. The commit is read when
the run starts, so a run that outlives a commit still names the code it measured.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar

from ripplemem import RECIPES, RecallRecipe, Settings
from ripplemem.errors import InvalidInputError, UnknownRecipeError
from ripplemem.extensions import embedder_of, stages_of
from ripplemem.read.asso.weights import check_not_fitted_on, load_weights
from ripplemem.training.workspace import PROFILES, StoreKind, Workspace, dataset_recipe
from ripplemem_bench.measure import (
    cpu_info,
    git_commit,
    loadavg,
    package_versions,
    percentile_or_none,
)
from ripplemem_bench.peers import PEERS, PeerMemory, is_peer, make_peer
from ripplemem_bench.results.base import CpuInfo
from ripplemem_bench.results.retrieval import DatasetRun, IngestSummary
from ripplemem_bench.retrieval.kept import IngestCost, KeptIngest
from ripplemem_bench.tokens import truncate_to_budget
from ripplemem_bench.unit_caches import RecipeCaches

if TYPE_CHECKING:
    from ripplemem import Memory
    from ripplemem.records import Conversation, Evidence

DEFAULT_RECIPES: tuple[str, ...] = ("ripple", "bm25", "dense", "hybrid")

R = TypeVar("R", bound=DatasetRun)


class BenchRun:
    """One memory, one embedder; ingests samples into fresh namespaces and times searches."""

    def __init__(
        self,
        dataset: str,
        path: Path,
        *,
        recipes: Sequence[str],
        settings: Settings | None = None,
        store: StoreKind = "sqlite",
        memory: Memory | None = None,
        profile: bool = True,
        budget: int | None = None,
        token_budget: int | None = None,
        force_fitted: bool = False,
        keep: Path | None = None,
    ) -> None:
        if not recipes:
            raise InvalidInputError("no recipes to benchmark: pass at least one, e.g. ripple,bm25")
        given = settings or Settings()  # asso recipes read the fitted weights it names
        self.recipes: dict[str, RecallRecipe] = {}
        self.peer_names: list[str] = []
        self.order = list(dict.fromkeys(recipes))
        for name in self.order:
            if is_peer(name):
                self.peer_names.append(name)
                continue
            if name not in RECIPES:
                raise UnknownRecipeError(
                    f"no recipe named {name!r}; choose one of: {', '.join(sorted(RECIPES))}, "
                    f"or a peer: {', '.join(sorted(PEERS))}"
                )
            self.recipes[name] = dataset_recipe(
                name, dataset=dataset, settings=given, profile=profile, budget=budget
            )
        self.peer_budget = budget or RecallRecipe().budget
        self.token_budget = token_budget
        self.peers: dict[str, PeerMemory] = {}
        self.peer_ingest_seconds: dict[str, list[float]] = {name: [] for name in self.peer_names}
        weights = given.asso_weights
        asso = any(r.kind == "asso" for r in self.recipes.values())
        self.weights = load_weights(weights) if weights is not None and asso else None
        self.force_fitted, self.evaluated_on_fitted = force_fitted, False
        self.dataset, self.path = dataset, path
        self.kept = KeptIngest.open(keep, dataset, settings=given, profile=profile) if keep else None
        self.workspace = Workspace(
            dataset, settings=settings, store=store,
            memory=self.kept.memory if self.kept else memory, profile=profile,
        )
        self.ingest_seconds: list[float] = []
        self.units = self.edges = self.windows = self.llm_tokens = self.reused = 0
        self.build_tokens: list[int] = []
        self.timings: dict[str, list[float]] = {name: [] for name in self.order}
        self.caches = RecipeCaches()
        self.commit = git_commit()  # read now: a long run must name the code it measured

    @property
    def memory(self) -> Memory | None:
        return self.workspace.memory

    @property
    def settings(self) -> Settings:
        return self.workspace.settings

    def __enter__(self) -> Self:
        self.workspace.__enter__()
        assert self.memory is not None
        for name in self.peer_names:
            self.peers[name] = make_peer(
                name, embedder_of(self.memory), self.peer_budget, self.token_budget
            )
        return self

    @property
    def systems(self) -> dict[str, RecallRecipe | PeerMemory]:
        """Every recipe and peer by name, in the order asked for."""
        return {name: self.recipes.get(name) or self.peers[name] for name in self.order}

    def __exit__(self, *exc: object) -> None:
        for peer in self.peers.values():
            peer.close()
        self.workspace.__exit__(*exc)
        if self.kept is not None:
            self.kept.close()

    @contextmanager
    def sample(self, conversation: Conversation) -> Iterator[str]:
        """Ingest ``conversation`` into a fresh namespace (ours and every peer's); yield it.

        With ``keep``, a conversation already in the kept store is searched as it is, and its
        ingest cost is the one recorded when it was written.
        """
        with self._ingested(conversation) as (namespace, cost):
            self.ingest_seconds.append(cost.seconds)
            self.units += cost.units
            self.edges += cost.edges
            self.windows += cost.windows
            self.llm_tokens += cost.tokens
            self.build_tokens.append(cost.tokens)
            for name, peer in self.peers.items():
                started = time.perf_counter()
                peer.ingest(conversation, namespace)
                self.peer_ingest_seconds[name].append(time.perf_counter() - started)
            try:
                yield namespace
            finally:
                for peer in self.peers.values():
                    peer.drop(namespace)

    @contextmanager
    def _ingested(self, conversation: Conversation) -> Iterator[tuple[str, IngestCost]]:
        if self.kept is not None:
            namespace = f"bench/{conversation.conversation_id}"
            cost = self.kept.cost(namespace)
            if cost is not None:
                self.reused += 1
                yield namespace, cost
                return
        with self.workspace.sample(conversation) as ingested:
            result = ingested.result
            cost = IngestCost(
                ingested.seconds, len(result.units), result.edges, result.windows, result.tokens
            )
            if self.kept is not None:
                self.kept.record(ingested.namespace, cost)
            yield ingested.namespace, cost

    def check_fitted(self, question_id: str) -> None:
        """Refuse (unless forced, then flag) a question the asso weights were fitted on."""
        if self.weights is not None and check_not_fitted_on(
            self.weights, [question_id], force=self.force_fitted
        ):
            self.evaluated_on_fitted = True

    def search(
        self, name: str, question: str, namespace: str, when: datetime | None
    ) -> list[Evidence]:
        return self.search_with_cost(name, question, namespace, when)[0]

    def search_with_cost(
        self, name: str, question: str, namespace: str, when: datetime | None
    ) -> tuple[list[Evidence], int]:
        """(evidence, planner tokens) for one question; evidence cut to the token budget."""
        planner_tokens = 0
        started = time.perf_counter()
        if name in self.peers:
            evidence = list(self.peers[name].search(question, namespace, when))
        else:
            assert self.memory is not None
            self.caches.use(self.memory.store, name)  # its own: no units another recipe just read
            recall = self.workspace.recall(self.recipes[name], question, namespace, when)
            # no recall: the conversation yielded no unit at all
            evidence = list(recall.evidence) if recall is not None else []
            if recall is not None:
                planner_tokens = sum(plan.tokens for plan in recall.trace.plans)
        self.timings[name].append((time.perf_counter() - started) * 1000.0)
        if self.token_budget is not None:
            evidence = truncate_to_budget(evidence, self.token_budget)
        return evidence, planner_tokens

    def header(
        self, record: type[R], split: str, questions: int, excluded: dict[str, int],
        **fields: Any,
    ) -> R:
        """The run's ``record``: what was measured on what (the run's facts), and ``fields``
        (every recipe's scores)."""
        assert self.memory is not None
        stages = stages_of(self.memory)
        space = self.workspace
        result = record(
            dataset=self.dataset,
            split=split,
            questions=questions,
            excluded=excluded,
            embedder=stages.embedder,
            extractor=stages.extractor_class,
            planner=stages.planner_class,
            store="given" if space.given is not None else space.store_kind,
            profile=PROFILES[self.dataset] if space.profile else None,
            date=datetime.now(UTC).isoformat(timespec="seconds"),
            commit=self.commit,
            llm=stages.chat,
            load=loadavg(),
            packages=package_versions(),
            cpu=CpuInfo.model_validate(cpu_info()),
            ingest=self._ingest(),
            token_budget=self.token_budget,
            peers={name: {**peer.describe(), "ingest_seconds_per_conversation":
                          _safe_mean(self.peer_ingest_seconds[name])}
                   for name, peer in self.peers.items()},
            **fields,
        )
        if self.weights is not None:
            fitted = self.weights.fitted_on
            result.weights = {
                "file": str(self.settings.asso_weights),
                "fitted_on": fitted.question_ids_hash if fitted else None,
            }
            result.evaluated_on_fitted = self.evaluated_on_fitted
        return result

    def _ingest(self) -> IngestSummary:
        conversations = len(self.ingest_seconds)
        summary = IngestSummary(
            conversations=conversations,
            seconds_per_conversation=_safe_mean(self.ingest_seconds),
            seconds_total=sum(self.ingest_seconds),
            units=self.units,
            units_per_conversation=self.units / conversations if conversations else 0.0,
            edges=self.edges,
            windows=self.windows,
            llm_tokens=self.llm_tokens,
            llm_tokens_per_conversation=_safe_mean(self.build_tokens),
        )
        if self.kept is not None:
            summary.kept_store = str(self.kept.path)
            summary.reused_conversations = self.reused
        return summary

    def timing_percentiles(self, name: str) -> tuple[float | None, float | None]:
        """p50 and p95 of ``name``'s search latency in ms (None without a search)."""
        return (
            percentile_or_none(self.timings[name], 50),
            percentile_or_none(self.timings[name], 95),
        )


def _safe_mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0

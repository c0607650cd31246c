"""The state of one benchmark run: one memory, one embedder, every recipe and peer.

:class:`BenchRun` ingests each sample into a fresh namespace, times every search and writes the
result header (split, embedder, extractor, planner, profile, commit, load). The runners in
:mod:`ripplemem.eval.bench` drive it; :mod:`ripplemem.eval.signal_rows` and
:mod:`ripplemem.eval.finetune` reuse it. The commit is read when the run starts, so a run that
outlives a commit still names the code it measured.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal, Self

from ripplemem.errors import InvalidInputError, UnknownNamespaceError, UnknownRecipeError
from ripplemem.eval.peers import PEERS, PeerMemory, is_peer, make_peer
from ripplemem.read.asso.weights import check_not_fitted_on, load_weights, with_settings_weights
from ripplemem.read.recipes import RECIPES, RecallRecipe, get_recipe
from ripplemem.settings import Settings

if TYPE_CHECKING:
    from ripplemem.eval.answering import Answerer
    from ripplemem.eval.judge import Judge
    from ripplemem.memory import Memory
    from ripplemem.records import Conversation, Evidence

Progress = Callable[[str, int, int | None], None]  # (description, done, total or None)
StoreKind = Literal["sqlite", "memory"]
DEFAULT_RECIPES: tuple[str, ...] = ("ripple", "bm25", "dense", "hybrid")
PROFILES: dict[str, dict] = {
    "locomo": {
        "write": {"window_turns": 40, "window_overlap": 2},
        "recipe": {"dense_k": 10, "lexical_k": 5, "cue_k": 5},
    },
    "longmemeval": {
        "write": {"window_turns": 10, "window_overlap": 0, "max_message_chars": 100_000},
        "recipe": {"dense_k": 15, "lexical_k": 8, "cue_k": 8},
    },
}


@dataclass(frozen=True, slots=True)
class AnswerSetup:
    """Answer generation and judging for a benchmark run (both need an LLM endpoint)."""

    answerer: Answerer
    judge: Judge
    base_url: str = ""

    def describe(self) -> dict:
        from ripplemem.eval.prompts.judge import JUDGE_PROMPT_VERSION

        return {
            "answer_model": self.answerer.model,
            "judge_model": self.judge.model,
            "judge_prompt": JUDGE_PROMPT_VERSION,
            "base_url": self.base_url,
        }


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
    ) -> None:
        if not recipes:
            raise InvalidInputError("no recipes to benchmark: pass at least one, e.g. ripple,bm25")
        overrides = PROFILES[dataset]["recipe"] if profile else {}
        self.recipes: dict[str, RecallRecipe] = {}
        given = settings or Settings()  # asso recipes read the fitted weights it names
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
            recipe = with_settings_weights(get_recipe(name, **overrides), given)
            if recipe.kind == "asso" and not budget:  # asso's API default (6) -> the common K
                recipe = recipe.with_(budget=RecallRecipe().budget)
            self.recipes[name] = recipe.with_(budget=budget) if budget else recipe
        self.peer_budget = budget or RecallRecipe().budget
        self.token_budget = token_budget
        self.peers: dict[str, PeerMemory] = {}
        self.peer_ingest_seconds: dict[str, list[float]] = {name: [] for name in self.peer_names}
        weighted = given.asso_weights is not None and any(
            r.kind == "asso" for r in self.recipes.values()
        )
        self.weights = load_weights(given.asso_weights) if weighted else None  # type: ignore[arg-type]
        self.force_fitted, self.evaluated_on_fitted = force_fitted, False
        self.dataset, self.path, self.profile = dataset, path, profile
        self.settings = (
            _profiled(settings or Settings(), dataset) if profile else settings or Settings()
        )
        self.store_kind = store
        self._given = memory
        self.memory: Memory | None = memory
        self._tmp: tempfile.TemporaryDirectory | None = None
        self.ingest_seconds: list[float] = []
        self.units = self.edges = self.windows = self.llm_tokens = 0
        self.build_tokens: list[int] = []
        self.timings: dict[str, list[float]] = {name: [] for name in self.order}
        self.commit = git_commit()  # read now: a long run must name the code it measured

    def __enter__(self) -> Self:
        if self.memory is None:
            from ripplemem.memory import Memory

            if self.store_kind == "memory":
                from ripplemem.stores.memory import InMemoryStore

                self.memory = Memory(self.settings, store=InMemoryStore())
            elif self.store_kind == "sqlite":
                self._tmp = tempfile.TemporaryDirectory(prefix="ripplemem-bench-")
                store_path = Path(self._tmp.name) / "bench.db"
                self.memory = Memory(self.settings.model_copy(update={"store": str(store_path)}))
            elif "://" in self.store_kind:  # a store URL, e.g. postgresql://...
                self.memory = Memory(self.settings.model_copy(update={"store": self.store_kind}))
            else:
                raise InvalidInputError(
                    f"store must be 'sqlite', 'memory' or a store URL, not {self.store_kind!r}"
                )
        for name in self.peer_names:
            self.peers[name] = make_peer(name, self.memory.parts.embedder, self.peer_budget)
        return self

    @property
    def systems(self) -> dict[str, RecallRecipe | PeerMemory]:
        """Every recipe and peer by name, in the order asked for."""
        return {name: self.recipes.get(name) or self.peers[name] for name in self.order}

    def __exit__(self, *exc: object) -> None:
        for peer in self.peers.values():
            peer.close()
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
        self.build_tokens.append(result.tokens)
        for name, peer in self.peers.items():
            started = time.perf_counter()
            peer.ingest(conversation, namespace)
            self.peer_ingest_seconds[name].append(time.perf_counter() - started)
        try:
            yield namespace
        finally:
            for peer in self.peers.values():
                peer.drop(namespace)
            if self._given is None:
                self.memory.delete_all(namespace=namespace)

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
        from ripplemem.eval.tokens import truncate_to_budget

        assert self.memory is not None
        planner_tokens = 0
        started = time.perf_counter()
        if name in self.peers:
            evidence = list(self.peers[name].search(question, namespace, when))
        else:
            try:
                recall = self.memory.search(
                    question, namespace=namespace, recipe=self.recipes[name], question_time=when
                )
                evidence = list(recall.evidence)
                planner_tokens = sum(plan.tokens for plan in recall.trace.plans)
            except UnknownNamespaceError:  # the conversation yielded no unit at all
                evidence = []
        self.timings[name].append((time.perf_counter() - started) * 1000.0)
        if self.token_budget is not None:
            evidence = truncate_to_budget(evidence, self.token_budget)
        return evidence, planner_tokens

    def header(self, split: str, questions: int, excluded: dict[str, int]) -> dict:
        assert self.memory is not None
        parts = self.memory.parts
        conversations = len(self.ingest_seconds)
        from ripplemem.eval.measure import cpu_info, loadavg, package_versions

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
            **self._weights_header(),
            "commit": self.commit,
            "llm": parts.chat.name if parts.chat is not None else None,  # for bench report
            "load": loadavg(),
            "packages": package_versions(),
            "cpu": cpu_info(),
            "ingest": {
                "conversations": conversations,
                "seconds_per_conversation": _safe_mean(self.ingest_seconds),
                "seconds_total": sum(self.ingest_seconds),
                "units": self.units,
                "units_per_conversation": self.units / conversations if conversations else 0.0,
                "edges": self.edges,
                "windows": self.windows,
                "llm_tokens": self.llm_tokens,
                "llm_tokens_per_conversation": _safe_mean(self.build_tokens),
            },
            "token_budget": self.token_budget,
            "peers": {
                name: {
                    **peer.describe(),
                    "ingest_seconds_per_conversation": _safe_mean(self.peer_ingest_seconds[name]),
                }
                for name, peer in self.peers.items()
            },
        }

    def _weights_header(self) -> dict:
        if self.weights is None:
            return {}
        fitted = self.weights.fitted_on
        return {
            "weights": {
                "file": str(self.settings.asso_weights),
                "fitted_on": fitted.question_ids_hash if fitted else None,
            },
            "evaluated_on_fitted": self.evaluated_on_fitted,
        }

    def timing_summary(self, name: str) -> dict[str, float | None]:
        return {
            "search_ms_p50": percentile(self.timings[name], 50),
            "search_ms_p95": percentile(self.timings[name], 95),
        }


def _profiled(settings: Settings, dataset: str) -> Settings:
    write = settings.write.model_copy(update=PROFILES[dataset]["write"])
    return settings.model_copy(update={"write": type(settings.write)(**write.model_dump())})


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

"""One memory for a labelled dataset: each conversation ingested into a fresh namespace.

Fitting weights, exporting fine-tuning data and the benchmark harness (``ripplemem-bench``) read a
LoCoMo / LongMemEval file the same way: one store (a temporary SQLite file, in memory, or a
memory the caller owns), the paper's per-dataset profile (reference §1), and each conversation
ingested into ``bench/<conversation id>``, then dropped once its questions are asked.

The profile: LoCoMo windows 40/2 and views 10/5/5; LongMemEval-S windows 10/0 and views 15/8/8,
plus a 100k-character message limit (the S haystacks hold a few very long pasted messages). A
caller's memory keeps its own write settings (only the view sizes apply) and its namespaces are
left in place for inspection.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Self

from ripplemem.errors import InvalidInputError
from ripplemem.read.asso.weights import with_settings_weights
from ripplemem.read.empty import EMPTY_NOTE
from ripplemem.recipes import RecallRecipe, get_recipe
from ripplemem.settings import Settings

if TYPE_CHECKING:
    from ripplemem.memory import Memory
    from ripplemem.records import AddResult, Conversation, Recall

Progress = Callable[[str, int, int | None], None]  # (description, done, total or None)
#: "sqlite" (a temporary file), "memory", or a store URL (postgresql://...)
StoreKind = str
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


def profiled(settings: Settings, dataset: str) -> Settings:
    """``settings`` with the dataset profile's write settings."""
    write = settings.write.model_copy(update=PROFILES[dataset]["write"])
    return settings.model_copy(update={"write": type(settings.write)(**write.model_dump())})


def dataset_recipe(
    name: str, *, dataset: str, settings: Settings, profile: bool = True, budget: int | None = None
) -> RecallRecipe:
    """The recipe ``name`` as a dataset run uses it: the profile's view sizes, the fitted weights
    ``settings`` names, and ``budget`` units (asso recipes: the common K of 30 when not given,
    not the API's 6, so every recipe is compared at the same K)."""
    views = PROFILES[dataset]["recipe"] if profile else {}  # the views' depths
    recipe = with_settings_weights(get_recipe(name, views=views), settings)
    if recipe.kind == "asso" and not budget:
        recipe = recipe.with_(budget=RecallRecipe().budget)
    return recipe.with_(budget=budget) if budget else recipe


@dataclass(frozen=True, slots=True)
class Ingested:
    """A conversation written into its own namespace, and what writing it cost."""

    namespace: str
    result: AddResult
    seconds: float


class Workspace:
    """One memory for the samples of a dataset; use as a context manager."""

    def __init__(
        self,
        dataset: str,
        *,
        settings: Settings | None = None,
        store: StoreKind = "sqlite",
        memory: Memory | None = None,
        profile: bool = True,
    ) -> None:
        if dataset not in PROFILES:
            raise InvalidInputError(f"no dataset profile {dataset!r}: use locomo or longmemeval")
        given = settings or Settings()
        self.dataset, self.profile, self.store_kind = dataset, profile, store
        self.settings = profiled(given, dataset) if profile else given
        self.given = memory
        self.memory: Memory | None = memory
        self._tmp: tempfile.TemporaryDirectory | None = None

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
        return self

    def __exit__(self, *exc: object) -> None:
        if self.given is None and self.memory is not None:
            self.memory.close()
        if self._tmp is not None:
            self._tmp.cleanup()

    @contextmanager
    def sample(self, conversation: Conversation) -> Iterator[Ingested]:
        """Ingest ``conversation`` into a fresh namespace; yield it; drop it afterwards."""
        assert self.memory is not None, "use the workspace in a with block"
        namespace = f"bench/{conversation.conversation_id}"
        if self.memory.store.count(namespace):
            self.memory.delete_all(namespace=namespace)
        started = time.perf_counter()
        result = self.memory.add(conversation, namespace=namespace)
        seconds = time.perf_counter() - started
        try:
            yield Ingested(namespace, result, seconds)
        finally:
            if self.given is None:
                self.memory.delete_all(namespace=namespace)

    def recall(
        self, recipe: RecallRecipe, question: str, namespace: str, when: datetime | None
    ) -> Recall | None:
        """The recall of ``question`` in ``namespace``; None when the conversation gave no unit."""
        assert self.memory is not None, "use the workspace in a with block"
        found = self.memory.search(question, namespace=namespace, recipe=recipe, question_time=when)
        if not found.evidence and EMPTY_NOTE in found.trace.notes:
            return None
        return found

"""The dense view is read on the query's embedding thread, as soon as the vector is there, while
the search reads the question's words (its cues, lexical and cue views, its parse): its matrix
product holds no GIL. The view is the one the search would read itself, and what the embedding
or the view raises is raised by the search."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from ripplemem.errors import ProviderError
from ripplemem.read.pipeline import recall
from ripplemem.read.views import centre_query, dense_view, view_depths
from ripplemem.recipes import get_recipe
from ripplemem.stores.memory import InMemoryStore

from . import NS, QUERY, build_store, embedder


class ThreadsOfDense:
    """``store``, with the thread of each dense search recorded."""

    def __init__(self, store: InMemoryStore) -> None:
        self._store = store
        self.threads: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def search_dense_many(self, *args: Any, **kwargs: Any) -> list[list[tuple[str, float]]]:
        self.threads.append(threading.current_thread().name)
        return self._store.search_dense_many(*args, **kwargs)


class FailingEmbedder:
    """The shipped embedder's name and size; every call fails as a remote model's might."""

    def __init__(self) -> None:
        inner = embedder()
        self.name, self.dim = inner.name, inner.dim
        self.semantic_edge_threshold = inner.semantic_edge_threshold

    def embed(self, texts: Sequence[str], *, input_type: str = "document") -> np.ndarray:
        raise ProviderError("the embedding endpoint answered 503")


@pytest.fixture(scope="module")
def store() -> InMemoryStore:
    return build_store()


def test_the_dense_view_is_read_on_the_embedding_thread(store) -> None:
    recipe = get_recipe("ripple")
    watched = ThreadsOfDense(store)
    found = recall(QUERY, store=watched, namespace=NS, embedder=embedder(), recipe=recipe)  # type: ignore[arg-type]
    searches = watched.threads
    assert searches and threading.current_thread().name not in searches
    assert set(searches) == {"ripplemem-query-embedding"}
    # the view the search would read itself
    vector = centre_query(embedder().embed([QUERY], input_type="query")[0], store.centroid(NS))
    assert found.trace.initial["dense"] == dense_view(store, NS, vector, view_depths(recipe).dense)
    assert "dense" in found.trace.timings_ms  # the wait for it


def test_an_embedding_failure_is_raised_by_the_search(store) -> None:
    with pytest.raises(ProviderError, match="503"):
        recall(QUERY, store=store, namespace=NS, embedder=FailingEmbedder(), recipe=get_recipe("ripple"))  # type: ignore[arg-type]

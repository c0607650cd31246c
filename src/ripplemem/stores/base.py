"""The store seam: one small Protocol every backend implements.

Implementations: :class:`ripplemem.stores.memory.InMemoryStore` and
:class:`ripplemem.stores.sqlite.SQLiteStore`. Both must pass ``tests/stores/test_contract.py``.

Contract notes shared by all backends:

* Every key is namespace-first. A namespace exists once a unit was added to it.
* ``add_units`` is atomic: all units (with vectors, cue and lexical index entries) or none.
* Vectors are L2-normalised float32; ``search_dense`` scores are cosine similarities, best first.
  ``search_dense_many`` answers ``search_dense`` for each row of a (queries x dim) matrix at once
  (one matrix product or one graph call: the linker asks for a whole insert batch); same hits.
  With ``min_score`` it returns only hits scoring at least that (the linker's edge threshold),
  and may find them with a cheaper near-neighbour search (HNSW, small beam) where a store has one.
* ``search_lexical`` is BM25 over restatement (+ keywords) terms, best first, higher = better,
  with the namespace's own statistics (N, df, average length). Query text is tokenised by
  :func:`ripplemem.stores.text.terms`; terms are ORed within a posting budget: the rarest terms
  whose postings fit it retrieve, the more frequent rest only re-rank the best candidates, and a
  lone term over budget retrieves its latest units (:mod:`ripplemem.stores.lexical`; exact BM25
  whenever every term fits). Stores take ``lexical_budget`` / ``lexical_rerank_depth``.
* ``centroid`` is the mean of the namespace's unit vectors (float32, not normalised; None for an
  empty namespace), kept current by every write, so reading it costs O(dim): the read path
  centres query vectors on it (:func:`ripplemem.read.views.centre_query`).
* ``get_units(..., with_vectors=False)`` returns the same units with ``vector`` None and does
  not read the vectors (for callers that only read text and cues, e.g. the linker's scoring).
* ``cue_candidates`` is a *bounded* lookup for linking and cue recall: for each participant and
  each location value, up to ``per_value`` units carrying that (normalised) value, the nearest in
  time to ``near`` (by time-span start, or session time when no span; the most recently added
  when ``near`` is None); plus up to ``per_value`` units whose time span overlaps ``cues.time_span``
  (nearest first). Union, deduplicated, in no significant order. Never a full scan.
* ``cue_values(namespace, "P" | "L")`` lists the distinct normalised participant / location values
  of a namespace (used to ground names in queries). Served from an index, not a scan of units.
* Edges are undirected and stored in both directions; ``add_edges`` takes one direction and
  stores both. ``neighbours`` returns, per asked id, its (neighbour id, weight) list of that kind
  (strongest first, ties by id). ``change_edges(remove=..., add=...)`` removes then adds, all or
  nothing (one transaction): the linker writes an insert batch's net edge changes with it.
* ``delete_unit`` removes the unit, its vector, its cue and lexical entries and every edge
  touching it. Deleting an unknown id returns False.
* ``check_embedder`` records (model, dim) on first call and raises EmbedderMismatchError on any
  later call with a different pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit


@runtime_checkable
class MemoryStore(Protocol):
    # metadata
    def check_embedder(self, model: str, dim: int) -> None: ...
    def embedder_info(self) -> tuple[str, int] | None: ...
    def namespaces(self) -> list[str]: ...
    def count(self, namespace: str) -> int: ...

    # units
    def add_units(self, units: Sequence[MemoryUnit]) -> None: ...
    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]: ...
    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]: ...
    def delete_unit(self, namespace: str, unit_id: str) -> bool: ...
    def delete_namespace(self, namespace: str) -> int: ...

    # views
    def search_dense(
        self, namespace: str, vector: np.ndarray, k: int
    ) -> list[tuple[str, float]]: ...
    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None
    ) -> list[list[tuple[str, float]]]: ...
    def search_lexical(self, namespace: str, text: str, k: int) -> list[tuple[str, float]]: ...
    def centroid(self, namespace: str) -> np.ndarray | None: ...
    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int
    ) -> list[str]: ...
    def cue_values(self, namespace: str, kind: str) -> list[str]: ...

    # graph
    def add_edges(self, edges: Iterable[Edge]) -> None: ...
    def remove_edges(self, edges: Iterable[Edge]) -> None: ...
    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None: ...
    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]: ...
    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]: ...

    def close(self) -> None: ...

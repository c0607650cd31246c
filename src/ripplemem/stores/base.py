"""The store seam: one small Protocol every backend implements, with its parts and capabilities.

Backends: :class:`ripplemem.stores.memory.InMemoryStore` (``memory://``),
:class:`ripplemem.stores.sqlite.SQLiteStore` (a path or a ``sqlite:///`` URL) and any backend a
package registers under the ``ripplemem.stores`` entry-point group (:mod:`ripplemem.stores.registry`).
Each must pass the contract suites of :mod:`ripplemem.testing.contracts`.

A store has one declared part besides its units: ``clues``, the AssoMem clue–utterance graph
(:class:`ripplemem.stores.clues_base.ClueStore`). What a caller may rely on beyond the methods is
in ``capabilities`` (:class:`StoreCapabilities`), declared by the backend, never probed.

The service's own state is not part of this seam: a backend *may* also offer ``keys`` (the API
keys, :class:`ripplemem.stores.keys_base.KeyStore`) and ``jobs`` (background jobs,
:class:`ripplemem.stores.jobs_base.JobStore`), sharing its connection; the SQLite and PostgreSQL
stores offer keys, PostgreSQL jobs too. The server uses them where they are
(:func:`ripplemem.core.keys.key_store_of`, :func:`ripplemem.core.jobs.job_store_of`).
The members a backend writes, grouped, and how to check them: ``docs/backends.md``.

Contract notes shared by all backends:

* Every key is namespace-first. A namespace exists once a unit was added to it.
* ``add_units`` is atomic: all units (with vectors, cue and lexical index entries) or none.
* ``write(namespaces)`` opens one atomic write: every write made inside it (units, edges, the clue
  graph) from the calling thread commits together when the block ends, or none does when it
  raises (or the process dies). Writers to the same namespace are serialised by it, in this process
  and in others that share the store: a block waits for another writer's block instead of failing.
  Reads inside the block see its own writes. Blocks nest (the outermost one commits).
* Vectors are L2-normalised float32; ``search_dense_many`` answers, for each row of a
  (queries x dim) matrix, the ``k`` nearest units as (id, cosine), best first (one matrix
  product or one graph call: the linker asks for a whole insert batch at once). With
  ``min_score`` it returns only hits scoring at least that (the linker's edge threshold), and
  may find them with a cheaper near-neighbour search (HNSW, small beam) where a store has one.
  :func:`search_dense` asks for one vector.
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
* Edges are undirected and stored in both directions; ``change_edges(remove=..., add=...)`` takes
  one direction of each edge, removes then adds, all or nothing. ``neighbours`` returns, per asked
  id, its (neighbour id, weight) list of that kind (strongest first, ties by id). A ``supersedes``
  edge also keeps its direction: ``Edge(new, old, "supersedes", w)``, ``w`` positive, says ``new``
  replaces ``old``, and ``edges_of`` reports it so whichever end is asked (by kind, then other
  end); adding the edge the other way round turns it. :func:`supersedes_of` reads the directions
  of many units.
* ``delete_unit`` removes the unit, its vector, its cue and lexical entries, its parse, every edge
  touching it and its place in the clue graph. Deleting an unknown id returns False.
* ``add_parses(namespace, {unit_id: bytes})`` keeps each unit's parse (what
  :mod:`ripplemem.statements.kept` encodes; the store never reads it), replacing one kept before;
  an id that is not a unit of the namespace raises UnknownUnitError and nothing is kept.
  ``get_parses`` returns the kept parses of the asked ids that have one.
* Search filters (:class:`~ripplemem.records.filters.SearchFilter`): ``select_units`` gives the
  ids of the namespace's units a filter matches (exactly as ``SearchFilter.matches`` says, from
  an index: the cost follows the matches, see :mod:`ripplemem.stores.filter_keys`). The three
  views take those ids as ``allowed`` and restrict to them *before* their cut: the dense view
  answers the ``k`` nearest allowed units, the lexical view ranks the allowed units holding a
  query term, ``cue_candidates`` takes the ``per_value`` nearest allowed units per value.
* ``person`` / ``set_person``: a namespace's person (None when unset; ``set_person(ns, None)``
  forgets it), kept apart from its units: deleting them leaves it.
* ``check_embedder`` records (model, dim) on first call and raises EmbedderMismatchError on any
  later call with a different pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable

import numpy as np

from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit
from ripplemem.records.filters import SearchFilter
from ripplemem.stores.clues_base import ClueStore

__all__ = [
    "GraphStore",
    "LexiconRow",
    "MemoryStore",
    "StoreCapabilities",
    "UnitStore",
    "ViewStore",
    "add_edges",
    "search_dense",
    "supersedes_of",
]


@dataclass(frozen=True, slots=True)
class StoreCapabilities:
    """What a backend promises beyond the Protocol's methods; callers read these, never probe.

    ``persistent``: the data outlive ``close`` and can be opened again from ``url``.
    ``shared``: several processes (or machines) may open ``url`` at once, reading and writing;
    ``write`` blocks serialise their writers per namespace.
    ``approximate_dense``: ``search_dense_many`` may answer from an approximate index above some
    size (results can differ from exact kNN in the last places).
    """

    persistent: bool
    shared: bool
    approximate_dense: bool


#: what the entity recogniser's lexicon reads of a unit: (id, participants, locations, restatement)
LexiconRow = tuple[str, tuple[str, ...], tuple[str, ...], str]


class UnitStore(Protocol):
    """Units: one atomic write per add, serialised per namespace; reads; deletes."""

    # one atomic write, serialised per namespace
    def write(self, namespaces: Sequence[str]) -> AbstractContextManager[None]: ...
    # the reads of one search of ``namespace`` (the calling thread's): a backend may serve them
    # from one connection and read the namespace's counters once; plain reads work without it
    def reading(self, namespace: str) -> AbstractContextManager[None]: ...
    def add_units(self, units: Sequence[MemoryUnit]) -> None: ...
    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]: ...
    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]: ...
    # the lexicon's fields of the namespace's units (:data:`LexiconRow`), in id order (code
    # points) after the id ``after`` (None: from the first), at most ``limit``; a page is read
    # by key (never an offset) and without a unit's vector
    def lexicon_rows(
        self, namespace: str, *, after: str | None = None, limit: int
    ) -> list[LexiconRow]: ...
    def count(self, namespace: str) -> int: ...
    # when the namespace's newest unit was said: the latest session time, or creation time of a
    # unit without one (None: no unit); read from the rows, not a decoding of every unit
    def last_said(self, namespace: str) -> datetime | None: ...
    def namespaces(self) -> list[str]: ...
    # a delete also removes the unit's edges and its place in the clue graph
    def delete_unit(self, namespace: str, unit_id: str) -> bool: ...
    def delete_namespace(self, namespace: str) -> int: ...
    # a unit's parse as the statement reader keeps it (opaque bytes), replacing one stored
    # before; deleted with the unit
    def add_parses(self, namespace: str, parses: Mapping[str, bytes]) -> None: ...
    def get_parses(self, namespace: str, ids: Sequence[str]) -> dict[str, bytes]: ...
    # wait until the bytes of every unit deleted so far are gone from the store's files (a
    # delete never waits for readers; docs/reliability.md); False when ``timeout`` passed first
    def flush_erasure(self, timeout: float | None = None) -> bool: ...


class ViewStore(Protocol):
    """The search views over a namespace's units (``allowed``: restrict to these unit ids
    before the cut; None: every unit)."""

    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]: ...
    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]: ...
    def centroid(self, namespace: str) -> np.ndarray | None: ...
    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]: ...
    def cue_values(self, namespace: str, kind: str) -> list[str]: ...
    # the ids of the units a search filter matches
    def select_units(self, namespace: str, where: SearchFilter) -> set[str]: ...


class GraphStore(Protocol):
    """The graphs over units: RippleMem's unit edges and AssoMem's clue graph (``clues``)."""

    @property
    def clues(self) -> ClueStore: ...  # the AssoMem clue graph, in the same database
    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None: ...
    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]: ...
    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]: ...


@runtime_checkable
class MemoryStore(UnitStore, ViewStore, GraphStore, Protocol):
    """The whole seam: the three groups above and what is the store's own."""

    #: where the store lives, as :func:`ripplemem.stores.registry.open_store` takes it
    #: (credentials are not included)
    @property
    def url(self) -> str: ...
    @property
    def capabilities(self) -> StoreCapabilities: ...
    # the embedder the store was built with
    def check_embedder(self, model: str, dim: int) -> None: ...
    def embedder_info(self) -> tuple[str, int] | None: ...
    # the person behind a namespace: the speaker name of its role-style "user" messages
    def person(self, namespace: str) -> str | None: ...
    def set_person(self, namespace: str, name: str | None) -> None: ...
    def close(self) -> None: ...


def search_dense(
    store: MemoryStore, namespace: str, vector: np.ndarray, k: int,
    *, allowed: AbstractSet[str] | None = None,
) -> list[tuple[str, float]]:
    """The ``k`` units nearest to one vector (of ``allowed``), as (id, cosine), best first."""
    vectors = np.asarray(vector).reshape(1, -1)
    if allowed is None:
        return store.search_dense_many(namespace, vectors, k)[0]
    return store.search_dense_many(namespace, vectors, k, allowed=allowed)[0]


def add_edges(store: MemoryStore, edges: Iterable[Edge]) -> None:
    """Add edges (one direction of each given; both stored), all or nothing."""
    store.change_edges(add=edges)


def supersedes_of(
    store: MemoryStore, namespace: str, ids: Sequence[str]
) -> dict[str, tuple[list[str], list[str]]]:
    """Per id, the ids of the units that supersede it and of those it supersedes (the direction
    ``edges_of`` reports): one ``neighbours`` call, then ``edges_of`` for the ids that have a
    ``supersedes`` edge, keeping the ends ``neighbours`` answers (a filtered store's own)."""
    linked = store.neighbours(namespace, list(dict.fromkeys(ids)), "supersedes")
    out: dict[str, tuple[list[str], list[str]]] = {}
    for unit_id, near in linked.items():
        ends = {other for other, _ in near}
        edges = [
            e for e in store.edges_of(namespace, unit_id) if e.kind == "supersedes"
        ] if ends else []
        out[unit_id] = (
            [e.src for e in edges if e.dst == unit_id and e.src in ends],
            [e.dst for e in edges if e.src == unit_id and e.dst in ends],
        )
    return out

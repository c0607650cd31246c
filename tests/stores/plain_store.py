"""PlainStore: a third store backend, written from docs/backends.md and the building blocks it
names, to show the page is enough to write one (tests/stores/test_plain_store.py runs the whole
store contract on it, registered as ``plain://``).

It is deliberately plain: no index of its own beyond the shipped ``Postings`` (lexical) and
``InMemoryClueStore`` (the clue graph); dense search, cue lookups and filters scan the
namespace's units. A ``write()`` block copies the store's state when it opens and puts the copy
back if it raises (the clue graph undoes its own changes through the ``undo`` hook it offers).
One lock serialises every call.
"""

from __future__ import annotations

import copy
import functools
import itertools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, TypeVar

import numpy as np

from ripplemem.errors import InvalidInputError, StoreError, UnknownUnitError
from ripplemem.records import Cues, Edge, EdgeKind, MemoryUnit, normalise_cue
from ripplemem.records.filters import SearchFilter
from ripplemem.stores.base import LexiconRow, StoreCapabilities
from ripplemem.stores.checks import (
    EDGE_KINDS,
    check_cue_kind,
    check_edge_kind,
    check_edges,
    check_embedder_pair,
    check_parses,
    check_units,
)
from ripplemem.stores.clues_base import InMemoryClueStore
from ripplemem.stores.cuekeys import (
    cue_keys,
    epoch_seconds,
    pick_nearest,
    span_rows,
    span_seconds,
    time_key,
)
from ripplemem.stores.lexical import LEXICAL_POSTING_BUDGET, LEXICAL_RERANK_DEPTH
from ripplemem.stores.postings import Postings
from ripplemem.stores.text import document_terms, terms
from ripplemem.stores.vector_search import normalised_queries

__all__ = ["PlainStore"]

T = TypeVar("T")


@dataclass
class _State:
    """Everything the store holds but the clue graph (copied whole by a write block)."""

    units: dict[str, dict[str, MemoryUnit]] = field(default_factory=dict)  # ns -> id -> unit
    seqs: dict[str, dict[str, int]] = field(default_factory=dict)  # ns -> id -> insertion number
    postings: dict[str, Postings] = field(default_factory=dict)
    edges: dict[tuple[str, str], dict[str, dict[str, float]]] = field(default_factory=dict)
    #: the direction of each supersedes edge: (namespace, newer, older)
    newer: set[tuple[str, str, str]] = field(default_factory=set)
    people: dict[str, str] = field(default_factory=dict)
    parses: dict[str, dict[str, bytes]] = field(default_factory=dict)  # ns -> id -> parse
    embedder: tuple[str, int] | None = None
    dim: int | None = None


def _open(method: Callable[..., T]) -> Callable[..., T]:
    """Run under the store's lock, and only while it is open."""

    @functools.wraps(method)
    def guarded(self: PlainStore, *args: Any, **kwargs: Any) -> T:
        with self._lock:
            if self._closed:
                raise StoreError("the store is closed; open it again")
            return method(self, *args, **kwargs)

    return guarded


class PlainStore:
    capabilities = StoreCapabilities(persistent=False, shared=False, approximate_dense=False)
    url = "plain://"

    def __init__(
        self,
        *,
        lexical_budget: int = LEXICAL_POSTING_BUDGET,
        lexical_rerank_depth: int = LEXICAL_RERANK_DEPTH,
        **ignored: object,  # ann_threshold: this store has no approximate index
    ) -> None:
        self._lexical = (lexical_budget, lexical_rerank_depth)
        self._lock = threading.RLock()
        self._state = _State()
        self._seq = itertools.count(1)
        self._closed = False
        self._undo: list[Callable[[], None]] | None = None
        self.clues = InMemoryClueStore(self._lock, undo=self._log)

    # --- the store's own ------------------------------------------------------------------
    @_open
    def check_embedder(self, model: str, dim: int) -> None:
        if check_embedder_pair(self._state.embedder, self._state.dim, model, dim):
            self._state.embedder, self._state.dim = (model, dim), dim

    @_open
    def embedder_info(self) -> tuple[str, int] | None:
        return self._state.embedder

    @_open
    def person(self, namespace: str) -> str | None:
        return self._state.people.get(namespace)

    def set_person(self, namespace: str, name: str | None) -> None:
        with self.write([namespace]):
            if name is None:
                self._state.people.pop(namespace, None)
            else:
                self._state.people[namespace] = name

    def close(self) -> None:
        with self._lock:
            self._closed = True

    # --- units ----------------------------------------------------------------------------
    @contextmanager
    def write(self, namespaces: Sequence[str]) -> Iterator[None]:
        with self._lock:
            if self._closed:
                raise StoreError("the store is closed; open it again")
            if self._undo is not None:  # nested: the outermost block decides
                yield
                return
            saved, self._undo = copy.deepcopy(self._state), []
            try:
                yield
            except BaseException:
                undo, self._state = self._undo, saved
                for step in reversed(undo):
                    step()
                raise
            finally:
                self._undo = None

    def _log(self, step: Callable[[], None]) -> None:
        if self._undo is not None:
            self._undo.append(step)

    def reading(self, namespace: str) -> AbstractContextManager[None]:
        return nullcontext()

    def add_units(self, units: Sequence[MemoryUnit]) -> None:
        with self.write(sorted({u.namespace for u in units})):
            batch = check_units(units, self._state.dim)
            for unit in batch.units:
                if unit.id in self._state.units.get(unit.namespace, {}):
                    raise InvalidInputError(f"unit {unit.id!r} already exists in {unit.namespace!r}")
            for unit in batch.units:
                seq = next(self._seq)
                self._state.units.setdefault(unit.namespace, {})[unit.id] = unit
                self._state.seqs.setdefault(unit.namespace, {})[unit.id] = seq
                words = document_terms(unit.restatement, unit.keywords)
                self._state.postings.setdefault(unit.namespace, Postings()).add(unit.id, seq, words)
            if batch.units:
                self._state.dim = batch.dim

    @_open
    def get_units(
        self, namespace: str, ids: Sequence[str], *, with_vectors: bool = True
    ) -> list[MemoryUnit]:
        held = self._state.units.get(namespace, {})
        found = [held[i] for i in ids if i in held]
        return found if with_vectors else [replace(u, vector=None) for u in found]

    def add_parses(self, namespace: str, parses: Mapping[str, bytes]) -> None:
        with self.write([namespace]):
            checked = check_parses(parses)
            for unit_id in checked:
                if unit_id not in self._state.units.get(namespace, {}):
                    raise UnknownUnitError(f"{unit_id!r} is not a unit of {namespace!r}")
            self._state.parses.setdefault(namespace, {}).update(checked)

    @_open
    def get_parses(self, namespace: str, ids: Sequence[str]) -> dict[str, bytes]:
        held = self._state.parses.get(namespace, {})
        return {i: held[i] for i in ids if i in held}

    @_open
    def list_units(
        self, namespace: str, *, limit: int | None = None, offset: int = 0
    ) -> list[MemoryUnit]:
        units = list(self._state.units.get(namespace, {}).values())
        start = max(offset, 0)
        return units[start:] if limit is None else units[start : start + max(limit, 0)]

    @_open
    def lexicon_rows(
        self, namespace: str, *, after: str | None = None, limit: int
    ) -> list[LexiconRow]:
        units = self._state.units.get(namespace, {})
        ids = sorted(i for i in units if after is None or i > after)[: max(limit, 0)]
        return [
            (i, units[i].participants, units[i].locations, units[i].restatement) for i in ids
        ]

    @_open
    def count(self, namespace: str) -> int:
        return len(self._state.units.get(namespace, {}))

    @_open
    def last_said(self, namespace: str) -> datetime | None:
        units = self._state.units.get(namespace, {}).values()
        return max((u.session_time or u.created_at for u in units), default=None)

    @_open
    def namespaces(self) -> list[str]:
        return sorted(ns for ns, units in self._state.units.items() if units)

    def delete_unit(self, namespace: str, unit_id: str) -> bool:
        with self.write([namespace]):
            unit = self._state.units.get(namespace, {}).pop(unit_id, None)
            if unit is None:
                return False
            del self._state.seqs[namespace][unit_id]
            self._state.parses.get(namespace, {}).pop(unit_id, None)
            self._state.postings[namespace].remove(
                unit_id, document_terms(unit.restatement, unit.keywords)
            )
            for kind in EDGE_KINDS:
                graph = self._state.edges.get((namespace, kind), {})
                for other in graph.pop(unit_id, {}):
                    graph.get(other, {}).pop(unit_id, None)
            self.clues.forget_units(namespace, [unit_id])
            return True

    def delete_namespace(self, namespace: str) -> int:
        with self.write([namespace]):
            gone = len(self._state.units.pop(namespace, {}))
            self._state.seqs.pop(namespace, None)
            self._state.parses.pop(namespace, None)
            self._state.postings.pop(namespace, None)
            for kind in EDGE_KINDS:
                self._state.edges.pop((namespace, kind), None)
            self.clues.forget_namespace(namespace)
            return gone

    @_open
    def flush_erasure(self, timeout: float | None = None) -> bool:
        return True  # nothing is kept anywhere but in these dicts

    # --- views ----------------------------------------------------------------------------
    @_open
    def search_dense_many(
        self, namespace: str, vectors: np.ndarray, k: int, *, min_score: float | None = None,
        allowed: AbstractSet[str] | None = None,
    ) -> list[list[tuple[str, float]]]:
        units = [
            u for u in self._state.units.get(namespace, {}).values()
            if allowed is None or u.id in allowed
        ]
        dim = self._state.dim or np.asarray(vectors).shape[-1]
        try:
            queries = normalised_queries(vectors, dim)
        except ValueError as error:
            raise InvalidInputError(str(error)) from error
        if not units or k <= 0:
            return [[] for _ in range(len(queries))]
        matrix = np.stack([u.vector for u in units])
        answers = []
        for scores in queries @ matrix.T:
            best = sorted(range(len(units)), key=lambda i: -scores[i])[:k]
            hits = [(units[i].id, float(scores[i])) for i in best]
            answers.append([h for h in hits if min_score is None or h[1] >= min_score])
        return answers

    @_open
    def search_lexical(
        self, namespace: str, text: str, k: int, *, allowed: AbstractSet[str] | None = None
    ) -> list[tuple[str, float]]:
        postings = self._state.postings.get(namespace)
        if postings is None:
            return []
        budget, depth = self._lexical
        return postings.search(terms(text), k, budget=budget, rerank_depth=depth, allowed=allowed)

    @_open
    def centroid(self, namespace: str) -> np.ndarray | None:
        units = self._state.units.get(namespace, {})
        if not units:
            return None
        return np.mean([u.vector for u in units.values()], axis=0).astype(np.float32)

    @_open
    def cue_candidates(
        self, namespace: str, cues: Cues, *, near: datetime | None, per_value: int,
        allowed: AbstractSet[str] | None = None,
    ) -> list[str]:
        seqs = self._state.seqs.get(namespace, {})
        units = [
            u for u in self._state.units.get(namespace, {}).values()
            if allowed is None or u.id in allowed
        ]
        found: list[str] = []
        for key in cue_keys(cues.participants, cues.locations):
            carrying = [u for u in units if key in cue_keys(u.participants, u.locations)]
            if near is None:  # the most recently added
                latest = sorted(carrying, key=lambda u: -seqs[u.id])[:per_value]
                found.extend(u.id for u in latest)
                continue
            timed = [(t, seqs[u.id], u.id) for u in carrying if (t := time_key(u)) is not None]
            picked = pick_nearest(timed, epoch_seconds(near), per_value)
            untimed = [u.id for u in sorted(carrying, key=lambda u: -seqs[u.id]) if time_key(u) is None]
            found.extend(picked + untimed[: per_value - len(picked)])
        if cues.time_span is not None:
            start, end = span_seconds(cues.time_span)
            overlapping = [  # each time a unit is of (span_rows: several when it names them apart)
                (s_start, seqs[u.id], u.id) for u in units
                for _, s_start, s_end in span_rows(u.time_span, u.extra) if s_start <= end and s_end >= start
            ]
            found.extend(pick_nearest(overlapping, start, per_value))
        return list(dict.fromkeys(found))

    @_open
    def cue_values(self, namespace: str, kind: str) -> list[str]:
        check_cue_kind(kind)
        values = {
            normalise_cue(value)
            for u in self._state.units.get(namespace, {}).values()
            for value in (u.participants if kind == "P" else u.locations)
        }
        return sorted(v for v in values if v)

    @_open
    def select_units(self, namespace: str, where: SearchFilter) -> set[str]:
        return {u.id for u in self._state.units.get(namespace, {}).values() if where.matches(u)}

    # --- graphs ---------------------------------------------------------------------------
    def change_edges(self, *, remove: Iterable[Edge] = (), add: Iterable[Edge] = ()) -> None:
        removed, added = check_edges(remove), check_edges(add)
        with self.write(sorted({e.namespace for e in [*removed, *added]})):
            for edge in added:
                for unit_id in (edge.src, edge.dst):
                    if unit_id not in self._state.units.get(edge.namespace, {}):
                        raise UnknownUnitError(f"no unit {unit_id!r} in {edge.namespace!r}")
            for edge in removed:
                graph = self._state.edges.get((edge.namespace, edge.kind), {})
                graph.get(edge.src, {}).pop(edge.dst, None)
                graph.get(edge.dst, {}).pop(edge.src, None)
            for edge in added:
                graph = self._state.edges.setdefault((edge.namespace, edge.kind), {})
                graph.setdefault(edge.src, {})[edge.dst] = edge.weight
                graph.setdefault(edge.dst, {})[edge.src] = edge.weight
                if edge.kind == "supersedes":  # the one kind that keeps its direction
                    self._state.newer.discard((edge.namespace, edge.dst, edge.src))
                    self._state.newer.add((edge.namespace, edge.src, edge.dst))

    @_open
    def neighbours(
        self, namespace: str, ids: Sequence[str], kind: EdgeKind
    ) -> dict[str, list[tuple[str, float]]]:
        check_edge_kind(kind)
        graph = self._state.edges.get((namespace, kind), {})
        return {
            unit_id: sorted(graph.get(unit_id, {}).items(), key=lambda pair: (-pair[1], pair[0]))
            for unit_id in dict.fromkeys(ids)
        }

    @_open
    def edges_of(self, namespace: str, unit_id: str) -> list[Edge]:
        found = [
            (kind, other, weight)
            for kind in EDGE_KINDS
            for other, weight in self._state.edges.get((namespace, kind), {}).get(unit_id, {}).items()
        ]
        return [
            Edge(namespace, other, unit_id, kind, weight)  # type: ignore[arg-type]
            if (namespace, other, unit_id) in self._state.newer and kind == "supersedes"
            else Edge(namespace, unit_id, other, kind, weight)  # type: ignore[arg-type]
            for kind, other, weight in sorted(found)
        ]

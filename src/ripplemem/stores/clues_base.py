"""The clue-graph seam: the AssoMem clue–utterance graph kept beside the units.

Implementations: :class:`InMemoryClueStore` (held by :class:`~ripplemem.stores.memory.InMemoryStore`)
and :class:`ripplemem.stores.sqlite.clues.SQLiteClueStore` (tables of the same SQLite file, held by
:class:`~ripplemem.stores.sqlite.SQLiteStore`): every store's ``clues``.
Both pass :class:`ripplemem.testing.contracts.store.ClueContract` (part of ``StoreContract``).

Contract notes:

* A clue is a topic node with an L2-normalised vector; a session (episode id) maps to exactly one
  clue, several sessions may share one (merged clues). ``add_clue`` creates a clue for its first
  session; ``merge_session`` maps another session to an existing clue and counts it.
* ``rewrite_clue`` replaces a clue's text and vector in place (its sessions, members and links
  stay): a delete rewrites the clue of the units it removed, so no deleted text survives in it.
* Units (utterance nodes) attach to one clue each (``attach``; re-attaching moves the unit).
* Utterance links are undirected and weighted; ``add_links`` takes one direction, stores both,
  and ignores self links. ``links`` returns each asked id's (neighbour, weight) list, best first.
* ``search_clues`` scores are cosine similarities, best first.
* Deleting is the owning store's duty, not a member of this Protocol: its ``delete_unit`` removes
  the unit's membership and every link touching it (a clue left with no member goes, with its
  sessions), and ``delete_namespace`` drops the namespace's whole graph, in the same write.
  (:class:`InMemoryClueStore` offers ``forget_units`` / ``forget_namespace`` for that.)
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar, runtime_checkable

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem.records import Clue, Membership
from ripplemem.stores.vectors import VectorIndex

Link = tuple[str, str, float]
T = TypeVar("T")


@runtime_checkable
class ClueStore(Protocol):
    def clue_count(self, namespace: str) -> int: ...
    def clue_for_session(self, namespace: str, episode_id: str) -> str | None: ...
    def add_clue(self, clue: Clue, episode_id: str) -> None: ...
    def merge_session(self, namespace: str, clue_id: str, episode_id: str) -> None: ...
    def rewrite_clue(self, namespace: str, clue_id: str, text: str, vector: np.ndarray) -> None: ...
    def get_clues(self, namespace: str, ids: Sequence[str]) -> list[Clue]: ...
    def search_clues(self, namespace: str, vector: np.ndarray, k: int) -> list[tuple[str, float]]: ...
    def attach(self, namespace: str, memberships: Sequence[Membership]) -> None: ...
    def members(self, namespace: str, clue_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]: ...
    def clues_of_units(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, Membership]: ...
    def add_links(self, namespace: str, links: Iterable[Link]) -> None: ...
    def links(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]: ...


def clue_sessions(clues: ClueStore, namespace: str, episodes: Iterable[str]) -> dict[str, list[str]]:
    """Each clue of ``episodes`` with its sessions among them, in the order given."""
    sessions: dict[str, list[str]] = {}
    for episode in episodes:
        clue_id = clues.clue_for_session(namespace, episode)
        if clue_id is not None:
            sessions.setdefault(clue_id, []).append(episode)
    return sessions


def normalised(vector: np.ndarray) -> np.ndarray:
    """A float32 unit vector; refuses zero or non-finite vectors."""
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(array))
    if not np.isfinite(norm) or norm == 0.0:
        raise InvalidInputError("a clue vector must be non-zero and finite")
    if abs(norm - 1.0) <= 1e-6:  # normalised already: dividing again would move its last bits
        return array
    return array / np.float32(norm)


def ordered_links(pairs: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(pairs.items(), key=lambda item: (-item[1], item[0]))


@dataclass(slots=True)
class _Graph:
    """One namespace's clue graph."""

    index: VectorIndex | None = None
    clues: dict[str, Clue] = field(default_factory=dict)
    sessions: dict[str, str] = field(default_factory=dict)  # episode id -> clue id
    members: dict[str, dict[str, float]] = field(default_factory=dict)  # clue -> {unit: weight}
    unit_clue: dict[str, str] = field(default_factory=dict)
    links: dict[str, dict[str, float]] = field(default_factory=dict)


def _locked(method: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(method)
    def guarded(self: InMemoryClueStore, *args: Any, **kwargs: Any) -> T:
        with self._lock:
            return method(self, *args, **kwargs)

    return guarded


class InMemoryClueStore:
    """The reference :class:`ClueStore`, in dicts, under the owning store's lock.

    ``undo`` receives, for every change, a function that takes it back (the owning store keeps
    them while a ``write()`` block is open and runs them if the block fails).
    """

    def __init__(
        self,
        lock: threading.RLock | None = None,
        undo: Callable[[Callable[[], None]], None] | None = None,
    ) -> None:
        self._lock = lock or threading.RLock()
        self._graphs: dict[str, _Graph] = {}
        self._undo = undo or (lambda step: None)

    @_locked
    def clue_count(self, namespace: str) -> int:
        graph = self._graphs.get(namespace)
        return len(graph.clues) if graph else 0

    @_locked
    def clue_for_session(self, namespace: str, episode_id: str) -> str | None:
        graph = self._graphs.get(namespace)
        return graph.sessions.get(episode_id) if graph else None

    @_locked
    def add_clue(self, clue: Clue, episode_id: str) -> None:
        graph = self._graphs.setdefault(clue.namespace, _Graph())
        if clue.id in graph.clues:
            raise InvalidInputError(f"clue {clue.id!r} already exists in {clue.namespace!r}")
        vector = normalised(clue.vector)
        if graph.index is None:
            graph.index = VectorIndex(vector.shape[0])
        graph.index.add([clue.id], vector[None, :])
        previous = graph.sessions.get(episode_id)
        graph.clues[clue.id] = replace(clue, vector=vector, sessions=1)
        graph.members.setdefault(clue.id, {})
        graph.sessions[episode_id] = clue.id

        def undo() -> None:
            self._drop_clue(graph, clue.id)
            if previous is not None:
                graph.sessions[episode_id] = previous

        self._undo(undo)

    @_locked
    def merge_session(self, namespace: str, clue_id: str, episode_id: str) -> None:
        graph = self._require(namespace, clue_id)
        previous = graph.sessions.get(episode_id)
        if previous == clue_id:
            return
        graph.sessions[episode_id] = clue_id
        clue = graph.clues[clue_id]
        graph.clues[clue_id] = replace(clue, sessions=clue.sessions + 1)

        def undo() -> None:
            if previous is None:
                graph.sessions.pop(episode_id, None)
            else:
                graph.sessions[episode_id] = previous
            if clue_id in graph.clues:
                graph.clues[clue_id] = replace(graph.clues[clue_id], sessions=clue.sessions)

        self._undo(undo)

    @_locked
    def rewrite_clue(self, namespace: str, clue_id: str, text: str, vector: np.ndarray) -> None:
        graph = self._require(namespace, clue_id)
        unit = normalised(vector)
        before = graph.clues[clue_id]
        assert graph.index is not None

        def put(clue: Clue) -> None:
            graph.clues[clue_id] = clue
            graph.index.remove([clue_id])  # type: ignore[union-attr]
            graph.index.add([clue_id], clue.vector[None, :])  # type: ignore[union-attr]

        put(replace(before, text=text, vector=unit))
        self._undo(lambda: put(before) if clue_id in graph.clues else None)

    @_locked
    def get_clues(self, namespace: str, ids: Sequence[str]) -> list[Clue]:
        graph = self._graphs.get(namespace)
        return [graph.clues[i] for i in ids if i in graph.clues] if graph else []

    @_locked
    def search_clues(self, namespace: str, vector: np.ndarray, k: int) -> list[tuple[str, float]]:
        graph = self._graphs.get(namespace)
        if graph is None or graph.index is None or k <= 0:
            return []
        return graph.index.search(vector, k)

    @_locked
    def attach(self, namespace: str, memberships: Sequence[Membership]) -> None:
        graph = self._graphs.get(namespace)
        if graph is not None and memberships:
            before = {
                m.unit_id: (c, graph.members[c][m.unit_id])
                if (c := graph.unit_clue.get(m.unit_id)) is not None
                else None
                for m in memberships
            }

            def undo(graph: _Graph = graph) -> None:
                for unit_id, previous in before.items():
                    now = graph.unit_clue.pop(unit_id, None)
                    if now is not None and now in graph.members:
                        graph.members[now].pop(unit_id, None)
                    if previous is not None and previous[0] in graph.members:
                        graph.unit_clue[unit_id] = previous[0]
                        graph.members[previous[0]][unit_id] = previous[1]

            self._undo(undo)
        for membership in memberships:
            graph = self._require(namespace, membership.clue_id)
            old = graph.unit_clue.get(membership.unit_id)
            if old is not None and old != membership.clue_id:
                graph.members[old].pop(membership.unit_id, None)
            graph.unit_clue[membership.unit_id] = membership.clue_id
            graph.members[membership.clue_id][membership.unit_id] = float(membership.weight)

    @_locked
    def members(self, namespace: str, clue_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        graph = self._graphs.get(namespace)
        found = graph.members if graph else {}
        return {i: ordered_links(found.get(i, {})) for i in clue_ids}

    @_locked
    def clues_of_units(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, Membership]:
        graph = self._graphs.get(namespace)
        if graph is None:
            return {}
        return {
            u: Membership(u, graph.unit_clue[u], graph.members[graph.unit_clue[u]][u])
            for u in unit_ids
            if u in graph.unit_clue
        }

    @_locked
    def add_links(self, namespace: str, links: Iterable[Link]) -> None:
        links = list(links)
        if not links:
            return
        graph = self._graphs.setdefault(namespace, _Graph())
        before = {
            (a, b): graph.links.get(a, {}).get(b) for a, b, _ in links if a != b
        }

        def undo() -> None:
            for (a, b), weight in before.items():
                for x, y in ((a, b), (b, a)):
                    if weight is None:
                        graph.links.get(x, {}).pop(y, None)
                    else:
                        graph.links.setdefault(x, {})[y] = weight

        self._undo(undo)
        for a, b, weight in links:
            if a == b:
                continue
            graph.links.setdefault(a, {})[b] = float(weight)
            graph.links.setdefault(b, {})[a] = float(weight)

    @_locked
    def links(self, namespace: str, unit_ids: Sequence[str]) -> dict[str, list[tuple[str, float]]]:
        graph = self._graphs.get(namespace)
        found = graph.links if graph else {}
        return {i: ordered_links(found.get(i, {})) for i in unit_ids}

    @_locked
    def forget_units(self, namespace: str, unit_ids: Sequence[str]) -> None:
        graph = self._graphs.get(namespace)
        if graph is None:
            return
        self._undo(self._restorer(namespace))
        for unit_id in unit_ids:
            for other in graph.links.pop(unit_id, {}):
                graph.links.get(other, {}).pop(unit_id, None)
            clue_id = graph.unit_clue.pop(unit_id, None)
            if clue_id is None:
                continue
            graph.members[clue_id].pop(unit_id, None)
            if not graph.members[clue_id]:
                self._drop_clue(graph, clue_id)

    @_locked
    def forget_namespace(self, namespace: str) -> None:
        graph = self._graphs.pop(namespace, None)
        if graph is not None:
            self._undo(lambda: self._graphs.__setitem__(namespace, graph))

    def _restorer(self, namespace: str) -> Callable[[], None]:
        """How to put the namespace's graph back as it is now (a copy; the index is rebuilt)."""
        graph = self._graphs[namespace]
        copy = _Graph(
            clues=dict(graph.clues),
            sessions=dict(graph.sessions),
            members={c: dict(m) for c, m in graph.members.items()},
            unit_clue=dict(graph.unit_clue),
            links={u: dict(n) for u, n in graph.links.items()},
        )

        def restore() -> None:
            if copy.clues:
                first = next(iter(copy.clues.values()))
                copy.index = VectorIndex(first.vector.shape[0])
                copy.index.add(list(copy.clues), np.stack([c.vector for c in copy.clues.values()]))
            self._graphs[namespace] = copy

        return restore

    def _drop_clue(self, graph: _Graph, clue_id: str) -> None:
        del graph.members[clue_id]
        del graph.clues[clue_id]
        assert graph.index is not None
        graph.index.remove([clue_id])
        for episode in [e for e, c in graph.sessions.items() if c == clue_id]:
            del graph.sessions[episode]

    def _require(self, namespace: str, clue_id: str) -> _Graph:
        graph = self._graphs.get(namespace)
        if graph is None or clue_id not in graph.clues:
            raise InvalidInputError(f"no clue {clue_id!r} in namespace {namespace!r}; add it first")
        return graph

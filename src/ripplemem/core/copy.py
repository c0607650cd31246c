"""Copying a whole store to another one (another backend), then checking the copy: what
``Memory.copy_to`` and ``ripplemem migrate`` do.

Copied: the embedder record, every namespace's units with their vectors (in their stored
order) and kept parses, both kinds of edges, the clue graph (clues with their sessions, memberships, utterance
links) and the API keys. The target must hold no memory yet. Each namespace is copied in one
write: a copy that stops leaves whole namespaces behind, and running it again copies the rest.

The check: per namespace the units, edges and clues are counted on both sides, and for a sample
of units their dense search (by their own vector) and lexical search (by their restatement) must
return the same ids in the same order on both sides. Namespaces large enough for an approximate
index (``approximate_dense`` stores past their exact-search size) are compared by overlap instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ripplemem.core.keys import key_store_of
from ripplemem.errors import InvalidInputError, StoreError
from ripplemem.records import Edge, Membership, MemoryUnit
from ripplemem.stores.base import MemoryStore, search_dense
from ripplemem.stores.checks import EDGE_KINDS
from ripplemem.stores.clues_base import clue_sessions
from ripplemem.stores.registry import open_store

__all__ = ["CopyReport", "Migration", "Verification", "copy_store", "migrate", "verify_copy"]

PAGE = 1_000  # units read and written per call
SAMPLE = 20  # units per namespace whose searches are compared
K = 10
#: namespaces this large may be searched through an approximate index: compared by overlap
APPROXIMATE_FROM = 20_000

Progress = Callable[[str], None]


@dataclass
class Counts:
    units: int = 0
    edges: int = 0
    clues: int = 0
    links: int = 0


@dataclass
class CopyReport:
    namespaces: dict[str, Counts] = field(default_factory=dict)
    keys: int = 0


@dataclass
class Verification:
    counts_equal: bool
    searches: int  # sampled searches compared
    identical: int  # of them, with the same ids in the same order
    mismatches: list[str] = field(default_factory=list)  # what differed, for the report

    @property
    def ok(self) -> bool:
        return self.counts_equal and not self.mismatches


def copy_store(source: MemoryStore, target: MemoryStore, *, progress: Progress | None = None) -> CopyReport:
    """Copy everything of ``source`` into the empty ``target`` (both MemoryStores)."""
    say = progress or (lambda message: None)
    if target.namespaces():
        raise InvalidInputError(
            f"the target store {target.url} already holds memories "
            f"({', '.join(target.namespaces()[:3])}...); migrate into a new, empty store"
        )
    recorded = source.embedder_info()
    if recorded is not None:
        target.check_embedder(*recorded)
    report = CopyReport()
    for namespace in source.namespaces():
        say(f"copying {namespace!r}")
        report.namespaces[namespace] = _copy_namespace(source, target, namespace)
    report.keys = _copy_keys(source, target)
    return report


def _copy_keys(source: MemoryStore, target: MemoryStore) -> int:
    """Copy the API keys the target lacks (where both backends keep keys); how many."""
    have, want = key_store_of(source), key_store_of(target)
    if have is None or want is None:
        return 0
    known = {key.id for key in want.list_keys()}
    fresh = [key for key in have.list_keys() if key.id not in known]
    for key in fresh:
        want.add_key(key)
    return len(fresh)


def _copy_namespace(source: MemoryStore, target: MemoryStore, namespace: str) -> Counts:
    counts = Counts()
    ids: list[str] = []
    episodes: dict[str, None] = {}
    with target.write([namespace]):
        person = source.person(namespace)
        if person is not None:
            target.set_person(namespace, person)
        for page in _pages(source, namespace):
            target.add_units(page)
            parses = source.get_parses(namespace, [unit.id for unit in page])
            if parses:  # the statement reader's parses: read, not parsed again, on the target
                target.add_parses(namespace, parses)
            ids += [unit.id for unit in page]
            episodes.update(dict.fromkeys(unit.episode_id for unit in page))
        counts.units = len(ids)
        for kind in EDGE_KINDS:
            for start in range(0, len(ids), PAGE):
                found = source.neighbours(namespace, ids[start : start + PAGE], kind)
                edges = [
                    Edge(namespace, a, b, kind, weight)
                    for a, near in found.items()
                    for b, weight in near
                    if a < b and kind != "supersedes"
                ] + [  # a supersedes edge keeps its direction: from its newer end
                    edge
                    for a, near in found.items() if near and kind == "supersedes"
                    for edge in source.edges_of(namespace, a)
                    if edge.kind == "supersedes" and edge.src == a
                ]
                target.change_edges(add=edges)
                counts.edges += len(edges)
        clues = source.clues
        sessions = clue_sessions(clues, namespace, episodes)
        for clue in clues.get_clues(namespace, list(sessions)):
            first, *rest = sessions[clue.id]
            target.clues.add_clue(clue, first)
            for episode in rest:
                target.clues.merge_session(namespace, clue.id, episode)
            counts.clues += 1
        members = clues.members(namespace, list(sessions))
        target.clues.attach(
            namespace,
            [Membership(unit, clue, weight) for clue, found in members.items() for unit, weight in found],
        )
        for start in range(0, len(ids), PAGE):
            found = clues.links(namespace, ids[start : start + PAGE])
            links = [(a, b, w) for a, near in found.items() for b, w in near if a < b]
            target.clues.add_links(namespace, links)
            counts.links += len(links)
    return counts


def _pages(store: MemoryStore, namespace: str) -> Iterator[list[MemoryUnit]]:
    offset = 0
    while True:
        page = store.list_units(namespace, limit=PAGE, offset=offset)
        if not page:
            return
        yield page
        offset += len(page)


def _namespace_counts(store: MemoryStore, namespace: str) -> Counts:
    ids = [unit.id for page in _pages(store, namespace) for unit in page]
    edges = sum(
        len(near)
        for kind in EDGE_KINDS
        for start in range(0, len(ids), PAGE)
        for near in store.neighbours(namespace, ids[start : start + PAGE], kind).values()
    )
    links = sum(
        len(near)
        for start in range(0, len(ids), PAGE)
        for near in store.clues.links(namespace, ids[start : start + PAGE]).values()
    )
    return Counts(len(ids), edges // 2, store.clues.clue_count(namespace), links // 2)


def verify_copy(
    source: MemoryStore, target: MemoryStore, *, sample: int = SAMPLE, seed: int = 0
) -> Verification:
    """Counts per namespace, and the searches of ``sample`` units per namespace, on both sides."""
    rng = random.Random(seed)
    counts_equal = source.namespaces() == target.namespaces()
    verification = Verification(counts_equal, 0, 0)
    if source.embedder_info() != target.embedder_info():
        verification.mismatches.append("the embedder records differ")
    for namespace in source.namespaces():
        before, after = _namespace_counts(source, namespace), _namespace_counts(target, namespace)
        if before != after:
            verification.counts_equal = False
            verification.mismatches.append(f"{namespace}: counts {before} vs {after}")
        size = source.count(namespace)
        picked = sorted(rng.sample(range(size), min(sample, size)))
        units = [source.list_units(namespace, limit=1, offset=i)[0] for i in picked]
        approximate = size >= APPROXIMATE_FROM
        for unit in units:
            assert unit.vector is not None  # list_units returns vectors
            pairs = (
                ("dense", search_dense(source, namespace, unit.vector, K),
                 search_dense(target, namespace, unit.vector, K)),
                ("lexical", source.search_lexical(namespace, unit.restatement, K),
                 target.search_lexical(namespace, unit.restatement, K)),
            )  # fmt: skip
            for view, a, b in pairs:
                verification.searches += 1
                first, second = [i for i, _ in a], [i for i, _ in b]
                if first == second:
                    verification.identical += 1
                elif not (approximate and view == "dense" and _overlap(first, second) >= 0.9):
                    verification.mismatches.append(f"{namespace}: {view} search of {unit.id!r}")
    return verification


def _overlap(first: Sequence[str], second: Sequence[str]) -> float:
    return len(set(first) & set(second)) / max(len(first), 1)


@dataclass
class Migration:
    """What a copy did and what its check found."""

    source: str
    target: str
    report: CopyReport
    verification: Verification

    def raise_if_different(self) -> None:
        if not self.verification.ok:
            raise StoreError(
                "the copy differs from the source: " + "; ".join(self.verification.mismatches[:5])
                + ". Keep using the source; report this with the store's versions"
            )


def copy_and_verify(
    source: MemoryStore, target: MemoryStore, *, sample: int = SAMPLE, progress: Progress | None = None
) -> Migration:
    report = copy_store(source, target, progress=progress)
    return Migration(source.url, target.url, report, verify_copy(source, target, sample=sample))


def migrate(
    source: str, target: str, *, sample: int = SAMPLE, progress: Progress | None = None
) -> Migration:
    """Copy the store at ``source`` (a path or URL; a SQLite file that is not there is refused,
    not created) into the new store at ``target``, then check it (no models are loaded: the
    vectors are copied as they are)."""
    from contextlib import closing

    from ripplemem.core.location import refuse_missing

    refuse_missing(source, "a migration only reads its source and creates none")
    with closing(open_store(source)) as src, closing(open_store(target)) as dst:
        return copy_and_verify(src, dst, sample=sample, progress=progress)

"""The linker: thresholds, caps on both endpoints, bounded candidates, no lexical edges."""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np
import pytest

from ripplemem.records import MemoryUnit, TimeSpan
from ripplemem.settings import WriteSettings
from ripplemem.stores.memory import InMemoryStore
from ripplemem.structure import structural_time
from ripplemem.write.link import Linker

NS = "ns"
T0 = datetime(2024, 5, 1, 12, 0)


def unit(uid: str, vector, *, people=(), places=(), span=None, said=T0, text=None) -> MemoryUnit:
    v = np.asarray(vector, dtype=np.float32)
    v = v / np.linalg.norm(v)
    return MemoryUnit(
        id=uid,
        namespace=NS,
        restatement=text or f"unit {uid}",
        vector=v,
        participants=tuple(people),
        locations=tuple(places),
        time_span=span,
        episode_id="s1",
        turn_ids=(uid,),
        session_time=said,
        created_at=T0,
    )


def basis(i: int, dim: int = 8, noise: float = 0.0, seed: int = 0) -> np.ndarray:
    v = np.zeros(dim, dtype=np.float32)
    v[i] = 1.0
    if noise:
        v += np.random.default_rng(seed).normal(0, noise, dim).astype(np.float32)
    return v


@pytest.fixture
def store():
    s = InMemoryStore()
    s.check_embedder("test", 8)
    return s


def add_and_link(store, linker, *units):
    store.add_units(list(units))
    return linker.link(list(units))


def test_semantic_edge_only_above_threshold(store):
    linker = Linker(store)
    a = unit("a", basis(0), said=None)
    near = unit("near", basis(0, noise=0.05, seed=1), said=None)  # cos ~0.99
    far = unit("far", basis(0) + basis(1), said=None)  # cos ~0.71 < 0.85
    add_and_link(store, linker, a)
    add_and_link(store, linker, near, far)
    sem = store.neighbours(NS, ["a"], "semantic")["a"]
    assert [n for n, _ in sem] == ["near"]
    assert sem[0][1] >= 0.85
    assert store.neighbours(NS, ["near"], "semantic")["near"][0][0] == "a"  # both directions


def test_structural_edge_uses_who_where_when(store):
    linker = Linker(store)
    a = unit("a", basis(0), people=["Maya", "Sam"], places=["Harbor Grill"], said=T0)
    same = unit("same", basis(1), people=["maya", "Sam"], places=["harbor grill"], said=T0)
    other_people = unit("other", basis(2), people=["Tom"], said=T0 + timedelta(days=60))
    add_and_link(store, linker, a, same, other_people)
    structural = {n for n, _ in store.neighbours(NS, ["a"], "structural")["a"]}
    assert structural == {"same"}  # normalised names match; Tom, two months later, does not
    assert store.neighbours(NS, ["a"], "semantic")["a"] == []  # orthogonal vectors


def test_no_comparable_cue_no_structural_edge(store):
    linker = Linker(store)
    a = unit("a", basis(0), people=["Maya"], said=None)
    b = unit("b", basis(1), places=["Lisbon"], said=None)
    add_and_link(store, linker, a, b)
    assert store.neighbours(NS, ["a"], "structural")["a"] == []


def test_caps_hold_on_both_endpoints_and_evict_weakest(store):
    settings = WriteSettings(max_semantic_edges=2)
    linker = Linker(store, settings)
    hub = unit("hub", basis(0), said=None)
    add_and_link(store, linker, hub)
    for i, noise in enumerate([0.2, 0.15, 0.1]):  # each newcomer closer to the hub than the last
        add_and_link(store, linker, unit(f"n{i}", basis(0, noise=noise, seed=i + 10), said=None))
    hub_edges = store.neighbours(NS, ["hub"], "semantic")["hub"]
    assert len(hub_edges) <= 2
    for uid in ["hub", "n0", "n1", "n2"]:
        assert len(store.neighbours(NS, [uid], "semantic")[uid]) <= 2
    # the strongest links survive at the hub
    weights = sorted((w for _, w in hub_edges), reverse=True)
    assert weights == sorted(weights, reverse=True) and min(weights) > 0.9


def test_structural_time_falls_back_to_session_day():
    said = datetime(2024, 5, 1, 15, 30)
    u = unit("a", basis(0), said=said)
    assert structural_time(u) == TimeSpan.day(said)
    explicit = TimeSpan(datetime(2024, 4, 1), datetime(2024, 4, 7))
    assert structural_time(unit("b", basis(0), span=explicit, said=said)) == explicit
    assert structural_time(unit("c", basis(0), said=None)) is None


def test_insert_candidates_are_bounded(store):
    """However many units share a speaker, one insert scores a bounded pool."""
    linker = Linker(store, WriteSettings(cue_candidates=20))
    rng = np.random.default_rng(3)
    many = [
        unit(f"u{i}", rng.normal(size=8), people=["Maya"], said=T0 + timedelta(days=i))
        for i in range(300)
    ]
    store.add_units(many)
    newcomer = unit("new", rng.normal(size=8), people=["Maya"], said=T0 + timedelta(days=150))
    store.add_units([newcomer])
    assert len(linker._cue_pool(newcomer)) <= 20
    assert len(linker._structural_many([newcomer])[0]["new"]) <= 20
    report = linker.link([newcomer])
    assert report.added <= 12
    pool = len(linker._cue_pool(newcomer))
    assert 0 < pool <= report.candidates <= pool + 21  # the cue pool and the dense hits
    # the nearest in time win the structural slots
    days = sorted(
        abs((store.get_units(NS, [n])[0].session_time - newcomer.session_time).days)
        for n, _ in store.neighbours(NS, ["new"], "structural")["new"]
    )
    assert days and max(days) <= 7


def test_semantic_threshold_comes_from_the_embedder_unless_set():
    from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
    from ripplemem.write.pipeline import resolve_thresholds

    embedder = MiniLMFloatEmbedder()  # nothing loads until embed()
    assert resolve_thresholds(WriteSettings(), embedder).semantic_threshold == 0.75
    assert (
        resolve_thresholds(WriteSettings(semantic_threshold=0.9), embedder).semantic_threshold
        == 0.9
    )

    class Plain:  # an embedder with no calibrated threshold (a remote model, say)
        name, dim = "plain", 8
        semantic_edge_threshold = None

    assert resolve_thresholds(WriteSettings(), Plain()).semantic_threshold == 0.85


class RecordingStore(InMemoryStore):
    """A real store that notes how units were read."""

    def __init__(self) -> None:
        super().__init__()
        self.reads: list[bool] = []

    def get_units(self, namespace, ids, *, with_vectors=True):
        self.reads.append(with_vectors)
        return super().get_units(namespace, ids, with_vectors=with_vectors)


def test_the_linker_reads_candidate_units_without_their_vectors():
    store = RecordingStore()
    store.check_embedder("test", 8)
    linker = Linker(store)
    a = unit("a", basis(0), people=["Maya"], said=T0)
    b = unit("b", basis(1), people=["Maya"], said=T0)
    add_and_link(store, linker, a)
    add_and_link(store, linker, b)
    assert store.neighbours(NS, ["b"], "structural")["b"] == [("a", pytest.approx(1.0))]
    assert store.reads and not any(store.reads)  # scoring who / where / when needs no vector


def crowd(n: int) -> list[MemoryUnit]:
    """Units in three tight clusters, few speakers: caps fill and edges get evicted."""
    return [
        unit(
            f"c{i:02d}",
            basis(i % 3, noise=0.15, seed=i),
            people=[("Maya", "Omar", "Lena")[i % 3], ("Omar", "Lena")[i % 2]],
            said=T0 + timedelta(hours=7 * i),
        )
        for i in range(n)
    ]


def all_edges(store, ids):
    return sorted((e.src, e.kind, e.dst, e.weight) for i in ids for e in store.edges_of(NS, i))


def test_a_batch_links_exactly_as_its_units_one_by_one(tmp_path):
    """Decisions within a batch see the edges made and evicted by the units before them."""
    from ripplemem.stores.sqlite import SQLiteStore

    settings = WriteSettings(max_semantic_edges=3, max_structural_edges=3)
    units = crowd(40)
    graphs, reports = [], []
    for name, batches in (("whole", [units]), ("single", [[u] for u in units])):
        with SQLiteStore(tmp_path / f"{name}.db") as store:
            store.check_embedder("test", 8)
            store.add_units(units)
            linker = Linker(store, settings)
            done = [linker.link(batch) for batch in batches]
            reports.append((sum(r.added for r in done), sum(r.evicted for r in done)))
            graphs.append(all_edges(store, [u.id for u in units]))
    assert reports[0] == reports[1] and reports[0][1] > 0  # evictions happened
    assert [e[:3] for e in graphs[0]] == [e[:3] for e in graphs[1]] and graphs[0]
    # a batched matrix product may differ from a single one in the last bits of float32
    assert [e[3] for e in graphs[0]] == pytest.approx([e[3] for e in graphs[1]], abs=1e-6)


class CountingStore(InMemoryStore):
    """A real store that counts the calls the linker makes."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: dict[str, int] = {}

    def _count(self, name):
        self.calls[name] = self.calls.get(name, 0) + 1

    def neighbours(self, namespace, ids, kind):
        self._count("neighbours")
        return super().neighbours(namespace, ids, kind)

    def get_units(self, namespace, ids, *, with_vectors=True):
        self._count("get_units")
        return super().get_units(namespace, ids, with_vectors=with_vectors)

    def change_edges(self, *, remove=(), add=()):
        self._count("change_edges")
        super().change_edges(remove=remove, add=add)


def test_a_batch_reads_and_writes_its_edges_once():
    store = CountingStore()
    store.check_embedder("test", 8)
    linker = Linker(store, WriteSettings(max_semantic_edges=3, max_structural_edges=3))
    units = crowd(30)
    add_and_link(store, linker, *units[:15])
    store.calls.clear()
    report = add_and_link(store, linker, *units[15:])
    assert report.added and report.evicted
    assert store.calls == {"neighbours": 2, "get_units": 1, "change_edges": 1}


def test_a_conversation_links_alike_in_any_namespace():
    """Ties between candidates (the same speakers on the same day) are broken by what was said,
    not by the unit id, which hashes the namespace."""
    import hashlib
    from dataclasses import replace

    settings = WriteSettings(max_semantic_edges=3, max_structural_edges=3)
    said = []
    for namespace in ("alpha", "beta", "gamma"):
        store = InMemoryStore()
        store.check_embedder("test", 8)
        linker = Linker(store, settings)
        units = [
            replace(
                unit(f"t{i:02d}", basis(i % 2, noise=0.3, seed=i), people=["Maya", "Omar"]),
                id=hashlib.sha1(f"{namespace}/{i}".encode()).hexdigest()[:16],
                namespace=namespace,
            )
            for i in range(24)
        ]
        add_and_link(store, linker, *units[:12])
        add_and_link(store, linker, *units[12:])
        turn = {u.id: u.turn_ids[0] for u in units}
        said.append(
            sorted(
                (turn[e.src], e.kind, turn[e.dst], round(e.weight, 5))
                for u in units
                for e in store.edges_of(namespace, u.id)
            )
        )
    assert said[0] and said[0] == said[1] == said[2]

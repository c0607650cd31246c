"""Many writers at once, on PostgreSQL and on SQLite: 4 processes add to one namespace while 4
others add to a namespace each, all through ``Memory.add``.

No error reaches a caller (waiting for another writer is the store's business), nothing is lost
or doubled, and the memory is the one a serial ingest makes: per namespace, adds are serialised
whole (one ``write()`` block each), so the shared namespace equals a serial ingest of the same
conversations in the order their adds committed (read from the stored units' order), and every
other namespace equals its conversation ingested alone.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reliability.scenario import difference
from ripplemem import Memory, Settings
from ripplemem.extensions import warm_up

pytestmark = pytest.mark.slow

SHARED = "team"
WRITERS = 4
PEOPLE = ("Maya", "Priya", "Sam", "Lena", "Omar", "Aiko", "Ravi", "Noah")
PLACES = ("Lisbon", "Berlin", "Porto", "Oslo", "Kyoto", "Lima", "Cairo", "Quito")
HOBBIES = ("pottery", "climbing", "chess", "sailing", "baking", "cycling", "painting", "running")


def conversation(n: int) -> list[dict[str, str]]:
    """A small invented chat, different for each ``n``; Maya is in every one (cross links)."""
    friend, place, hobby = PEOPLE[n % 8], PLACES[n % 8], HOBBIES[n % 8]
    other = PLACES[(n + 3) % 8]
    return [
        {"speaker": "Maya", "text": f"I spent last weekend in {place} with {friend}."},
        {"speaker": friend, "text": f"It was great, we tried {hobby} together by the river in {place}."},
        {"speaker": "Maya", "text": f"{friend} wants to take up {hobby} every Saturday now."},
        {"speaker": friend, "text": f"Next month I am flying to {other} for a conference on {hobby}."},
        {"speaker": "Maya", "text": f"Send me photos from {other}, and say hi to your brother there."},
        {"speaker": friend, "text": f"I will, and I am bringing you a {hobby} book from {other}."},
    ]


def _add(
    url: str, namespace: str, n: int, barrier: Any, results: Any
) -> None:  # a child process
    try:
        settings = Settings(store=url, extractor="deterministic", planner="deterministic")
        with Memory(settings) as memory:
            warm_up(memory)  # load the models before the start line
            barrier.wait(timeout=300)
            started = time.perf_counter()
            added = memory.add(
                conversation(n),
                namespace=namespace,
                session_id=f"chat-{n}",
                session_time=f"2024-0{1 + n % 8}-10T10:00",
            )
            results.put((n, len(added.units), added.edges, time.perf_counter() - started, None))
    except BaseException:  # noqa: BLE001 - reported to the parent
        results.put((n, 0, 0, 0.0, traceback.format_exc()))


def _state(memory: Memory, namespace: str) -> dict[str, Any]:
    store = memory.store
    units = store.list_units(namespace)
    ids = [u.id for u in units]
    clue_ids = sorted({m.clue_id for m in store.clues.clues_of_units(namespace, ids).values()})
    return {
        "units": sorted((u.id, u.restatement, u.episode_id) for u in units),
        "edges": {
            kind: {
                k: sorted(v)
                for k, v in store.neighbours(namespace, ids, kind).items()
            }
            for kind in ("semantic", "structural")
        },
        "clues": sorted(
            (c.id, c.text, c.sessions) for c in store.clues.get_clues(namespace, clue_ids)
        ),
        "links": {k: sorted(v) for k, v in store.clues.links(namespace, ids).items()},
        "lexical": store.search_lexical(namespace, "Maya weekend hobby conference photos", 20),
    }


def _commit_order(memory: Memory, namespace: str) -> list[int]:
    """The conversations of a namespace in the order their units were stored."""
    order: list[int] = []
    for unit in memory.store.list_units(namespace):
        n = int(unit.episode_id.removeprefix("chat-"))
        if n not in order:
            order.append(n)
    return order


def _serial(url: str, plan: list[tuple[str, int]], embedder: Any) -> Memory:
    memory = Memory(
        Settings(store=url, extractor="deterministic", planner="deterministic"), embedder=embedder
    )
    for namespace, n in plan:
        memory.add(
            conversation(n),
            namespace=namespace,
            session_id=f"chat-{n}",
            session_time=f"2024-0{1 + n % 8}-10T10:00",
        )
    return memory


def run_many_writers(url: str, reference_url: str, embedder: Any) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    barrier, results = context.Barrier(2 * WRITERS), context.Queue()
    jobs = [(SHARED, n) for n in range(WRITERS)]
    jobs += [(f"solo-{n}", n) for n in range(WRITERS, 2 * WRITERS)]
    processes = [
        context.Process(target=_add, args=(url, namespace, n, barrier, results))
        for namespace, n in jobs
    ]
    started = time.perf_counter()
    for process in processes:
        process.start()
    reports = [results.get(timeout=600) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    wall = time.perf_counter() - started
    errors = [report[4] for report in reports if report[4]]
    assert errors == [], errors[0]
    added = {n: (units, edges) for n, units, edges, _, _ in reports}
    with Memory(
        Settings(store=url, extractor="deterministic", planner="deterministic"), embedder=embedder
    ) as memory:
        order = _commit_order(memory, SHARED)
        assert sorted(order) == list(range(WRITERS))
        got = {ns: _state(memory, ns) for ns in [SHARED, *(f"solo-{n}" for n in range(WRITERS, 8))]}
        assert memory.store.count(SHARED) == sum(added[n][0] for n in range(WRITERS))
    plan = [(SHARED, n) for n in order] + [(f"solo-{n}", n) for n in range(WRITERS, 2 * WRITERS)]
    with _serial(reference_url, plan, embedder) as serial:
        expected = {ns: _state(serial, ns) for ns in got}
    for namespace, state in got.items():  # floats within 1e-5: see scenario.FLOAT_TOLERANCE
        assert (where := difference(expected[namespace], state)) is None, f"{namespace}: {where}"
    units = sum(units for units, _ in added.values())
    return {"wall_s": wall, "units": units, "adds_s": [report[3] for report in reports]}


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_many_writers_lose_nothing_and_match_a_serial_ingest(
    backend: str,
    postgres_store_url: Callable[[str], str],
    tmp_path: Path,
    embedder: Any,
) -> None:
    if backend == "postgresql":
        url, reference = postgres_store_url("writers"), postgres_store_url("serial")
    else:
        url, reference = str(tmp_path / "writers.db"), str(tmp_path / "serial.db")
    report = run_many_writers(url, reference, embedder)
    assert report["units"] > 0
    print(f"{backend}: {report['units']} units by 8 writers in {report['wall_s']:.1f} s wall")

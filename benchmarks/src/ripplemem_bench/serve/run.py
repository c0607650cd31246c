"""One ``bench serve`` run: the store, the server, the clients, the check afterwards.

1. The store holds ``units`` synthetic memories of namespace ``bench`` (built, or reused).
2. ``ripplemem serve`` starts on 127.0.0.1 as a process of its own, with a new key for ``bench``.
3. ``clients`` threads run for ``seconds`` (:mod:`.clients`).
4. The background adds are waited for, the server gets SIGTERM, and the store is reopened: every
   acknowledged add (200, or 202 whose job finished) must be there.

Only loopback, bounded: ``clients`` 1..64, ``seconds`` 1..600.
"""

from __future__ import annotations

import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, closing, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import git_commit, loadavg, machine_info, percentile_or_none
from ripplemem_bench.results.base import Machine
from ripplemem_bench.results.service import Latency, ServeResult, ServeSettings, ServeStore
from ripplemem_bench.serve.clients import Tally, client_loop, unfinished_jobs
from ripplemem_bench.serve.server import ServerProcess
from ripplemem_bench.serve.store import NAMESPACE, build_store

__all__ = ["AIMS", "run_serve_bench", "store_url"]

#: what this 2-core machine should reach with SQLite
AIMS = {"searches_per_s": 60.0, "search_p99_ms": 250.0}
MAX_CLIENTS, MAX_SECONDS = 64, 600.0
WARM_UP = ("What did Maya do in Lisbon?", "When did Omar go kayaking?")

Progress = Callable[[str], None]


@contextmanager
def store_url(store: str, data_dir: Path | None = None) -> Iterator[tuple[str, str]]:
    """``(backend, url)`` of the store to load: ``sqlite`` (a file in ``data_dir`` or a temporary
    folder), ``postgres`` (a private server from ``data_dir`` or a temporary folder), or a path /
    URL used as it is."""
    from ripplemem.stores import scheme_of

    with ExitStack() as stack:
        if store == "sqlite":
            folder = data_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(
                prefix="ripplemem-serve-")))
            folder.mkdir(parents=True, exist_ok=True)
            yield "sqlite", str(folder / "serve.db")
        elif store == "postgres":
            from ripplemem.testing import private_postgres

            yield "postgresql", stack.enter_context(private_postgres(data_dir))
        else:
            kind = scheme_of(store)
            if kind == "memory":
                raise InvalidInputError(
                    "--store memory:// cannot be shared with a server process; use sqlite or postgres"
                )
            yield ("postgresql" if kind.startswith("postgres") else kind), store


@dataclass(slots=True)
class _Load:
    """What the clients measured, and the server's side of it."""

    tally: Tally
    elapsed: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    load_during: list[float] | None = None
    search_processes: int | None = None
    unfinished: list[str] = field(default_factory=list)


def run_serve_bench(
    url: str,
    *,
    backend: str,
    units: int = 10_000,
    clients: int = 8,
    seconds: float = 60.0,
    add_share: float = 0.1,
    limit: int = 10,
    server_args: list[str] | None = None,
    progress: Progress | None = None,
) -> ServeResult:
    """Load ``ripplemem serve`` over the store at ``url``; the result."""
    from ripplemem import Memory, Settings
    from ripplemem.stores import open_store

    if not 1 <= clients <= MAX_CLIENTS or not 1 <= seconds <= MAX_SECONDS:
        raise InvalidInputError(f"--clients must be 1..{MAX_CLIENTS} and --seconds 1..{MAX_SECONDS:.0f}")
    if not 0.0 <= add_share <= 1.0:
        raise InvalidInputError("--add-share is a share of the operations: 0..1")
    say = progress or (lambda text: None)
    say(f"store: {units:,} units in {backend} ...")
    built = build_store(url, units, progress=lambda done, total: say(f"store: {done:,} / {total:,}"))
    with closing(open_store(url)) as store:
        before = store.count(NAMESPACE)
    with Memory(Settings.from_env(store=url)) as memory:  # the verb `ripplemem keys create` uses
        _, key = memory.keys.create([NAMESPACE], label="bench serve")
    settings = ServeSettings(clients=clients, seconds=seconds, add_share=add_share, limit=limit,
                             server_args=list(server_args or []))
    load_before = loadavg()
    server = ServerProcess.start(url, settings.server_args)
    try:
        load = _load(server, key, settings, min(units, built.units), say)
    finally:
        exit_code = server.stop()
    with closing(open_store(url)) as store:
        sessions = {u.episode_id for u in store.list_units(NAMESPACE)}
        after = store.count(NAMESPACE)
    missing = sorted(s for s in load.tally.acknowledged if s not in sessions)
    store_facts = ServeStore(backend=backend, namespace=NAMESPACE, reused=built.reused,
                             build_s=built.build_s, units_before=before, units_after=after)
    result = _result(store_facts, built.embedder, settings, load, missing, load_before)
    result.server_exit_code = exit_code
    if result.errors:  # what the server said about them
        result.server_log_tail = [line.rstrip() for line in server.log[-40:]]
    return result


def _load(
    server: ServerProcess, key: str, settings: ServeSettings, stored: int,
    say: Callable[[str], None],
) -> _Load:
    """Warm the server up, run the clients for ``settings.seconds``, wait for the adds."""
    load = _Load(Tally())
    with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"},
                      timeout=60) as http:
        for question in WARM_UP:
            http.post("/v1/search", json={"query": question, "limit": settings.limit}).raise_for_status()
        load.search_processes = int(http.get("/healthz").json()["search_processes"])
    say(f"{settings.clients} clients for {settings.seconds:.0f} s against {server.url} ...")
    stop_at = time.monotonic() + settings.seconds
    server_cpu, client_cpu = server.cpu_s(), time.process_time()
    started = time.perf_counter()
    threads = [
        threading.Thread(target=client_loop, args=(server.url, key, i, stop_at), kwargs={
            "add_share": settings.add_share, "limit": settings.limit, "stored": stored,
            "tally": load.tally})
        for i in range(settings.clients)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    load.elapsed = time.perf_counter() - started
    load.server_cpu = server.cpu_s() - server_cpu
    load.client_cpu = time.process_time() - client_cpu
    load.load_during = loadavg()
    say("waiting for the background adds ...")
    load.unfinished = unfinished_jobs(server.url, key, load.tally)
    return load


def _ms(values: list[float], share: float) -> float | None:
    value = percentile_or_none(values, share)
    return None if value is None else round(value, 1)


def _result(store: ServeStore, embedder: str, settings: ServeSettings, load: _Load,
            missing: list[str], load_before: list[float] | None) -> ServeResult:
    tally, searches = load.tally, len(load.tally.search_ms)
    errors = tally.errors + [f"job {j} not done" for j in load.unfinished]
    per_s = round(searches / load.elapsed, 1)
    search = Latency(p50=_ms(tally.search_ms, 50), p95=_ms(tally.search_ms, 95),
                     p99=_ms(tally.search_ms, 99),
                     mean=round(statistics.fmean(tally.search_ms), 1) if searches else None)
    return ServeResult(
        benchmark="serve", date=datetime.now(UTC).isoformat(timespec="seconds"),
        commit=git_commit(), machine=Machine.model_validate(machine_info()),
        load=load.load_during,  # the load average as the clients stopped (1, 5, 15 min)
        loadavg={"before": load_before, "after_load": load.load_during},
        store=store, embedder=embedder,
        settings=settings.model_copy(update={"seconds": round(load.elapsed, 1),
                                             "search_processes": load.search_processes}),
        searches=searches, searches_per_s=per_s, search_ms=search,
        adds_acknowledged=len(tally.acknowledged),
        add_ms=Latency(p50=_ms(tally.add_ms, 50), p99=_ms(tally.add_ms, 99)),
        errors=len(errors), error_samples=errors[:10], acknowledged_adds_missing=len(missing),
        cpu_s={"server": round(load.server_cpu, 1), "clients": round(load.client_cpu, 1)},
        server_cpu_ms_per_search=round(load.server_cpu * 1000 / max(1, searches), 1),
        checks={
            "errors == 0": not errors,
            "every acknowledged add present": not missing,
            f"searches/s >= {AIMS['searches_per_s']:.0f}": per_s >= AIMS["searches_per_s"],
            f"p99 <= {AIMS['search_p99_ms']:.0f} ms": (search.p99 or 0) <= AIMS["search_p99_ms"],
        },
    )

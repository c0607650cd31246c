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
from contextlib import ExitStack, contextmanager
from datetime import UTC, datetime
from pathlib import Path

import httpx

from ripplemem.errors import InvalidInputError
from ripplemem_bench.measure import git_commit, loadavg, machine_info, percentile_or_none
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
    from ripplemem.stores.registry import scheme_of

    with ExitStack() as stack:
        if store == "sqlite":
            folder = data_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(
                prefix="ripplemem-serve-")))
            folder.mkdir(parents=True, exist_ok=True)
            yield "sqlite", str(folder / "serve.db")
        elif store == "postgres":
            from ripplemem.testing.postgres import private_postgres

            yield "postgresql", stack.enter_context(private_postgres(data_dir))
        else:
            kind = scheme_of(store)
            if kind == "memory":
                raise InvalidInputError(
                    "--store memory:// cannot be shared with a server process; use sqlite or postgres"
                )
            yield ("postgresql" if kind.startswith("postgres") else kind), store


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
) -> dict:
    """Load ``ripplemem serve`` over the store at ``url``; the result dict."""
    from ripplemem.core.keys import create_key
    from ripplemem.stores.registry import open_store

    if not 1 <= clients <= MAX_CLIENTS or not 1 <= seconds <= MAX_SECONDS:
        raise InvalidInputError(f"--clients must be 1..{MAX_CLIENTS} and --seconds 1..{MAX_SECONDS:.0f}")
    if not 0.0 <= add_share <= 1.0:
        raise InvalidInputError("--add-share is a share of the operations: 0..1")
    say = progress or (lambda text: None)
    say(f"store: {units:,} units in {backend} ...")
    built = build_store(url, units, progress=lambda done, total: say(f"store: {done:,} / {total:,}"))
    stored = min(units, built["units"])
    with open_store(url) as store:
        before = store.count(NAMESPACE)
        _, key = create_key(store.keys, [NAMESPACE], label="bench serve")
    load_before = loadavg()
    server = ServerProcess.start(url, list(server_args or []))
    tally = Tally()
    try:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"},
                          timeout=60) as http:
            for question in WARM_UP:
                http.post("/v1/search", json={"query": question, "limit": limit}).raise_for_status()
            workers = int(http.get("/healthz").json()["search_processes"])
        say(f"{clients} clients for {seconds:.0f} s against {server.url} ...")
        stop_at = time.monotonic() + seconds
        server_cpu, client_cpu = server.cpu_s(), time.process_time()
        started = time.perf_counter()
        threads = [
            threading.Thread(target=client_loop, args=(server.url, key, i, stop_at), kwargs={
                "add_share": add_share, "limit": limit, "stored": stored, "tally": tally})
            for i in range(clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        server_cpu = server.cpu_s() - server_cpu
        client_cpu = time.process_time() - client_cpu
        load_during = loadavg()
        say("waiting for the background adds ...")
        unfinished = unfinished_jobs(server.url, key, tally)
    finally:
        exit_code = server.stop()
    with open_store(url) as store:
        sessions = {u.episode_id for u in store.list_units(NAMESPACE)}
        after = store.count(NAMESPACE)
    missing = sorted(s for s in tally.acknowledged if s not in sessions)
    return _result(
        backend=backend, built=built, before=before, after=after, clients=clients,
        elapsed=elapsed, add_share=add_share, limit=limit, server_args=list(server_args or []),
        search_processes=workers, tally=tally, unfinished=unfinished, missing=missing,
        server_cpu=server_cpu,
        client_cpu=client_cpu, loads=(load_before, load_during), exit_code=exit_code,
        server_log=server.log,
    )


def _result(*, backend: str, built: dict, before: int, after: int, clients: int, elapsed: float,
            add_share: float, limit: int, server_args: list[str], search_processes: int,
            tally: Tally,
            unfinished: list[str], missing: list[str], server_cpu: float, client_cpu: float,
            loads: tuple, exit_code: int | None, server_log: list[str]) -> dict:
    searches = len(tally.search_ms)

    def ms(values: list[float], share: float) -> float | None:
        value = percentile_or_none(values, share)
        return None if value is None else round(value, 1)

    result = {
        "benchmark": "serve",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": machine_info(),
        "load": loads[1],  # the load average as the clients stopped (1, 5, 15 min)
        "loadavg": {"before": loads[0], "after_load": loads[1]},
        "store": {"backend": backend, "namespace": NAMESPACE, "reused": built["reused"],
                  "build_s": built["build_s"], "units_before": before, "units_after": after},
        "embedder": built["embedder"],
        "settings": {"clients": clients, "seconds": round(elapsed, 1), "add_share": add_share,
                     "limit": limit, "server_args": server_args,
                     "search_processes": search_processes},
        "searches": searches,
        "searches_per_s": round(searches / elapsed, 1),
        "search_ms": {"p50": ms(tally.search_ms, 50), "p95": ms(tally.search_ms, 95),
                      "p99": ms(tally.search_ms, 99),
                      "mean": round(statistics.fmean(tally.search_ms), 1) if searches else None},
        "adds_acknowledged": len(tally.acknowledged),
        "add_ms": {"p50": ms(tally.add_ms, 50), "p99": ms(tally.add_ms, 99)},
        "errors": len(tally.errors) + len(unfinished),
        "error_samples": (tally.errors + [f"job {j} not done" for j in unfinished])[:10],
        "acknowledged_adds_missing": len(missing),
        "cpu_s": {"server": round(server_cpu, 1), "clients": round(client_cpu, 1)},
        "server_cpu_ms_per_search": round(server_cpu * 1000 / max(1, searches), 1),
        "server_exit_code": exit_code,
    }
    if result["errors"]:  # what the server said about them
        result["server_log_tail"] = [line.rstrip() for line in server_log[-40:]]
    result["checks"] = {
        "errors == 0": result["errors"] == 0,
        "every acknowledged add present": not missing,
        f"searches/s >= {AIMS['searches_per_s']:.0f}": result["searches_per_s"] >= AIMS["searches_per_s"],
        f"p99 <= {AIMS['search_p99_ms']:.0f} ms": (result["search_ms"]["p99"] or 0) <= AIMS["search_p99_ms"],
    }
    return result

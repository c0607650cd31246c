"""Load on ``ripplemem serve``: concurrent clients mixing searches and adds, on loopback only.

    python benchmarks/serve_load.py [--units 10000] [--clients 8] [--seconds 60] [--json out.json]

1. Builds (or reuses, ``--store``) a SQLite store of ``--units`` synthetic memories in namespace
   ``bench``: the real embedder's vectors, stored and linked exactly as the write path does
   (``add_units`` then ``Linker.link``, in batches).
2. Starts ``ripplemem serve`` on 127.0.0.1 (a random port) as a separate process, with a key
   bound to ``bench``.
3. Runs ``--clients`` clients for ``--seconds``: each loops over searches (synthetic questions
   about stored memories, the ``ripple`` recipe) and, with probability ``--add-share``, an add of a
   new two-message session (alternately ``wait=true`` and ``wait=false``).
4. Waits for the background adds, stops the server with SIGTERM, reopens the store and checks that
   every acknowledged add (200, or 202 whose job finished) is there.

Prints searches/s, search p50 / p99, adds, errors (any non-2xx answer or failed request) and the
acknowledged adds found afterwards; ``--json`` writes them. Requests go to 127.0.0.1 only, and the
run is bounded in time (``--seconds`` at most 600) and in clients (at most 64).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import httpx

NAMESPACE = "bench"
HOST = "127.0.0.1"


def synthetic_memories():
    try:
        from ripplemem_bench.synthetic import SyntheticMemories
    except ImportError:
        from ripplemem_bench.speed.synthetic import SyntheticMemories
    return SyntheticMemories(seed=0, namespace=NAMESPACE)


# -- 1. the store -----------------------------------------------------------------------------
def build_store(path: Path, units: int, *, batch: int = 500) -> dict:
    """A store of ``units`` synthetic memories (reused when it already holds them)."""
    from ripplemem.providers.factory import make_embedder
    from ripplemem.settings import Settings, WriteSettings
    from ripplemem.stores.registry import open_store
    from ripplemem.write.link import Linker
    from ripplemem.write.pipeline import resolve_thresholds

    settings = Settings.from_env(store=str(path))
    embedder = make_embedder(settings.embedder)
    memories = synthetic_memories()
    started = time.perf_counter()
    with open_store(str(path)) as store:
        have = store.count(NAMESPACE)
        if have >= units:
            return {"reused": True, "units": have, "seconds": 0.0}
        store.check_embedder(embedder.name, embedder.dim)
        linker = Linker(store, resolve_thresholds(WriteSettings(), embedder))
        for start in range(have, units, batch):
            items = memories.take(start, min(start + batch, units))
            vectors = embedder.embed([m.unit.restatement for m in items], input_type="document")
            fresh = [m.unit.with_vector(v) for m, v in zip(items, vectors)]
            with store.write([NAMESPACE]):
                store.add_units(fresh)
                linker.link(fresh)
            print(f"  store: {start + len(fresh):,} / {units:,} units", file=sys.stderr, flush=True)
        total = store.count(NAMESPACE)
    return {"reused": False, "units": total, "seconds": round(time.perf_counter() - started, 1)}


# -- 2. the server ----------------------------------------------------------------------------
def start_server(path: Path, extra: list[str]) -> tuple[subprocess.Popen, str, list[str]]:
    command = [sys.executable, "-m", "ripplemem.cli.main", "serve", "--store", str(path),
               "--host", HOST, "--port", "0", "--log-level", "warning", *extra]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, env=env)
    log: list[str] = []
    deadline = time.monotonic() + 120
    assert process.stdout is not None
    url = None
    while url is None and time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        log.append(line)
        found = re.search(r" on (http://127\.0\.0\.1:\d+)", line)
        url = found.group(1) if found else None
    if url is None:
        process.kill()
        raise RuntimeError("the server did not start:\n" + "".join(log))
    threading.Thread(target=lambda: log.extend(process.stdout), daemon=True).start()
    for _ in range(600):  # the port is announced before the app is ready
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return process, url, log
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server never answered /healthz:\n" + "".join(log))


# -- 3. the clients -----------------------------------------------------------------------------
@dataclass
class Tally:
    search_ms: list[float] = field(default_factory=list)
    add_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[str, str] = field(default_factory=dict)  # session id -> "sync" or job id
    lock: threading.Lock = field(default_factory=threading.Lock)


def client_loop(url: str, key: str, index: int, stop_at: float, add_share: float, limit: int,
                stored: int, tally: Tally) -> None:
    rng = random.Random(1000 + index)
    memories = synthetic_memories()
    headers = {"Authorization": f"Bearer {key}"}
    adds = 0
    with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
        while time.monotonic() < stop_at:
            try:
                if rng.random() < add_share:
                    adds += 1
                    session = f"load-{index}-{adds}"
                    item = memories.memory(stored + index * 100_000 + adds)
                    person = item.unit.participants[0]
                    body = {
                        "session_id": session,
                        "session_time": "2024-03-01T10:00",
                        "messages": [
                            {"speaker": person, "text": item.unit.restatement.replace(person, "I", 1)},
                            {"speaker": "Friend", "text": f"Tell me more about that, {person}."},
                        ],
                    }
                    wait = adds % 2 == 1
                    started = time.perf_counter()
                    response = http.post("/v1/memories", params={"wait": str(wait).lower()}, json=body)
                    elapsed = (time.perf_counter() - started) * 1000
                    ok = response.status_code == (200 if wait else 202)
                    with tally.lock:
                        if ok:
                            tally.add_ms.append(elapsed)
                            tally.acknowledged[session] = "sync" if wait else response.json()["id"]
                        else:
                            tally.errors.append(f"add {response.status_code}: {response.text[:200]}")
                else:
                    item = memories.memory(rng.randrange(stored))
                    query = memories.question(rng, item)
                    started = time.perf_counter()
                    response = http.post("/v1/search", json={"query": query, "limit": limit})
                    elapsed = (time.perf_counter() - started) * 1000
                    with tally.lock:
                        if response.status_code == 200:
                            tally.search_ms.append(elapsed)
                        else:
                            tally.errors.append(f"search {response.status_code}: {response.text[:200]}")
            except httpx.HTTPError as error:
                with tally.lock:
                    tally.errors.append(f"{type(error).__name__}: {error}")


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


# -- 4. the check ------------------------------------------------------------------------------
def wait_for_jobs(url: str, key: str, tally: Tally, timeout: float = 300) -> list[str]:
    """Job ids that did not finish as done."""
    headers = {"Authorization": f"Bearer {key}"}
    pending = {job for job in tally.acknowledged.values() if job != "sync"}
    failed: list[str] = []
    deadline = time.monotonic() + timeout
    with httpx.Client(base_url=url, headers=headers, timeout=30) as http:
        while pending and time.monotonic() < deadline:
            for job_id in list(pending):
                status = http.get(f"/v1/jobs/{job_id}").json()["status"]
                if status in ("done", "failed"):
                    pending.discard(job_id)
                    if status == "failed":
                        failed.append(job_id)
            time.sleep(0.2)
    return failed + sorted(pending)


def present_sessions(path: Path) -> set[str]:
    from ripplemem.stores.registry import open_store

    with open_store(str(path)) as store:
        units = store.list_units(NAMESPACE)
    return {u.episode_id for u in units}


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process, all its threads (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def embedder_name(path: Path) -> str | None:
    from ripplemem.stores.registry import open_store

    with open_store(str(path)) as store:
        info = store.embedder_info()
    return info[0] if info else None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def has_vnni() -> bool:
    try:
        return "avx512_vnni" in Path("/proc/cpuinfo").read_text() or "avx_vnni" in Path(
            "/proc/cpuinfo"
        ).read_text()
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--add-share", type=float, default=0.1, help="share of operations that add")
    parser.add_argument("--limit", type=int, default=10, help="evidence budget of each search")
    parser.add_argument("--store", type=Path, default=None, help="SQLite file to build or reuse")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--server-arg", action="append", default=[],
                        help="extra option for ripplemem serve (repeat)")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= 64 or not 1 <= args.seconds <= 600:
        parser.error("--clients must be 1..64 and --seconds 1..600")
    workdir = None
    if args.store is None:
        workdir = tempfile.TemporaryDirectory(prefix="ripplemem-load-")
        args.store = Path(workdir.name) / "load.db"
    print(f"building the store ({args.units:,} units) ...", file=sys.stderr, flush=True)
    built = build_store(args.store, args.units)
    stored = min(args.units, built["units"])

    from ripplemem.server.keys import create_key
    from ripplemem.stores.registry import open_store

    with open_store(str(args.store)) as store:
        before = store.count(NAMESPACE)
        _, key = create_key(store.keys, [NAMESPACE], label="serve_load")
    load_before = [round(x, 2) for x in os.getloadavg()]
    process, url, _ = start_server(args.store, args.server_arg)
    tally = Tally()
    try:
        with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60) as http:
            for question in ("What did Maya do in Lisbon?", "When did Omar go kayaking?"):
                http.post("/v1/search", json={"query": question, "limit": args.limit})  # warm-up
        print(f"{args.clients} clients for {args.seconds:.0f} s against {url} ...",
              file=sys.stderr, flush=True)
        stop_at = time.monotonic() + args.seconds
        server_cpu, client_cpu = process_cpu_s(process.pid), time.process_time()
        started = time.perf_counter()
        threads = [
            threading.Thread(target=client_loop, args=(url, key, i, stop_at, args.add_share,
                                                       args.limit, stored, tally))
            for i in range(args.clients)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
        server_cpu = process_cpu_s(process.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
        unfinished = wait_for_jobs(url, key, tally)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
    sessions = present_sessions(args.store)
    missing = sorted(s for s in tally.acknowledged if s not in sessions)
    with open_store(str(args.store)) as store:
        after = store.count(NAMESPACE)
    result = {
        "benchmark": "serve_load",
        "when": datetime.now(UTC).isoformat(timespec="seconds"),
        "cpu": cpu_model(),
        "vnni": has_vnni(),
        "cores": os.cpu_count(),
        "loadavg_before": load_before,
        "loadavg_after": [round(x, 2) for x in os.getloadavg()],
        "store": {"backend": "sqlite", **built, "units_before": before, "units_after": after},
        "embedder": embedder_name(args.store),
        "clients": args.clients,
        "seconds": round(elapsed, 1),
        "add_share": args.add_share,
        "limit": args.limit,
        "searches": len(tally.search_ms),
        "searches_per_s": round(len(tally.search_ms) / elapsed, 1),
        "search_ms": {
            "p50": round(percentile(tally.search_ms, 0.50), 1),
            "p99": round(percentile(tally.search_ms, 0.99), 1),
            "mean": round(statistics.fmean(tally.search_ms), 1) if tally.search_ms else None,
        },
        "cpu_s": {"server": round(server_cpu, 1), "clients": round(client_cpu, 1)},
        "server_cpu_ms_per_search": round(server_cpu * 1000 / max(1, len(tally.search_ms)), 1),
        "adds_acknowledged": len(tally.acknowledged),
        "add_ms": {
            "p50": round(percentile(tally.add_ms, 0.50), 1),
            "p99": round(percentile(tally.add_ms, 0.99), 1),
        },
        "errors": len(tally.errors) + len(unfinished),
        "error_samples": (tally.errors + [f"job {j} not done" for j in unfinished])[:10],
        "acknowledged_adds_missing": len(missing),
        "server_exit_code": process.returncode,
        "targets": {"searches_per_s >= 60": None, "p99 <= 250 ms": None, "errors == 0": None},
    }
    result["targets"] = {
        "searches_per_s >= 60": result["searches_per_s"] >= 60,
        "p99 <= 250 ms": result["search_ms"]["p99"] <= 250,
        "errors == 0": result["errors"] == 0,
        "every acknowledged add present": not missing,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if workdir is not None:
        workdir.cleanup()
    return 0 if result["errors"] == 0 and not missing else 1


if __name__ == "__main__":
    sys.exit(main())

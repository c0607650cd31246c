"""``ripplemem bench bounded``: what the most expensive texts cost, next to ordinary dialogue.

Three parts, each against a baseline measured in the same run:

1. **Library**: each text is added as one message to a fresh namespace of a SQLite store and
   searched with its first 4,000 characters (the shipped embedder, the deterministic extractor).
   Reported: seconds, seconds per 1,000 characters, the ratio to ordinary dialogue of the same
   length, and how many units fell back to rule-only time grounding. A text that yields no unit
   (punctuation, digits: chit-chat) is searched in the baseline's namespace. The texts: time expressions
   side by side (Duckling's parse grows exponentially with them), one short pattern repeated
   (abbreviations, quote marks, parentheses, CJK), each 20,000 characters (the message limit),
   and the 120-character "yesterday" x 12.
2. **Delete with a reader**: another connection holds a read transaction; how long ``delete``
   takes, and how long after the reader ends the deleted text has left the files.
3. **Service**: a real ``ripplemem serve`` (its own process, the default budget): each request's
   status, wall seconds and the CPU seconds the server process and its children (the time
   parser, search workers; a parser killed at a deadline included) spent on it, plus searches of
   another namespace sent meanwhile.
4. **Agreement** (with a LoCoMo file): every turn and caption grounded sentence by sentence with
   the deadlines, and in one unbounded parse of the whole text: how many give the same times.
"""

from __future__ import annotations

import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ripplemem_bench.measure import Progress, git_commit, loadavg, machine_info

__all__ = ["CASES", "run_bounded_bench"]

SIZE = 20_000
DIALOGUE = (
    "I went hiking with Priya near Lisbon last weekend and we had pastel de nata after. "
    "My sister Ana is visiting in June, she wants to see the old town and the river. "
    "Did you finish the book about the lighthouse keeper? I loved the ending. "
)


def _fill(pattern: str, size: int = SIZE) -> str:
    return (pattern * (size // len(pattern) + 1))[:size]


#: name -> text (the baseline first)
CASES: dict[str, str] = {
    "dialogue (baseline)": _fill(DIALOGUE),
    "'yesterday ' x 12": "yesterday " * 12,
    "yesterday x 2,000": _fill("yesterday "),
    "tomorrow at noon": _fill("tomorrow at noon "),
    "tonight": _fill("tonight "),
    "Dec 3": _fill("Dec 3 "),
    "3/4": _fill("3/4 "),
    "mixed dates": _fill("on Monday, May 3rd 2021 at 5pm, "),
    "in the 1990s": _fill("in the 1990s "),
    "Dr. x 5,000": _fill("Dr. "),
    "quote marks": _fill('"'),
    "curly quotes": _fill("“a” "),
    "parentheses": _fill("(", SIZE // 2) + _fill(")", SIZE // 2),
    "Chinese": _fill("我昨天在北京见了王伟。"),
    "digits": _fill("1 2 3 4 5 6 7 8 9 "),
}


def run_bounded_bench(
    *, locomo: Path | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    say = progress or (lambda what, done, total: None)
    result: dict[str, Any] = {
        "benchmark": "bounded",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": {**machine_info(), "loadavg_start": loadavg()},
    }
    with tempfile.TemporaryDirectory(prefix="ripplemem-bounded-") as folder:
        result["library"] = _library(Path(folder) / "library.db", say)
        result["delete_with_reader"] = _delete_with_reader(Path(folder) / "delete.db")
        say("service", 0, None)
        result["service"] = _service(Path(folder) / "service.db")
    if locomo is not None:
        say("agreement", 0, None)
        result["agreement"] = _agreement(locomo)
    result["machine"]["loadavg_end"] = loadavg()
    return result


def _agreement(path: Path) -> dict[str, Any]:
    from ripplemem.datasets import load_locomo
    from ripplemem.grounding.ground_time import TimeGrounder

    bounded = TimeGrounder()
    whole = TimeGrounder(chunk_chars=10**9, parse_timeout_s=600, text_budget_s=600)
    samples = load_locomo(path)
    texts = [
        (text, session.time)
        for sample in samples
        for session in sample.conversation.sessions
        for turn in session.turns
        for text in (turn.text, turn.caption)
        if text
    ]
    same = rule_only = 0
    try:
        for text, when in texts:
            mine, theirs = bounded.ground_text(text, when), whole.ground_text(text, when)
            rule_only += not mine.complete
            same += [(t.phrase, t.span, t.grain) for t in mine.times] == [
                (t.phrase, t.span, t.grain) for t in theirs.times
            ]
    finally:
        bounded.close()
        whole.close()
    return {"file": path.name, "conversations": len(samples), "texts": len(texts),
            "identical": same, "rule_only": rule_only}


def _library(path: Path, say: Callable[[str, int, int | None], None]) -> list[dict[str, Any]]:
    from ripplemem import Memory, Settings

    rows = []
    with Memory(Settings(store=str(path))) as memory:
        memory.add([{"speaker": "Alex", "text": "warm up: I met Sam yesterday at noon."}], namespace="warm")
        memory.search("warm up", namespace="warm")
        baseline = None
        for index, (name, text) in enumerate(CASES.items()):
            say(f"library: {name}", index, len(CASES))
            started = time.perf_counter()
            added = memory.add([{"speaker": "Alex", "text": text}], namespace=f"case{index}",
                               session_time="2024-03-01T10:00")
            add_s = time.perf_counter() - started
            started = time.perf_counter()  # a text that yields no unit is asked of the baseline's
            searched = f"case{index}" if added.units else "case0"
            memory.search(text[:4_000], namespace=searched, question_time="2024-03-02T10:00")
            search_s = time.perf_counter() - started
            per_1000 = (add_s + search_s) / (len(text) / 1000)
            baseline = baseline or per_1000
            rows.append({
                "case": name, "chars": len(text), "units": len(added.units),
                "rule_only_units": sum(1 for u in added.units if u.extra.get("time_grounding") == "rules"),
                "add_s": round(add_s, 3), "search_s": round(search_s, 3),
                "s_per_1000_chars": round(per_1000, 4), "vs_dialogue": round(per_1000 / baseline, 2),
            })
    return rows


def _delete_with_reader(path: Path) -> dict[str, Any]:
    from ripplemem import Memory, Settings

    with Memory(Settings(store=str(path))) as memory:
        added = memory.add([{"speaker": "Maya", "text": "My Zorblaxian passport is in the vault."},
                            {"speaker": "Sam", "text": "I will not tell anyone."}], namespace="n")
        reader = sqlite3.connect(path, isolation_level=None)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM unit").fetchone()
        started = time.perf_counter()
        for unit in added.units:
            memory.delete(unit.id, namespace="n")
        delete_s = time.perf_counter() - started
        pending = not memory.flush_erasure(timeout=0)
        reader.execute("COMMIT")
        reader.close()
        started = time.perf_counter()
        erased = memory.flush_erasure(timeout=60)
        erased_s = time.perf_counter() - started
        files = [p for p in path.parent.iterdir() if p.name.startswith(path.name)]
        left = any(b"zorblaxian" in p.read_bytes().lower() for p in files)
    return {"delete_s": round(delete_s, 4), "pending_while_reading": pending,
            "erased_after_reader_s": round(erased_s, 3), "erased": erased and not left}


def _service(path: Path) -> dict[str, Any]:
    import httpx

    from ripplemem.core.keys import open_keys
    from ripplemem_bench.serve.server import ServerProcess, process_cpu_s

    with open_keys(str(path)) as keys:
        key = keys.create(["heavy", "light"])[1]
    server = ServerProcess.start(str(path), ["--search-processes", "0"])
    requests: dict[str, list[dict[str, str]]] = {
        "3.9 MB of dialogue": [{"role": "user", "content": _fill(DIALOGUE, 19_000)}] * 205,
        "100,000 characters of dialogue": [{"role": "user", "content": _fill(DIALOGUE, 20_000)}] * 5,
        "20,000 characters of dialogue": [{"role": "user", "content": _fill(DIALOGUE)}],
        "20,000 characters of 'tomorrow at noon'": [{"role": "user", "content": CASES["tomorrow at noon"]}],
        "20,000 characters of 'tonight'": [{"role": "user", "content": CASES["tonight"]}],
        "20,000 characters of mixed dates": [{"role": "user", "content": CASES["mixed dates"]}],
        "100,000 characters of 'tomorrow at noon'": [{"role": "user", "content": CASES["tomorrow at noon"]}] * 5,
        "100,000 characters of dialogue and dates": [{"role": "user", "content": _fill(
            DIALOGUE + "Yesterday tonight tomorrow at noon, Dec 3 3/4 on Monday. ", SIZE)}] * 5,
    }
    out: dict[str, Any] = {"requests": []}
    try:
        with httpx.Client(base_url=server.url, headers={"Authorization": f"Bearer {key}"}, timeout=600) as http:
            http.post("/v1/memories", json={"namespace": "light", "messages": [
                {"role": "user", "content": "I adopted a dog named Rex in Lisbon last week."}]})
            http.post("/v1/search", json={"namespace": "light", "query": "dog"})
            for name, messages in requests.items():
                latencies: list[float] = []
                stop = threading.Event()
                watcher = threading.Thread(target=_search_loop, args=(server.url, key, stop, latencies))
                cpu_before = process_cpu_s(server.process.pid, reaped=True)
                started = time.perf_counter()
                watcher.start()
                response = http.post("/v1/memories", json={"namespace": "heavy", "messages": messages})
                wall = time.perf_counter() - started
                stop.set()
                watcher.join()
                out["requests"].append({
                    "request": name, "status": response.status_code,
                    "error": response.json().get("error", {}).get("type") if response.status_code != 200 else None,
                    "wall_s": round(wall, 2),
                    "server_cpu_s": round(process_cpu_s(server.process.pid, reaped=True) - cpu_before, 2),
                    "searches_meanwhile": len(latencies),
                    "search_p50_s": round(statistics.median(latencies), 3) if latencies else None,
                    "search_max_s": round(max(latencies), 3) if latencies else None,
                })
    finally:
        server.stop()
    return out


def _search_loop(url: str, key: str, stop: threading.Event, latencies: list[float]) -> None:
    import httpx

    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=600) as http:
        while not stop.is_set():
            started = time.perf_counter()
            http.post("/v1/search", json={"namespace": "light", "query": "Where did I adopt Rex?"})
            latencies.append(time.perf_counter() - started)
            stop.wait(0.2)

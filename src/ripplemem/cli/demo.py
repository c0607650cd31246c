"""``ripplemem demo``: the demo conversation ingested into the embedded store, then its
questions, printed with their recall traces."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from ripplemem.cli.render import render_recall
from ripplemem.demo import load_demo


def run_demo(console: Console, store_path: Path = Path(".ripplemem/demo.db")) -> None:
    from ripplemem.memory import Memory
    from ripplemem.settings import Settings

    if store_path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store_path}{suffix}").unlink(missing_ok=True)
    conversation, questions = load_demo()
    with Memory(Settings(store=str(store_path), extractor="deterministic", planner="deterministic")) as memory:
        result = memory.add(conversation, namespace="demo")
        turns = sum(len(s.turns) for s in conversation.sessions)
        console.print(
            f"[bold]Ingested[/] {turns} turns in {len(conversation.sessions)} sessions -> "
            f"{len(result.units)} memory units, {result.edges} edges in {result.seconds:.2f} s "
            f"(store: {store_path})"
        )
        for q in questions:
            console.rule(f"[bold cyan]{q['question']}")
            recall = memory.search(q["question"], namespace="demo", question_time=q.get("time"), limit=10)
            render_recall(console, recall, show_trace=True)

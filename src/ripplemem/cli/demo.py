"""``ripplemem demo``: the demo conversation ingested into the embedded store, then its
questions, printed with their recall traces, and the command that opens the store in the viewer."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path
from urllib.parse import quote

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
        shown = questions[0]["question"]  # the viewer link: the first question whose recall expanded
        expanded = False
        for q in questions:
            console.rule(f"[bold cyan]{q['question']}")
            recall = memory.search(q["question"], namespace="demo", question_time=q.get("time"), limit=10)
            render_recall(console, recall, show_trace=True)
            if recall.trace.expansions and not expanded:
                shown, expanded = q["question"], True
    console.rule("[bold]See it in the browser")
    console.print(
        "Serve the demo store (no keys: loopback only), then open the viewer:\n"
        f"  {viewer_command(store_path)}\n"
        f"  http://127.0.0.1:8765/ui?namespace=demo&q={quote(shown)}",
        soft_wrap=True,
    )


def viewer_command(store_path: Path) -> str:
    """``ripplemem serve`` on the demo store, named as this process was started."""
    program = Path(sys.argv[0])
    executable = str(program) if program.name == "ripplemem" else "ripplemem"
    return shlex.join([executable, "serve", "--store", str(store_path), "--no-auth"])

"""The demo: a small multi-session conversation we wrote, ingested into the embedded store,
then questions whose evidence spans sessions, printed with their recall traces."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

from ripplemem.records import Conversation, Session, Turn


def load_demo() -> tuple[Conversation, list[dict]]:
    raw = json.loads(resources.files(__package__).joinpath("conversation.json").read_text("utf-8"))
    from ripplemem.conversation_input import parse_time

    sessions = []
    for s in raw["sessions"]:
        turns = tuple(
            Turn(turn_id=f"{s['session_id']}:{i + 1}", speaker=t["speaker"], text=t["text"],
                 caption=t.get("caption"))
            for i, t in enumerate(s["turns"])
        )
        sessions.append(Session(s["session_id"], parse_time(s["time"]), turns))
    conversation = Conversation(raw["conversation_id"], tuple(sessions), tuple(raw["speakers"]))
    return conversation, raw["questions"]


def run_demo(console, store_path: Path = Path(".ripplemem/demo.db")) -> None:
    from ripplemem.cli.render import render_recall
    from ripplemem.memory import Memory
    from ripplemem.settings import Settings

    if store_path.exists():
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store_path}{suffix}").unlink(missing_ok=True)
    conversation, questions = load_demo()
    with Memory(Settings(store=store_path, extractor="deterministic", planner="deterministic")) as memory:
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

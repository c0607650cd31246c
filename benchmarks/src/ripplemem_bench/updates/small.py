"""Small memories of one speaker's statements, one said a day, each asked for first: what the
generators of the small-memory update suites (``benchmarks/data/updates_small.py``,
``updates_hobbies.py``) share."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

#: a statement and the question that asks for it
Fact = tuple[str, str]
#: a change: the old statement, the new one, the question that wants the new one first
Change = tuple[str, str, str]


def small_memories(
    prefix: str, facts: Sequence[Fact], split: str, *, seeds: Sequence[int], sizes: Sequence[int],
    per_seed: int, changes: Sequence[Change] | None = None,
) -> list[dict[str, Any]]:
    """``per_seed`` memories a seed, each of a number of ``facts`` drawn from ``sizes``, said one a
    day in May 2024 and asked on 1 June 2024: each statement's question wants it first (kind
    ``control``, every other statement ``stale``); with ``changes``, each memory also holds one
    change, the old statement said first, whose question (kind ``current``) wants the new one
    first. Case ids are ``{prefix}{seed}-{n}``."""
    out = []
    for seed in seeds:
        draw = random.Random(seed)
        for n in range(per_seed):
            chosen = draw.sample(list(facts), draw.choice(list(sizes)))
            items: list[tuple[str, str | None, str]] = [(text, question, "control") for text, question in chosen]
            if changes is not None:
                old, new, question = draw.choice(list(changes))
                items += [(old, None, "old"), (new, question, "current")]
                draw.shuffle(items)
                at_old = next(i for i, x in enumerate(items) if x[2] == "old")
                at_new = next(i for i, x in enumerate(items) if x[2] == "current")
                if at_old > at_new:
                    items[at_old], items[at_new] = items[at_new], items[at_old]
            days = sorted(draw.sample(range(1, 28), len(items)))
            turns = [f"S{k + 1}:1" for k in range(len(items))]
            case = f"{prefix}{seed}-{n + 1}"
            out.append({
                "id": case, "split": split, "speakers": ["Sam"],
                "sessions": [
                    {"session_id": f"S{k + 1}", "time": f"2024-05-{day:02d}T10:00:00",
                     "turns": [{"turn_id": turns[k], "speaker": "Sam", "text": text}]}
                    for k, ((text, _, _), day) in enumerate(zip(items, days, strict=True))
                ],
                "question_time": "2024-06-01T12:00:00",
                "questions": [
                    {"id": f"{case}-q{k + 1}", "kind": kind, "question": question,
                     "evidence": [turns[k]], "stale": [t for t in turns if t != turns[k]]}
                    for k, (_, question, kind) in enumerate(items) if question is not None
                ],
            })
    return out


def write_suite(target: Path, name: str, about: str, conversations: list[dict[str, Any]]) -> None:
    """The suite file of ``conversations`` at ``target``, and a line saying what it holds."""
    suite = {"name": name, "version": 1, "about": about, "conversations": conversations}
    target.write_text(json.dumps(suite, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{target}: {len(conversations)} memories, {sum(len(c['questions']) for c in conversations)} questions")

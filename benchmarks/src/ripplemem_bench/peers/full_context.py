"""The no-memory baseline ``full-context``: the whole conversation, as said, to the reader.

Every turn is kept as it was said (one evidence item per turn: ``Speaker: text``, with its
session time and turn id). A search ignores the question and returns the conversation up to the
question time, cut to the reader's window: the latest turns whose WordPiece tokens (counted as
``--budget`` counts them) fit ``window_tokens``, oldest first. With ``--budget`` the window is that
budget, so memory and no memory are compared at equal reader and equal context size.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import numpy as np

from ripplemem.records import Conversation, Evidence, Hit, MemoryUnit
from ripplemem_bench.tokens import count_tokens_batch

#: the reader window when the run sets no token budget (WordPiece tokens of the turns)
DEFAULT_WINDOW_TOKENS = 6_000


class FullContextPeer:
    """The conversation itself as the evidence, newest turns kept when it does not fit."""

    name = "full-context"

    def __init__(self, *, window_tokens: int | None = None, budget: int = 10_000) -> None:
        self.window_tokens = window_tokens or DEFAULT_WINDOW_TOKENS
        self.budget = budget  # no item cut-off of its own: the window is the limit
        self._turns: dict[str, list[tuple[MemoryUnit, int]]] = {}

    def ingest(self, conversation: Conversation, namespace: str) -> int:
        units = []
        order = 0
        for session in conversation.sessions:
            for turn in session.turns:
                text = f"{turn.speaker}: {turn.text}"
                if turn.caption:
                    text += f" [shares a photo: {turn.caption}]"
                units.append(
                    MemoryUnit(
                        id=f"{session.session_id}/{turn.turn_id}", namespace=namespace,
                        restatement=text, vector=np.zeros(1, dtype=np.float32),
                        participants=(turn.speaker,), locations=(), time_span=None,
                        episode_id=session.session_id, turn_ids=(turn.turn_id,),
                        session_time=session.time,
                        created_at=session.time or datetime(1970, 1, 1),
                        extra={"turn_index": order},
                    )
                )
                order += 1
        tokens = count_tokens_batch([u.restatement for u in units])
        self._turns[namespace] = list(zip(units, tokens))
        return len(units)

    def search(self, query: str, namespace: str, question_time: datetime | None) -> Sequence[Evidence]:
        del query  # no retrieval: the reader gets the conversation
        said = [
            (unit, tokens) for unit, tokens in self._turns.get(namespace, [])
            if question_time is None or unit.session_time is None or unit.session_time <= question_time
        ]
        kept: list[MemoryUnit] = []
        used = 0
        for unit, tokens in reversed(said):
            if used + tokens > self.window_tokens:
                break
            kept.append(unit)
            used += tokens
        kept.reverse()
        return [Evidence(u, 1.0, (Hit("context", rank, 1.0),)) for rank, u in enumerate(kept, 1)]

    def drop(self, namespace: str) -> None:
        self._turns.pop(namespace, None)

    def describe(self) -> dict:
        return {
            "kind": "no memory: the conversation up to the question, newest turns first to stay",
            "window_tokens": self.window_tokens,
        }

    def close(self) -> None:
        self._turns.clear()

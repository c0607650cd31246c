"""What a recall of a namespace that holds no memory yet answers: no evidence and one note.

Searching before the first ``add`` is normal for an agent, so it is no error on any face (the
library, REST, MCP, the command line): every recipe answers this empty recall.
"""

from __future__ import annotations

from ripplemem.records import Recall, RecallTrace

__all__ = ["EMPTY_NOTE", "empty_recall"]

#: the trace note of a recall in a namespace that holds no memory yet
EMPTY_NOTE = "the namespace holds no memory yet"


def empty_recall(query: str, namespace: str, recipe: str) -> Recall:
    trace = RecallTrace(query=query, namespace=namespace, recipe=recipe)
    trace.notes.append(EMPTY_NOTE)
    return Recall(evidence=(), trace=trace)

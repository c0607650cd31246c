"""What a search of an empty namespace answers, shared by the service and its search workers."""

from __future__ import annotations

from ripplemem.errors import InvalidInputError
from ripplemem.memory import Memory
from ripplemem.recipes import get_recipe
from ripplemem.records import Recall, RecallTrace


def empty_recall(memory: Memory, namespace: str, query: str, recipe: str | None) -> Recall | None:
    """The answer for an empty namespace (no evidence, a note), after the checks a search makes
    (the query, the recipe); None when the namespace holds memories."""
    if not isinstance(query, str) or not query.strip():
        raise InvalidInputError("the query is empty: give the text to recall memories for")
    chosen = get_recipe(recipe or memory.settings.recipe)  # a bad name fails first
    if memory.store.count(namespace):
        return None
    trace = RecallTrace(query=query, namespace=namespace, recipe=chosen.name)
    trace.notes.append("the namespace holds no memory yet")
    return Recall(evidence=(), trace=trace)

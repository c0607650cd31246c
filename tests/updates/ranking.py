"""The rank of the first evidence item whose restatement holds some words: the updates tests' one probe."""

from __future__ import annotations

from ripplemem import Memory


def rank_of(memory: Memory, question: str, user: str, words: str, recipe: str = "ripple") -> int:
    """Search `question` in `user`'s memory; the index of the first evidence saying `words` (it must be found)."""
    found = memory.search(question, user_id=user, recipe=recipe)
    ranks = [i for i, e in enumerate(found.evidence) if words.casefold() in e.unit.restatement.casefold()]
    assert ranks, (question, words, [e.unit.restatement for e in found.evidence])
    return ranks[0]

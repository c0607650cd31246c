"""A question asserts nothing: a unit that only holds another speaker's question ("Sam asked:
Where does Maya live these days?") does not outrank the unit of the same exchange that holds the
answer it got ("Sam asked: ... Maya answered: In Leeds, near the station.", the write path's
short answer kept with its question): the exchange takes the question's place, the question
right after it (QA6 Q6-4)."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.recipes import get_recipe

EXCHANGES = [
    ("Where do you live these days?", "In Leeds, near the station.", "Where does Maya live?", "Leeds"),
    ("Which gym do you go to?", "PureGym on Oxford Road.", "Which gym does Maya go to?", "PureGym"),
]


@pytest.fixture(scope="module")
def memory():
    """Each exchange in a memory of its own (a user each), after two other things Maya said."""
    opened = Memory.open("memory://")
    for asked, answered, _, value in EXCHANGES:
        opened.add(
            [
                {"speaker": "Maya", "text": "I've got a sister called Priya who lives in Glasgow."},
                {"speaker": "Maya", "text": "I'm training for a half marathon in the spring."},
            ],
            user_id=value, session_time="2024-01-05",
        )
        opened.add(
            [{"speaker": "Sam", "text": asked}, {"speaker": "Maya", "text": answered}],
            user_id=value, session_time="2024-02-01",
        )
    yield opened
    opened.close()


def _ranked(memory: Memory, query: str, user: str, recipe: str = "ripple") -> list[str]:
    found = memory.search(query, user_id=user, recipe=get_recipe(recipe))
    scores = [e.score for e in found.evidence]
    assert scores == sorted(scores, reverse=True)  # every unit has the score of its place
    assert all(abs(e.terms.total - e.score) < 1e-9 for e in found.evidence)
    return [e.unit.restatement for e in found.evidence]


@pytest.mark.parametrize(("asked", "answered", "query", "value"), EXCHANGES)
def test_the_exchange_that_holds_the_answer_ranks_above_its_question(
    memory: Memory, asked: str, answered: str, query: str, value: str
) -> None:
    off = _ranked(memory, query, value, "ripple-no-answers")
    first = off[0]
    assert first.startswith("Sam asked:") and " answered: " not in first  # something to do
    on = _ranked(memory, query, value)
    assert value in on[0] and " answered: " in on[0]
    assert on[1] == first  # the question right after the answer it got
    assert sorted(on) == sorted(off)  # the same units
    top = memory.search(query, user_id=value, limit=1).evidence
    assert len(top) == 1 and value in top[0].unit.restatement

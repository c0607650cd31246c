"""The role of a role-style message says who said it (QA7 Q7-16): "user", "assistant" and
"system", and the names other libraries give the same sides (LangChain's "human" and "ai"); any
other role ("tool", a typo "usr") is refused with what to do, and nothing of the add is stored,
never taken for a person named after the role."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.errors import InvalidInputError


@pytest.fixture
def memory():
    with Memory.open("memory://") as memory:
        yield memory


@pytest.mark.parametrize(
    ("role", "speaker"),
    [("human", "Kim"), ("Human", "Kim"), ("ai", "Assistant"), ("developer", "System"),
     ("user", "Kim"), ("assistant", "Assistant")],
)
def test_the_aliases_of_other_libraries_are_their_sides(memory: Memory, role: str, speaker: str) -> None:
    memory.set_person("Kim", user_id="k")
    added = memory.add([{"role": role, "content": "I prefer metric units."}], user_id="k")
    assert [u.speakers for u in added.units] == [(speaker,)]
    assert role not in added.units[0].restatement


@pytest.mark.parametrize("role", ["tool", "function", "usr", "bot"])
def test_an_unknown_role_is_refused_and_nothing_is_stored(memory: Memory, role: str) -> None:
    memory.set_person("Kim", user_id="k")
    messages = [
        {"role": "user", "content": "I prefer metric units."},
        {"role": role, "name": "weather", "content": "It is 21 degrees in Leeds."},
    ]
    with pytest.raises(InvalidInputError) as refused:
        memory.add(messages, user_id="k")
    said = str(refused.value)
    assert said.startswith("message 2: 'role' must be 'user', 'assistant' or 'system'")
    assert repr(role) in said and "'speaker'" in said
    assert memory.list(user_id="k") == []

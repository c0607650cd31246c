"""The person behind a namespace: role-style "user" messages take the person's name (a message's
``name`` first, then the namespace's person, then "User"), so one person is not two."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.testing import FakeEmbedder

CHAT = [
    {"role": "user", "content": "I adopted a grey cat named Pixel in Porto."},
    {"role": "assistant", "content": "Lovely! How is Pixel settling in?"},
]


@pytest.fixture
def memory(tmp_path: Path):
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder()) as memory:
        yield memory


def test_user_messages_take_the_persons_name(memory: Memory) -> None:
    memory.set_person("Alex", user_id="alex")
    assert memory.person(user_id="alex") == "Alex"
    memory.add(CHAT, user_id="alex", session_time="2026-03-01T10:00")
    units = memory.list(user_id="alex")
    cat = next(u for u in units if "Pixel" in u.restatement and "Porto" in u.restatement)
    assert cat.speakers == ("Alex",)
    assert "Alex" in cat.restatement and "User" not in cat.restatement
    assert "Alex" in cat.participants and "User" not in cat.participants
    assert {s for u in units for s in u.speakers} == {"Alex", "Assistant"}
    found = memory.search("Where did Alex adopt a cat?", user_id="alex",
                          filters={"speaker": "alex"})
    assert found.evidence and all(e.unit.speakers == ("Alex",) for e in found.evidence)


def test_a_message_name_wins_and_user_is_the_fallback(memory: Memory) -> None:
    memory.set_person("Alex", user_id="alex")
    memory.add([{"role": "user", "name": "Sam", "content": "I moved to Berlin."}], user_id="alex")
    memory.add([{"role": "user", "content": "I moved to Oslo."}], user_id="nobody")
    assert memory.list(user_id="alex")[0].speakers == ("Sam",)
    assert memory.list(user_id="nobody")[0].speakers == ("User",)
    assert memory.person(user_id="nobody") is None


def test_a_named_namespace_with_memories_keeps_its_name(memory: Memory) -> None:
    memory.set_person("Alex", user_id="alex")
    memory.set_person("Alex", user_id="alex")  # the same name again: fine
    memory.add(CHAT, user_id="alex")
    with pytest.raises(ConfigurationError, match="two people of one"):
        memory.set_person("Alexandra", user_id="alex")
    with pytest.raises(InvalidInputError, match="empty"):
        memory.set_person("  ", user_id="alex")
    memory.delete_all(user_id="alex")
    memory.set_person("Alexandra", user_id="alex")
    assert memory.person(user_id="alex") == "Alexandra"


def test_the_person_is_exported_and_imported(memory: Memory, tmp_path: Path) -> None:
    memory.set_person("Alex", user_id="alex")
    memory.add(CHAT, user_id="alex")
    path = tmp_path / "dump.jsonl"
    memory.export_jsonl(path)
    with Memory(Settings(store=str(tmp_path / "copy.db")), embedder=FakeEmbedder()) as copy:
        copy.import_jsonl(path)
        assert copy.person(user_id="alex") == "Alex"
        assert copy.list(user_id="alex")[0].speakers == ("Alex",)

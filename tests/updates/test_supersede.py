"""The write path's supersedes edges from the parse: parallel statements of one speaker, bounded
candidates, and the precision guards."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.records import MemoryUnit
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.supersede import SupersessionLinker


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


@pytest.fixture
def memory(tmp_path: Path, embedder):
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=embedder) as opened:
        yield opened


def _say(memory: Memory, speaker: str, text: str, day: int, user: str = "u") -> MemoryUnit:
    added = memory.add([{"speaker": speaker, "text": text}], user_id=user,
                       session_time=datetime(2024, 1, 1) + timedelta(days=day))
    (unit,) = added.units
    return unit


def _replaced(memory: Memory, unit: MemoryUnit, user: str = "u") -> set[str]:
    return {
        e.dst for e in memory.edges(unit.id, user_id=user) if e.kind == "supersedes" and e.src == unit.id
    }


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("I live in Leeds.", "I live in Bristol now."),
        ("My dog is called Rex.", "My dog is now called Max."),
        ("I work at Siemens as an engineer.", "I work at Bosch now."),
        ("Our team has 8 engineers.", "Our team has 15 engineers now."),
        ("My rent is 1,200 a month.", "My rent is 1,350 a month now."),
    ],
)
def test_a_parallel_statement_with_a_new_value_supersedes(memory: Memory, before: str, after: str) -> None:
    old = _say(memory, "Maya", before, 0)
    new = _say(memory, "Maya", after, 40)
    assert _replaced(memory, new) == {old.id}
    assert [v.unit.id for v in memory.history(old.id, user_id="u")] == [old.id, new.id]


@pytest.mark.parametrize(
    ("before", "after", "speaker"),
    [
        ("I live in Leeds.", "I live in Leeds now, still.", "Maya"),  # the same value
        ("I went to Paris in May.", "I went to Rome in July.", "Maya"),  # past events
        ("I live in Leeds.", "If I lived in Munich I would cycle more.", "Maya"),  # a hypothetical
        ("I live in Leeds.", "I don't live in Bristol.", "Maya"),  # negated
        ("I live in Leeds.", "I want to live in Bristol.", "Maya"),  # a wish
        ("I live in Leeds.", "I live in Bristol now.", "Tom"),  # another speaker's home
        ("I live in Leeds.", "My sister Priya lives in Bristol now.", "Maya"),  # someone else's
        ("My sister Priya lives in Porto.", "My sister Ana lives in Lyon now.", "Maya"),  # two sisters
        ("My dog is called Rex.", "My cat is now called Max.", "Maya"),  # two animals
    ],
)
def test_no_update_without_the_same_fact_asserted_anew(
    memory: Memory, before: str, after: str, speaker: str
) -> None:
    _say(memory, "Maya", before, 0)
    new = _say(memory, speaker, after, 40)
    assert _replaced(memory, new) == set()


def test_an_earlier_statement_in_the_same_add_is_a_candidate(memory: Memory) -> None:
    added = memory.add(
        [{"speaker": "Maya", "text": "I live in Leeds."}, {"speaker": "Tom", "text": "Nice."},
         {"speaker": "Maya", "text": "Well, I live in York now."}],
        user_id="u", session_time="2024-03-01T10:00",
    )
    first, last = added.units[0], added.units[-1]
    assert _replaced(memory, last) == {first.id}


def test_the_candidates_are_bounded_whatever_the_store_size(embedder, recognizer) -> None:
    """The stage reads at most ``candidates`` earlier units per new unit, however many similar
    memories of the speaker the store holds."""
    with Memory(Settings(store="memory://"), embedder=embedder) as memory:
        messages = [{"speaker": "Maya", "text": f"I live in Leeds near Park Road number {n}."} for n in range(60)]
        memory.add(messages, user_id="u", session_time=datetime(2023, 1, 1))
        new = _say(memory, "Maya", "I live in Bristol now.", 400)
        linker = SupersessionLinker(memory.store, statements=StatementReader(recognizer.parse))
        edges, read = linker.prepare("u", [memory.get(new.id, user_id="u")])
        assert 0 < read <= linker.candidates
        assert 0 < len(edges) <= linker.max_links
        assert len(_replaced(memory, new)) <= linker.max_links


def test_the_stage_can_be_turned_off(tmp_path: Path, embedder) -> None:
    settings = Settings(store=str(tmp_path / "off.db"), write={"supersession": False})
    with Memory(settings, embedder=embedder) as memory:
        _say(memory, "Maya", "I live in Leeds.", 0)
        new = _say(memory, "Maya", "I live in Bristol now.", 40)
        assert _replaced(memory, new) == set()

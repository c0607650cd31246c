"""What the entity recogniser learns is kept per namespace and follows the stored units: one
namespace's text never changes how another's is read, a restart reads text as before it, and
a deleted memory stops teaching (write/lexicon.py)."""

from __future__ import annotations

from datetime import datetime
from functools import partial

import pytest

from ripplemem.memory import Memory
from ripplemem.records import MemoryUnit
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.lexicon import Lexicon, Lexicons

SPEAKERS = ("Alex", "Sam")
TEACH = [{"speaker": "Alex", "text": "My friend Aoife came round for dinner with her sister Ines."}]
# read cold, the small model takes "Aoife" for a place; a namespace that met her knows better
PROBE = [{"speaker": "Alex", "text": "Aoife's garden is lovely in June."}]


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def test_a_name_learned_in_one_lexicon_is_not_known_in_another(recognizer) -> None:
    ours, theirs = Lexicon(), Lexicon()
    recognizer.find([TEACH[0]["text"]], people=SPEAKERS, lexicon=ours)
    assert {"Aoife", "Ines"} <= set(ours.names.values())
    probe = PROBE[0]["text"]
    assert recognizer.find([probe], people=SPEAKERS, lexicon=ours, learn=False)[0].people == (
        "Aoife",
    )
    cold = recognizer.find([probe], people=SPEAKERS, lexicon=theirs, learn=False)[0]
    assert "Aoife" not in cold.people
    assert not theirs.names and not theirs.lower  # reading teaches nothing
    assert recognizer.known_people == ()  # its own lexicon is not touched either


def _unit(n: int, participants: tuple[str, ...], locations: tuple[str, ...], text: str) -> MemoryUnit:
    return MemoryUnit(
        id=f"u{n}", namespace="n", restatement=text, vector=None, participants=participants,
        locations=locations, time_span=None, episode_id="e", turn_ids=(f"t{n}",),
        session_time=None, created_at=datetime(2024, 1, 1),
    )


def test_what_units_teach_does_not_depend_on_their_order() -> None:
    units = [
        _unit(1, ("PRIYA", "Sam"), ("new york",), "Sam said: cooking with PRIYA"),
        _unit(2, ("Priya",), ("New York",), "Alex said: Priya moved to New York"),
        _unit(3, ("priya",), (), "Alex said: hiking"),
    ]
    forward, backward = Lexicon(), Lexicon()
    forward.learn_units(units)
    for unit in reversed(units):
        backward.learn_units([unit])
    assert forward.names == backward.names == {"priya": "PRIYA", "sam": "Sam"}
    assert forward.places == backward.places == {"new york": "New York"}
    assert forward.lower == backward.lower and {"cooking", "hiking", "said"} <= forward.lower
    assert forward.name_tokens == backward.name_tokens == {"PRIYA", "Priya", "priya", "Sam"}


def _people(result) -> set[str]:
    return {name for unit in result.units for name in unit.participants}


def _memory(store: str) -> Memory:
    return Memory(Settings(store=store), embedder=FakeEmbedder())


def test_one_namespace_does_not_teach_another() -> None:
    alone = _memory("memory://")
    expected = _people(alone.add(PROBE, namespace="b"))
    alone.close()
    shared = _memory("memory://")
    shared.add(TEACH, namespace="a")
    assert _people(shared.add(PROBE, namespace="b")) == expected
    assert "Aoife" not in expected
    assert shared._core.parts.recognizer.known_people == ()
    shared.close()


def test_what_a_namespace_learned_survives_a_restart_and_goes_with_a_delete(tmp_path) -> None:
    store = str(tmp_path / "m.db")
    first = _memory(store)
    first.add(TEACH, namespace="a")
    kept = _people(first.add(PROBE, namespace="a", session_time="2024-07-01"))
    assert "Aoife" in kept
    first.close()
    again = _memory(store)
    again.delete_all(namespace="a")
    again.add(TEACH, namespace="a")
    again.close()
    restarted = _memory(store)
    assert _people(restarted.add(PROBE, namespace="a", session_time="2024-07-01")) == kept
    restarted.delete_all(namespace="a")
    assert "Aoife" not in _people(restarted.add(PROBE, namespace="a"))
    restarted.close()


def test_what_another_writer_stored_teaches_the_next_add(tmp_path) -> None:
    """Two Memories on one file (as two processes): an add reads what the other one stored in
    the namespace since (its unit count moved), not only what it wrote itself."""
    store = str(tmp_path / "m.db")
    first, other = _memory(store), _memory(store)
    first.add([{"speaker": "Alex", "text": "The garden needs weeding again."}], namespace="a")
    other.add(TEACH, namespace="a")
    assert "Aoife" in _people(first.add(PROBE, namespace="a", session_time="2024-07-01"))
    first.close()
    other.close()


TALKS = [
    [{"speaker": "Alex", "text": "Priya and Tomasz drove up to Lake Tahoe with me last weekend."}],
    [{"speaker": "Sam", "text": "Our neighbour Mrs Okafor lent us her ladder for the gutters."}],
    [{"speaker": "Alex", "text": "Keanu from the climbing gym moved to Reykjavik in March."}],
    [{"speaker": "Sam", "text": "We had lunch with PRIYA at the noodle bar in new york."}],
    TEACH,
]


def _same_lexicon(got: Lexicon, want: Lexicon) -> None:
    """Equal in all a merge decides (the names' indexing order follows the merge order)."""
    assert got.names == want.names and got.places == want.places
    assert got.lower == want.lower and got.name_tokens == want.name_tokens
    assert sorted(got.unindexed) == sorted(want.unindexed) == sorted(got.names.values())


def test_a_lexicon_read_again_after_a_delete_is_what_a_fresh_reader_reads(tmp_path) -> None:
    """A delete moves the namespace's count, so the next add reads its lexicon again, page by
    page: the same lexicon a fresh Memory on the file reads, and the one merging every stored
    unit makes."""
    store = str(tmp_path / "m.db")
    first = _memory(store)
    for n, talk in enumerate(TALKS):
        first.add(talk, namespace="a", session_time=f"2024-07-0{n + 1}")
    first.add(PROBE, namespace="other")
    lexicons = first._core._writer.lexicons
    units = first.store.list_units("a")
    gone = next(u for u in units if "Aoife" in u.participants)
    first.delete(gone.id, namespace="a")
    rebuilt = lexicons.working_copy("a")  # the count moved: read from the store again
    assert "aoife" not in rebuilt.names and "alex" in rebuilt.names
    assert rebuilt.places["lake tahoe"] == "Lake Tahoe" and "ladder" in rebuilt.lower
    merged = Lexicon()
    merged.learn_units(u for u in units if u.id != gone.id)
    _same_lexicon(rebuilt, merged)
    paged = Lexicons(first.store.count, partial(_rows, first.store), page=2)
    assert paged.working_copy("a") == rebuilt  # pages smaller than the namespace
    fresh = _memory(store)
    assert fresh._core._writer.lexicons.working_copy("a") == rebuilt
    fresh.close()
    first.close()


def _rows(store, namespace: str, after: str | None, limit: int):
    return store.lexicon_rows(namespace, after=after, limit=limit)

"""Metadata on add and filters on search through the facade, with the shipped embedder and a real
SQLite file: what is stored, what a filter keeps out, that it restricts before the cut, and that
metadata survives export / import."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.errors import InvalidInputError

FOOD = [
    {"role": "user", "content": "I cooked a mushroom risotto for my sister Ana on Sunday."},
    {"role": "assistant", "content": "Sounds delicious! Did she like it?"},
    {"role": "user", "content": "She loved it and asked for the recipe."},
]
TRAVEL = [
    {"role": "user", "content": "I booked a train to Porto for the first week of June."},
    {"role": "assistant", "content": "Porto is lovely in June, enjoy the trip!"},
]
MORE_FOOD = [
    {"role": "user", "content": "My sister Ana cooked a risotto for me in Porto last night.",
     "metadata": {"topic": "travel", "mood": "happy"}},
]


@pytest.fixture
def memory(tmp_path: Path, embedder) -> Memory:
    memory = Memory(Settings(store=str(tmp_path / "memory.db")), embedder=embedder)
    memory.add(FOOD, user_id="alex", session_time="2026-03-01T19:00", metadata={"topic": "food"})
    memory.add(TRAVEL, user_id="alex", session_time="2026-04-02T10:00",
               metadata={"topic": "travel", "tags": ["trip", "june"]})
    memory.add(MORE_FOOD, user_id="alex", session_time="2026-05-03T21:00",
               metadata={"topic": "food"})
    yield memory
    memory.close()


def _texts(recall) -> list[str]:
    return [item.unit.restatement for item in recall.evidence]


def test_metadata_is_stored_per_unit_and_returned(memory: Memory) -> None:
    units = memory.list(user_id="alex")
    by_text = {u.restatement: u for u in units}
    risotto = next(u for t, u in by_text.items() if "mushroom risotto" in t)
    assert risotto.metadata == {"topic": "food"}
    assert risotto.speakers == ("User",)
    porto = next(u for t, u in by_text.items() if "in Porto last night" in t)
    assert porto.metadata == {"topic": "travel", "mood": "happy"}  # the message's own wins
    assert risotto.to_json(with_vector=False)["metadata"] == {"topic": "food"}
    assert "vector" not in repr(risotto) and len(repr(risotto)) < 1_000


def test_a_filter_keeps_other_units_out_and_restricts_before_the_cut(memory: Memory) -> None:
    query = "Who cooked risotto?"
    travel = memory.search(query, user_id="alex", filters={"topic": "travel"})
    assert travel.evidence
    assert all(item.unit.metadata["topic"] == "travel" for item in travel.evidence)
    assert any("Porto" in text for text in _texts(travel))
    # limit 1: the best travel unit, even though food units rank above it unfiltered
    unfiltered = memory.search(query, user_id="alex", limit=1)
    assert unfiltered.evidence[0].unit.metadata["topic"] == "food"
    one = memory.search(query, user_id="alex", limit=1, filters={"topic": "travel"})
    assert len(one.evidence) == 1 and one.evidence[0].unit.metadata["topic"] == "travel"
    assert "filter" in one.trace.timings_ms and "units match" in one.trace.notes[0]


def test_sets_time_ranges_speakers_and_lists(memory: Memory) -> None:
    query = "What did I do?"
    june = memory.search(query, user_id="alex", filters={"tags": "june"})
    assert june.evidence and all("june" in e.unit.metadata["tags"] for e in june.evidence)
    spring = memory.search(query, user_id="alex",
                           filters={"after": "2026-04-01", "before": "2026-05-01"})
    assert spring.evidence
    assert all(e.unit.session_time.month == 4 for e in spring.evidence)
    said_by = memory.search(query, user_id="alex", filters={"speaker": "assistant"})
    assert said_by.evidence and all(e.unit.speakers == ("Assistant",) for e in said_by.evidence)
    both = memory.search(query, user_id="alex", filters={"topic": ["food", "travel"]})
    assert len(both.evidence) == len(memory.search(query, user_id="alex").evidence)
    nothing = memory.search(query, user_id="alex", filters={"topic": "sports"})
    assert nothing.evidence == ()
    for recipe in ("bm25", "dense", "hybrid", "asso"):
        found = memory.search("Porto trip in June", user_id="alex", recipe=recipe,
                              filters={"topic": "travel"})
        assert found.evidence, recipe
        assert all(e.unit.metadata["topic"] == "travel" for e in found.evidence), recipe


@pytest.mark.parametrize(
    ("filters", "says"),
    [
        ({"topic": {"in": ["food"]}}, "a value or a list of values"),
        ({"after": "last week"}, "ISO 8601"),
        ({"after": "2026-05-01", "before": "2026-04-01"}, "earlier than"),
        ({"topic": []}, "empty list"),
        ("topic=food", "must be a dict"),
        ({"speaker": 3}, "a name or a list of names"),
        ({"user_id": "alex"}, "pass user_id=... to search itself"),
    ],
)
def test_bad_filters_say_how_to_write_them(memory: Memory, filters, says: str) -> None:
    with pytest.raises(InvalidInputError, match=says):
        memory.search("risotto", user_id="alex", filters=filters)


@pytest.mark.parametrize(
    ("metadata", "says"),
    [
        (["food"], "JSON object"),
        ({"when": object()}, "not plain JSON"),
        ({1: "x"}, "keys must be non-empty strings"),
        ({"blob": "x" * 20_000}, "over the limit"),
    ],
)
def test_bad_metadata_is_refused_and_nothing_is_stored(
    memory: Memory, metadata, says: str
) -> None:
    before = memory.store.count("alex")
    with pytest.raises(InvalidInputError, match=says):
        memory.add([{"role": "user", "content": "A new fact."}], user_id="alex", metadata=metadata)
    assert memory.store.count("alex") == before


def test_metadata_survives_export_and_import(memory: Memory, tmp_path: Path, embedder) -> None:
    path = tmp_path / "dump.jsonl"
    memory.export_jsonl(path, namespace="alex")
    with Memory(Settings(store=str(tmp_path / "copy.db")), embedder=embedder) as copy:
        copy.import_jsonl(path)
        found = copy.search("Porto", user_id="alex", filters={"mood": "happy"})
        assert [e.unit.metadata for e in found.evidence] == [
            {"topic": "travel", "mood": "happy"}
        ] * len(found.evidence)
        assert found.evidence


def test_readding_with_other_metadata_is_still_a_no_op(memory: Memory) -> None:
    again = memory.add(FOOD, user_id="alex", session_time="2026-03-01T19:00",
                       metadata={"topic": "other"})
    assert again.units == [] and again.skipped > 0

"""The input edge: whatever ``add`` and ``search`` are given, they succeed or raise a
RippleMemError naming the field; no other exception escapes (Hypothesis drives the inputs)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ripplemem import Memory
from ripplemem.errors import InvalidInputError, RippleMemError
from ripplemem.grounding.ground_time import ground_times
from ripplemem.settings import Settings, WriteSettings
from ripplemem.write.input_checks import MAX_TIME, MIN_TIME

from .conftest import TRIP

#: how many generated cases each property runs (docs/reliability.md reports these)
ADD_CASES = 250
SEARCH_CASES = 300

TIMEY = ["yesterday", "next Friday", "at 5pm", "two weeks ago", "in 2021", "last May", "3 days"]
text = st.one_of(
    st.text(max_size=200),
    st.builds(  # time expressions next to NUL, surrogates and control characters
        lambda a, b, c: f"{a}{b}{c}",
        st.sampled_from(TIMEY),
        st.sampled_from(["\x00", "\ud800", "\udfff", "\x1b", "\u202e", " ", "\n"]),
        st.sampled_from(TIMEY),
    ),
)
any_value = st.one_of(
    st.none(), st.integers(), st.floats(), st.booleans(), st.binary(max_size=8),
    st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
times = st.one_of(
    st.none(),
    st.datetimes(),
    st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=14)), timezone(timedelta(hours=-12))])),
    st.text(max_size=30),
    st.sampled_from(["9999-12-31T12:00", "0001-01-01", "2023-05-08T13:56+05:00", "2023-02-30", ""]),
    any_value,
)
message = st.fixed_dictionaries(
    {},
    optional={
        "speaker": st.one_of(st.sampled_from(["Maya", "Sam"]), text, any_value),
        "role": st.one_of(st.sampled_from(["user", "assistant"]), any_value),
        "text": st.one_of(text, any_value),
        "content": text,
        "caption": st.one_of(text, any_value),
        "turn_id": st.one_of(text, any_value),
    },
)
messages = st.one_of(st.lists(st.one_of(message, any_value), max_size=4), any_value, text)


@pytest.fixture(scope="module")
def memory(tmp_path_factory, embedder):
    path = tmp_path_factory.mktemp("edge") / "memory.db"
    settings = Settings(store=str(path), write=WriteSettings(max_message_chars=150), max_query_chars=300)
    with Memory(settings, embedder=embedder) as memory:
        memory.add(TRIP, session_time="2023-05-08T13:56")
        yield memory


@settings(max_examples=ADD_CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=messages, when=times)
def test_add_raises_nothing_but_ripplemem_errors(memory, messages, when):
    try:
        memory.add(messages, session_time=when, namespace="fuzz")
    except RippleMemError:
        pass


@settings(max_examples=SEARCH_CASES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    query=st.one_of(text, st.text(min_size=290, max_size=320), any_value),
    when=times,
    recipe=st.one_of(st.none(), st.sampled_from(["ripple", "asso", "bm25", "nope"]), any_value),
    limit=st.one_of(st.none(), st.integers(-2, 40), any_value),
)
def test_search_raises_nothing_but_ripplemem_errors(memory, query, when, recipe, limit):
    try:
        memory.search(query, question_time=when, recipe=recipe, limit=limit)
    except RippleMemError:
        pass


def test_the_store_still_serves_after_the_fuzzing(memory):
    found = memory.search("Who went to Lisbon?")
    assert any("Lisbon" in e.unit.restatement for e in found.evidence)


def test_a_nul_next_to_a_time_expression_is_refused_with_the_field_named(memory):
    with pytest.raises(InvalidInputError, match="text of message 1 holds a NUL"):
        memory.add([{"speaker": "A", "text": "next friday\x00 at 5pm"}], namespace="fuzz")
    with pytest.raises(InvalidInputError, match="query holds a lone surrogate"):
        memory.search("hello \udc00 yesterday")


def test_the_time_parser_panic_is_caught_and_the_text_keeps_no_time():
    # Duckling panics on a NUL (a pyo3 PanicException, a BaseException): no time, no failure
    found = ground_times("next friday\x00 at 5pm", datetime(2023, 5, 8))
    assert all(item.span is None or item.span.start.year == 2023 for item in found)


@pytest.mark.parametrize("when", ["9999-12-31T12:00", "0999-12-31T23:59", datetime(9000, 1, 1)])
def test_times_outside_the_range_are_refused_and_nothing_is_stored(memory, when):
    before = memory.store.count("range")
    with pytest.raises(InvalidInputError, match="outside the supported range"):
        memory.add([{"speaker": "A", "text": "see you tomorrow at noon"}], session_time=when, namespace="range")
    assert memory.store.count("range") == before == 0


def test_the_range_edges_are_accepted_and_searchable(memory):
    for when in (MIN_TIME, MAX_TIME):
        memory.add([{"speaker": "A", "text": f"see you tomorrow at noon {when.year}"}], session_time=when, namespace="edges")
        memory.search("noon tomorrow", namespace="edges", question_time=when)
    assert memory.store.count("edges") == 2


def test_aware_times_are_converted_to_utc(memory):
    result = memory.add(
        [{"speaker": "A", "text": "We had a long lunch in Porto."}],
        session_time="2023-05-08T23:30+05:00", namespace="tz",
    )
    assert result.units[0].session_time == datetime(2023, 5, 8, 18, 30)
    aware = datetime(2023, 5, 8, 1, 0, tzinfo=timezone(timedelta(hours=-3)))
    result = memory.add([{"speaker": "A", "text": "Dinner in Recife was late."}], session_time=aware, namespace="tz")
    assert result.units[0].session_time == datetime(2023, 5, 8, 4, 0)


def test_oversized_messages_and_queries_name_their_limit(memory):
    with pytest.raises(InvalidInputError, match="WriteSettings.max_message_chars"):
        memory.add([{"speaker": "A", "text": "word " * 40}], namespace="big")
    with pytest.raises(InvalidInputError, match="Settings.max_query_chars"):
        memory.search("word " * 70)


def test_each_face_names_its_own_remedy():
    """A remedy only Python has is said in the words of the face that shows it (QA7 Q7-19)."""
    from ripplemem.errors import said_on

    person = "Keep 'Alex', or delete_all() the namespace first"
    assert said_on(person, "python") == person
    assert said_on(person, "rest") == "Keep 'Alex', or empty the namespace (DELETE /v1/memories) first"
    assert said_on(person, "mcp") == (
        "Keep 'Alex', or empty the namespace (the tool delete_all_memories) first"
    )
    assert "ripplemem delete ID" in said_on(person, "cli")
    query = "ask a shorter question, or raise Settings.max_query_chars"
    assert [said_on(query, face) for face in ("cli", "rest", "mcp")] == ["ask a shorter question"] * 3

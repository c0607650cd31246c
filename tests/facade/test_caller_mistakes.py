"""Caller mistakes the facade refuses with an InvalidInputError that names the argument and what to
give instead: blank ids, counts out of range, a string where a list belongs, an empty message;
and set_person's refusals say what the call would do."""

from __future__ import annotations

import asyncio

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import ConfigurationError, InvalidInputError
from ripplemem.testing import FakeEmbedder

HUGE = 2**63


@pytest.fixture
def memory():
    with Memory(Settings(store="memory://"), embedder=FakeEmbedder()) as memory:
        memory.add("I went to Rome.", user_id="x", session_time="2024-01-01")
        memory.add("I went to Oslo.", user_id="x", session_time="2024-03-01")
        yield memory


@pytest.mark.parametrize("blank", ["", "   ", "\t\n"])
@pytest.mark.parametrize("field", ["user_id", "namespace", "agent_id", "run_id"])
def test_a_blank_id_is_refused_not_read_as_the_default(memory: Memory, field: str, blank: str) -> None:
    ids = {field: blank} if field in ("user_id", "namespace") else {"user_id": "x", field: blank}
    calls = {
        "add": lambda: memory.add("My secret diary entry.", **ids),
        "search": lambda: memory.search("diary", **ids),
        "list": lambda: memory.list(**ids),
        "count": lambda: memory.count(**ids),
        "delete_all": lambda: memory.delete_all(**ids),
        "set_person": lambda: memory.set_person("Ann", **ids),
        "export_lines": lambda: list(memory.export_lines(**ids)),
        "timeline": lambda: memory.timeline(**ids),
    }
    for verb, call in calls.items():
        with pytest.raises(InvalidInputError, match=f"{field} is empty") as raised:
            call()
        assert "leave it out" in str(raised.value), verb
    assert memory.namespaces() == ["x"]  # nothing landed in "default"


def test_limits_and_offsets_past_the_range_name_the_argument(memory: Memory) -> None:
    asynchronous = AsyncMemory(over=memory)
    calls = {
        "limit": [
            lambda: memory.search("Rome", user_id="x", limit=HUGE),
            lambda: memory.search_json("Rome", user_id="x", limit=HUGE),
            lambda: memory.list(user_id="x", limit=HUGE),
            lambda: asyncio.run(asynchronous.search("Rome", user_id="x", limit=HUGE)),
            lambda: asyncio.run(asynchronous.list(user_id="x", limit=HUGE)),
            lambda: memory.timeline(user_id="x", limit=HUGE),
        ],
        "offset": [
            lambda: memory.list(user_id="x", offset=HUGE),
            lambda: memory.timeline(user_id="x", offset=-1),
        ],
    }
    for name, refused in calls.items():
        for call in refused:
            with pytest.raises(InvalidInputError, match=f"{name} must be a whole number from"):
                call()
    assert len(memory.list(user_id="x", limit=1_000_000_000)) == 2  # the top of the range


@pytest.mark.parametrize("bins", [0, -1, 10_001, 2.5])
def test_a_timeline_needs_a_sensible_number_of_bins(memory: Memory, bins: object) -> None:
    with pytest.raises(InvalidInputError, match="bins must be a whole number from 1 to 10,000"):
        memory.timeline(user_id="x", bins=bins)  # type: ignore[arg-type]
    assert len(memory.timeline(user_id="x", bins=1).bins) == 1


def test_a_neighbourhood_takes_a_list_of_ids(memory: Memory) -> None:
    unit_id = memory.list(user_id="x")[0].id
    for ids in (unit_id, b"abc", 5):
        with pytest.raises(InvalidInputError, match="ids must be a list of unit ids"):
            memory.neighbourhood(ids, user_id="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="hops must be a whole number"):
        memory.neighbourhood([unit_id], user_id="x", hops=-1)
    assert [u.id for u in memory.neighbourhood([unit_id], user_id="x").units][:1] == [unit_id]


def test_an_empty_message_is_named_by_its_place_not_by_internal_ids(memory: Memory) -> None:
    for call in (
        lambda: memory.add("", user_id="x"),
        lambda: memory.add("   ", user_id="x"),
    ):
        with pytest.raises(InvalidInputError) as raised:
            call()
        said = str(raised.value)
        assert said.startswith("message 1 has empty text"), said
        assert "s-" not in said and "u-" not in said and ":1" not in said
    with pytest.raises(InvalidInputError, match="^message 2 has no text"):
        memory.add([{"role": "user", "content": "I like tea."}, {"role": "user"}], user_id="x")
    with pytest.raises(InvalidInputError, match=r"message 2 \(turn 'D1:2', speaker 'Ann'\) has empty"):
        memory.add(
            [{"speaker": "Ann", "text": "I like tea.", "turn_id": "D1:1"},
             {"speaker": "Ann", "text": " ", "turn_id": "D1:2"}],
            user_id="x",
        )


def test_set_person_says_what_the_refused_call_would_do(memory: Memory) -> None:
    memory.set_person("Alex", user_id="p")
    memory.add([{"role": "user", "content": "I live in Oslo."}], user_id="p")
    with pytest.raises(ConfigurationError, match="forgetting it would make two people of one") as forget:
        memory.set_person(None, user_id="p")
    assert "new name" not in str(forget.value)
    with pytest.raises(ConfigurationError, match="renaming it 'Bo' would make two people of one"):
        memory.set_person("Bo", user_id="p")
    with pytest.raises(InvalidInputError) as empty:
        memory.set_person("", user_id="p")
    assert "None" not in str(empty.value)  # None would forget, which is refused here
    with pytest.raises(InvalidInputError, match="300 characters, over the limit of 200"):
        memory.set_person("A" * 300, user_id="other")
    memory.set_person("A" * 200, user_id="other")  # the service's limit too
    assert memory.person(user_id="p") == "Alex"


def test_a_timeline_window_is_a_time_converted_to_utc_and_in_order() -> None:
    with Memory(Settings(store="memory://"), embedder=FakeEmbedder()) as memory:
        memory.add("I went to Rome.", user_id="x", session_time="2024-01-02T02:00:00")
        # 2024-01-01 22:00 UTC: placed on the day 2024-01-01, 00:00 UTC
        memory.add("I went to Lima.", user_id="x", session_time="2024-01-02T03:00:00+05:00")
        lima = memory.search("Lima", user_id="x", limit=1).evidence[0].unit.id
        window = memory.timeline(  # 2023-12-31 23:00 to 2024-01-01 00:00 UTC
            user_id="x", start="2024-01-01T04:00:00+05:00", end="2024-01-01T05:00:00+05:00", bins=1
        )
        assert window.in_window == 1 and [u.unit.id for u in window.units] == [lima]
        with pytest.raises(InvalidInputError, match=r"start must be a datetime or an ISO 8601 string, got int"):
            memory.timeline(user_id="x", start=5)  # type: ignore[arg-type]
        with pytest.raises(InvalidInputError, match="start 2024-03-01T00:00:00 is after end 2024-01-01T00:00:00"):
            memory.timeline(user_id="x", start="2024-03-01", end="2024-01-01")


def test_an_empty_update_and_a_missing_id_say_what_is_wrong(memory: Memory) -> None:
    unit_id = memory.list(user_id="x")[0].id
    for text in ("", "   "):
        with pytest.raises(InvalidInputError, match="the update's text is empty: give the new fact in a sentence"):
            memory.update(unit_id, text, user_id="x")
    for call in (memory.get, memory.history, memory.delete):
        with pytest.raises(InvalidInputError, match="the unit id must be a string"):
            call(None, user_id="x")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError) as raised:
        memory.list(user_id=" ")
    assert "give an id, or leave it out for the default" in str(raised.value)
    assert "None" not in str(raised.value)  # the message is shared with REST, MCP and the CLI
    assert len(memory.list(user_id="x")) == 2


@pytest.mark.parametrize("key", ["time", "session_time", "timestamp", "date", "created_at"])
def test_a_time_on_a_message_is_refused_not_dropped(memory: Memory, key: str) -> None:
    """An add is one session with one time, its ``session_time``: a time given on a message
    instead is refused (dropped, the memory would be of no day, or of the add's), with where
    the time goes; other keys of other frameworks' messages are still let through."""
    before = {u.id for u in memory.list(user_id="x")}
    with pytest.raises(InvalidInputError) as raised:
        memory.add(
            [{"role": "user", "content": "I like tea."},
             {"role": "user", "content": "I moved to Leeds.", key: "2024-05-01"}],
            user_id="x",
        )
    said = str(raised.value)
    assert said.startswith(f"message 2 has a {key!r}: "), said
    assert "session_time=" in said and "add of their own" in said, said
    assert {u.id for u in memory.list(user_id="x")} == before
    added = memory.add(  # an exporter's empty time says nothing to drop
        [{"role": "user", "content": "I moved to Leeds.", "tool_call_id": None, "type": "human", key: None}],
        user_id="x", session_time="2024-05-01",
    )
    assert added.units

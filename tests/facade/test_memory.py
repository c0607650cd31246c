"""The Memory facade end to end on a real SQLite file with the shipped embedder."""

from __future__ import annotations

import asyncio
import json

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import (
    ConfigurationError,
    EmbedderMismatchError,
    InvalidInputError,
    UnknownNamespaceError,
    UnknownRecipeError,
    UnknownUnitError,
)
from ripplemem.providers.openai_compat import OpenAICompatibleEmbedder
from ripplemem.testing import ScriptedOpenAIServer

from .conftest import DINNER, TRIP


@pytest.fixture
def memory(tmp_path, embedder):
    with Memory(Settings(store=tmp_path / "m.db"), embedder=embedder) as m:
        yield m


def test_add_search_trace(memory):
    first = memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    assert first.units and first.windows == 1 and first.seconds > 0
    memory.add(DINNER, user_id="maya", session_time="2024-05-22 18:00")
    recall = memory.search("Where did Maya travel with Priya?", user_id="maya")
    assert recall.evidence, "something must be recalled"
    top = recall.evidence[0].unit
    assert "Lisbon" in top.restatement
    assert recall.trace.recipe == "ripple" and recall.trace.initial
    assert all(e.terms is not None for e in recall.evidence)
    scores = [e.score for e in recall.evidence]
    assert scores == sorted(scores, reverse=True)


class CallCountingStore:
    """Delegates every store call and counts the calls per method name."""

    def __init__(self, inner):
        self._inner, self.counts = inner, {}

    def __getattr__(self, name):
        target = getattr(self._inner, name)
        if not callable(target):
            return target

        def counted(*args, **kwargs):
            self.counts[name] = self.counts.get(name, 0) + 1
            return target(*args, **kwargs)

        return counted


def test_add_reports_its_stages_and_searches_once_per_batch(tmp_path, embedder):
    """The linker and the clue graph share one dense search (after storing); the update
    candidates take one more, before the write block (model work holds no lock); every stage is
    timed."""
    from ripplemem.records import INSERT_STAGES
    from ripplemem.stores.registry import open_store

    store = CallCountingStore(open_store(tmp_path / "m.db"))
    with Memory(Settings(store=tmp_path / "m.db"), store=store, embedder=embedder) as m:
        added = m.add(TRIP + DINNER, user_id="maya", session_time="2024-05-20T10:00")
        assert added.units and added.clue_links >= 0
        assert store.counts["search_dense_many"] == 2  # one batch of windows: near + updates
        stages = added.timings_ms
        assert {"extract", "embed", "updates", "store", "near", "link", "dialogue", "clues"} <= set(stages)
        assert all(ms >= 0 for ms in stages.values())
        assert sum(stages.values()) <= added.seconds * 1000
        assert added.insert_ms == pytest.approx(sum(stages[s] for s in INSERT_STAGES))
        assert 0 < added.insert_ms < added.seconds * 1000


def test_relative_time_is_grounded(memory):
    memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    lisbon = [u for u in memory.list(user_id="maya") if "Lisbon" in u.restatement]
    assert lisbon and lisbon[0].time_span is not None
    span = lisbon[0].time_span
    assert span.start.month == 5 and span.start.day < 20 and span.end.day < 20


def test_readd_is_idempotent(memory):
    first = memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    again = memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    assert again.units == [] and again.skipped == len(first.units) > 0


def test_readd_embeds_nothing(tmp_path, embedder):
    class Counting:
        """The shipped embedder, counting the texts it is asked to embed."""

        name, dim = embedder.name, embedder.dim
        semantic_edge_threshold = embedder.semantic_edge_threshold

        def __init__(self) -> None:
            self.texts = 0

        def embed(self, texts, *, input_type="document"):
            self.texts += len(texts)
            return embedder.embed(texts, input_type=input_type)

    counting = Counting()
    with Memory(Settings(store=tmp_path / "m.db"), embedder=counting) as memory:
        memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
        spent = counting.texts
        memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
        assert spent > 0 and counting.texts == spent


def test_get_list_delete_edges(memory):
    memory.add(TRIP + DINNER, user_id="maya", session_time="2024-05-20T10:00")
    units = memory.list(user_id="maya")
    linked = next(u for u in units if memory.edges(u.id, user_id="maya"))
    neighbour = memory.edges(linked.id, user_id="maya")[0].dst
    memory.delete(linked.id, user_id="maya")
    with pytest.raises(UnknownUnitError):
        memory.get(linked.id, user_id="maya")
    assert all(e.dst != linked.id for e in memory.edges(neighbour, user_id="maya"))
    assert len(memory.list(user_id="maya")) == len(units) - 1
    with pytest.raises(UnknownUnitError):
        memory.delete(linked.id, user_id="maya")


def test_an_empty_namespace_is_no_error_and_messages_name_only_the_callers_namespace(memory):
    memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    found = memory.search("anything", user_id="nobody")  # an agent's search before its first add
    assert found.evidence == () and found.trace.notes == ["the namespace holds no memory yet"]
    assert found.trace.namespace == "nobody"
    assert memory.list(user_id="nobody") == [] and memory.count(user_id="nobody") == 0
    assert memory.delete_all(user_id="nobody") == 0
    with pytest.raises(UnknownRecipeError, match="ripple"):
        memory.search("anything", user_id="maya", recipe="nope")
    with pytest.raises(UnknownRecipeError, match="ripple"):  # the input is checked first
        memory.search("anything", user_id="nobody", recipe="nope")
    with pytest.raises(InvalidInputError, match="the query is empty"):
        memory.search("  ", user_id="nobody")
    some = memory.list(user_id="maya")[0].id
    for namespace in ("nobody", "maya"):  # the same message whether the id is elsewhere or nowhere
        for verb in (memory.get, memory.delete, memory.edges, memory.history):
            with pytest.raises(UnknownUnitError) as raised:
                verb("u1" if namespace == "maya" else some, user_id=namespace)
            assert "maya" not in str(raised.value).replace("'maya'", "") or namespace == "maya"
    with pytest.raises(UnknownUnitError) as raised:
        memory.get(some, user_id="nobody")
    assert str(raised.value) == f"no memory {some!r} in namespace 'nobody'"
    with pytest.raises(UnknownNamespaceError) as raised:
        memory.check_namespace(user_id="nobody")
    assert str(raised.value) == "namespace 'nobody' holds no memory yet"  # no other namespace named
    assert memory.check_namespace(user_id="maya") == "maya"


def test_user_agent_and_run_ids_map_to_namespaces_by_one_rule(memory):
    from ripplemem.core.identity import namespace_of

    assert namespace_of() == "default"
    assert namespace_of(user_id="alex") == namespace_of(namespace="alex") == "alex"
    assert namespace_of(user_id="alex", agent_id="planner") == "alex/agent:planner"
    assert namespace_of(user_id="alex", agent_id="planner", run_id="r1") == "alex/agent:planner/run:r1"
    assert namespace_of(run_id="r1") == "default/run:r1"
    with pytest.raises(ConfigurationError, match="either namespace or user_id"):
        namespace_of(namespace="alex", user_id="bo")
    with pytest.raises(InvalidInputError, match="holds a '/'"):
        namespace_of(user_id="alex", agent_id="a/b")
    mine = memory.add("I keep my bike in the shed.", user_id="alex", agent_id="planner")
    assert {u.namespace for u in mine.units} == {"alex/agent:planner"}
    assert memory.search("bike", user_id="alex").evidence == ()  # a narrower namespace is apart
    found = memory.search("Where is the bike?", user_id="alex", agent_id="planner")
    assert [e.unit.id for e in found.evidence] == [u.id for u in mine.units]
    assert memory.get(mine.units[0].id, namespace="alex/agent:planner").id == mine.units[0].id
    assert memory.list(user_id="alex", agent_id="planner", run_id="r1") == []


def test_a_plain_string_is_one_message_of_the_user(memory):
    added = memory.add("I adopted a cat named Pixel.", user_id="maya", session_time="2024-05-20T10:00")
    assert added.units and "Pixel" in added.units[0].restatement
    assert memory.add("I adopted a cat named Pixel.", user_id="maya",
                      session_time="2024-05-20T10:00").skipped == len(added.units)


@pytest.mark.parametrize(
    "messages, session_time, match",
    [
        ([], None, "no messages"),
        ("", None, "empty text"),
        ([{"speaker": "Maya"}], None, "no text"),
        ([{"text": "hello"}], None, "no 'role'"),
        (TRIP, "the day after tomorrow-ish", "cannot parse session_time"),
        ([{"speaker": "Maya", "text": "x" * 50_000}], None, "over the limit"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_lost(memory, messages, session_time, match):
    memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    before = {u.id for u in memory.list(user_id="maya")}
    with pytest.raises(InvalidInputError, match=match):
        memory.add(messages, user_id="maya", session_time=session_time)
    assert {u.id for u in memory.list(user_id="maya")} == before


def test_export_import_roundtrip(tmp_path, memory, embedder):
    memory.add(TRIP + DINNER, user_id="maya", session_time="2024-05-20T10:00")
    path = tmp_path / "dump.jsonl"
    exported = memory.export_jsonl(path)
    assert exported == len(memory.list(user_id="maya"))
    assert json.loads(path.read_text().splitlines()[0])["type"] == "meta"
    with Memory(Settings(store=tmp_path / "copy.db"), embedder=embedder) as copy:
        assert copy.import_jsonl(path) == exported
        assert {u.id for u in copy.list(user_id="maya")} == {u.id for u in memory.list(user_id="maya")}
        some = copy.list(user_id="maya")[0]
        assert copy.edges(some.id, user_id="maya") == memory.edges(some.id, user_id="maya")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "unit", "id": 1}\n')
    with pytest.raises(InvalidInputError, match="line 1"):
        memory.import_jsonl(bad)


def test_store_refuses_another_embedder(tmp_path, embedder):
    path = tmp_path / "m.db"
    with Memory(Settings(store=path), embedder=embedder) as m:
        m.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    with ScriptedOpenAIServer() as server:
        other = OpenAICompatibleEmbedder(server.base_url, "other-model", 384)
        with pytest.raises(EmbedderMismatchError, match="minilm-int8"):
            Memory(Settings(store=path), embedder=other)
    with Memory(Settings(store=path), embedder=embedder) as m:  # nothing was lost
        assert len(m.list(user_id="maya")) > 0


def test_answer_needs_an_llm(memory):
    memory.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
    with pytest.raises(ConfigurationError, match="LLM"):
        memory.answer("Where did Maya go?", user_id="maya")


def test_async_memory(tmp_path, embedder):
    async def scenario():
        async with AsyncMemory(Settings(store=tmp_path / "a.db"), embedder=embedder) as m:
            await m.add(TRIP, user_id="maya", session_time="2024-05-20T10:00")
            recall = await m.search("Lisbon trip", user_id="maya")
            assert await m.check_namespace(user_id="maya") == "maya"
            return recall.evidence[0].unit.restatement

    assert "Lisbon" in asyncio.run(scenario())

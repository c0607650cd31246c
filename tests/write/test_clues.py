"""The clue-graph stage with the shipped embedder, both stores and a scripted LLM server."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import pytest

from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.records import MemoryUnit
from ripplemem.settings import WriteSettings
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.memory import InMemoryStore
from ripplemem.stores.sqlite import SQLiteStore
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem.write.clues import ClueGraphBuilder, KeyphraseClues, LLMClues
from ripplemem.write.prompts.clue import clue_messages

WHEN = datetime(2023, 5, 8, 10, 0)
SESSIONS = {
    "s1": [
        "Maya adopted a rescue dog named Biscuit from the shelter.",
        "Maya walks Biscuit the dog every morning in the park.",
        "Biscuit the dog is afraid of thunderstorms, Maya said.",
    ],
    "s2": [
        "Sam started training for the Berlin marathon in spring.",
        "Sam runs forty kilometres a week for the marathon.",
    ],
    "s3": [
        "Maya bought a new bed for her rescue dog Biscuit.",
        "Maya took Biscuit the dog to the vet for vaccinations.",
    ],
}


@lru_cache(maxsize=1)
def embedder() -> MiniLMFloatEmbedder:
    return MiniLMFloatEmbedder()


def units_of(episode: str, texts: list[str], keywords: tuple[str, ...] = ()) -> list[MemoryUnit]:
    vectors = embedder().embed(texts, input_type="document")
    return [
        MemoryUnit(
            id=f"{episode}-{i}", namespace="ns", restatement=text, vector=vector,
            participants=(), locations=(), time_span=None, episode_id=episode,
            turn_ids=(f"{episode}:{i}",), session_time=WHEN, created_at=WHEN, keywords=keywords,
        )
        for i, (text, vector) in enumerate(zip(texts, vectors))
    ]


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[MemoryStore]:
    backend: MemoryStore
    backend = InMemoryStore() if request.param == "memory" else SQLiteStore(tmp_path / "c.db")
    backend.check_embedder(embedder().name, embedder().dim)
    yield backend
    backend.close()


def add(store: MemoryStore, builder: ClueGraphBuilder, episode: str):
    units = units_of(episode, SESSIONS[episode])
    store.add_units(units)
    return builder.build(units)


def test_keyphrases_rank_what_the_session_repeats() -> None:
    text = KeyphraseClues(limit=3).clue_text(units_of("s1", SESSIONS["s1"], keywords=("rescue dog",)))
    assert text.split(", ") == ["rescue dog", "maya", "dog"]  # keywords x2; ties: first seen


def test_keyphrases_leave_the_speakers_out() -> None:
    units = [replace(u, participants=("Maya",)) for u in units_of("s1", SESSIONS["s1"])]
    words = KeyphraseClues(limit=4).clue_text(units).split(", ")
    assert "maya" not in words and words[:2] == ["dog", "biscuit"]


def test_one_clue_per_session_alike_sessions_merge(store: MemoryStore) -> None:
    builder = ClueGraphBuilder(store, store.clues, embedder(), KeyphraseClues())
    first = add(store, builder, "s1")
    assert (first.clues, first.merged, first.members) == (1, 0, 3)
    assert add(store, builder, "s2").clues == 1  # marathon: a new topic
    third = add(store, builder, "s3")  # the dog again: cosine >= 0.65 with s1's clue
    assert (third.clues, third.merged) == (0, 1)
    graph = store.clues
    assert graph.clue_count("ns") == 2
    assert graph.clue_for_session("ns", "s3") == graph.clue_for_session("ns", "s1")
    dog = graph.clue_for_session("ns", "s1")
    assert dog is not None and len(graph.members("ns", [dog])[dog]) == 5
    assert graph.get_clues("ns", [dog])[0].sessions == 2


def test_nothing_merges_above_a_strict_threshold(store: MemoryStore) -> None:
    strict = WriteSettings(clue_merge_threshold=0.999)
    builder = ClueGraphBuilder(store, store.clues, embedder(), KeyphraseClues(), strict)
    for episode in SESSIONS:
        add(store, builder, episode)
    assert store.clues.clue_count("ns") == 3


def test_utterance_links_need_cosine_at_least_gamma(store: MemoryStore) -> None:
    builder = ClueGraphBuilder(store, store.clues, embedder(), KeyphraseClues())
    for episode in SESSIONS:
        add(store, builder, episode)
    units = store.list_units("ns")
    links = store.clues.links("ns", [u.id for u in units])
    vectors = {u.id: u.vector for u in units}
    pairs = [(a, b, w) for a, found in links.items() for b, w in found]
    for a, b, weight in pairs:
        assert weight >= 0.75 and float(vectors[a] @ vectors[b]) == pytest.approx(weight, abs=1e-4)
    loose = WriteSettings(utterance_link_threshold=0.3)
    fresh = InMemoryStore()
    looser = ClueGraphBuilder(fresh, fresh.clues, embedder(), KeyphraseClues(), loose)
    for episode in SESSIONS:
        add(fresh, looser, episode)
    more = fresh.clues.links("ns", [u.id for u in units])
    assert sum(map(len, more.values())) > len(pairs)


def test_a_known_session_keeps_its_clue(store: MemoryStore) -> None:
    builder = ClueGraphBuilder(store, store.clues, embedder(), KeyphraseClues())
    add(store, builder, "s1")
    later = [replace(u, id="s1-late") for u in units_of("s1", ["Maya taught Biscuit to sit."])]
    store.add_units(later)
    report = builder.build(later)
    assert (report.clues, report.merged, report.members) == (0, 0, 1)


def test_llm_clue_through_the_scripted_server(store: MemoryStore) -> None:
    sentence = "Maya's rescue dog Biscuit: adoption, walks and fears."
    script = [Reply.malformed(), Reply.json({"clue": sentence})]
    with (
        ScriptedOpenAIServer(script) as server,
        OpenAICompatibleChat(server.llm_settings(), backoff_s=0.01) as chat,
    ):
        writer = LLMClues(chat)
        add(store, ClueGraphBuilder(store, store.clues, embedder(), writer), "s1")
        request = server.requests[-1]
    graph = store.clues
    (clue,) = graph.get_clues("ns", [graph.clue_for_session("ns", "s1") or ""])
    assert clue.text == sentence and clue.source == "llm"
    assert writer.tokens_used > 0 and writer.fallbacks == 0
    assert "Biscuit the dog is afraid of thunderstorms" in request["messages"][1]["content"]


def test_llm_clue_falls_back_to_keyphrases_on_garbage(store: MemoryStore) -> None:
    with (
        ScriptedOpenAIServer([Reply.malformed(), Reply.malformed()]) as server,
        OpenAICompatibleChat(server.llm_settings(), backoff_s=0.01) as chat,
    ):
        writer = LLMClues(chat, max_repairs=1)
        add(store, ClueGraphBuilder(store, store.clues, embedder(), writer), "s2")
    graph = store.clues
    (clue,) = graph.get_clues("ns", [graph.clue_for_session("ns", "s2") or ""])
    assert writer.fallbacks == 1 and "marathon" in clue.text


def test_the_prompt_is_bounded() -> None:
    messages = clue_messages(["x" * 500] * 100, WHEN)
    assert len(messages[-1].content) < 7_000 and "2023-05-08" in messages[-1].content

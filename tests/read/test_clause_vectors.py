"""The clause vectors the statement reader keeps across searches are each text's own.

The default embedder quantises activations per batch, so a text embedded beside others gets a
slightly different vector than alone; a vector kept from one search's batch would make the
next search's reading depend on which search came first. With such an embedder
(``batch_dependent``) the read path embeds clause texts one per call, two calls at a time; with
any other it keeps one call for all of them (a remote embedder: one request).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from ripplemem import Memory
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder, MiniLMQ7Embedder
from ripplemem.read.pipeline import recall
from ripplemem.recipes import get_recipe
from ripplemem.records import Conversation
from ripplemem.statements import StatementReader
from ripplemem.testing.builders import dialogue
from ripplemem.write.entities import EntityRecognizer

NS = "maya"
QUESTION = "Where does Maya live?"


class Recording:
    """An embedder that records the calls it gets with documents (the clause texts)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        self.semantic_edge_threshold = inner.semantic_edge_threshold
        self.batch_dependent = getattr(inner, "batch_dependent", False)
        self.calls: list[list[str]] = []
        self.threads: set[str] = set()  # the threads that embedded documents

    def embed(self, texts: Sequence[str], *, input_type: str = "document") -> np.ndarray:
        if input_type == "document":
            self.calls.append(list(texts))
            self.threads.add(threading.current_thread().name)
        return self.inner.embed(texts, input_type=input_type)


def _conversation() -> Conversation:
    return dialogue("maya", ("Maya", "Tom"), [
        ("S1", "2023-02-10T18:00:00", [
            ("Tom", "How is the new job going?"),
            ("Maya", "I've been renting a tiny flat in Leeds for three years, close to the station."),
            ("Maya", "My sister Priya lives in Porto and works at a bakery near the river."),
        ]),
        ("S2", "2023-06-03T18:00:00", [
            ("Tom", "Any news from your side?"),
            ("Maya", "Big one: I moved to Bristol last month, and the boxes are finally unpacked."),
            ("Maya", "I live in Clifton now, right by the suspension bridge."),
        ]),
    ])


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    memory = Memory.open(tmp_path_factory.mktemp("clauses") / "m.db")
    memory.add(_conversation(), namespace=NS)
    yield memory.store
    memory.close()


def _not_again(texts: list[str]) -> np.ndarray:
    raise AssertionError(f"kept vectors were embedded again: {texts}")


def test_each_kept_clause_vector_is_the_text_embedded_alone(store) -> None:
    q7 = MiniLMQ7Embedder()
    recording = Recording(q7)
    statements = StatementReader(EntityRecognizer().parse)
    recall(QUESTION, store=store, namespace=NS, embedder=recording, recipe=get_recipe("ripple"),
           statements=statements)
    texts = [text for call in recording.calls for text in call]
    assert len(texts) >= 3, "the question should read several clauses"
    assert all(len(call) == 1 for call in recording.calls)
    kept = statements.vectors(texts, _not_again)
    for text, vector in zip(texts, kept, strict=True):
        assert np.array_equal(vector, q7.embed([text])[0]), text


def test_the_texts_alone_are_embedded_two_at_a_time(store) -> None:
    """Every other text on a thread of its own: the same vectors, in about half the time."""
    recording = Recording(MiniLMQ7Embedder())
    recall(QUESTION, store=store, namespace=NS, embedder=recording, recipe=get_recipe("ripple"),
           statements=StatementReader(EntityRecognizer().parse))
    assert len(recording.calls) >= 3 and all(len(call) == 1 for call in recording.calls)
    assert len(recording.threads) == 2


def test_an_embedder_independent_of_its_batch_embeds_the_clauses_in_one_call(store) -> None:
    recording = Recording(MiniLMFloatEmbedder())
    statements = StatementReader(EntityRecognizer().parse)
    recall(QUESTION, store=store, namespace=NS, embedder=recording, recipe=get_recipe("ripple"),
           statements=statements)
    assert len(recording.calls) == 1 and len(recording.calls[0]) >= 3

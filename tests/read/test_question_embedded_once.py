"""Supersession reads the question without its people's names: a question that names nobody is
not embedded a second time (its own vector is that text's), one that names people is embedded
once more, without them."""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import pytest

from ripplemem.read.pipeline import recall
from ripplemem.read.supersession import nameless_query
from ripplemem.recipes import get_recipe
from ripplemem.statements import StatementReader
from ripplemem.write.entities import EntityRecognizer

from . import NS, QUERY, build_store, embedder


class CountingEmbedder:
    """The shipped embedder, with each text it embeds as a query recorded."""

    def __init__(self) -> None:
        self.inner = embedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.semantic_edge_threshold = self.inner.semantic_edge_threshold
        self.queries: list[str] = []
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str], *, input_type: str = "document") -> np.ndarray:
        if input_type == "query":
            with self._lock:
                self.queries.extend(texts)
        return self.inner.embed(texts, input_type=input_type)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def store():
    return build_store()


@pytest.mark.parametrize(
    "query",
    [QUERY, "Should I take a friend to a seafood restaurant for dinner now?"],
    ids=["names people", "names nobody"],
)
def test_each_question_text_is_embedded_once(store, query) -> None:
    counting = CountingEmbedder()
    statements = StatementReader(EntityRecognizer().parse)
    found = recall(
        query, store=store, namespace=NS, embedder=counting,  # type: ignore[arg-type]
        recipe=get_recipe("ripple"), statements=statements,
    )
    plain = recall(
        query, store=store, namespace=NS, embedder=embedder(), recipe=get_recipe("ripple"),
        statements=statements,
    )
    assert found.evidence and [(e.unit.id, e.score) for e in found.evidence] == [
        (e.unit.id, e.score) for e in plain.evidence
    ]
    nameless = nameless_query(query, found.trace.cues)
    assert counting.queries == ([query] if nameless == query else [query, nameless])

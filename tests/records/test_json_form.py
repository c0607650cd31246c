"""One JSON form for the records a caller or the service sees, and a lossless round trip."""

from __future__ import annotations

import json

import numpy as np
import pytest

from ripplemem import AddResult, Edge, Memory, MemoryUnit, Recall, Settings
from ripplemem.records import TimeSpan
from ripplemem.records.wire import AddResultModel, RecallModel, UnitModel
from ripplemem.testing import T0, FakeEmbedder, day_span, make_unit

TALK = [
    {"speaker": "Maya", "text": "I went to Lisbon with Priya two weekends ago, we loved the trams."},
    {"speaker": "Sam", "text": "Nice! Did you try the pastel de nata?"},
    {"speaker": "Maya", "text": "Yes, every day. I am allergic to shellfish, so I skipped seafood."},
]


def _through_text(data: dict) -> dict:
    """What a client gets: the dict serialised and parsed again."""
    return json.loads(json.dumps(data))


@pytest.fixture(scope="module")
def filled():
    memory = Memory(Settings(store="memory://"), embedder=FakeEmbedder())
    added = memory.add(TALK, user_id="maya", session_time="2024-05-20T10:00")
    found = memory.search("Where did Maya travel with Priya?", user_id="maya")
    yield memory, added, found
    memory.close()


def test_a_unit_round_trips_with_a_bit_exact_vector():
    vector = np.random.default_rng(1).standard_normal(384).astype(np.float32)
    vector /= np.linalg.norm(vector)
    unit = make_unit(
        "u1", vector=vector, participants=("Maya",), locations=("Lisbon",),
        time_span=day_span(3), session_time=T0, keywords=("trams",),
    )
    back = MemoryUnit.from_json(_through_text(unit.to_json()))
    assert back.vector is not None and back.vector.dtype == np.float32
    assert back.vector.tobytes() == unit.vector.tobytes()
    assert back.restatement == unit.restatement and back.time_span == unit.time_span
    assert back.participants == unit.participants and back.session_time == unit.session_time


def test_a_unit_without_its_vector_says_so():
    data = make_unit("u1").to_json(with_vector=False)
    assert data["vector"] is None and MemoryUnit.from_json(data).vector is None


def test_an_edge_round_trips():
    edge = Edge("ns", "a", "b", "semantic", 0.8125)
    assert Edge.from_json(_through_text(edge.to_json())) == edge


def test_an_add_result_round_trips(filled):
    _, added, _ = filled
    data = _through_text(added.to_json())
    AddResultModel.model_validate(data)
    back = AddResult.from_json(data)
    assert [u.id for u in back.units] == [u.id for u in added.units]
    assert back.to_json() == added.to_json()


def test_a_recall_round_trips_with_evidence_terms_and_trace(filled):
    _, _, found = filled
    data = _through_text(found.to_json())
    RecallModel.model_validate(data)
    assert data["evidence"] and {"unit", "score", "views", "terms"} <= set(data["evidence"][0])
    assert "plans" in data["trace"] and "initial" in data["trace"]
    back = Recall.from_json(data)
    assert back.to_json() == found.to_json()
    assert [e.unit.id for e in back.evidence] == [e.unit.id for e in found.evidence]


def test_the_schema_names_every_field_a_client_reads():
    fields = set(UnitModel.model_json_schema()["properties"])
    assert {"id", "namespace", "restatement", "participants", "locations", "time_span"} <= fields


def test_a_malformed_payload_is_refused_with_the_field_named():
    data = make_unit("u1").to_json()
    data["time_span"] = ["not a time"]
    with pytest.raises(ValueError, match="time_span"):
        MemoryUnit.from_json(data)


def test_time_spans_keep_their_bounds():
    span = TimeSpan(T0, T0.replace(hour=23))
    assert TimeSpan.from_json(span.to_json()) == span

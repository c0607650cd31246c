"""REST as a newcomer meets it: metadata on add and filters on search, the namespace's person,
and answer without an LLM (a typed error that says how to configure one)."""

from __future__ import annotations

from ripplemem.records import Recall

from .live import LiveServer

PETS = [
    {"role": "user", "content": "I adopted a dog named Rex in Lisbon last week."},
    {"role": "assistant", "content": "Congratulations on Rex!"},
]
WORK = [{"role": "user", "content": "I start a new job at the Lisbon bakery in May.",
         "metadata": {"mood": "excited"}}]


def test_metadata_filters_and_the_person_over_rest(live: LiveServer) -> None:
    with live.client("alex") as client:
        named = client.put("/v1/person", json={"name": "Alex"})
        assert named.status_code == 200 and named.json() == {"namespace": "alex", "name": "Alex"}
        assert client.get("/v1/person").json()["name"] == "Alex"
        for messages, topic, day in ((PETS, "pets", "2024-05-01"), (WORK, "work", "2024-06-01")):
            added = client.post("/v1/memories", json={
                "messages": messages, "metadata": {"topic": topic}, "session_time": day,
            })
            assert added.status_code == 200, added.text
        units = client.get("/v1/memories", params={"limit": 50}).json()["memories"]
        rex = next(u for u in units if "Rex" in u["restatement"] and "Lisbon" in u["restatement"])
        assert rex["metadata"] == {"topic": "pets"} and rex["speakers"] == ["Alex"]
        assert "Alex" in rex["restatement"]
        job = next(u for u in units if "bakery" in u["restatement"])
        assert job["metadata"] == {"topic": "work", "mood": "excited"}

        query = {"query": "What happened in Lisbon?"}
        for filters, topic in (({"topic": "work"}, "work"), ({"before": "2024-05-15"}, "pets")):
            found = client.post("/v1/search", json={**query, "filters": filters})
            assert found.status_code == 200, found.text
            recall = Recall.from_json(found.json())
            assert recall.evidence, filters
            assert all(e.unit.metadata["topic"] == topic for e in recall.evidence), filters
        by_assistant = Recall.from_json(
            client.post("/v1/search", json={**query, "filters": {"speaker": "Assistant"}}).json()
        )
        assert by_assistant.evidence
        assert all(e.unit.speakers == ("Assistant",) for e in by_assistant.evidence)

        bad = client.post("/v1/search", json={**query, "filters": {"topic": {"in": ["x"]}}})
        assert bad.status_code == 422
        assert bad.json()["error"]["type"] == "FilterError"
        assert "a value or a list of values" in bad.json()["error"]["message"]
        renamed = client.put("/v1/person", json={"name": "Alexandra"})
        assert renamed.status_code == 422 and "two people of one" in renamed.text


def test_answer_without_an_llm_says_how_to_configure_one(live: LiveServer) -> None:
    with live.client("alex") as client:
        refused = client.post("/v1/answer", json={"question": "What is the dog called?"})
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["type"] == "LLMNotConfiguredError"
    assert "RIPPLEMEM_LLM_BASE_URL" in error["message"] and "RIPPLEMEM_LLM_MODEL" in error["message"]


def test_a_read_only_key_cannot_rename_the_person(live: LiveServer) -> None:
    with live.client("reader") as client:
        assert client.get("/v1/person").json() == {"namespace": "alex", "name": None}
        assert client.put("/v1/person", json={"name": "Mallory"}).status_code == 403

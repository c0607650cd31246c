"""What looks the same is the same (QA7 Q7-12): ids, speakers, names, messages and queries are
taken in Unicode's composed form (NFC), so "zoë" written with "ë" (NFC) or with "e" and a
combining diaeresis (NFD, as macOS file names and PDF copies give it) is one namespace, one
speaker, one person and one word. Real components: ``Memory.open`` on a SQLite file."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from ripplemem import Memory


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


@pytest.fixture(scope="module")
def memory(tmp_path_factory: pytest.TempPathFactory):
    path: Path = tmp_path_factory.mktemp("forms") / "m.db"
    with Memory.open(str(path), env={}) as memory:
        memory.add([{"speaker": nfd("Zoë"), "text": nfd("I love the cello. I moved to Köln last year.")}],
                   user_id=nfd("zoë"), session_time="2024-03-01")
        memory.add([{"speaker": "Zoë", "text": "I bought a new bike."}], user_id="zoë",
                   session_time="2024-03-02")
        yield memory


def test_both_forms_of_an_id_are_one_namespace(memory: Memory) -> None:
    assert memory.namespaces() == ["zoë"]
    assert len(memory.list(user_id="zoë")) == len(memory.list(user_id=nfd("zoë"))) == 2
    assert memory.count(user_id=nfd("zoë"), agent_id=nfd("ë")) == 0
    assert {u.speakers for u in memory.list(user_id="zoë")} == {("Zoë",)}
    assert all(unicodedata.is_normalized("NFC", u.restatement) for u in memory.list(user_id="zoë"))


@pytest.mark.parametrize("speaker", ["Zoë", nfd("Zoë")])
def test_a_speaker_filter_matches_either_form(memory: Memory, speaker: str) -> None:
    found = memory.search("cello", user_id="zoë", filters={"speaker": speaker})
    assert found.evidence and all(e.unit.speakers == ("Zoë",) for e in found.evidence)


@pytest.mark.parametrize("query", ["Köln", nfd("Köln")])
def test_the_lexical_view_reads_either_form(memory: Memory, query: str) -> None:
    found = memory.search(query, user_id="zoë", recipe="bm25")
    assert found.evidence and "Köln" in found.evidence[0].unit.restatement


def test_a_person_named_in_either_form_is_one_person() -> None:
    with Memory.open("memory://") as memory:
        memory.set_person("José", user_id="j")
        memory.add([{"role": "user", "content": "I love the cello."}], user_id="j")
        memory.set_person(nfd("José"), user_id="j")  # the same name: no rename
        assert memory.person(user_id="j") == "José"
        unit = memory.list(user_id="j")[0]
        updated = memory.update(unit.id, nfd("I moved to Zürich."), user_id="j")
        assert "Zürich" in updated.units[0].restatement


def test_a_namespace_stored_decomposed_is_listed_and_deleted_by_its_id(tmp_path: Path) -> None:
    """A store written before ids were composed may hold a namespace in the decomposed form (an
    import of such a store's export writes one as it is): it is listed, and deleted by its id as
    written; the other verbs name the composed namespace."""
    with Memory.open("memory://") as source:
        source.add([{"speaker": "Zoë", "text": "I moved to Köln."}], user_id="zoë")
        source.export_jsonl(tmp_path / "dump.jsonl")
    dump = tmp_path / "dump.jsonl"
    lines = [json.loads(line) for line in dump.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        if line.get("namespace") == "zoë":
            line["namespace"] = nfd("zoë")
    dump.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    with Memory.open("memory://") as memory:
        memory.import_jsonl(dump)
        assert memory.namespaces() == [nfd("zoë")]
        assert memory.list(user_id=nfd("zoë")) == []  # the composed namespace: empty
        assert memory.delete_all(user_id=nfd("zoë")) == 1
        assert memory.namespaces() == []

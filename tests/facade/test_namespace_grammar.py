"""The namespace grammar ``<user>[/agent:<agent_id>][/run:<run_id>]`` in the library: a namespace
written in full takes its own agent or run again but never nests another, a value outside the
grammar is refused with what to write instead, and a namespace an older version wrote outside it
can still be exported and deleted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.core.identity import namespace_of, parts_of
from ripplemem.errors import InvalidInputError
from ripplemem.testing import FakeEmbedder


def test_a_full_namespace_composes_with_its_own_ids_only() -> None:
    assert namespace_of("alex/run:conc", run_id="conc") == "alex/run:conc"
    assert namespace_of("alex/agent:p", run_id="r") == "alex/agent:p/run:r"
    assert namespace_of(user_id="alex/agent:p/run:r", agent_id="p", run_id="r") == "alex/agent:p/run:r"
    assert namespace_of(user_id="bench/conv-26", agent_id="coach") == "bench/conv-26/agent:coach"
    assert parts_of("team/a/agent:p/run:1") == ("team/a", "p", "1")
    refusals = {
        ("alex/run:conc", None, "other"): "already names run 'conc', and run_id is 'other'",
        ("alex/agent:p", "q", None): "already names agent 'p', and agent_id is 'q'",
        ("alex/run:r", "q", None): "give namespace 'alex/agent:q/run:r'",
    }
    for (user, agent_id, run_id), said in refusals.items():
        with pytest.raises(InvalidInputError, match=said):
            namespace_of(user, agent_id=agent_id, run_id=run_id)


@pytest.mark.parametrize(("namespace", "said"), [
    ("alex/run:", "empty run id"),
    ("alex/agent: ", "empty agent id"),
    ("alex/run:r/agent:q", "at most one agent, then at most one run"),
    ("alex/agent:p/agent:q", "at most one agent, then at most one run"),
    ("alex/run:a/run:b", "at most one agent, then at most one run"),
    ("alex/agent:p/notes", "has 'notes' after its agent or run"),
    ("run:r1", "names no user before its agent or run: write it as .* 'default/run:r1'"),
])
def test_a_namespace_outside_the_grammar_is_refused_by_every_verb(namespace: str, said: str) -> None:
    memory = Memory(Settings(store="memory://"), embedder=FakeEmbedder())
    for verb in (
        lambda: memory.add("I like tea.", namespace=namespace),
        lambda: memory.search("tea", user_id=namespace),
        lambda: memory.list(namespace=namespace),
        lambda: list(memory.export_lines(namespace=namespace)),
    ):
        with pytest.raises(InvalidInputError, match=said):
            verb()
    assert memory.namespaces() == []


def test_a_namespace_an_older_version_wrote_outside_the_grammar_is_not_lost(tmp_path: Path) -> None:
    memory = Memory(Settings(store=str(tmp_path / "a.db")), embedder=FakeEmbedder())
    memory.add("I keep my kayak at the harbour.", namespace="alex/run:conc", session_time="2024-05-08")
    nested = "alex/run:conc/run:conc"  # what a full namespace plus its run_id used to write
    lines = [line.replace('"alex/run:conc"', json.dumps(nested)) for line in memory.export_lines()]
    other = Memory(Settings(store=str(tmp_path / "b.db")), embedder=FakeEmbedder())
    assert other.import_lines(lines) == 1 and other.namespaces() == [nested]
    assert other.export_jsonl(tmp_path / "out.jsonl", namespace=nested) == 1
    assert other.delete_all(namespace=nested) == 1 and other.namespaces() == []

"""Naming the person of a namespace whose memories already say "User" would make two people of
one (the old memories say "User", new ones the name): every face refuses it as it refuses a later
rename, says what to do, and changes nothing stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem import Memory
from ripplemem.cli.main import app
from ripplemem.errors import ConfigurationError

from .live import LiveServer

JOB = [{"role": "user", "content": "I work at Acme as an accountant."}]
SAID = (
    "namespace 'alex' holds memories its person said before being named, as 'User'; naming it "
    "'Alex' would make two people of one (those memories say 'User', new ones would say 'Alex'). "
    "Leave the person unnamed, or delete_all() the namespace, name the person, and add the "
    "messages again"
)
#: each face names the remedy it has (QA7 Q7-19): the command line has no delete_all()
SAID_REST = SAID.replace("delete_all() the namespace", "empty the namespace (DELETE /v1/memories)")
SAID_CLI = SAID.replace(
    "delete_all() the namespace",
    "delete its memories (`ripplemem list`, then `ripplemem delete ID` for each)",
)


def _stored(memory: Memory) -> list[tuple[str, tuple[str, ...]]]:
    return [(u.restatement, u.speakers) for u in memory.list(user_id="alex")]


def test_python_refuses_a_first_name_once_user_has_memories() -> None:
    with Memory.open("memory://") as memory:
        memory.add(JOB, user_id="alex", session_time="2024-01-01")
        before = _stored(memory)
        with pytest.raises(ConfigurationError) as refused:
            memory.set_person("Alex", user_id="alex")
        assert str(refused.value) == SAID
        assert memory.person(user_id="alex") is None and _stored(memory) == before
        memory.set_person("User", user_id="alex")  # the name its memories say: one person still
        memory.set_person(None, user_id="alex")
        memory.add([{"speaker": "Sam", "text": "I work at Beta."}], user_id="sam")
        memory.set_person("Sam", user_id="sam")  # no memory says "User": nobody is split
        assert memory.person(user_id="sam") == "Sam"


def test_rest_refuses_it_with_a_422(live: LiveServer) -> None:
    with live.client("alex") as client:
        assert client.post("/v1/memories", json={"messages": JOB}).status_code == 200
        before = _stored(live.memory)
        refused = client.put("/v1/person", json={"name": "Alex"})
        assert refused.status_code == 422, refused.text
        assert refused.json()["error"]["message"] == SAID_REST
        assert client.get("/v1/person").json() == {"namespace": "alex", "name": None}
    assert _stored(live.memory) == before


def test_the_command_line_refuses_it_with_exit_2(tmp_path: Path) -> None:
    store = str(tmp_path / "m.db")
    with Memory.open(store) as memory:
        memory.add(JOB, user_id="alex")
        before = _stored(memory)
    result = CliRunner().invoke(app, ["person", "Alex", "--store", store, "-n", "alex"])
    assert result.exit_code == 2, result.output
    assert " ".join(result.stderr.split()) == f"error: {SAID_CLI}"
    with Memory.open(store) as memory:
        assert memory.person(user_id="alex") is None and _stored(memory) == before

"""One bad import line is told the same way on every face (REST, the command line, Python): the
line's number and the fields that are missing or wrong, in words; no pydantic dump, no URL, no
``KeyError`` repr; and nothing is imported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem import Memory
from ripplemem.cli.main import app
from ripplemem.errors import InvalidInputError

from .live import LiveServer

META = {"type": "meta", "format": "ripplemem.jsonl/4", "embedder": "fake", "dim": 8}
JSONL = {"content-type": "application/x-ndjson"}


def _told(message: str) -> str:
    """What a face says after naming the file or the request (``... line 2: ...``)."""
    flat = " ".join(message.split()).removeprefix("error: ")
    return flat[flat.index("line 2"):]


def _every_face(live: LiveServer, tmp_path: Path, line: dict) -> list[str]:
    path = tmp_path / "bad.jsonl"
    path.write_text(f"{json.dumps(META)}\n{json.dumps(line)}\n", encoding="utf-8")
    with live.client("alex") as client:  # into the key's namespace
        rest = client.post("/v1/import", content=path.read_bytes(), headers=JSONL)
    assert rest.status_code == 422 and rest.json()["error"]["type"] == "InvalidInputError"
    store = tmp_path / "cli.db"
    with Memory.open(str(store)) as memory:
        memory.add("I live in Oslo.", user_id="seed")
    cli = CliRunner().invoke(app, ["import", str(path), "--store", str(store)])
    assert cli.exit_code == 2, cli.output
    with Memory.open("memory://") as memory, pytest.raises(InvalidInputError) as python:
        memory.import_jsonl(path)
    with Memory.open(str(store)) as memory:
        assert [u.restatement for u in memory.list(user_id="seed")] == ["User lives in Oslo."]
    assert live.memory.namespaces() == []  # nothing imported
    return [_told(rest.json()["error"]["message"]), _told(cli.stderr), _told(str(python.value))]


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ({"type": "unit", "namespace": "ana", "restatement": "I live in Leeds."},
         "line 2: this unit line lacks id and created_at, which every unit line of an export has"),
        ({"type": "unit", "id": "u1", "namespace": "ana", "restatement": "I live in Leeds.",
          "created_at": "last week"},
         "line 2: this unit line's created_at is not valid ('last week'): "),
        ({"type": "edge", "namespace": "ana", "src": "a"},
         "line 2: this edge line lacks dst, kind and weight, which every edge line of an export has"),
        ({"namespace": "ana", "id": "u1"}, "line 2: this line has no type"),
    ],
)
def test_one_bad_import_line_is_told_alike_on_every_face(
    live: LiveServer, tmp_path: Path, line: dict, said: str
) -> None:
    told = _every_face(live, tmp_path, line)
    assert told[0] == told[1] == told[2], told
    assert told[0].startswith(said), told[0]
    assert told[0].endswith("nothing was imported"), told[0]
    for banned in ("validation error", "pydantic", "http", "KeyError", "('namespace')", "[type="):
        assert banned not in told[0], (banned, told[0])


def test_a_line_without_its_namespace_is_told_so(tmp_path: Path) -> None:
    """The repro's line: no namespace either (the service puts a line into the key's namespace,
    a file imported as it is names its own)."""
    path = tmp_path / "bad.jsonl"
    line = {"type": "unit", "restatement": "I live in Leeds."}
    path.write_text(f"{json.dumps(META)}\n{json.dumps(line)}\n", encoding="utf-8")
    with Memory.open("memory://") as memory, pytest.raises(InvalidInputError) as raised:
        memory.import_jsonl(path)
    assert str(raised.value) == (
        f"{path}, line 2: this unit line lacks id, namespace and created_at, which every unit "
        "line of an export has; import the file as export wrote it, or add them to the line; "
        "nothing was imported"
    )

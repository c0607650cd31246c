"""An import checks what ``add`` checks (namespaces, texts, the meta line's ``dim``) and refuses a
bad file whole; a namespace a store already holds under a name ``add`` refuses (an older import
wrote it) can still be deleted."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path

import pytest

from ripplemem import AsyncMemory, Memory, Settings
from ripplemem.errors import InvalidInputError
from ripplemem.testing import FakeEmbedder

LONG = "x" * 500


@pytest.fixture
def memory(tmp_path: Path):
    with Memory(Settings(store=str(tmp_path / "m.db")), embedder=FakeEmbedder()) as memory:
        memory.add("I live in Oslo.", user_id="seed")
        yield memory


@pytest.fixture
def export(memory: Memory, tmp_path: Path) -> tuple[dict, dict]:
    """The meta line and the unit line of the store's export."""
    path = tmp_path / "x.jsonl"
    memory.export_jsonl(path)
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    return rows[0], next(row for row in rows if row["type"] == "unit")


def _write(path: Path, *rows: dict) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _unit(unit: dict, **changes: object) -> dict:
    return {**unit, "id": f"u-{abs(hash(json.dumps(changes, default=str)))}", **changes}


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"namespace": LONG}, "500 characters, over the limit of 200"),
        ({"namespace": "a\x00b"}, "holds a NUL character"),
        ({"namespace": ""}, "is empty"),
        ({"namespace": "   "}, "is empty"),
        ({"namespace": " alex"}, "starts or ends with spaces"),
        ({"restatement": "PIN\x00 is 1234 in Oslo"}, "restatement holds a NUL character"),
        ({"restatement": "  "}, "empty restatement"),
        ({"participants": ["Ann\ud800"]}, "lone surrogate"),
        ({"id": ""}, "is empty"),
    ],
)
def test_a_file_with_one_bad_line_imports_nothing(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path, changes: dict, said: str
) -> None:
    meta, unit = export
    good = _unit(unit, namespace="fine", restatement="I live in Bergen.")
    path = _write(tmp_path / "bad.jsonl", meta, good, _unit(unit, **changes))
    before = memory.namespaces()
    with pytest.raises(InvalidInputError, match=said) as raised:
        memory.import_jsonl(path)
    assert "line 3" in str(raised.value) and "nothing was imported" in str(raised.value)
    assert memory.namespaces() == before  # not even the good line


def test_the_lines_the_service_sends_are_checked_the_same(
    memory: Memory, export: tuple[dict, dict]
) -> None:
    meta, unit = export  # POST /v1/import gives the core the body's bytes
    body = "\n".join(json.dumps(row) for row in (meta, _unit(unit, restatement="PIN\x00 1234")))
    with pytest.raises(InvalidInputError, match="NUL"):
        memory.import_lines(body.encode())
    with pytest.raises(InvalidInputError, match="NUL"):
        memory.import_lines(body.splitlines(), user_id="fresh")
    assert memory.namespaces() == ["seed"]


def test_the_meta_lines_dim_must_match_the_vectors(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path
) -> None:
    meta, unit = export
    assert len(unit["vector"]) == 384
    path = _write(tmp_path / "dim.jsonl", {**meta, "dim": 10}, _unit(unit, namespace="other"))
    with pytest.raises(InvalidInputError, match="384 values but the meta line says dim 10"):
        memory.import_jsonl(path)
    bad_dim = _write(tmp_path / "dim2.jsonl", {**meta, "dim": "ten"}, _unit(unit, namespace="other"))
    with pytest.raises(InvalidInputError, match="not a vector length"):
        memory.import_jsonl(bad_dim)
    assert memory.namespaces() == ["seed"]


def test_a_persons_name_is_checked_as_set_person_checks_it(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path
) -> None:
    meta, unit = export
    person = {"type": "person", "namespace": "other", "name": "A" * 300}
    path = _write(tmp_path / "person.jsonl", meta, person, _unit(unit, namespace="other"))
    with pytest.raises(InvalidInputError, match="over the limit of 200"):
        memory.import_jsonl(path)
    assert memory.person(user_id="other") is None and memory.namespaces() == ["seed"]


def test_an_export_with_a_byte_order_mark_imports(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path
) -> None:
    meta, unit = export
    path = tmp_path / "bom.jsonl"
    text = "".join(json.dumps(row) + "\n" for row in (meta, _unit(unit, namespace="other")))
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert memory.import_jsonl(path) == 1
    assert memory.import_lines(b"\xef\xbb\xbf" + text.encode("utf-8")) == 0  # held already
    utf16 = tmp_path / "utf16.jsonl"
    utf16.write_text(text, encoding="utf-16")
    with pytest.raises(InvalidInputError, match="is UTF-16 text, not UTF-8: save it as UTF-8"):
        memory.import_jsonl(utf16)


def test_a_namespace_stored_under_a_refused_name_can_be_deleted(memory: Memory) -> None:
    unit = memory.list(user_id="seed")[0]
    for name in (LONG, "a\x00b", " padded "):  # as an older import wrote them
        memory.store.add_units([replace(unit, namespace=name)])
    assert set(memory.namespaces()) == {"seed", LONG, "a\x00b", " padded "}
    with pytest.raises(InvalidInputError, match="over the limit"):
        memory.list(namespace=LONG)  # new uses of such a name are still refused
    assert memory.delete_all(namespace=LONG) == 1
    memory.delete(unit.id, user_id="a\x00b")
    assert asyncio.run(_delete_all(memory, " padded ")) == 1
    assert memory.namespaces() == ["seed"]
    with pytest.raises(InvalidInputError, match="over the limit"):
        memory.delete_all(namespace="y" * 500)  # a name the store does not hold
    assert memory.count(user_id="seed") == 1


async def _delete_all(memory: Memory, namespace: str) -> int:
    return await AsyncMemory(over=memory).delete_all(namespace=namespace)


def _edge(src: str, dst: str, namespace: str = "seed", kind: str = "supersedes") -> dict:
    return {"type": "edge", "namespace": namespace, "src": src, "dst": dst, "kind": kind, "weight": 1.0}


@pytest.mark.parametrize(
    "line",
    [
        _edge("fresh", "nope"),  # one end in the file, the other nowhere
        _edge("nope", "fresh", kind="semantic"),
        _edge("nope", "gone"),  # neither end anywhere: not skipped, refused
        {"type": "link", "namespace": "seed", "src": "fresh", "dst": "nope", "weight": 0.5},
        {"type": "member", "namespace": "seed", "unit": "nope", "clue": "c1", "weight": 0.5},
    ],
)
def test_a_line_naming_a_unit_neither_the_file_nor_the_store_holds_imports_nothing(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path, line: dict
) -> None:
    meta, unit = export
    fresh = {**unit, "id": "fresh", "restatement": "User lives in Paris."}
    rows = (meta, fresh, {"type": "person", "namespace": "seed", "name": "Ola"}, line)
    path = _write(tmp_path / "edge.jsonl", *rows)
    stored = [(u.id, u.restatement) for u in memory.list(user_id="seed")]
    with pytest.raises(InvalidInputError) as raised:
        memory.import_jsonl(path)
    said = str(raised.value)
    assert said.startswith(f"{path}, line 4: ") and "nothing was imported" in said
    assert "'nope'" in said and "namespace 'seed'" in said
    assert [(u.id, u.restatement) for u in memory.list(user_id="seed")] == stored  # nothing lost, nothing added
    assert memory.person(user_id="seed") is None
    with pytest.raises(InvalidInputError, match="the import, line 4: .*'nope'"):  # POST /v1/import's bytes
        memory.import_lines("\n".join(json.dumps(row) for row in rows).encode())


def test_a_member_line_naming_a_clue_neither_the_file_nor_the_store_holds_imports_nothing(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path
) -> None:
    meta, unit = export
    fresh = {**unit, "id": "fresh", "restatement": "User lives in Paris."}
    member = {"type": "member", "namespace": "seed", "unit": "fresh", "clue": "no-clue", "weight": 0.5}
    path = _write(tmp_path / "member.jsonl", meta, fresh, {"type": "person", "namespace": "seed", "name": "Ola"}, member)
    stored = [u.id for u in memory.list(user_id="seed")]
    with pytest.raises(InvalidInputError) as raised:
        memory.import_jsonl(path)
    said = str(raised.value)
    assert said.startswith(f"{path}, line 4: clue 'no-clue' is neither in the file nor in namespace 'seed'")
    assert said.endswith("nothing was imported")
    assert [u.id for u in memory.list(user_id="seed")] == stored and memory.person(user_id="seed") is None


def test_an_edge_to_a_unit_the_store_holds_imports(
    memory: Memory, export: tuple[dict, dict], tmp_path: Path
) -> None:
    meta, unit = export
    fresh = {**unit, "id": "fresh", "restatement": "User lives in Paris now."}
    path = _write(tmp_path / "edge.jsonl", meta, fresh, _edge("fresh", unit["id"]))
    assert memory.import_jsonl(path) == 1
    assert [v.unit.id for v in memory.history(unit["id"], user_id="seed")] == [unit["id"], "fresh"]
    assert memory.import_jsonl(path) == 0  # both ends held: nothing to add, nothing refused


def test_the_command_line_names_the_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from ripplemem.cli.main import app

    store = tmp_path / "cli.db"
    with Memory.open(str(store)) as memory:
        memory.add("I live in Oslo.", user_id="seed")
        memory.export_jsonl(tmp_path / "x.jsonl")
        before = [u.id for u in memory.list(user_id="seed")]
    rows = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    path = _write(tmp_path / "bad.jsonl", *rows, _edge(before[0], "nope"))
    result = CliRunner().invoke(app, ["import", str(path), "--store", str(store)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"line {len(rows) + 1}" in result.output and "'nope'" in " ".join(result.output.split())
    with Memory.open(str(store)) as memory:
        assert [u.id for u in memory.list(user_id="seed")] == before

"""Small edges of the Python API answer with typed errors that say what to do: a page of a
listing, an export path that cannot be written, and errors that never name other namespaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem import Memory
from ripplemem.errors import (
    FileAccessError,
    InvalidInputError,
    RippleMemError,
    UnknownNamespaceError,
)
from ripplemem.settings import Settings

from .conftest import TRIP


@pytest.fixture()
def memory(tmp_path: Path, embedder):
    with Memory(Settings(store=str(tmp_path / "memory.db")), embedder=embedder) as memory:
        memory.add(TRIP, namespace="tenant-a", session_time="2024-03-01T10:00")
        yield memory


@pytest.mark.parametrize("limit, offset", [(None, "x"), (None, -1), (0, 0), ("5", 0), (True, 0), (None, 1.5)])
def test_a_bad_page_is_an_invalid_input_error(memory: Memory, limit, offset) -> None:
    with pytest.raises(InvalidInputError, match="must be a whole number"):
        memory.list(namespace="tenant-a", limit=limit, offset=offset)
    assert len(memory.list(namespace="tenant-a", limit=2, offset=1)) == 2


def test_an_export_path_that_cannot_be_written_is_a_file_access_error(memory: Memory, tmp_path: Path) -> None:
    with pytest.raises(FileAccessError, match="does not exist; create it first") as missing:
        memory.export_jsonl(tmp_path / "no" / "such" / "out.jsonl")
    with pytest.raises(FileAccessError, match="is a folder: give the export a file name") as folder:
        memory.export_jsonl(tmp_path)
    for caught in (missing, folder):
        assert isinstance(caught.value, RippleMemError) and isinstance(caught.value, OSError)
    with pytest.raises(FileAccessError, match="cannot read"):
        memory.import_jsonl(tmp_path)
    assert memory.export_jsonl(tmp_path / "out.jsonl") == memory.store.count("tenant-a")


def test_errors_never_name_other_namespaces(memory: Memory) -> None:
    assert not memory.search("Lisbon", namespace="tenant-b").evidence  # empty, not an error
    for call in (
        lambda: memory.get("u1", namespace="tenant-b"),
        lambda: memory.delete("u1", namespace="tenant-b"),
        lambda: memory.check_namespace(namespace="tenant-b"),
    ):
        with pytest.raises(RippleMemError) as caught:
            call()
        assert "tenant-a" not in str(caught.value) and "tenant-b" in str(caught.value)
    with pytest.raises(UnknownNamespaceError):
        memory.check_namespace(namespace="tenant-b")

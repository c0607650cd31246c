"""Every Python block of README.md and docs/*.md runs as written.

The blocks of one file run in order in one namespace (as a reader would paste them), in an empty
folder. An HTML comment on the line before a block says what it needs:

* ``<!-- code: server -->``: a real local ``ripplemem serve`` (:mod:`server.live`); ``key`` is an
  API key of namespace ``alex``, and ``http://127.0.0.1:8765`` the server's address; top-level
  ``await`` is allowed;
* ``<!-- code: postgres -->``: the ``postgresql://`` URL in the block is a real PostgreSQL's;
* ``<!-- code: skip REASON -->``: not run, for the reason given (it must give one).
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("**/*.md"))]
BLOCK = re.compile(
    r"(?:<!--\s*code:\s*(?P<marker>[^>]*?)\s*-->\s*\n)?```python\n(?P<code>.*?)```", re.DOTALL
)
SERVER = "http://127.0.0.1:8765"


@dataclass(frozen=True)
class Block:
    line: int
    code: str
    marker: str


def blocks(path: Path) -> list[Block]:
    text = path.read_text(encoding="utf-8")
    return [
        Block(text[: m.start("code")].count("\n") + 1, m.group("code"), m.group("marker") or "")
        for m in BLOCK.finditer(text)
    ]


WITH_CODE = [path for path in FILES if blocks(path)]


def test_the_docs_hold_python_blocks() -> None:
    names = {path.relative_to(REPO).as_posix() for path in WITH_CODE}
    assert {"README.md", "docs/coming-from-mem0.md", "docs/service.md"} <= names


@pytest.mark.parametrize("path", WITH_CODE, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_python_block_runs(
    path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("RIPPLEMEM_STORE", "RIPPLEMEM_LLM_BASE_URL", "RIPPLEMEM_LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
    namespace: dict = {"__name__": f"doc_{path.stem.replace('-', '_')}"}
    for block in blocks(path):
        where = f"{path.relative_to(REPO)}:{block.line}"
        code = block.code
        if block.marker.startswith("skip"):
            assert block.marker[4:].strip(), f"{where}: a skipped block must say why"
            continue
        if block.marker == "server":
            live = request.getfixturevalue("live")
            namespace["key"] = live.keys["alex"]
            code = code.replace(SERVER, live.url)
        elif block.marker == "postgres":
            url = request.getfixturevalue("postgres_store_url")("docs")
            code = re.sub(r"postgresql://[^\"']+", url, code)
        else:
            assert not block.marker, f"{where}: unknown marker {block.marker!r}"
        run(code, namespace, where)


def run(code: str, namespace: dict, where: str) -> None:
    compiled = compile(code, where, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    output = io.StringIO()
    try:
        with contextlib.redirect_stdout(output):
            result = eval(compiled, namespace)  # the docs' own code
            if asyncio.iscoroutine(result):
                asyncio.run(result)
    except Exception as error:  # noqa: BLE001 - reported with the block's place
        pytest.fail(f"{where}: {type(error).__name__}: {error}\n{output.getvalue()[-2000:]}")

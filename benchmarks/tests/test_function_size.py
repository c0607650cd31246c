"""The harness's functions stay small: none over :data:`MAX_LINES` lines, signature and docstring
included (a typer command's options count too). A longer one is split into named steps."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"
MAX_LINES = 60


def _functions(path: Path, root: Path = SOURCE) -> list[tuple[str, int]]:
    """(``file:line name``, its length in lines) of every function and method in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        (f"{path.relative_to(root)}:{node.lineno} {node.name}", node.end_lineno - node.lineno + 1)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno is not None
    ]


def test_no_function_of_the_harness_is_longer_than_60_lines() -> None:
    functions = [entry for path in sorted(SOURCE.rglob("*.py")) for entry in _functions(path)]
    assert len(functions) > 300  # the whole harness was read
    long = [f"{name}: {lines} lines" for name, lines in functions if lines > MAX_LINES]
    assert long == []


def test_the_measure_counts_every_line_of_a_function(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_LINES))
    path = tmp_path / "long.py"
    path.write_text(
        f'def long():\n    """Doc."""\n{body}\n\n\nclass C:\n    def short(self):\n        return 1\n'
    )
    assert _functions(path, tmp_path) == [("long.py:1 long", MAX_LINES + 2), ("long.py:66 short", 2)]

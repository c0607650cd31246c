"""What the harness may import of the library: the public API, the extension points, and a
declared list of internal modules, each with the reason a benchmark needs it.

Public means a name in the ``__all__`` of ``ripplemem`` or of one of the :data:`PUBLIC` packages
(``from ripplemem.records import Hit``), never a module below them
(``ripplemem.providers.factory``). Everything else the harness imports is in :data:`DECLARED`;
a new internal import fails here until it is declared (or made public), and a declared module the
harness no longer imports fails too, so the list says what the harness needs today.
"""

from __future__ import annotations

import ast
import functools
import importlib
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"

#: packages whose ``__all__`` is the library's public API (besides ``ripplemem`` itself)
PUBLIC = (
    "ripplemem",
    "ripplemem.errors",
    "ripplemem.records",
    "ripplemem.providers",
    "ripplemem.stores",
    "ripplemem.datasets",
    "ripplemem.testing",
    "ripplemem.extensions",
)

_CLI = "the harness is the `ripplemem bench` sub-command (entry point group ripplemem.cli)"
_TRAINING = "AssoMem's fitted weights and dataset workspaces, as `ripplemem fit-weights` uses them"
_STAGE = "a speed benchmark times this stage apart from the pipeline"
_PARSED = ("bench speed parses its synthetic units beforehand, as their vectors are made, and "
           "stores the parses inside the timed insert as add does")
DECLARED: dict[str, str] = {
    "ripplemem.cli.common": _CLI + ": the same console, progress bar and error messages",
    "ripplemem.cli.asso": _CLI + ": --fit-temperature reads as `fit-weights --temperature`",
    "ripplemem.demo": "bench speed writes the shipped demo conversation without --locomo",
    "ripplemem.statements": _PARSED,
    "ripplemem.statements.kept": _PARSED,
    "ripplemem.write.entities": _PARSED + " (with the recogniser add parses with)",
    "ripplemem.read.answering": "--answer answers every system's evidence (peers too) as "
    "Memory.answer does (compose_answer)",
    "ripplemem.read.prompts.answering": "context tokens count the evidence as the answer "
    "prompt renders it",
    "ripplemem.read.asso.weights": _TRAINING,
    "ripplemem.training.fit_weights": _TRAINING,
    "ripplemem.training.signal_rows": _TRAINING,
    "ripplemem.training.temperature": _TRAINING,
    "ripplemem.training.workspace": _TRAINING + " (per-dataset profiles, one namespace a sample)",
    "ripplemem.read.asso.importance": _STAGE + " (personalised PageRank, bench asso-speed)",
    "ripplemem.write.clues": _STAGE + " (clue-graph updates, bench asso-speed)",
    "ripplemem.write.link": _STAGE + " (linking a batch as the store grows, bench speed/serve)",
    "ripplemem.write.pipeline": _STAGE + " (the link thresholds the write path resolves)",
    "ripplemem.grounding.time_rules": _STAGE + " (the grounded times it returns, bench times)",
    "ripplemem.stores.vectors": _STAGE + " (the dense index alone, bench scale --index-only)",
    "ripplemem.stores.hnsw": _STAGE + " (the HNSW parameters the index is built with)",
    "ripplemem.stores.postgres.adapt": _STAGE + " (pgvector's adapters, bench knn)",
    "ripplemem.grounding.ground_time": _STAGE + " (time grounding alone, bench bounded and bench times)",
    "ripplemem.core.keys": "bench bounded starts `ripplemem serve` with a key it creates in the "
    "store, as `ripplemem keys create` does",
}


@functools.cache  # read when a test first asks, not at collection in every test worker
def _imports() -> list[tuple[str, str, tuple[str, ...]]]:
    """(``file:line``, module, names) of every ``ripplemem`` import in the harness."""
    found = []
    for path in sorted(SOURCE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            where = f"{path.relative_to(SOURCE)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = tuple(alias.name for alias in node.names)
                found.append((where, node.module, names))
            elif isinstance(node, ast.Import):
                found += [(where, alias.name, ()) for alias in node.names]
    return [(w, m, n) for w, m, n in found if m == "ripplemem" or m.startswith("ripplemem.")]



def test_the_harness_was_read() -> None:
    assert len(_imports()) > 100


@pytest.mark.parametrize("package", PUBLIC)
def test_names_from_public_packages_are_in_their_all(package: str) -> None:
    module = importlib.import_module(package)
    # the exception tree (ripplemem.errors) has no __all__: every class it defines is public
    exported = set(getattr(module, "__all__", None) or
                   (name for name in vars(module) if not name.startswith("_")))
    used = [(where, name) for where, module, names in _imports() if module == package
            for name in names]
    assert used or package == "ripplemem.testing"
    assert [(where, name) for where, name in used if name not in exported] == []


def test_every_other_module_is_declared_with_its_reason() -> None:
    internal = {(where, module) for where, module, _ in _imports() if module not in PUBLIC}
    assert sorted(w_m for w_m in internal if w_m[1] not in DECLARED) == []
    assert sorted(set(DECLARED) - {module for _, module in internal}) == []  # none stale

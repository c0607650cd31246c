"""Export / import a store as JSONL: a meta line, then units (with vectors) and edges.

Import re-embeds restatements when the file was written with another embedder, so a dump can
move between stores built with different models.
"""

from __future__ import annotations

import json
from pathlib import Path

from ripplemem.errors import InvalidInputError
from ripplemem.providers.base import Embedder
from ripplemem.records import Edge, MemoryUnit
from ripplemem.stores.base import MemoryStore

FORMAT = "ripplemem.jsonl/1"


def export_jsonl(store: MemoryStore, embedder: Embedder, path: Path, namespace: str | None) -> int:
    namespaces = [namespace] if namespace else store.namespaces()
    written = 0
    with path.open("w", encoding="utf-8") as out:
        meta = {"type": "meta", "format": FORMAT, "embedder": embedder.name, "dim": embedder.dim}
        out.write(json.dumps(meta) + "\n")
        for ns in namespaces:
            for unit in store.list_units(ns):
                out.write(json.dumps({"type": "unit", **unit.to_json()}) + "\n")
                written += 1
                for edge in store.edges_of(ns, unit.id):
                    if edge.src < edge.dst:  # each undirected edge once
                        out.write(json.dumps({"type": "edge", "namespace": ns, "src": edge.src,
                                              "dst": edge.dst, "kind": edge.kind,
                                              "weight": edge.weight}) + "\n")
    return written


def import_jsonl(store: MemoryStore, embedder: Embedder, path: Path) -> int:
    if not path.exists():
        raise InvalidInputError(f"{path} does not exist: give the path of a file written by export")
    units: list[MemoryUnit] = []
    edges: list[Edge] = []
    same_embedder = False
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                kind = row.pop("type")
                if kind == "meta":
                    if row.get("format") != FORMAT:
                        raise InvalidInputError(f"{path}: unknown format {row.get('format')!r}")
                    same_embedder = (row.get("embedder"), row.get("dim")) == (embedder.name, embedder.dim)
                elif kind == "unit":
                    units.append(MemoryUnit.from_json(row))
                elif kind == "edge":
                    edges.append(Edge(row["namespace"], row["src"], row["dst"], row["kind"], float(row["weight"])))
            except (KeyError, ValueError, TypeError) as error:
                raise InvalidInputError(
                    f"{path}, line {number}: not a ripplemem export line ({error}); "
                    "nothing was imported"
                ) from error
    if not same_embedder and units:
        vectors = embedder.embed([u.restatement for u in units])
        units = [u.with_vector(v) for u, v in zip(units, vectors)]
    by_namespace: dict[str, list[MemoryUnit]] = {}
    for unit in units:
        by_namespace.setdefault(unit.namespace, []).append(unit)
    imported = 0
    for ns, group in by_namespace.items():
        known = {u.id for u in store.get_units(ns, [u.id for u in group])}
        fresh = [u for u in group if u.id not in known]
        if fresh:
            store.add_units(fresh)
            imported += len(fresh)
    if edges:
        store.change_edges(add=edges)
    return imported

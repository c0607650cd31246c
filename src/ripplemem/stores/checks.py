"""What every store backend checks before it writes: unit batches, vectors, edges, embedders,
parses.

Checks are pure and run before any write, so a refused batch leaves nothing behind.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ripplemem.errors import EmbedderMismatchError, InvalidInputError, UnknownUnitError
from ripplemem.records import Edge, EdgeKind, MemoryUnit

__all__ = [
    "CUE_KINDS",
    "EDGE_KINDS",
    "CheckedBatch",
    "check_cue_kind",
    "check_edge_kind",
    "check_edges",
    "check_embedder_pair",
    "check_parses",
    "check_units",
    "unknown_unit",
]

EDGE_KINDS: tuple[EdgeKind, ...] = ("semantic", "structural", "supersedes")
CUE_KINDS = ("P", "L")
_NORM_TOLERANCE = 1e-4


@dataclass(frozen=True, slots=True)
class CheckedBatch:
    units: list[MemoryUnit]  # vectors float32 and L2-normalised
    vectors: np.ndarray  # (len(units), dim) float32
    dim: int


def check_units(units: Sequence[MemoryUnit], dim: int | None) -> CheckedBatch:
    """Validate a batch; ``dim`` is the store's vector dimension (None while it holds none)."""
    seen: set[tuple[str, str]] = set()
    checked: list[MemoryUnit] = []
    rows: list[np.ndarray] = []
    for unit in units:
        if not isinstance(unit, MemoryUnit):
            raise InvalidInputError(
                f"add_units takes MemoryUnit records, got {type(unit).__name__}"
            )
        if not isinstance(unit.namespace, str) or not unit.namespace:
            raise InvalidInputError(f"unit {unit.id!r} has no namespace; set unit.namespace")
        if not isinstance(unit.id, str) or not unit.id:
            raise InvalidInputError(f"a unit in namespace {unit.namespace!r} has an empty id")
        key = (unit.namespace, unit.id)
        if key in seen:
            raise InvalidInputError(
                f"unit id {unit.id!r} appears twice in this batch for namespace "
                f"{unit.namespace!r}; ids must be unique per namespace"
            )
        seen.add(key)
        vector = _check_vector(unit, dim)
        dim = vector.shape[0]
        if vector is not unit.vector:
            unit = unit.with_vector(vector)
        checked.append(unit)
        rows.append(vector)
    matrix = np.stack(rows) if rows else np.zeros((0, dim or 0), dtype=np.float32)
    return CheckedBatch(units=checked, vectors=matrix, dim=dim or 0)


def _check_vector(unit: MemoryUnit, dim: int | None) -> np.ndarray:
    if unit.vector is None:
        raise InvalidInputError(
            f"unit {unit.id!r} has no vector; embed units before adding them to a store"
        )
    vector = np.asarray(unit.vector)
    if vector.ndim != 1 or vector.shape[0] == 0:
        raise InvalidInputError(
            f"unit {unit.id!r} has a vector of shape {vector.shape}; expected one flat vector"
        )
    if dim is not None and vector.shape[0] != dim:
        raise InvalidInputError(
            f"unit {unit.id!r} has a {vector.shape[0]}-d vector but this store holds {dim}-d "
            "vectors; embed with the store's embedder or use another store file"
        )
    if vector.dtype != np.float32:
        vector = vector.astype(np.float32)
    if not np.all(np.isfinite(vector)):
        raise InvalidInputError(f"unit {unit.id!r} has NaN or infinite vector components")
    norm = float(np.linalg.norm(vector))
    if norm == 0.0:
        raise InvalidInputError(f"unit {unit.id!r} has an all-zero vector; it cannot be ranked")
    if abs(norm - 1.0) > _NORM_TOLERANCE:
        vector = vector / np.float32(norm)
    return vector


def check_edge_kind(kind: str) -> None:
    if kind not in EDGE_KINDS:
        raise InvalidInputError(
            f"edge kind {kind!r} is unknown; use one of {', '.join(EDGE_KINDS)}"
        )


def check_cue_kind(kind: str) -> None:
    if kind not in CUE_KINDS:
        raise InvalidInputError(
            f"cue kind {kind!r} is unknown; use 'P' (participants) or 'L' (locations)"
        )


def check_edges(edges: Iterable[Edge]) -> list[Edge]:
    out: list[Edge] = []
    for edge in edges:
        if not isinstance(edge, Edge):
            raise InvalidInputError(f"expected Edge records, got {type(edge).__name__}")
        check_edge_kind(edge.kind)
        if edge.src == edge.dst:
            raise InvalidInputError(f"edge from {edge.src!r} to itself; self-edges are not stored")
        if not math.isfinite(edge.weight):
            raise InvalidInputError(f"edge {edge.src!r}-{edge.dst!r} has a non-finite weight")
        if edge.kind == "supersedes" and edge.weight <= 0:
            raise InvalidInputError(
                f"supersedes edge {edge.src!r}-{edge.dst!r} has weight {edge.weight}: give it a positive weight"
            )
        out.append(edge)
    return out


def check_embedder_pair(
    recorded: tuple[str, int] | None, vector_dim: int | None, model: str, dim: int
) -> bool:
    """True when (model, dim) must be recorded now; raises when it contradicts the store."""
    if not isinstance(model, str) or not model:
        raise InvalidInputError("check_embedder needs the embedding model's name")
    if not isinstance(dim, int) or isinstance(dim, bool) or dim <= 0:
        raise InvalidInputError(f"embedding dimension must be a positive integer, got {dim!r}")
    if recorded is None:
        if vector_dim is not None and vector_dim != dim:
            raise EmbedderMismatchError(
                f"this store already holds {vector_dim}-d vectors but embedder {model!r} makes "
                f"{dim}-d vectors; open a new store file or re-ingest with a {vector_dim}-d embedder"
            )
        return True
    if recorded != (model, dim):
        raise EmbedderMismatchError(
            f"this store was built with embedder {recorded[0]!r} ({recorded[1]}-d) but "
            f"{model!r} ({dim}-d) was asked for; use {recorded[0]!r} (Settings.embedder or "
            f"RIPPLEMEM_EMBEDDER={recorded[0]}), or open a new store file and re-ingest the "
            "conversations with the new embedder"
        )
    return False


def check_parses(parses: Mapping[str, bytes]) -> dict[str, bytes]:
    """Validate ``add_parses``' argument: unit ids to bytes."""
    checked: dict[str, bytes] = {}
    for unit_id, blob in parses.items():
        if not isinstance(unit_id, str) or not isinstance(blob, bytes | bytearray | memoryview):
            raise InvalidInputError(
                f"add_parses takes unit ids (str) to parses (bytes), not {type(unit_id).__name__} "
                f"to {type(blob).__name__}"
            )
        checked[unit_id] = bytes(blob)
    return checked


def unknown_unit(namespace: str, unit_id: str) -> UnknownUnitError:
    return UnknownUnitError(
        f"{unit_id!r} is not a unit of namespace {namespace!r}; add the unit before its parse"
    )

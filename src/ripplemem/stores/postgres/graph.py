"""The PostgreSQL store's edges: one row per direction in ``edge`` (namespace, src, kind, dst);
the row of a ``supersedes`` edge's older end holds the negative weight
(:func:`~ripplemem.stores.graph.back_weight`).

Every write runs in the caller's transaction: checked ends, removals, then additions as one
upsert (the last weight given for an edge wins).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import psycopg

from ripplemem.errors import UnknownUnitError
from ripplemem.records import Edge, EdgeKind
from ripplemem.stores.graph import Change, back_weight, stored_edge

__all__ = ["apply_changes", "edges_of", "neighbours", "remove_unit_edges"]


def apply_changes(db: psycopg.Connection, changes: Mapping[str, Sequence[Change]]) -> None:
    """Check that every end of an added edge is a unit, then apply ``changes`` in order."""
    for namespace, batch in changes.items():
        ends = sorted({end for _, a, b, weight in batch if weight is not None for end in (a, b)})
        if ends:
            present = {
                row[0]
                for row in db.execute(
                    "SELECT id FROM unit WHERE namespace = %s AND id = ANY(%s)", (namespace, ends)
                )
            }
            missing = [end for end in ends if end not in present]
            if missing:
                raise UnknownUnitError(
                    f"edge end {missing[0]!r} is not a unit of namespace {namespace!r}; "
                    "add the units before linking them"
                )
    for namespace, batch in changes.items():
        _apply(db, namespace, batch)


def _apply(db: psycopg.Connection, namespace: str, batch: Sequence[Change]) -> None:
    """Net effect of the ordered changes: per directed key, the last change decides."""
    final: dict[tuple[str, str, str], float | None] = {}
    for kind, a, b, weight in batch:
        final[(a, kind, b)] = weight
        final[(b, kind, a)] = None if weight is None else back_weight(kind, weight)
    gone = [key for key, weight in final.items() if weight is None]
    kept = sorted((key, weight) for key, weight in final.items() if weight is not None)
    if gone:
        db.execute(
            "DELETE FROM edge AS e USING unnest(%s::text[], %s::text[], %s::text[]) AS g (s, k, d) "
            "WHERE e.namespace = %s AND e.src = g.s AND e.kind = g.k AND e.dst = g.d",
            ([s for s, _, _ in gone], [k for _, k, _ in gone], [d for _, _, d in gone], namespace),
        )
    if kept:
        db.execute(
            "INSERT INTO edge (namespace, src, kind, dst, weight) "
            "SELECT %s, * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[]) "
            "ON CONFLICT (namespace, src, kind, dst) DO UPDATE SET weight = excluded.weight",
            (
                namespace,
                [s for (s, _, _), _ in kept],
                [k for (_, k, _), _ in kept],
                [d for (_, _, d), _ in kept],
                [w for _, w in kept],
            ),
        )


def remove_unit_edges(db: psycopg.Connection, namespace: str, unit_id: str) -> None:
    """Delete every edge touching ``unit_id`` (both directions)."""
    others = [
        row[0]
        for row in db.execute(
            "DELETE FROM edge WHERE namespace = %s AND src = %s RETURNING dst",
            (namespace, unit_id),
        )
    ]
    if others:
        db.execute(
            "DELETE FROM edge WHERE namespace = %s AND src = ANY(%s) AND dst = %s",
            (namespace, sorted(set(others)), unit_id),
        )


def neighbours(
    db: psycopg.Connection, namespace: str, ids: Sequence[str], kind: EdgeKind
) -> dict[str, list[tuple[str, float]]]:
    """Each id's (neighbour, weight) edges of ``kind``, strongest first (ties by id)."""
    asked = list(dict.fromkeys(ids))
    found: dict[str, list[tuple[str, float]]] = {unit_id: [] for unit_id in asked}
    if asked:
        rows = db.execute(
            "SELECT src, dst, weight FROM edge WHERE namespace = %s AND src = ANY(%s) "
            "AND kind = %s",
            (namespace, asked, kind),
        )
        for src, dst, weight in rows:
            found[src].append((dst, abs(float(weight))))
    for edges in found.values():
        edges.sort(key=lambda edge: (-edge[1], edge[0]))
    return found


def edges_of(db: psycopg.Connection, namespace: str, unit_id: str) -> list[tuple[Edge, bool]]:
    """``unit_id``'s edges, by kind then other end, and whether each one's direction is known
    (:func:`~ripplemem.stores.graph.stored_edge`)."""
    rows = db.execute(
        "SELECT e.kind, e.dst, e.weight, b.weight FROM edge AS e LEFT JOIN edge AS b "
        "ON b.namespace = e.namespace AND b.src = e.dst AND b.kind = e.kind AND b.dst = e.src "
        "WHERE e.namespace = %s AND e.src = %s ORDER BY e.kind, e.dst",
        (namespace, unit_id),
    )
    return [
        stored_edge(namespace, unit_id, kind, dst, float(weight), None if back is None else float(back))
        for kind, dst, weight, back in rows
    ]

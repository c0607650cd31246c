"""Export / import a store as JSONL: a meta line, then per namespace its person (when named),
its units (with vectors, speakers and metadata), edges, and clue graph (clues with their sessions
and vectors, memberships, utterance links).

Vectors are written as the shortest decimals of their float32 values, so they read back bit for
bit; weights are JSON floats (exact for the doubles they are). Importing into a store built
with the same embedder therefore gives the same searches, ``asso`` included. With another
embedder the units' and clues' vectors are embedded again from their texts (memberships keep
their weights). An import is one write block: all of the file, or nothing. Units already in
the store are kept as they are; the graph of a namespace is imported only for units it adds.

Format ``ripplemem.jsonl/4``: each edge once, a ``supersedes`` edge new -> old (``src``
supersedes ``dst``). Files of format 1 (units and edges only), 2 (no person, no speakers or
metadata) and 3 still import; their ``supersedes`` edges carry no direction, and the unit said
later supersedes (:func:`~ripplemem.records.said_order`). An imported person names a namespace
that has none.

An import checks what ``add`` checks (:mod:`ripplemem.write.input_checks`): every namespace is a
name :func:`~ripplemem.write.input_checks.check_namespace_name` accepts (not blank, no spaces at its
ends, not too long; a name an older version wrote outside the agent and run grammar of
:mod:`ripplemem.core.identity` is kept, so every export imports back), every text and id is text without NUL characters or lone surrogates, a
unit's restatement is not empty, metadata is a JSON object, a person's name is one ``set_person``
takes; every vector has the ``dim`` the meta line gives; and every unit an edge, link or member
line names is a unit of the file or of the store, and every clue a member line names a clue of
either (an edge to a unit neither holds would dangle, a membership would be dropped).
One line that breaks a rule refuses the whole file, naming the line: nothing is imported. A file may start with a UTF-8 byte-order
mark; a UTF-16 file is refused with what to do.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from pydantic import ValidationError

from ripplemem.datasets.encoding import check_utf8
from ripplemem.errors import FileAccessError, InvalidInputError
from ripplemem.providers.base import Embedder
from ripplemem.records import Clue, Edge, Membership, MemoryUnit, said_order
from ripplemem.records.wire import UnitModel, vector_from_json, vector_to_json
from ripplemem.stores.base import MemoryStore
from ripplemem.stores.clues_base import clue_sessions
from ripplemem.write.input_checks import (
    check_metadata,
    check_namespace_name,
    check_person_name,
    check_text,
)

FORMAT = "ripplemem.jsonl/4"
READABLE = ("ripplemem.jsonl/1", "ripplemem.jsonl/2", "ripplemem.jsonl/3", FORMAT)
#: the formats whose ``supersedes`` edges say which unit is the newer
DIRECTED = (FORMAT,)
PAGE = 500
#: the fields every line of a kind has (a unit's: those its JSON form requires)
REQUIRED: dict[str, tuple[str, ...]] = {
    "person": ("namespace", "name"),
    "unit": tuple(name for name, spec in UnitModel.model_fields.items() if spec.is_required()),
    "edge": ("namespace", "src", "dst", "kind", "weight"),
    "clue": ("namespace", "id", "text", "vector", "source", "sessions"),
    "member": ("namespace", "unit", "clue", "weight"),
    "link": ("namespace", "src", "dst", "weight"),
}


def export_lines(store: MemoryStore, embedder: Embedder, namespace: str | None) -> Iterator[str]:
    """The export of ``namespace`` (or every namespace) as JSON lines, without newlines: a meta
    line, then each namespace's rows, read a page at a time as the lines are taken."""
    meta = {"type": "meta", "format": FORMAT, "embedder": embedder.name, "dim": embedder.dim}
    yield json.dumps(meta)
    for ns in [namespace] if namespace else store.namespaces():
        for row in _namespace_rows(store, ns):
            yield json.dumps(row)


def export_jsonl(store: MemoryStore, embedder: Embedder, path: Path, namespace: str | None) -> int:
    """Write ``namespace`` (or every namespace) to ``path``; the number of units written."""
    written = 0
    with _open_for_writing(path) as out:
        for line in export_lines(store, embedder, namespace):
            out.write(line + "\n")
            written += line.startswith('{"type": "unit"')
    return written


def _namespace_rows(store: MemoryStore, ns: str) -> Iterator[dict[str, Any]]:
    person = store.person(ns)
    if person is not None:
        yield {"type": "person", "namespace": ns, "name": person}
    ids: list[str] = []
    episodes: dict[str, None] = {}
    offset = 0
    while page := store.list_units(ns, limit=PAGE, offset=offset):
        offset += len(page)
        for unit in page:
            ids.append(unit.id)
            episodes[unit.episode_id] = None
            yield {"type": "unit", **unit.to_json()}
            for edge in store.edges_of(ns, unit.id):
                # each edge once: a supersedes edge from its newer end, any other from its first
                if edge.src == unit.id and (edge.kind == "supersedes" or edge.src < edge.dst):
                    yield {"type": "edge", "namespace": ns, "src": edge.src, "dst": edge.dst,
                           "kind": edge.kind, "weight": edge.weight}
    clues = store.clues
    sessions = clue_sessions(clues, ns, episodes)
    for clue in clues.get_clues(ns, list(sessions)):
        yield {"type": "clue", "namespace": ns, "id": clue.id, "text": clue.text,
               "source": clue.source, "sessions": sessions[clue.id],
               "vector": vector_to_json(clue.vector)}
    for clue_id, members in clues.members(ns, list(sessions)).items():
        for unit_id, weight in members:
            yield {"type": "member", "namespace": ns, "unit": unit_id, "clue": clue_id, "weight": weight}
    for start in range(0, len(ids), PAGE):
        for unit_id, near in clues.links(ns, ids[start : start + PAGE]).items():
            for other, weight in near:
                if unit_id < other:
                    yield {"type": "link", "namespace": ns, "src": unit_id, "dst": other, "weight": weight}


@dataclass
class _Dump:
    same_embedder: bool = False
    #: the vectors' length the meta line gives (None: it gives none)
    dim: int | None = None
    #: the file says which end of a supersedes edge is the newer (format 4)
    directed: bool = True
    units: list[MemoryUnit] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    clues: list[tuple[Clue, list[str]]] = field(default_factory=list)
    members: list[tuple[str, Membership]] = field(default_factory=list)
    links: list[tuple[str, str, str, float]] = field(default_factory=list)
    people: dict[str, str] = field(default_factory=dict)
    #: each unit an edge, link or member line names: (namespace, unit id, where the line is)
    named: list[tuple[str, str, str]] = field(default_factory=list)
    #: each clue a member line names: (namespace, clue id, where the line is)
    named_clues: list[tuple[str, str, str]] = field(default_factory=list)


def import_jsonl(store: MemoryStore, embedder: Embedder, path: Path) -> int:
    """Add what ``path`` holds to ``store`` in one write block; the number of units added."""
    if not path.exists():
        raise InvalidInputError(f"{path} does not exist: give the path of a file written by export")
    try:
        with path.open("rb") as raw:
            check_utf8(raw.read(4096), str(path), after="nothing was imported")
        with path.open(encoding="utf-8-sig") as lines:
            return import_lines(store, embedder, lines, source=str(path))
    except UnicodeDecodeError as error:
        raise InvalidInputError(
            f"{path} is not UTF-8 text ({error}), so not a ripplemem export; nothing was imported"
        ) from error
    except OSError as error:  # a folder, no permission
        raise FileAccessError(
            f"cannot read {path}: {error.strerror or error}; give the path of a file written by "
            "export; nothing was imported"
        ) from error


def _open_for_writing(path: Path) -> TextIO:
    """``path`` opened for the export, or FileAccessError saying what to fix."""
    try:
        return path.open("w", encoding="utf-8")
    except IsADirectoryError as error:
        raise FileAccessError(
            f"{path} is a folder: give the export a file name, e.g. {path / 'export.jsonl'}"
        ) from error
    except FileNotFoundError as error:
        raise FileAccessError(
            f"cannot write {path}: the folder {path.parent} does not exist; create it first"
        ) from error
    except OSError as error:
        raise FileAccessError(
            f"cannot write {path}: {error.strerror or error}; check the path and its permissions"
        ) from error


def import_lines(
    store: MemoryStore,
    embedder: Embedder,
    lines: Iterable[str] | bytes,
    *,
    into: str | None = None,
    source: str = "the import",
) -> int:
    """Add the export ``lines`` hold (or the bytes of an export file) to ``store`` in one write
    block (all of them or nothing); the number of units added. With ``into``, every row goes into
    that namespace (the lines must hold one namespace). Every line is checked before anything is
    written."""
    if isinstance(lines, bytes | bytearray):
        check_utf8(bytes(lines[:4096]), source, after="nothing was imported")
        try:
            lines = bytes(lines).decode("utf-8-sig").splitlines()
        except UnicodeDecodeError as error:
            raise InvalidInputError(
                f"{source} is not UTF-8 text ({error}); send an export file; nothing was imported"
            ) from None
    dump = _read(lines, embedder, into, source)
    if not dump.same_embedder:
        _reembed(dump, embedder)
    namespaces = sorted(
        {u.namespace for u in dump.units} | {c.namespace for c, _ in dump.clues} | set(dump.people)
    )
    if into is not None:
        namespaces = [into]
    imported = 0
    with store.write(namespaces):
        _check_named(store, dump)
        for ns, name in dump.people.items():
            if store.person(ns) is None:
                store.set_person(ns, name)
        added: set[tuple[str, str]] = set()
        for ns in namespaces:
            group = [u for u in dump.units if u.namespace == ns]
            known = {u.id for u in store.get_units(ns, [u.id for u in group], with_vectors=False)}
            fresh = [u for u in group if u.id not in known]
            if fresh:
                store.add_units(fresh)
                imported += len(fresh)
            added.update((ns, u.id) for u in fresh)
        edges = [e for e in dump.edges if (e.namespace, e.src) in added or (e.namespace, e.dst) in added]
        if not dump.directed:
            edges = _newer_first(store, dump, edges)
        if edges:
            store.change_edges(add=edges)
        _import_clues(store, dump, added)
    return imported


def _newer_first(store: MemoryStore, dump: _Dump, edges: list[Edge]) -> list[Edge]:
    """``edges`` of a file written before the direction of a supersedes edge was kept, each
    supersedes edge turned so that the unit said later supersedes (as it was read then)."""
    units = {(u.namespace, u.id): u for u in dump.units}
    wanted: dict[str, set[str]] = {}
    for edge in edges:
        if edge.kind == "supersedes":
            wanted.setdefault(edge.namespace, set()).update(
                i for i in (edge.src, edge.dst) if (edge.namespace, i) not in units
            )
    for ns, ids in wanted.items():  # an end the store held already
        units.update(((ns, u.id), u) for u in store.get_units(ns, sorted(ids), with_vectors=False))
    out = []
    for edge in edges:
        src, dst = units.get((edge.namespace, edge.src)), units.get((edge.namespace, edge.dst))
        if edge.kind == "supersedes" and src is not None and dst is not None and said_order(src) < said_order(dst):
            edge = Edge(edge.namespace, edge.dst, edge.src, edge.kind, edge.weight)
        out.append(edge)
    return out


def _import_clues(store: MemoryStore, dump: _Dump, added: set[tuple[str, str]]) -> None:
    clues = store.clues
    for clue, sessions in dump.clues:
        # the sessions the store has no clue for yet (it may hold some of the file already)
        missing = [s for s in sessions if clues.clue_for_session(clue.namespace, s) is None]
        if not missing:
            continue
        if not clues.get_clues(clue.namespace, [clue.id]):
            clues.add_clue(clue, missing[0])
            missing = missing[1:]
        for episode in missing:
            clues.merge_session(clue.namespace, clue.id, episode)
    by_namespace: dict[str, list[Membership]] = {}
    for ns, membership in dump.members:
        if (ns, membership.unit_id) in added and clues.get_clues(ns, [membership.clue_id]):
            by_namespace.setdefault(ns, []).append(membership)
    for ns, memberships in by_namespace.items():
        clues.attach(ns, memberships)
    links: dict[str, list[tuple[str, str, float]]] = {}
    for ns, a, b, weight in dump.links:
        if (ns, a) in added or (ns, b) in added:
            links.setdefault(ns, []).append((a, b, weight))
    for ns, found in links.items():
        clues.add_links(ns, found)


def _read(lines: Iterable[str], embedder: Embedder, into: str | None, source: str) -> _Dump:
    dump = _Dump()
    meta = False
    sources: set[str] = set()
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{source}, line {number}"
        try:
            row = json.loads(line)
        except ValueError as error:
            raise InvalidInputError(f"{where} is not JSON ({error}); nothing was imported") from None
        if not isinstance(row, dict):
            raise InvalidInputError(
                f"{where} is not a JSON object, as every line of an export is; import the file as "
                "export wrote it; nothing was imported"
            )
        try:
            if into is not None and row.get("type") != "meta":
                if isinstance(row.get("namespace"), str):
                    sources.add(row["namespace"])
                row["namespace"] = into
            meta = _row(row, dump, embedder, where) or meta
        except InvalidInputError as error:
            raise InvalidInputError(f"{where}: {error}; nothing was imported") from None
        except (ValueError, TypeError, AttributeError) as error:
            raise InvalidInputError(
                f"{where}: a value of this line is not one an export writes ({error}); import "
                "the file as export wrote it; nothing was imported"
            ) from error
    if not meta:
        raise InvalidInputError(
            f"{source} has no meta line, so it is not a ripplemem export: give a file written by "
            "`ripplemem export`, Memory.export_jsonl or GET /v1/export; nothing was imported"
        )
    if len(sources) > 1:
        raise InvalidInputError(
            f"{source} holds {len(sources)} namespaces; import the export of one namespace at a "
            "time into a namespace of its own; nothing was imported"
        )
    _check_dims(dump, source)
    return dump


def _check_dims(dump: _Dump, source: str) -> None:
    """Every vector has the length the meta line gives."""
    if dump.dim is None:
        return
    vectors = [(f"unit {u.id!r}", u.vector) for u in dump.units]
    vectors += [(f"clue {c.id!r}", c.vector) for c, _ in dump.clues]
    for what, vector in vectors:
        if vector is not None and vector.shape != (dump.dim,):
            raise InvalidInputError(
                f"{source}: {what} has a vector of {vector.size} values but the meta line says "
                f"dim {dump.dim}: the file was edited or damaged; export it again; nothing was "
                "imported"
            )


def _check_named(store: MemoryStore, dump: _Dump) -> None:
    """Every unit an edge, link or member line names is a unit of the file or of the store, and
    every clue a member line names a clue of either, else InvalidInputError naming the first such
    line (read in the import's write block, so a
    unit deleted meanwhile counts as missing)."""
    in_file = {(u.namespace, u.id) for u in dump.units}
    wanted: dict[str, set[str]] = {}
    for ns, unit_id, _ in dump.named:
        if (ns, unit_id) not in in_file:
            wanted.setdefault(ns, set()).add(unit_id)
    held = {
        (ns, u.id) for ns, ids in wanted.items() for u in store.get_units(ns, sorted(ids), with_vectors=False)
    }
    for ns, unit_id, where in dump.named:
        if (ns, unit_id) not in in_file and (ns, unit_id) not in held:
            raise InvalidInputError(
                f"{where}: unit {unit_id!r} is neither in the file nor in namespace {ns!r}: an "
                "edge, link or member line may only name units the file or the store holds; give "
                "the whole export the line came from, or leave the line out; nothing was imported"
            )
    clues_in_file = {(clue.namespace, clue.id) for clue, _ in dump.clues}
    for ns, clue_id, where in dump.named_clues:
        if (ns, clue_id) not in clues_in_file and not store.clues.get_clues(ns, [clue_id]):
            raise InvalidInputError(
                f"{where}: clue {clue_id!r} is neither in the file nor in namespace {ns!r}: a "
                "member line may only name clues the file or the store holds; give the whole "
                "export the line came from, or leave the line out; nothing was imported"
            )


def _row(row: dict, dump: _Dump, embedder: Embedder, where: str) -> bool:
    """Add one line's record (``where``: the line, for messages) to ``dump``; True for the
    meta line."""
    if "type" not in row:
        raise InvalidInputError(
            f"this line has no type ({_listed(['meta', *REQUIRED], 'or')}): it is no line of an "
            "export; import the file as export wrote it"
        )
    kind = row.pop("type")
    if kind != "meta" and kind not in REQUIRED:
        raise InvalidInputError(
            f"this line's type {kind!r} is none of {_listed(['meta', *REQUIRED], 'or')}; import "
            "the file as export wrote it"
        )
    if kind != "meta" and (missing := [name for name in REQUIRED[kind] if name not in row]):
        them = "them" if len(missing) > 1 else "it"
        raise InvalidInputError(
            f"this {kind} line lacks {_listed(missing, 'and')}, which every {kind} line of an "
            f"export has; import the file as export wrote it, or add {them} to the line"
        )
    if kind == "meta":
        if row.get("format") not in READABLE:
            raise InvalidInputError(f"unknown format {row.get('format')!r}")
        dim = row.get("dim")
        if dim is not None and (not isinstance(dim, int) or isinstance(dim, bool) or dim < 1):
            raise InvalidInputError(f"the meta line's dim {dim!r} is not a vector length")
        dump.dim = dim
        dump.same_embedder = (row.get("embedder"), dim) == (embedder.name, embedder.dim)
        dump.directed = row.get("format") in DIRECTED
        return True
    check_namespace_name(row["namespace"])
    if kind == "person":
        dump.people[row["namespace"]] = check_person_name(row["name"])
    elif kind == "unit":
        try:
            unit = MemoryUnit.from_json(row)
        except ValidationError as error:
            raise InvalidInputError(_invalid(error, kind)) from None
        dump.units.append(_unit(unit))
    elif kind == "edge":
        src, dst = _id(row["src"]), _id(row["dst"])
        dump.edges.append(Edge(row["namespace"], src, dst, row["kind"], float(row["weight"])))
        dump.named += [(row["namespace"], src, where), (row["namespace"], dst, where)]
    elif kind == "clue":
        vector = vector_from_json(row["vector"])
        text = check_text(row["text"], "the clue's text")
        clue = Clue(_id(row["id"]), row["namespace"], text, vector, row["source"])  # type: ignore[arg-type]
        dump.clues.append((clue, [_id(s, "a session id") for s in row["sessions"]]))
    elif kind == "member":
        membership = Membership(_id(row["unit"]), _id(row["clue"]), float(row["weight"]))
        dump.members.append((row["namespace"], membership))
        dump.named.append((row["namespace"], membership.unit_id, where))
        dump.named_clues.append((row["namespace"], membership.clue_id, where))
    elif kind == "link":
        src, dst = _id(row["src"]), _id(row["dst"])
        dump.links.append((row["namespace"], src, dst, float(row["weight"])))
        dump.named += [(row["namespace"], src, where), (row["namespace"], dst, where)]
    return False


def _listed(names: list[str], joined: str) -> str:
    """``["id", "namespace", "created_at"]`` as "id, namespace and created_at"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joined} {names[-1]}"


def _invalid(error: ValidationError, kind: str) -> str:
    """pydantic's account of a line in words: each field that is wrong, with its value."""
    problems = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "line"
        message = str(item["msg"]).removeprefix("Value error, ")
        value = item.get("input")
        got = "" if isinstance(value, dict | list) else f" ({value!r:.60})"
        problems.append(f"{field} is not valid{got}: {message[:1].lower()}{message[1:]}")
    return (
        f"this {kind} line's {'; its '.join(problems)}; import the file as export wrote it, or "
        "correct the line"
    )


def _id(value: object, what: str = "an id") -> str:
    """An id of the file: text ``add`` could have made, not empty."""
    text = check_text(value, what)
    if not text:
        raise InvalidInputError(f"{what} is empty")
    return text


def _unit(unit: MemoryUnit) -> MemoryUnit:
    """``unit`` if every text of it is one ``add`` could have stored, else InvalidInputError."""
    _id(unit.id, "the unit's id")
    if not check_text(unit.restatement, "the unit's restatement").strip():
        raise InvalidInputError(f"unit {unit.id!r} has an empty restatement")
    check_text(unit.episode_id, "the unit's episode_id")
    for name, values in (
        ("turn_ids", unit.turn_ids), ("participants", unit.participants),
        ("locations", unit.locations), ("speakers", unit.speakers),
        ("time_phrases", unit.time_phrases), ("keywords", unit.keywords),
    ):
        for value in values:
            check_text(value, f"a value of the unit's {name}")
    check_metadata(unit.metadata, "the unit's metadata")
    return unit


def _reembed(dump: _Dump, embedder: Embedder) -> None:
    """Vectors of another embedder are embedded again from their texts."""
    if dump.units:
        vectors = embedder.embed([u.restatement for u in dump.units], input_type="document")
        dump.units = [u.with_vector(v) for u, v in zip(dump.units, vectors, strict=True)]
    if dump.clues:
        vectors = embedder.embed([c.text for c, _ in dump.clues], input_type="document")
        dump.clues = [
            (Clue(c.id, c.namespace, c.text, v, c.source), sessions)
            for (c, sessions), v in zip(dump.clues, vectors, strict=True)
        ]

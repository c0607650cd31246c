"""A unit's parse, kept in the store beside it: the clauses are read from it, not parsed again.

The write path parses every new unit once (:meth:`StatementReader.parses
<ripplemem.statements.reader.StatementReader.parses>`) and stores, in the add's write block, the
docs of the texts it parsed (each speaker's words with the participants' stand-ins, a short
answer's question as said): per token its text, space, tag, part of speech, morphology,
dependency, head and lemma, which is what the clause rules read. A search that reads the unit's
clauses rebuilds those docs (about 0.2 ms a text, a parse costs 2–3 ms) and reads the clauses
from them with the rules of the day: the rules change, the parse does not.

The parse is kept by the text that was parsed and marked with the parser that made it (spaCy's
version, the model and its version, the pipes: :meth:`Parsing.parse_identity`): a text the
reader now parses that the kept parse does not hold (the unit's words, its participants or the
way the reader cuts them changed) is parsed, and a parse made by another parser is not read, so a
kept parse never makes a reading stale.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

__all__ = ["FORMAT", "KeptParses", "Parsing", "TokenRows"]

#: the layout of a kept parse; a blob of another layout is not read
FORMAT = 1
#: a doc as kept: words, spaces ("1"/"0" per word), tags, parts of speech, morphologies,
#: dependencies, heads (relative to the word), lemmas
TokenRows = tuple[list[str], str, list[str], list[str], list[str], list[str], list[int], list[str]]
#: the kept parses of a namespace's units, by unit id (those that have one)
Load = Callable[[str, Sequence[str]], Mapping[str, bytes]]


class Parsing(Protocol):
    """What a parser offers besides parsing, for kept parses (the entity recogniser's)."""

    def parse_identity(self) -> str: ...  # what the docs depend on: spaCy, model, pipes
    def rebuild(self, rows: Sequence[TokenRows]) -> list[Any]: ...  # docs from kept rows


def rows_of(doc: Any) -> TokenRows:
    """What the clause rules read of a doc, per token (see the module doc)."""
    return (
        [t.text for t in doc],
        "".join("1" if t.whitespace_ else "0" for t in doc),
        [t.tag_ for t in doc],
        [t.pos_ for t in doc],
        [str(t.morph) for t in doc],
        [t.dep_ for t in doc],
        [t.head.i - t.i for t in doc],
        [t.lemma_ for t in doc],
    )


class KeptParses:
    """Encodes the docs of a unit for the store and reads them back (``load``: the store's
    ``get_parses``; ``parsing``: the parser whose docs these are)."""

    def __init__(self, load: Load, parsing: Parsing) -> None:
        self.load, self.parsing = load, parsing

    def encode(self, docs: Mapping[str, Any]) -> bytes:
        """The kept form of a unit's docs, by the text each was parsed from."""
        body = {"format": FORMAT, "parser": self.parsing.parse_identity(),
                "docs": {text: rows_of(doc) for text, doc in docs.items()}}
        return zlib.compress(json.dumps(body, separators=(",", ":")).encode("utf-8"), 1)

    def docs(self, namespace: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Per unit of ``ids`` with a kept parse of this parser, its docs by text."""
        found = self.load(namespace, ids) if ids else {}
        if not found:
            return {}
        identity = self.parsing.parse_identity()
        kept: dict[str, dict[str, TokenRows]] = {}
        for unit_id, blob in found.items():
            try:
                body = json.loads(zlib.decompress(blob))
            except (zlib.error, ValueError):  # not a parse this reader wrote: parsed again
                continue
            if isinstance(body, dict) and body.get("format") == FORMAT and body.get("parser") == identity:
                kept[unit_id] = body["docs"]
        rows = [r for docs in kept.values() for r in docs.values()]
        rebuilt = iter(self.parsing.rebuild(rows))
        return {unit_id: {text: next(rebuilt) for text in docs} for unit_id, docs in kept.items()}

"""Stage: update a memory, an explicit supersession (``Memory.update``).

``update(old, text)`` adds ``text`` as a one-turn session said by ``old``'s first participant and
joins each unit it yields by a ``supersedes`` edge (new -> current) to the current value of
``old``'s chain: ``old`` itself, or, when ``old`` was updated before (the same id updated twice, an
old version from ``history``), the chain's latest version; so a chain stays linear and the update
is its one current value. All in **one write block**: the units, their edges, their clue graph and the supersedes edges are stored together or
not at all. A text that yields no unit ("yes"), or is a bare reply in any language ("Oui", "はい":
:mod:`ripplemem.write.replies`, whatever the extractor made of it), is refused
(``InvalidInputError``) and nothing is stored; so is a question ("Do I still live in Hull?",
"¿Sigo en Hull?", "まだハルに住んでいますか？": :func:`~ripplemem.write.replies.question`), which
asserts no new value, with a message asking for the statement instead.

It is idempotent like ``add``: the session id is derived from the namespace, ``old``'s id and the
text (never from a time), so a retry of the same update yields the same unit ids and stores
nothing again (``units == []``, ``skipped`` counts them, as for a repeated ``add``); a unit of it
stored without its edge (by an earlier version) gets the edge.

The session time is the one given, else one second after the newest memory of the namespace was
said (:meth:`~ripplemem.stores.base.UnitStore.last_said`: the latest session time, or creation
time of a memory without one), or after the latest version of ``old``'s chain if that is later:
the update is the namespace's newest value. Never the wall clock; a retry of an update that was
stored keeps the time it was stored with. That time holds when the update is stored: it is read
again in the namespace's write block (SQLite's write transaction, PostgreSQL's advisory lock), and
when another writer stored a newer memory meanwhile (another process updating the same namespace)
the update is made again inside the block, a second after that one; so concurrent updates are
said a second apart each, never at the same time.

The new units keep ``old``'s metadata; the ``metadata`` given is merged into it (its keys
override ``old``'s, the other keys are kept). Like an add's labels, it is no part of the session
id: the same update retried with other metadata stores nothing.

An update is a later value of what it replaces, so it is never dated before it: a session time
given earlier than when the chain's current value was said (its session time, or for a memory
added without one its creation time) is refused (``InvalidInputError`` saying the time to give)
and nothing is stored, so no memory is valid until before it was said. The same time is taken.
The time is checked first, whatever the text (a repeat of the current value too), except for a
retry of a stored update at the time it was stored with. A time given with a UTC offset is an
instant (a stored time without one counts as UTC), and a refusal says the times in that offset.
Which value replaced which is still the edge's to say, not the time's: of two memories said in
the same second, the update comes after ``old`` in its chain.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from ripplemem.errors import InvalidInputError, UnknownUnitError
from ripplemem.records import AddResult, Conversation, Edge, MemoryUnit, Session, Turn, said_at
from ripplemem.stores.base import supersedes_of
from ripplemem.write.input_checks import check_text, composed
from ripplemem.write.pipeline import WritePipeline
from ripplemem.write.replies import bare_reply, question
from ripplemem.write.supersede import SUPERSEDES_WEIGHT, chain_of

__all__ = ["inherited_time", "update_unit"]

#: how long after the newest memory of its namespace an update without a session time is said
AFTER_LATEST = timedelta(seconds=1)
#: what an update with an empty text is told
EMPTY = "the update's text is empty: give the new fact in a sentence"
#: what an update whose text yields no memory is told
NO_STATEMENT = "the update's text holds no statement to store: give the new fact in a sentence"
#: what an update whose text is a question is told
QUESTION = (
    "the update's text is a question, not a statement to store: give the new fact as a statement "
    "(\"I live in Leeds now.\"), not as a question"
)


class _Moved(Exception):
    """In an update's write block: another writer stored a memory that changes the update's
    inherited time since it was read; the block stores nothing and the update is made again."""


def inherited_time(writer: WritePipeline, old: MemoryUnit, session_id: str) -> datetime:
    """When an update of ``old`` without a session time is said (see the module docstring);
    ``session_id``: the update's, whose units a stored attempt left in ``old``'s chain."""
    chain = [version.unit for version in chain_of(writer.store, old)]
    for unit in chain:
        if unit.episode_id == session_id and unit.session_time is not None:
            return unit.session_time  # stored before: a retry keeps its time
    latest = max(said_at(unit) for unit in chain)
    newest = writer.store.last_said(old.namespace)
    return max(latest, newest if newest is not None else latest) + AFTER_LATEST


def _check_not_before(
    when: datetime, current: MemoryUnit, old: MemoryUnit, offset: timedelta | None
) -> None:
    """InvalidInputError when an update said at ``when`` would replace ``current`` (the value of
    ``old``'s chain it supersedes) before ``current`` was said: its ``valid_until`` would come
    before it was said. Read in the write block, so a value stored meanwhile counts. Times given
    with a UTC ``offset`` are compared as instants (a stored time without one is UTC, as
    :func:`~ripplemem.write.input_checks.clean_time` stores them) and told in that offset."""
    said = said_at(current)
    if when >= said:
        return
    which = repr(old.id) if current.id == old.id else f"{current.id!r}, the current value of {old.id!r}"
    raise InvalidInputError(
        f"the update is dated {_told(when, offset)}, before the memory it replaces ({which}) was "
        f"said ({_told(said, offset)}{_stored_as(said, offset)}): an update is a later value of that memory; give a "
        f"session_time at or after {_told(said, offset)}, or leave it out (the update is then "
        "said just after the newest memory); to correct a memory that was wrong when it was "
        "said, delete it and add the right one; nothing was updated"
    )


def _stored_as(said: datetime, offset: timedelta | None) -> str:
    """Where the caller gave an offset: the stored time, without one, and that it counts as UTC."""
    return "" if offset is None else f"; stored as {said.isoformat()} without an offset, read as UTC"


def _told(moment: datetime, offset: timedelta | None) -> str:
    """A stored (naive) time as the caller wrote theirs: with their UTC offset, or without one."""
    if offset is None:
        return moment.isoformat()
    return moment.replace(tzinfo=UTC).astimezone(timezone(offset)).isoformat()


def update_unit(
    writer: WritePipeline,
    old: MemoryUnit,
    text: str,
    session_time: datetime | None = None,
    *,
    metadata: Mapping[str, Any] | None = None,
    offset: timedelta | None = None,
) -> AddResult:
    """Store ``text`` as a successor of ``old`` (see the module docstring); ``offset``: the UTC
    offset ``session_time`` was given with, for a refusal to say the times in."""
    if not check_text(text, "the text of the update").strip():
        raise InvalidInputError(EMPTY)
    text = composed(text)
    store, namespace = writer.store, old.namespace
    key = f"{namespace}\x00{old.id}\x00{text}".encode()
    session_id = f"u-{hashlib.sha1(key).hexdigest()[:12]}"
    when = session_time if session_time is not None else inherited_time(writer, old, session_id)
    speaker = old.participants[0] if old.participants else "user"
    turn = Turn(
        turn_id=f"{session_id}:1", speaker=speaker, text=text, metadata={**old.metadata, **(metadata or {})}
    )

    def said(at: datetime) -> Conversation:
        return Conversation(
            conversation_id=session_id,
            sessions=(Session(session_id=session_id, time=at, turns=(turn,), utc_offset=offset),),
        )

    def not_before() -> None:
        """First in the write block, whatever the text (a repeat of the current value too):
        the time given is not before the chain's current value, unless this very update is
        stored with this very time (a retry, a no-op whatever came after it)."""
        chain = [version.unit for version in chain_of(store, old)]
        if any(unit.episode_id == session_id and unit.session_time == when for unit in chain):
            return
        _check_not_before(when, chain[-1], old, offset)

    def still_newest() -> None:
        """First in the write block: the inherited time read before still holds."""
        if inherited_time(writer, old, session_id) != when:
            raise _Moved

    def link(fresh: list[MemoryUnit], known: list[str]) -> int:
        """In the add's write block: each unit of the update supersedes ``old``."""
        # a question, nothing to store, or a bare "Oui" an LLM extractor made a memory of:
        # refused, and the block stores nothing
        if question(text):
            raise InvalidInputError(QUESTION)
        if (not fresh and not known) or bare_reply(text):
            raise InvalidInputError(NO_STATEMENT)
        if not store.get_units(namespace, [old.id], with_vectors=False):
            raise UnknownUnitError(  # deleted since it was read: nothing of the update is stored
                f"no unit {old.id!r} in namespace {namespace!r} any more; nothing was updated"
            )
        ids = [u.id for u in fresh if u.id != old.id] + [i for i in known if i != old.id]
        if not ids:
            return 0
        mine = set(ids)
        versions = [v.unit for v in chain_of(store, old) if v.unit.id not in mine]
        chain = [unit.id for unit in versions]
        current = versions[-1] if versions else old
        head = current.id  # the chain's current value
        older = {i: set(before) for i, (_, before) in supersedes_of(store, namespace, ids).items()}
        edges = [
            Edge(namespace, unit_id, head, "supersedes", SUPERSEDES_WEIGHT)
            for unit_id in ids
            # a retry's unit already in the chain keeps its place; a fresh one follows the head
            if head not in older.get(unit_id, set())
            and (unit_id not in known or not older.get(unit_id, set()) & set(chain))
        ]
        if edges:
            _check_not_before(when, current, old, offset)
            store.change_edges(add=edges)
        return len(edges)

    if session_time is not None:
        return writer.ingest(said(when), namespace, then=link, first=not_before)
    try:  # the model work outside the lock, as for an add
        return writer.ingest(said(when), namespace, then=link, first=still_newest)
    except _Moved:
        pass
    with store.write([namespace]):  # another writer moved the time: it is read, and kept, here
        when = inherited_time(writer, old, session_id)
        return writer.ingest(said(when), namespace, then=link)

"""What a namespace's memories teach the entity recogniser: the people they name, the casing of
their places and the words they write in lower case.

A :class:`Lexicon` is a function of one namespace's stored units (:meth:`Lexicon.learn_units`
merges in an order-free way), so what one namespace says never changes how another's text is
read, a restart reads the same text the same way, and a deleted memory stops teaching. The write
path hands the recogniser a working copy for one add; inside the add the recogniser learns as it
reads (a name confirmed in the first window is known in the tenth), and what the add keeps is
what its stored units say (:class:`Lexicons`).
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ripplemem.records import MemoryUnit
from ripplemem.stores.base import LexiconRow

_LOWER_WORD = re.compile(r"\b[a-z][a-z'’\-]+\b")


def lower_words(text: str) -> list[str]:
    """The words of ``text`` written in lower case (a capitalised one at a sentence's start that
    is also seen here is a common word, not a name)."""
    return _LOWER_WORD.findall(text)


@dataclass(slots=True)
class Lexicon:
    """Names, places' casing and lower-case words known in one scope (a namespace)."""

    names: dict[str, str] = field(default_factory=dict)  # casefolded name -> its display form
    name_tokens: set[str] = field(default_factory=set)  # words of known names, as written
    places: dict[str, str] = field(default_factory=dict)  # casefolded place -> its casing
    lower: set[str] = field(default_factory=set)  # words seen written in lower case
    #: names added since the recogniser last indexed them (it tokenises each once)
    unindexed: list[str] = field(default_factory=list)
    #: the recogniser's matcher over ``names``: first token -> (tokens, name) of each variant
    index: dict[str, list[tuple[tuple[str, ...], str]]] = field(default_factory=dict)

    def copy(self) -> Lexicon:
        return Lexicon(
            names=dict(self.names),
            name_tokens=set(self.name_tokens),
            places=dict(self.places),
            lower=set(self.lower),
            unindexed=list(self.unindexed),
            index={first: list(found) for first, found in self.index.items()},
        )

    def add_name(self, name: str) -> bool:
        """Learn ``name`` as first seen (inside one add); False when it was known."""
        name = " ".join(name.split())
        key = name.casefold()
        if not name or key in self.names:
            return False
        self.names[key] = name
        self.name_tokens.update(name.split())
        self.unindexed.append(name)
        return True

    def place(self, place: str) -> str:
        """The casing of ``place`` seen first (inside one add), learning it if new."""
        return self.places.setdefault(place.casefold(), place)

    def learn_units(self, units: Iterable[MemoryUnit]) -> None:
        """Merge what stored units say: their participants are names, their locations places,
        their restatements' lower-case words common words. Of several spellings of one name or
        place the first in code-point order wins ("Priya" before "PRIYA" before "priya"), so
        the result does not depend on the order units are merged in."""
        self.learn_rows((u.id, u.participants, u.locations, u.restatement) for u in units)

    def learn_rows(self, rows: Iterable[LexiconRow]) -> None:
        """:meth:`learn_units` over what a store reads of each unit for it
        (:meth:`~ripplemem.stores.base.UnitStore.lexicon_rows`): the same merge, in any order."""
        for _, participants, locations, restatement in rows:
            for name in participants:
                self._merge_name(" ".join(name.split()))
            for place in locations:
                _merge(self.places, " ".join(place.split()))
            self.lower.update(lower_words(restatement))

    def _merge_name(self, name: str) -> None:
        if not name:
            return
        self.name_tokens.update(name.split())
        key = name.casefold()
        known = self.names.get(key)
        if known is None:
            self.names[key] = name
            self.unindexed.append(name)
        elif name < known:
            self.names[key] = name
            # the index maps each variant to its display name: rebuild it with the new form
            self.index = {}
            self.unindexed = list(self.names.values())


def _merge(forms: dict[str, str], form: str) -> None:
    if not form:
        return
    key = form.casefold()
    known = forms.get(key)
    if known is None or form < known:
        forms[key] = form


class Lexicons:
    """Each namespace's :class:`Lexicon`, read from its stored units (their lexicon rows, page by
    page in id order) and kept in step with the adds made through this object; a namespace whose
    unit count moved otherwise (a delete, another process's add) is read again. At most ``size``
    namespaces are kept."""

    def __init__(
        self,
        count: Callable[[str], int],
        rows: Callable[[str, str | None, int], list[LexiconRow]],
        *,
        size: int = 64,
        page: int = 2000,
    ) -> None:
        self._count = count
        # (namespace, after, limit) -> the lexicon rows of the units after that id, in id order
        self._rows = rows
        self._size = size
        self._page = page
        self._lock = threading.Lock()
        self._known: OrderedDict[str, tuple[int, Lexicon]] = OrderedDict()

    def working_copy(self, namespace: str) -> Lexicon:
        """A copy of the namespace's lexicon for one add to learn into."""
        count = self._count(namespace)
        with self._lock:
            entry = self._known.get(namespace)
            if entry is not None and entry[0] == count:
                self._known.move_to_end(namespace)
                return entry[1].copy()
        lexicon = Lexicon()
        read, after = 0, None
        while True:  # by key: each page starts at the last id read, whatever the namespace holds
            rows = self._rows(namespace, after, self._page)
            lexicon.learn_rows(rows)
            read += len(rows)
            if len(rows) < self._page:
                break
            after = rows[-1][0]
        with self._lock:
            self._keep(namespace, read, lexicon)
            return lexicon.copy()

    def stored(self, namespace: str, units: Iterable[MemoryUnit], before: int) -> None:
        """``units`` were stored in ``namespace``, which held ``before`` units: merge them into
        its lexicon when that was read at ``before`` (otherwise it is read again when next used)."""
        units = list(units)
        with self._lock:
            entry = self._known.get(namespace)
            if entry is None:
                return
            if entry[0] != before:
                del self._known[namespace]
                return
            entry[1].learn_units(units)
            self._keep(namespace, before + len(units), entry[1])

    def forget(self, namespace: str | None = None) -> None:
        with self._lock:
            if namespace is None:
                self._known.clear()
            else:
                self._known.pop(namespace, None)

    def _keep(self, namespace: str, count: int, lexicon: Lexicon) -> None:
        self._known[namespace] = (count, lexicon)
        self._known.move_to_end(namespace)
        while len(self._known) > self._size:
            self._known.popitem(last=False)

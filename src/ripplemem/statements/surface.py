"""What a text names or counts, read from its surface without a parse (a cheap first test).

Two statements that give one fact different values each name or count something the other does
not ("lives in Leeds" / "lives in Bristol now", "8 engineers" / "15 engineers"); the write and
read paths parse only the units that pass this test.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from ripplemem.grounding.time_patterns import NUMBERS

_TOKEN = re.compile(r"[\w'’-]+|[.!?:]")
_DIGITS = re.compile(r"\d[\d,.]*")
_WORD = re.compile(r"[A-Za-z]+")


def names_in(text: str) -> list[str]:
    """Capitalised words that do not start a sentence, without a possessive ("Leeds", "Max")."""
    found: list[str] = []
    start = True
    for token in _TOKEN.findall(text):
        if token in ".!?:":
            start = True
            continue
        if not start and token[:1].isupper() and token != "I":
            found.append(re.sub(r"['’]s$", "", token))
        start = False
    return found


def values_in(text: str, skip: Collection[str] = ()) -> set[str]:
    """The names and numbers ``text`` gives, case-folded, but the names in ``skip`` (case-folded
    words: the speakers, who address each other by name)."""
    found = {w.casefold() for w in names_in(text)} | set(_DIGITS.findall(text))
    found |= {w.casefold() for w in _WORD.findall(text) if w.casefold() in NUMBERS}
    return found - set(skip)

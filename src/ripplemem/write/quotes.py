"""Quoted spans: words between a pair of double quotes are a title ("I Will Survive", "She
Loves You") or words someone else said ("he said "I love it""). The stages that rewrite
references (:mod:`ripplemem.write.restate` for "I" / "you", :mod:`ripplemem.write.pronouns` for
"she" / "he") leave them as written, since rewriting them would put words in the text that
nobody said.

* ``“`` opens a quote, and so does ``"`` when none is open; ``”`` or ``"`` closes it;
* a whole sentence in quotes guards nothing: a speaker who puts a sentence in quotes is still
  speaking in their own words ("“I got the job!”");
* an unclosed quote guards nothing: it may be a stray mark.
"""

from __future__ import annotations

import bisect

__all__ = ["has_quote", "inside", "quoted_spans"]

_OPEN, _CLOSE, _PLAIN = "“", "”", '"'


def has_quote(text: str) -> bool:
    """Whether ``text`` has a double quote at all (a cheap test before :func:`quoted_spans`)."""
    return _PLAIN in text or _OPEN in text


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Character spans ``(start, end)`` of the text between each pair of double quotes that
    does not enclose the whole sentence; the quote marks themselves are outside the spans."""
    if not has_quote(text):
        return []
    spans: list[tuple[int, int]] = []
    opened: int | None = None
    # the first and last letter or digit: words before or after a pair, in one pass
    first = next((i for i, c in enumerate(text) if c.isalnum()), len(text))
    last = next((i for i in range(len(text) - 1, -1, -1) if text[i].isalnum()), -1)
    for i, char in enumerate(text):
        if char == _OPEN or (char == _PLAIN and opened is None):
            opened = i
        elif char in (_CLOSE, _PLAIN) and opened is not None:
            if first < opened or last > i:
                spans.append((opened + 1, i))
            opened = None
    return spans


def inside(position: int, spans: list[tuple[int, int]]) -> bool:
    """Whether the character at ``position`` lies in one of ``spans`` (as :func:`quoted_spans`
    gives them: disjoint, in order; a binary search, so a text of many quotes stays linear)."""
    i = bisect.bisect_right(spans, position, key=lambda span: span[0]) - 1
    return i >= 0 and spans[i][0] <= position < spans[i][1]

"""The nouns said just before a unit that refers back, kept among its keywords.

A unit should say on its own what it is about (the paper's self-contained restatement), but a
dialogue refers back: "They were stoked for the dinosaur exhibit!" answers "What were they so
stoked about?" after "Yesterday I took the kids to the museum", and a question about the kids
finds neither word in it. :mod:`ripplemem.write.pronouns` rewrites *he* and *she* to the one
person they can stand for; *it*, *they*, *them*, *this*, *these* and *those* mostly stand for
things, and which thing is not something a rule can tell. So the restatement stays as said, and
the unit's keywords (what the lexical index reads beside its words) get the nouns said just
before it: the :data:`CONTEXT_KEYWORDS` nearest distinct nouns, read backwards from the unit
through the same turn and the :data:`~ripplemem.write.pronouns.LOOKBACK_TURNS` turns before it
(where the pronoun stage looks for a referent, and where most referents of a dialogue pronoun
are). Names are left out (a person is named in the unit or by the pronoun stage), and so are
words the unit has already.

The restatement, the vector and the time are untouched; a unit without such a pronoun, a
shared photo's unit, the first turn of a conversation and the turns in another language get
no more keywords.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from ripplemem.language import language_of
from ripplemem.records import Window
from ripplemem.write.pronouns import LOOKBACK_TURNS

__all__ = ["CONTEXT_KEYWORDS", "context_before", "nearest_nouns", "refers_back"]

#: the nouns said before it that a unit referring back keeps
CONTEXT_KEYWORDS = 3
#: a pronoun (or demonstrative) that mostly stands for a thing said before
_REFERRING = re.compile(r"\b(?:it|its|they|them|their|theirs|this|these|those)\b", re.IGNORECASE)
#: Penn Treebank tags of nouns (common and proper, singular and plural)
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
_MIN_CHARS = 3


def refers_back(text: str) -> bool:
    """Whether ``text`` holds a pronoun that may stand for a thing said before it."""
    return _REFERRING.search(text) is not None


def context_before(window: Window, turn: int, said: str) -> list[tuple[str, int]]:
    """What was said before ``said`` in turn ``turn`` of ``window`` and in the
    :data:`~ripplemem.write.pronouns.LOOKBACK_TURNS` turns before that turn, oldest first: each
    turn's text and where in it the part said before ends (its length, or where ``said``
    starts in its own turn; nothing of its own turn when ``said`` is not found there). A turn
    in another language is left out: the tagger is English (it takes German "das" for a noun)."""
    first = max(0, turn - LOOKBACK_TURNS)
    before = [(t.text, len(t.text)) for t in window.turns[first:turn] if t.text.strip()]
    if turn < len(window.turns):
        own = window.turns[turn].text
        at = own.find(said[:40]) if said else -1
        if at > 0:
            before.append((own, at))
    return [(text, end) for text, end in before if language_of(text[:end]) == "en"]


def nearest_nouns(
    tagged: Sequence[tuple[str, str]], *skip: Collection[str], count: int = CONTEXT_KEYWORDS
) -> tuple[str, ...]:
    """The last ``count`` distinct nouns of ``tagged`` ((word, Penn Treebank tag) pairs in text
    order), nearest to the end first, lower-cased; words of the ``skip`` collections (lower
    case) and words that are not three letters or more are left out."""
    found: list[str] = []
    for word, tag in reversed(tagged):
        lower = word.lower()
        if (
            tag in _NOUN_TAGS and len(lower) >= _MIN_CHARS and lower.isalpha()
            and lower not in found and not any(lower in words for words in skip)
        ):
            found.append(lower)
            if len(found) == count:
                break
    return tuple(found)

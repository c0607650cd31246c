"""Quoted spans: the words the reference-rewriting stages leave as written."""

from __future__ import annotations

import pytest

from ripplemem.write.quotes import inside, quoted_spans


def _quoted_text(text: str) -> list[str]:
    return [text[start:end] for start, end in quoted_spans(text)]


@pytest.mark.parametrize(
    ("text", "quoted"),
    [
        ('My song is "I Will Survive".', ["I Will Survive"]),
        ("I read “She Said” and “Educated” twice.", ["She Said", "Educated"]),
        ('"I got the job!"', []),  # a whole sentence in quotes is the speaker's own
        ("“I got the job!”", []),
        ('I love "quotes, I swear', []),  # unclosed: a stray mark guards nothing
        ("No quotes here.", []),
        ('He said "hi" then "bye".', ["hi", "bye"]),
    ],
)
def test_quoted_spans(text: str, quoted: list[str]) -> None:
    assert _quoted_text(text) == quoted


def test_inside_is_within_the_marks() -> None:
    text = 'a "b" c'
    spans = quoted_spans(text)
    assert [i for i in range(len(text)) if inside(i, spans)] == [3]

"""A word joined by hyphens ("five-a-side", "part-time", "T-shirt") is one token of the parse
every reader reads (:meth:`EntityRecognizer.parse`): split, "five" of "five-a-side" was a
number the statement reader took for a value and "side" an adverbial. Numbers joined by hyphens
(dates, ranges: "2023-05-01", "6-12 May", "10-15 minutes") stay as the time readers read them.
A parse kept before words were joined (another parse identity) is not read: parsed again."""

from __future__ import annotations

import json
import zlib

import pytest

from ripplemem import Memory
from ripplemem.statements import StatementReader, clauses_of
from ripplemem.statements.kept import FORMAT, KeptParses
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _words(recognizer: EntityRecognizer, text: str) -> list[str]:
    (doc,) = recognizer.parse([text])
    return [t.text for t in doc]


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I play five-a-side on Tuesdays.", "five-a-side"),
        ("The organiser moved five-a-side to Thursdays.", "five-a-side"),
        ("I work part-time at the library now.", "part-time"),
        ("She is self-employed these days.", "self-employed"),
        ("He is a co-founder of Acme.", "co-founder"),
        ("My ex-boyfriend lives in Leeds.", "ex-boyfriend"),
        ("We have been long-distance for a year.", "long-distance"),
        ("My 3-year-old loves trains.", "3-year-old"),
        ("I bought a T-shirt at the market.", "T-shirt"),
        ("My sister-in-law is a nurse.", "sister-in-law"),
    ],
)
def test_a_word_joined_by_hyphens_is_one_token(recognizer, text, word) -> None:
    words = _words(recognizer, text)
    assert word in words, words
    assert "-" not in words


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("We met on 2023-05-01 in Leeds.", ["2023", "-", "05", "-", "01"]),
        ("I'm away 6-12 May.", ["6", "-", "12"]),
        ("It takes 10-15 minutes by bus.", ["10", "-", "15"]),
    ],
)
def test_numbers_joined_by_hyphens_stay_as_they_were(recognizer, text, tokens) -> None:
    words = _words(recognizer, text)
    start = words.index(tokens[0])
    assert words[start : start + len(tokens)] == tokens


@pytest.mark.parametrize("text", ["a - b", "I'm well -- thanks", "x- y", "-5 degrees", "pre- and post-war"])
def test_hyphens_with_a_space_or_at_an_edge_join_nothing_across_it(recognizer, text) -> None:
    (doc,) = recognizer.parse([text])
    assert doc.text == text
    for token in doc:
        assert " " not in token.text


def test_the_joined_word_is_a_value_not_a_number(recognizer) -> None:
    (doc,) = recognizer.parse(["I play five-a-side on Tuesdays."])
    (clause,) = clauses_of(doc, "Kim", ())
    words = clause.object_words | frozenset(w for _, found in clause.places for w in found)
    assert "five" not in words and "side" not in words
    assert "five-a-side" in words


def test_a_parse_kept_before_words_were_joined_is_parsed_again(recognizer, tmp_path) -> None:
    """A store written before the join keeps parses under the earlier identity: they are not
    read (the unit is parsed again) and the store opens and searches as before."""
    text = "I play five-a-side on Tuesdays."
    split = (["I", "play", "five", "-", "a", "-", "side", "on", "Tuesdays", "."], "1000001100",
             ["PRP", "VBP", "CD", "HYPH", "DT", "HYPH", "NN", "IN", "NNPS", "."],
             ["PRON", "VERB", "NUM", "PUNCT", "DET", "PUNCT", "NOUN", "ADP", "PROPN", "PUNCT"],
             [""] * 10, ["nsubj", "ROOT", "nummod", "punct", "det", "punct", "dobj", "prep", "pobj", "punct"],
             [1, 0, 4, 3, 2, 1, -5, -6, -1, -8],
             ["I", "play", "five", "-", "a", "-", "side", "on", "Tuesdays", "."])
    earlier = recognizer.parse_identity().split("; ")
    before = "; ".join(earlier[:3])  # spaCy, the model, the pipes: what the identity was
    assert recognizer.parse_identity() != before
    path = tmp_path / "m.db"
    with Memory.open(path) as memory:
        added = memory.add([{"speaker": "Kim", "text": text}], namespace="kim", session_time="2023-03-06")
        (unit,) = [u for u in added.units if "five-a-side" in u.restatement]
        old = {"format": FORMAT, "parser": before, "docs": {unit.restatement: split}}
        memory.store.add_parses("kim", {unit.id: zlib.compress(json.dumps(old).encode("utf-8"))})
    with Memory.open(path) as memory:
        kept = KeptParses(memory.store.get_parses, recognizer)
        assert kept.docs("kim", [unit.id]) == {}
        (clauses,) = StatementReader(recognizer.parse, kept=kept).clauses([unit])
        assert any("five-a-side" in c.object_words for c in clauses)
        found = memory.search("When does Kim play five-a-side?", namespace="kim")
        assert "five-a-side" in found.evidence[0].unit.restatement

"""The shared tokeniser: terms() and the Porter stemmer."""

from __future__ import annotations

import pytest

from ripplemem.stores.text import STOPWORDS, document_terms, stem, terms

PORTER = {  # examples from Porter (1980)
    "caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat", "feed": "feed",
    "agreed": "agre", "plastered": "plaster", "bled": "bled", "motoring": "motor",
    "sing": "sing", "conflated": "conflat", "troubled": "troubl", "sized": "size",
    "hopping": "hop", "tanned": "tan", "falling": "fall", "hissing": "hiss", "fizzed": "fizz",
    "failing": "fail", "filing": "file", "happy": "happi", "sky": "sky", "relational": "relat",
    "conditional": "condit", "rational": "ration", "digitizer": "digit",
    "generalizations": "gener", "electrical": "electr", "hopeful": "hope", "goodness": "good",
    "revival": "reviv", "allowance": "allow", "adjustment": "adjust", "adoption": "adopt",
    "probate": "probat", "rate": "rate", "cease": "ceas", "controll": "control", "roll": "roll",
}  # fmt: skip


@pytest.mark.parametrize(("word", "expected"), sorted(PORTER.items()))
def test_porter_stems(word: str, expected: str) -> None:
    assert stem(word) == expected


def test_inflections_share_a_stem() -> None:
    assert len({stem(w) for w in ("recommend", "recommended", "recommends", "recommending")}) == 1


def test_terms_casefold_split_clitics_and_drop_stopwords() -> None:
    assert terms("Caroline's") == terms("caroline") == [stem("caroline")]
    assert terms("Hey, I don't really know, lol") == ["know"]
    assert terms("We can't and won't; it ain't so") == []
    assert terms("O'Neill met him") == [stem("oneill"), "met"]
    assert terms("She turned 30 in 2023!") == ["turn", "30", "2023"]
    assert terms("Café in SÃO PAULO") == ["café", "são", "paulo"]
    assert terms("snake_case") == ["snake", "case"]
    assert terms("") == [] and terms("... !!") == []


def test_fillers_are_stopwords() -> None:
    assert {"yeah", "hey", "wow", "really", "just", "lol"} <= STOPWORDS


def test_document_terms_cover_restatement_and_keywords() -> None:
    assert document_terms("Melanie paints.", ("pottery class",)) == [
        "melani",
        "paint",
        "potteri",
        "class",
    ]

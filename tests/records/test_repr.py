"""Records print short: no vector floats in repr() (a unit printed 97 lines of them)."""

from __future__ import annotations

import numpy as np

from ripplemem.records import Clue
from ripplemem.testing.builders import make_unit


def test_a_unit_prints_on_a_few_lines_without_its_vector() -> None:
    unit = make_unit("u1", participants=("Maya",), metadata={"topic": "food"}, speakers=("Maya",))
    text = repr(unit)
    assert "vector" not in text and "array(" not in text and len(text) < 600
    assert "Memory u1." in text and "'topic': 'food'" in text and "speakers=('Maya',)" in text
    assert str(unit) == text


def test_a_clue_prints_without_its_vector() -> None:
    clue = Clue("c1", "ns", "cats and balconies", np.ones(384, dtype=np.float32), "keyphrases")
    assert "vector" not in repr(clue) and len(repr(clue)) < 200

"""An English auxiliary with the negation "n't" cliticised to it carries its tense as when
written out ("didn't": "did not", "won't": "will not", not the past "won"), so a weekday in a
negated past clause is the last one. Session time Thursday 16 May 2024 (QA4 Q4-2)."""

from __future__ import annotations

import pytest

from .grounded import days as starts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I didn't fly on Monday.", "2024-05-13"),
        ("She wasn't at work on Monday.", "2024-05-13"),
        ("I didn't sleep well on Monday.", "2024-05-13"),
        ("i didnt sleep on monday", "2024-05-13"),
        ("They weren't home on Monday.", "2024-05-13"),
        ("I won't come on Monday.", "2024-05-20"),  # "won't" is "will not", not "won"
        ("I can't wait for Monday.", "2024-05-20"),
        ("I don't work on Monday.", "2024-05-20"),
    ],
)
def test_a_contracted_negation_keeps_its_auxiliarys_tense(text: str, expected: str) -> None:
    assert starts(text) == [expected]


def test_a_negated_past_and_its_correction_are_both_past() -> None:
    found = starts("I didn't go on Monday, I went on Tuesday.")
    assert "2024-05-14" in found and all(start <= "2024-05-16" for start in found), found

"""The rule-based question-type classifier and its accuracy measure."""

from __future__ import annotations

import pytest

from ripplemem.read.asso.qtype import (
    LOCOMO_CATEGORY_TYPES,
    LONGMEMEVAL_TYPES,
    QUESTION_TYPES,
    benchmark_type,
    classifier_accuracy,
    classify_question,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("When did Dana move to Lisbon?", "temporal"),
        ("How many days passed between the wedding and my flight?", "temporal"),
        ("What year did Omar start learning the violin?", "temporal"),
        ("Which hiking boots would you recommend for my next trip?", "preference"),
        ("I keep getting distracted at work, any tips?", "preference"),
        ("What is my current score on the typing test?", "knowledge-update"),
        ("Where do I live now?", "knowledge-update"),
        ("Would Priya likely enjoy a career in nursing?", "open-domain"),
        ("How many plants did I buy in total?", "multi-hop"),
        ("What hobbies do Dana and Omar have in common?", "multi-hop"),
        ("What is Dana's favourite dish?", "single-hop"),
        ("Which instrument does Omar play?", "single-hop"),
    ],
)
def test_rules_on_hand_written_questions(text: str, expected: str) -> None:
    assert classify_question(text) == expected


def test_every_answer_is_a_known_type_and_deterministic() -> None:
    texts = ["", "???", "Tell me about the thing.", "WHEN WAS IT?"]
    for text in texts:
        assert classify_question(text) in QUESTION_TYPES
        assert classify_question(text) == classify_question(text)


def test_benchmark_labels_map_into_the_set() -> None:
    assert set(LOCOMO_CATEGORY_TYPES.values()) <= set(QUESTION_TYPES)
    assert set(LONGMEMEVAL_TYPES.values()) <= set(QUESTION_TYPES)
    assert benchmark_type(locomo_category=2) == "temporal"
    assert benchmark_type(locomo_category=5) is None  # adversarial: no counterpart
    assert benchmark_type(lme_type="single-session-preference") == "preference"
    assert benchmark_type(lme_type="something-else") is None


def test_accuracy_counts_hits_and_skips_unmapped() -> None:
    report = classifier_accuracy(
        [
            ("When did Dana move?", "temporal"),  # right
            ("What is Dana's job?", "single-hop"),  # right
            ("What is Dana's job?", "multi-hop"),  # wrong
            ("Is this a trap?", None),  # skipped
        ]
    )
    assert report["questions"] == 3
    assert report["accuracy"] == pytest.approx(2 / 3)
    assert report["by_type"]["multi-hop"]["accuracy"] == 0.0
    assert report["confusion"]["multi-hop"] == {"single-hop": 1}

"""Token F1 and BLEU-1 exactly as reference §3 (set-based F1; NLTK unigram BLEU, smoothing 1)."""

from __future__ import annotations

import pytest

from ripplemem_bench.answers.metrics import answer_tokens, bleu1, nltk_words, token_f1


def test_f1_tokens_lower_case_and_drop_four_punctuation_marks() -> None:
    assert answer_tokens("On May 7, 2023. Yes! Why?") == ["on", "may", "7", "2023", "yes", "why"]
    assert answer_tokens("don't; (x)") == ["don't;", "(x)"]  # only . , ! ? are replaced


def test_f1_is_set_based() -> None:
    # prediction {the, cat, sat} vs gold {the, cat}: p = 2/3, r = 1 -> 0.8 (repeats do not count)
    assert token_f1("the the cat sat", "The cat.") == pytest.approx(0.8)
    assert token_f1("Porto", "porto") == 1.0
    assert token_f1("", "porto") == 0.0
    assert token_f1("Lisbon", "Porto") == 0.0


def test_bleu1_matches_nltk_sentence_bleu_with_unigram_weights_and_method1() -> None:
    # imported here: nltk (with scipy.stats) takes ~1 s, which every test worker would pay at
    # collection
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    prediction, gold = "She adopted a grey cat in Porto.", "a grey cat"
    expected = sentence_bleu(
        [["a", "grey", "cat"]],
        ["she", "adopted", "a", "grey", "cat", "in", "porto", "."],
        weights=(1, 0, 0, 0),
        smoothing_function=SmoothingFunction().method1,
    )
    assert bleu1(prediction, gold) == pytest.approx(expected)
    assert bleu1("7 May 2023", "7 May 2023") == pytest.approx(1.0)
    assert bleu1("", "x") == 0.0


def test_nltk_words_split_sentences_without_punkt_data() -> None:
    assert nltk_words("I don't know. It was Porto!") == [
        "i", "do", "n't", "know", ".", "it", "was", "porto", "!",
    ]

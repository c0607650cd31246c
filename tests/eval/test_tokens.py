from __future__ import annotations

from ripplemem.eval.tokens import count_tokens, count_tokens_batch


def test_wordpiece_counts_without_special_tokens() -> None:
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2  # no [CLS] / [SEP]
    # WordPiece splits rare words into pieces: "lgbtq" -> "lgbt", "##q"
    assert count_tokens("lgbtq") == 2
    assert count_tokens("Hello, world.") == 4  # punctuation is its own token


def test_no_truncation_or_padding() -> None:
    long_text = " ".join(["memory"] * 1000)
    assert count_tokens(long_text) == 1000
    assert count_tokens("a") == 1


def test_batch_matches_single() -> None:
    texts = ["hello world", "", "Hello, world.", "lgbtq"]
    assert count_tokens_batch(texts) == [count_tokens(t) for t in texts]
    assert count_tokens_batch([]) == []

from __future__ import annotations

from ripplemem_bench.tokens import count_tokens, count_tokens_batch


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


def test_truncate_to_budget_keeps_the_longest_fitting_prefix() -> None:
    from datetime import datetime

    from ripplemem.records import Evidence, MemoryUnit
    from ripplemem_bench.tokens import truncate_to_budget

    def item(text: str) -> Evidence:
        unit = MemoryUnit(
            id=text, namespace="n", restatement=text, vector=None, participants=(), locations=(),
            time_span=None, episode_id="s", turn_ids=(), session_time=None,
            created_at=datetime(2024, 1, 1),
        )
        return Evidence(unit=unit, score=0.0, hits=())

    ranked = [item("hello world"), item("memory memory memory"), item("a")]  # 2, 3, 1 tokens
    assert [e.unit.id for e in truncate_to_budget(ranked, 5)] == ["hello world", "memory memory memory"]
    assert [e.unit.id for e in truncate_to_budget(ranked, 4)] == ["hello world"]  # a prefix, no skipping
    assert truncate_to_budget(ranked, 1) == []

from __future__ import annotations

from io import StringIO

from rich.console import Console

from ripplemem_bench.reports.columns import format_value, label
from ripplemem_bench.reports.console import render_console
from ripplemem_bench.reports.retrieval import render_markdown
from ripplemem_bench.results import RetrievalResult


def _locomo_result() -> RetrievalResult:
    block = {
        "budget": 30,
        "metrics": {"recall@10": 0.5, "recall@30": 0.75, "all@30": 0.5, "context_tokens@30": 812.4},
        "per_category": {
            "multi-hop": {"questions": 1, "recall@30": 0.5},
            "single-hop": {"questions": 1, "recall@30": 1.0},
        },
        "adversarial": {"questions": 1, "recall@30": 0.0},
        "search_ms_p50": 12.34,
        "search_ms_p95": 20.0,
    }
    return RetrievalResult.model_validate({
        "dataset": "locomo", "split": "tiny.json", "questions": 2, "excluded": {"no_evidence": 1},
        "embedder": "minilm-int8", "extractor": "DeterministicExtractor", "planner": "DeterministicPlanner",
        "date": "2026-01-01T00:00:00+00:00", "commit": "abcdef1234567",
        "ingest": {"seconds_per_conversation": 1.5, "units": 10, "edges": 4},
        "recipes": {"ripple": block, "bm25": {**block, "metrics": {**block["metrics"], "recall@10": 0.25}}},
    })


def test_labels() -> None:
    assert label("session_recall_any@5") == "S any@5"
    assert label("session_ndcg@10") == "S ndcg@10"
    assert label("turn_recall_all@10") == "T all@10"
    assert label("context_tokens@30") == "tokens@30"
    assert label("recall@10") == "recall@10"


def test_format_value() -> None:
    assert format_value("recall@10", 0.5) == "50.0"
    assert format_value("context_tokens@30", 812.4) == "812"
    assert format_value("search_ms_p50", 12.34) == "12.3"
    assert format_value("recall@10", None) == "–"
    assert format_value("answer_tokens", 42.0) == "42.00"  # an unknown metric that is no rate


def test_markdown_table() -> None:
    text = render_markdown(_locomo_result())
    lines = text.splitlines()
    assert "| recipe | recall@10 | recall@30 | all@30 | tokens@30 | p50 ms | p95 ms |" in lines
    assert "| ripple | 50.0 | 75.0 | 50.0 | 812 | 12.3 | 20.0 |" in lines
    assert "| bm25 | 25.0 | 75.0 | 50.0 | 812 | 12.3 | 20.0 |" in lines
    assert "| multi-hop | 1 | 50.0 | 50.0 |" in lines
    assert "| adversarial (cat. 5) | 1 | 0.0 | 0.0 |" in lines
    assert "minilm-int8" in lines[0] and "abcdef1234" in lines[0]


def test_console_table() -> None:
    buffer = StringIO()
    render_console(_locomo_result(), Console(file=buffer, width=200, color_system=None))
    out = buffer.getvalue()
    assert "recall@30" in out and "ripple" in out and "75.0" in out and "single-hop" in out


def test_longmemeval_columns() -> None:
    block = {"budget": 30, "metrics": {"session_recall_all@10": 1.0, "turn_recall_all@10": 0.5},
             "per_question_type": {"multi-session": {"questions": 3, "session_recall_all@10": 1.0}},
             "search_ms_p50": 1.0, "search_ms_p95": 2.0}
    result = {"dataset": "longmemeval", "split": "s.json", "questions": 3, "recipes": {"dense": block}}
    lines = render_markdown(RetrievalResult.model_validate(result)).splitlines()
    assert "| recipe | S all@10 | T all@10 | p50 ms | p95 ms |" in lines
    assert "| multi-session | 3 | 100.0 |" in lines

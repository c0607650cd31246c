"""Report tables for peers, answers and the token budget."""

from __future__ import annotations

from ripplemem_bench.reports.retrieval import answer_table, main_table, render_markdown
from ripplemem_bench.results import RetrievalResult
from ripplemem_bench.results.retrieval import AnswerScores


def _result(**extra) -> RetrievalResult:
    metrics = {"recall@5": 0.5, "recall@10": 0.6, "recall@30": 0.7, "all@30": 0.4,
               "context_tokens@30": 900.0, "recall@budget": 0.65, "all@budget": 0.5,
               "context_tokens@budget": 590.0}
    block = {"metrics": metrics, "per_category": {}, "search_ms_p50": 10.0, "search_ms_p95": 20.0}
    data = {"dataset": "locomo", "recipes": {"ripple": dict(block), "mem0": dict(block)}, **extra}
    return RetrievalResult.model_validate(data)


def test_budget_columns_replace_the_deep_cut_offs() -> None:
    header, _ = main_table(_result(token_budget=600))
    assert "recall@budget" in header and "recall@30" not in header
    header, _ = main_table(_result())
    assert "recall@30" in header and "recall@budget" not in header


def test_answer_table_names_both_models() -> None:
    answers = {"questions": 3, "metrics": {"f1": 0.5, "bleu1": 0.25, "j": 1 / 3, "context_tokens": 512.0,
               "answer_prompt_tokens": 700.0, "planner_tokens": 0.0},
               "answer_ms_p50": 5.0, "answer_ms_p95": 9.0, "judge_failures": 1}
    result = _result(answering={"answer_model": "a-m", "judge_model": "j-m", "judge_prompt": "j-v1"},
                     peers={"mem0": {"package": "mem0ai", "version": "2.2.1"}})
    for block in result.recipes.values():
        block.answers = AnswerScores.model_validate(answers)
    header, rows, caption = answer_table(result)
    assert header[:2] == ["system", "questions"]
    assert "a-m" in caption and "judge j-m" in caption
    assert rows[0][:5] == ["ripple", "3", "50.0", "25.0", "33.3"] and rows[0][-1] == "1"
    markdown = render_markdown(result)
    assert "mem0ai 2.2.1" in markdown and "| system |" in markdown
    assert answer_table(_result()) is None

"""--answer end to end: answers, judge verdicts, usage accounting, token budget, the CLI.

The answer model and the judge are one local OpenAI-protocol server (real HTTP) whose responder
tells the two apart by their system prompts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from ripplemem.cli.main import app
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem_bench.answers.answering import Answerer
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.setup import AnswerSetup
from ripplemem_bench.retrieval.runners import run_locomo_bench, run_longmemeval_bench

ANSWER_USAGE = (200, 3)
JUDGE_USAGE = (90, 10)


def responder(body: dict[str, Any]) -> Reply:
    """Answers always say "Porto"; the judge calls it CORRECT when the gold answer is Porto."""
    system = body["messages"][0]["content"]
    user = body["messages"][-1]["content"]
    if system.startswith("You grade"):
        if "Answer to grade: Porto" in user and "Gold answer: Porto" in user:
            return Reply.json({"reasoning": "same", "label": "CORRECT"}, usage=JUDGE_USAGE)
        return Reply.json({"reasoning": "differs", "label": "WRONG"}, usage=JUDGE_USAGE)
    return Reply.text("Porto", usage=ANSWER_USAGE)


def _setup(server: ScriptedOpenAIServer) -> AnswerSetup:
    answer = OpenAICompatibleChat(server.llm_settings(model="answer-m"), backoff_s=0.0)
    judge = OpenAICompatibleChat(server.llm_settings(model="judge-m"), backoff_s=0.0)
    return AnswerSetup(Answerer(answer), Judge(judge), server.base_url)


def test_locomo_answers_are_scored_per_recipe_with_tokens(locomo_file: Path) -> None:
    with ScriptedOpenAIServer(responder=responder) as server:
        result = run_locomo_bench(
            locomo_file, recipes=("bm25", "dense"), store="memory", answering=_setup(server),
            details=True,
        ).to_json()
        requests = server.requests
    assert result["answering"]["answer_model"] == "answer-m"
    assert result["answering"]["judge_model"] == "judge-m"
    # categories 1-4 with evidence: 3 questions (category 5 is not answered), 2 recipes
    assert len(requests) == 3 * 2 * 2
    block = result["recipes"]["bm25"]["answers"]
    assert block["questions"] == 3 and block["judge_failures"] == 0
    metrics = block["metrics"]
    assert metrics["j"] == pytest.approx(1 / 3)  # "Porto" is right for one of the three
    assert metrics["f1"] == pytest.approx(1 / 3)
    assert metrics["answer_prompt_tokens"] == ANSWER_USAGE[0]
    assert metrics["answer_completion_tokens"] == ANSWER_USAGE[1]
    assert metrics["judge_tokens"] == sum(JUDGE_USAGE)
    assert metrics["planner_tokens"] == 0 and metrics["context_tokens"] > 0
    assert block["answer_ms_p50"] is not None and block["answer_ms_p95"] is not None
    assert {row["verdict"] for row in block["per_question"]} == {"CORRECT", "WRONG"}
    assert set(block["groups"]) <= {"single-hop", "multi-hop", "temporal", "open-domain"}


def test_longmemeval_judges_abstention_and_no_gold_questions_too(lme_json: Path) -> None:
    with ScriptedOpenAIServer(responder=responder) as server:
        result = run_longmemeval_bench(
            lme_json, recipes=("bm25",), store="memory", answering=_setup(server)
        ).to_json()
        judge_prompts = [
            body["messages"][-1]["content"]
            for body in server.requests
            if body["messages"][0]["content"].startswith("You grade")
        ]
    assert result["questions"] == 1  # retrieval still excludes _abs and no-gold questions
    answers = result["recipes"]["bm25"]["answers"]
    assert answers["questions"] == 3
    assert "abstention" in answers["groups"]
    assert any("cannot be answered from the conversation" in prompt for prompt in judge_prompts)


def test_malformed_judge_replies_are_counted_as_failures(locomo_file: Path) -> None:
    def broken_judge(body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"].startswith("You grade"):
            return Reply.malformed()
        return Reply.text("Porto")

    with ScriptedOpenAIServer(responder=broken_judge) as server:
        result = run_locomo_bench(
            locomo_file, recipes=("bm25",), store="memory", answering=_setup(server)
        ).to_json()
    answers = result["recipes"]["bm25"]["answers"]
    assert answers["judge_failures"] == 3 and answers["metrics"]["j"] == 0.0
    assert answers["metrics"]["f1"] == pytest.approx(1 / 3)  # F1 needs no judge


def test_token_budget_cuts_evidence_before_scoring(locomo_file: Path) -> None:
    result = run_locomo_bench(locomo_file, recipes=("bm25", "dense"), store="memory", token_budget=12).to_json()
    assert result["token_budget"] == 12
    for block in result["recipes"].values():
        assert block["token_budget"] == 12
        assert block["metrics"]["context_tokens@budget"] <= 12
        assert "recall@budget" in block["metrics"]


def test_cli_answer_flags_reach_the_endpoint(locomo_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "result.json"
    with ScriptedOpenAIServer(responder=responder) as server:
        result = CliRunner().invoke(app, [
            "bench", "locomo", str(locomo_file), "--recipes", "bm25", "--store", "memory",
            "--answer", "--llm-base-url", server.base_url, "--llm-model", "answer-m",
            "--judge-model", "judge-m", "--token-budget", "200", "--json", str(out),
        ])
        models = {body["model"] for body in server.requests}
    assert result.exit_code == 0, result.output
    assert models == {"answer-m", "judge-m"}
    saved = json.loads(out.read_text())
    assert saved["answering"]["judge_model"] == "judge-m"
    assert "judge judge-m" in result.output and "BLEU-1" in result.output


def test_cli_answer_without_an_endpoint_says_what_to_set(locomo_file: Path, monkeypatch) -> None:
    monkeypatch.delenv("RIPPLEMEM_LLM_BASE_URL", raising=False)
    result = CliRunner().invoke(app, ["bench", "locomo", str(locomo_file), "--answer"])
    assert result.exit_code != 0
    assert "--llm-base-url" in result.output


def test_an_unavailable_answer_endpoint_is_counted_and_not_judged(locomo_file: Path) -> None:
    def down_for_answers(body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"].startswith("You grade"):
            return Reply.json({"reasoning": "-", "label": "CORRECT"})
        return Reply.status(503)

    with ScriptedOpenAIServer(responder=down_for_answers) as server:
        answer = OpenAICompatibleChat(server.llm_settings(max_retries=0), backoff_s=0.0)
        setup = AnswerSetup(Answerer(answer), Judge(answer), server.base_url)
        result = run_locomo_bench(locomo_file, recipes=("bm25",), store="memory", answering=setup).to_json()
        judged = [b for b in server.requests if b["messages"][0]["content"].startswith("You grade")]
    answers = result["recipes"]["bm25"]["answers"]
    assert answers["answer_failures"] == 3 and answers["metrics"]["j"] == 0.0
    assert judged == []


def test_planner_tokens_come_from_the_endpoints_usage(locomo_file: Path) -> None:
    from ripplemem import Settings

    def with_planner(body: dict[str, Any]) -> Reply:
        system = body["messages"][0]["content"]
        if system.startswith(("You grade", "You answer questions")):
            return responder(body)
        plan = {"continue": False, "anchors": [], "target_restatement": "", "stop_reason": "enough"}
        return Reply.json(plan, usage=(30, 5))

    with ScriptedOpenAIServer(responder=with_planner) as server:
        settings = Settings(llm=server.llm_settings(), extractor="deterministic", planner="llm")
        result = run_locomo_bench(
            locomo_file, recipes=("ripple", "bm25"), store="memory", settings=settings,
            answering=_setup(server),
        ).to_json()
    assert result["planner"] == "LLMPlanner"
    assert result["ingest"]["llm_tokens"] == 0  # deterministic extractor: no build tokens
    assert result["recipes"]["ripple"]["answers"]["metrics"]["planner_tokens"] == 35
    assert result["recipes"]["bm25"]["answers"]["metrics"]["planner_tokens"] == 0

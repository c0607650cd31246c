"""Re-grading the kept answers of a run with another judge (a real client, a scripted server)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem_bench.answers.answering import Answerer
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.rejudge import rejudge
from ripplemem_bench.answers.setup import AnswerSetup
from ripplemem_bench.retrieval.runners import run_locomo_bench


def test_a_second_judge_grades_the_same_answers(locomo_file: Path) -> None:
    def first(body: dict) -> Reply:
        if body["messages"][0]["content"].startswith("You grade"):
            return Reply.json({"reasoning": "-", "label": "WRONG"})
        return Reply.json({"answer": "Porto", "citations": [1]})

    with ScriptedOpenAIServer(responder=first) as server:
        chat = OpenAICompatibleChat(server.llm_settings(), backoff_s=0.0)
        result = run_locomo_bench(
            locomo_file, recipes=("bm25",), store="memory", details=True,
            answering=AnswerSetup(Answerer(chat), Judge(chat), server.base_url),
        )
        answers = server.requests
    rows = result.recipes["bm25"].answers.per_question
    assert rows and all(row.question for row in rows)
    lenient = [Reply.json({"reasoning": "same", "label": "CORRECT"})] * len(rows)
    with ScriptedOpenAIServer(lenient, model="judge-2") as server:
        second = Judge(OpenAICompatibleChat(server.llm_settings()))
        regraded = rejudge(result, second)
        prompts = [b["messages"][-1]["content"] for b in server.requests]
    block = regraded.rejudged.systems["bm25"]
    assert regraded.rejudged.judge_model == "judge-2"
    assert block.j == 1.0 and block.agreement_with_first_judge == 0.0
    assert [v.first_verdict for v in block.per_question] == ["WRONG"] * len(rows)
    assert all(f"Question: {row.question}" in p for row, p in zip(rows, prompts))
    assert result.rejudged is None and len(answers) > len(rows)
    assert "rejudged" in regraded.to_json()
    for row in rows:
        row.question = ""
    with pytest.raises(InvalidInputError, match="no question text"):
        rejudge(result, second)

"""What a benchmark run needs to answer and judge: an answerer and a judge on an LLM endpoint."""

from __future__ import annotations

from dataclasses import dataclass

from ripplemem_bench.answers.answering import Answerer
from ripplemem_bench.answers.judge import Judge
from ripplemem_bench.answers.judge_prompt import JUDGE_PROMPT_VERSION


@dataclass(frozen=True, slots=True)
class AnswerSetup:
    """Answer generation and judging for a benchmark run (both need an LLM endpoint)."""

    answerer: Answerer
    judge: Judge
    base_url: str = ""

    def describe(self) -> dict:
        return {
            "answer_model": self.answerer.model,
            "judge_model": self.judge.model,
            "judge_prompt": JUDGE_PROMPT_VERSION,
            "base_url": self.base_url,
        }

"""The LLM judge: one verdict per answer, re-asked on malformed JSON, failures kept apart.

A reply that is not valid JSON (or lacks ``label``) is re-asked with the validation error up to
``max_repairs`` times (:func:`~ripplemem.providers.structured.complete_structured`). When no
attempt validates, or the endpoint stays unavailable after its retries (timeouts, 429, 5xx), the
verdict is ``FAILED``: it counts as not correct in J and is counted in ``judge_failures``.
A request the endpoint rejects outright (other 4xx: wrong model, bad key) stops the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ripplemem.errors import InvalidModelOutputError, ProviderUnavailableError
from ripplemem.providers import ChatModel, complete_structured
from ripplemem_bench.answers.judge_prompt import Verdict, judge_messages

Label = Literal["CORRECT", "WRONG", "FAILED"]


@dataclass(frozen=True, slots=True)
class Judgement:
    label: Label
    reasoning: str
    tokens: int
    attempts: int
    error: str | None = None

    @property
    def correct(self) -> bool:
        return self.label == "CORRECT"


class Judge:
    """Grades answers with ``chat`` at temperature 0."""

    def __init__(self, chat: ChatModel, *, max_repairs: int = 1) -> None:
        self.chat = chat
        self.model = chat.name
        self.max_repairs = max_repairs

    def judge(self, question: str, gold: str, answer: str, kind: str | None = None) -> Judgement:
        messages = judge_messages(question, gold, answer, kind)
        try:
            reply = complete_structured(
                self.chat, messages, Verdict, max_repairs=self.max_repairs, temperature=0.0
            )
        except InvalidModelOutputError as error:
            return Judgement("FAILED", "", 0, self.max_repairs + 1, f"malformed verdict: {error}")
        except ProviderUnavailableError as error:
            return Judgement("FAILED", "", 0, 0, f"judge unavailable: {error}")
        return Judgement(reply.value.label, reply.value.reasoning, reply.tokens, reply.attempts)

"""Answer generation for benchmarks: the library's answer prompt over one system's evidence.

The prompt is :func:`ripplemem.read.prompts.answering.answer_messages` (the one
``Memory.answer`` uses), so every recipe and every peer is answered the same way from its own
evidence. Tokens come from the endpoint's ``usage`` fields; ``context_tokens`` counts the
rendered evidence with :mod:`ripplemem_bench.tokens` (WordPiece), comparable across systems.
An endpoint still unavailable after its retries gives an empty answer with ``error`` set (it
scores 0); a request rejected outright (other 4xx) stops the run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ripplemem.errors import ProviderUnavailableError
from ripplemem.providers import ChatModel
from ripplemem.read.prompts.answering import answer_messages, render_evidence
from ripplemem.records import Evidence
from ripplemem_bench.tokens import count_tokens


@dataclass(frozen=True, slots=True)
class GeneratedAnswer:
    text: str
    prompt_tokens: int
    completion_tokens: int
    context_tokens: int
    seconds: float
    error: str | None = None


class Answerer:
    """Answers a question from evidence with ``chat`` at temperature 0."""

    def __init__(self, chat: ChatModel, *, max_tokens: int | None = 200) -> None:
        self.chat = chat
        self.model = chat.name
        self.max_tokens = max_tokens

    def answer(
        self, question: str, evidence: Sequence[Evidence], question_time: datetime | None
    ) -> GeneratedAnswer:
        context_tokens = count_tokens(render_evidence(evidence))
        messages = answer_messages(question, evidence, question_time)
        started = time.perf_counter()
        try:
            result = self.chat.complete(messages, temperature=0.0, max_tokens=self.max_tokens)
        except ProviderUnavailableError as error:
            return GeneratedAnswer(
                "", 0, 0, context_tokens, time.perf_counter() - started, f"answer unavailable: {error}"
            )
        return GeneratedAnswer(
            result.text.strip(),
            result.prompt_tokens,
            result.completion_tokens,
            context_tokens,
            time.perf_counter() - started,
        )

"""Answer generation for benchmarks: the library's answer call over one system's evidence.

The call is :func:`ripplemem.read.answering.compose_answer` (the one ``Memory.answer`` makes:
bounded JSON with ``[n]`` citations), so every recipe and every peer is answered the same way
from its own evidence. Tokens come from the endpoint's ``usage`` fields; ``context_tokens``
counts the rendered evidence with :mod:`ripplemem_bench.tokens` (WordPiece), comparable across
systems. An endpoint still unavailable after its retries, or a reply that never validates, gives
an empty answer with ``error`` set (it scores 0); a request rejected outright (other 4xx) stops
the run.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ripplemem.errors import InvalidModelOutputError, ProviderUnavailableError
from ripplemem.providers import ChatModel
from ripplemem.read.answering import compose_answer
from ripplemem.read.prompts.answering import render_evidence
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
    citations: tuple[int, ...] = ()  # [n] numbers of the evidence the answer cites

    @property
    def uncited(self) -> bool:
        return not self.citations


class Answerer:
    """Answers a question from evidence with ``chat`` at temperature 0."""

    def __init__(self, chat: ChatModel) -> None:
        self.chat = chat
        self.model = chat.name

    def answer(
        self, question: str, evidence: Sequence[Evidence], question_time: datetime | None
    ) -> GeneratedAnswer:
        context_tokens = count_tokens(render_evidence(evidence))
        started = time.perf_counter()
        try:
            composed = compose_answer(self.chat, question, evidence, question_time)
        except (ProviderUnavailableError, InvalidModelOutputError) as error:
            return GeneratedAnswer(
                "", 0, 0, context_tokens, time.perf_counter() - started,
                f"answer unavailable: {type(error).__name__}: {error}",
            )
        return GeneratedAnswer(
            composed.text,
            composed.prompt_tokens,
            composed.completion_tokens,
            context_tokens,
            time.perf_counter() - started,
            citations=composed.citations,
        )

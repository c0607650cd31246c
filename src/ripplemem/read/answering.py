"""Answering from evidence: one bounded, structured call whose answer cites its memories.

:func:`compose_answer` is what ``Memory.answer`` and the benchmark's answerer both run. The model
returns ``{"answer", "citations"}`` (:mod:`ripplemem.read.prompts.answering`); ``[n]`` markers
written into the answer text are taken as citations too and removed from the text. Numbers that
name no memory shown are dropped. A reply cut off at ``max_tokens`` is asked once more over the
first half of the evidence (:attr:`ComposedAnswer.shown` says how many memories the model saw).
A reply in plain prose instead of JSON (an endpoint without structured output) is kept as the
answer, its ``[n]`` markers as its citations: an answer without any is flagged uncited, not lost.
Broken JSON is not re-asked by default (``max_repairs=0``): a short answer costs less to ask
again than to repair.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from ripplemem.errors import InvalidModelOutputError, TruncatedOutputError
from ripplemem.providers.base import ChatModel
from ripplemem.providers.structured import MeteredChat, complete_structured
from ripplemem.read.prompts.answering import AnswerResponse, answer_messages
from ripplemem.records import Evidence

log = logging.getLogger(__name__)
_MARKER = re.compile(r"\s*\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]")


@dataclass(frozen=True, slots=True)
class ComposedAnswer:
    """The answer text, the cited memory numbers (1-based, into the evidence shown), the number
    of memories shown, and the tokens of every call made for it."""

    text: str
    citations: tuple[int, ...]
    shown: int
    prompt_tokens: int
    completion_tokens: int

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


def split_citations(text: str) -> tuple[str, tuple[int, ...]]:
    """``"Lisbon [2][4]"`` -> ``("Lisbon", (2, 4))``: inline markers out of the text."""
    numbers = [int(n) for group in _MARKER.findall(text) for n in group.split(",")]
    return " ".join(_MARKER.sub("", text).split()), tuple(numbers)


def compose_answer(
    chat: ChatModel,
    question: str,
    evidence: Sequence[Evidence],
    question_time: datetime | None,
    *,
    max_repairs: int = 0,
) -> ComposedAnswer:
    """Ask ``chat`` to answer ``question`` from ``evidence``, citing what it used."""
    metered = MeteredChat(chat)
    shown = list(evidence)

    def ask() -> AnswerResponse:
        try:
            return complete_structured(
                metered, answer_messages(question, shown, question_time), AnswerResponse,
                max_repairs=max_repairs,
            ).value
        except TruncatedOutputError:
            raise
        except InvalidModelOutputError as error:
            prose = error.raw.strip()
            if not prose or prose.startswith(("{", "[", "`")):
                raise
            return AnswerResponse(answer=prose)  # plain text: keep it, markers and all

    try:
        reply = ask()
    except TruncatedOutputError:
        log.warning("the answer was cut off at max_tokens; asking over half the evidence")
        shown = shown[: len(shown) // 2]
        reply = ask()
    text, inline = split_citations(reply.answer)
    cited = tuple(
        dict.fromkeys(n for n in (*reply.citations, *inline) if 1 <= n <= len(shown))
    )
    return ComposedAnswer(
        text=text, citations=cited, shown=len(shown),
        prompt_tokens=metered.prompt_tokens, completion_tokens=metered.completion_tokens,
    )

"""The LLM judge "J": our own prompt, written to the published criteria (reference §3).

Binary CORRECT / WRONG, generous about wording and date formats, temperature 0, JSON output.
LongMemEval question types get their official extra rule: temporal reasoning tolerates an
off-by-one count of days (weeks, months), knowledge updates accept the updated answer alongside
older information, preferences are graded against the rubric given as the gold answer, and
``_abs`` questions are correct only when the answer says it cannot be answered. Every report
names the judge model (``answering.judge_model`` in the result).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from ripplemem.providers import ChatMessage, MaxLength

JUDGE_PROMPT_VERSION = "j-v2"  # v2: reasoning required (before the label)

SYSTEM = (
    "You grade the answers of a memory assistant against a gold answer. Reply with one JSON "
    'object: {"reasoning": "<one short sentence>", "label": "CORRECT" or "WRONG"}. '
    "Nothing else."
)

GENERAL_RULES = (
    "Be generous. The answer is CORRECT when it refers to the same thing as the gold answer, even "
    "if it is worded differently, is longer, or adds detail that does not contradict the gold "
    "answer. For dates and times, the same date, month, year or period written another way "
    "('7 May 2023', '2023-05-07', 'May 7th', 'the Sunday before 14 May 2023') is CORRECT. The "
    "answer is WRONG when it names a different thing, person, place, number or date, when it "
    "misses the point of the gold answer, or when it says it does not know."
)

TYPE_RULES: dict[str, str] = {
    "temporal-reasoning": (
        "This is a temporal-reasoning question. A count of days, weeks or months that is off by "
        "one from the gold count (e.g. 18 or 20 days for a gold answer of 19 days) is CORRECT."
    ),
    "knowledge-update": (
        "The user's information changed over time and the gold answer is the updated one. The "
        "answer is CORRECT if it gives the updated answer, even if it also mentions older "
        "information; it is WRONG if it only gives outdated information."
    ),
    "single-session-preference": (
        "The gold answer is a rubric describing the response the user would prefer. The answer is "
        "CORRECT if it recalls and uses the user's personal information as the rubric asks; it "
        "need not cover every point of the rubric."
    ),
    "abstention": (
        "This question cannot be answered from the conversation (the gold answer says why). The "
        "answer is CORRECT only if it says it cannot answer, does not know, or that the "
        "information was never mentioned; any concrete answer to the question is WRONG."
    ),
}


class Verdict(BaseModel):
    """The judge's reply."""

    #: required, as the prompt asks: a grammar-constrained small model otherwise skips it and
    #: labels without comparing (the 1.5B called "4 years" WRONG against a gold "4 years")
    reasoning: Annotated[str, MaxLength(200)] = Field(description="one short sentence")
    label: Literal["CORRECT", "WRONG"]


def judge_kind(question_type: str | None, *, abstention: bool = False) -> str | None:
    """The rule set for a question: ``abstention`` first, then the LongMemEval type, else None."""
    if abstention:
        return "abstention"
    return question_type if question_type in TYPE_RULES else None


def judge_messages(question: str, gold: str, answer: str, kind: str | None = None) -> list[ChatMessage]:
    rules = GENERAL_RULES + ("\n" + TYPE_RULES[kind] if kind in TYPE_RULES else "")
    user = (
        f"{rules}\n\nQuestion: {question}\nGold answer: {gold}\nAnswer to grade: {answer}\n\n"
        'Reply with JSON only: {"reasoning": "...", "label": "CORRECT" or "WRONG"}'
    )
    return [ChatMessage("system", SYSTEM), ChatMessage("user", user)]

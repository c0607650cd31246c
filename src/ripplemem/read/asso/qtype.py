"""Question types for the AssoMem weights, and a deterministic classifier (no LLM).

The fused score weights its three signals per question type (reference §2). A small fixed set
covers both benchmarks:

``single-hop``        one fact from one place ("What is Caroline's job?")
``multi-hop``         facts combined across sessions: counts, totals, comparisons, conjunctions
``temporal``          the answer is or needs a date, an order or a duration ("when", "how many days")
``preference``        advice the user's own tastes should shape ("recommend", "any tips")
``knowledge-update``  the latest value of something that changed ("currently", "now", "latest")
``open-domain``       inference beyond what was said ("would ... likely", "might")

:func:`classify_question` applies ordered keyword rules; the first rule that fires wins, and
``single-hop`` is the fallback. :func:`benchmark_type` maps the labels of LoCoMo (categories 1–4)
and LongMemEval (``question_type``) onto the same set, so :func:`classifier_accuracy` can measure
the rules against them. LoCoMo's adversarial category 5 has no counterpart (``None``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

QUESTION_TYPES: tuple[str, ...] = (
    "single-hop",
    "multi-hop",
    "temporal",
    "preference",
    "knowledge-update",
    "open-domain",
)
FALLBACK_TYPE = "single-hop"

LOCOMO_CATEGORY_TYPES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
}
LONGMEMEVAL_TYPES: dict[str, str] = {
    "single-session-user": "single-hop",
    "single-session-assistant": "single-hop",
    "single-session-preference": "preference",
    "multi-session": "multi-hop",
    "temporal-reasoning": "temporal",
    "knowledge-update": "knowledge-update",
}


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b", re.IGNORECASE)


_MONTHS = (
    "january|february|march|april|june|july|august|september|october|november|december"
)
_PREFERENCE = _words(
    r"recommend\w*",
    r"suggest\w*",
    r"advice",
    r"tips?",
    r"ideas?",
    r"prefer\w*",
    r"what should i",
    r"should i",
    r"can you help me (?:find|choose|pick|plan|decide)",
    r"any (?:good )?(?:options|resources|thoughts)",
)
_UPDATE = _words(
    r"currently",
    r"current",
    r"now",
    r"latest",
    r"most recent(?:ly)?",
    r"still",
    r"anymore",
    r"these days",
    r"at the moment",
    r"up to date",
)
_TEMPORAL = _words(
    r"when",
    r"what (?:date|day|time|year|month|week)",
    r"which (?:date|day|year|month|week)",
    r"how (?:many|much) (?:days|weeks|months|years|hours|minutes|time)",
    r"how long",
    r"how old",
    r"ago",
    r"since",
    r"before",
    r"after",
    r"first",
    r"earlier",
    r"later",
    r"yesterday",
    r"last (?:week|month|year|weekend|night|time)",
    r"(?:this|next) (?:week|month|year|weekend)",
    r"in (?:the )?order",
    r"\d{4}",
    _MONTHS,
)
_OPEN_DOMAIN = _words(
    r"would \w+(?: \w+)? (?:likely|probably|be|have|want|enjoy|consider|prefer)",
    r"likely",
    r"probably",
    r"might",
    r"could \w+ be",
    r"is it possible",
    r"considered",
)
_MULTI_HOP = _words(
    r"how many",
    r"how much",
    r"in total",
    r"total",
    r"altogether",
    r"combined",
    r"both",
    r"all (?:the|of)",
    r"in common",
    r"compare\w*",
    r"difference",
    r"more than",
    r"each",
    r"list",
    r"what (?:are|were) (?:some|the) \w+",
)
# two capitalised names joined by "and" ("Caroline and Melanie"): facts about two people
_NAME_CONJUNCTION = re.compile(r"\b[A-Z][a-z]+ and [A-Z][a-z]+\b")

_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("preference", _PREFERENCE),
    ("knowledge-update", _UPDATE),
    ("temporal", _TEMPORAL),
    ("open-domain", _OPEN_DOMAIN),
    ("multi-hop", _MULTI_HOP),
    ("multi-hop", _NAME_CONJUNCTION),
)


def classify_question(text: str) -> str:
    """The question type of ``text`` by ordered keyword rules; deterministic, no model."""
    for qtype, pattern in _RULES:
        if pattern.search(text):
            return qtype
    return FALLBACK_TYPE


def benchmark_type(*, locomo_category: int | None = None, lme_type: str | None = None) -> str | None:
    """A benchmark's own label mapped to :data:`QUESTION_TYPES` (``None``: no counterpart)."""
    if locomo_category is not None:
        return LOCOMO_CATEGORY_TYPES.get(int(locomo_category))
    if lme_type is not None:
        return LONGMEMEVAL_TYPES.get(lme_type)
    return None


def classifier_accuracy(labelled: Iterable[tuple[str, str | None]]) -> dict[str, object]:
    """Accuracy of :func:`classify_question` on ``(question text, gold type)`` pairs.

    Pairs whose gold type is ``None`` are skipped. Returns overall accuracy, per-gold-type accuracy
    and the confusion counts ``{gold: {predicted: n}}``.
    """
    confusion: dict[str, Counter[str]] = {}
    for text, gold in labelled:
        if gold is None:
            continue
        confusion.setdefault(gold, Counter())[classify_question(text)] += 1
    total = sum(sum(row.values()) for row in confusion.values())
    correct = sum(row[gold] for gold, row in confusion.items())
    return {
        "questions": total,
        "accuracy": correct / total if total else 0.0,
        "by_type": {
            gold: {"questions": sum(row.values()), "accuracy": row[gold] / sum(row.values())}
            for gold, row in sorted(confusion.items())
        },
        "confusion": {gold: dict(row.most_common()) for gold, row in sorted(confusion.items())},
    }

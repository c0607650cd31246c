"""Answer quality (reference §3): token F1 and BLEU-1 of an answer against the gold one."""

from __future__ import annotations

import re

_F1_PUNCTUATION = str.maketrans({".": " ", ",": " ", "!": " ", "?": " "})
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def answer_tokens(text: str) -> list[str]:
    """Tokens for token F1: lower-cased, ``. , ! ?`` replaced by spaces, split on whitespace."""
    return str(text).lower().translate(_F1_PUNCTUATION).split()


def token_f1(prediction: str, reference: str) -> float:
    """Set-based token F1 as used by mem0 / A-MEM / SimpleMem (unique tokens, no stemming)."""
    predicted, gold = set(answer_tokens(prediction)), set(answer_tokens(reference))
    common = predicted & gold
    if not predicted or not gold or not common:
        return 0.0
    precision, recall = len(common) / len(predicted), len(common) / len(gold)
    return 2 * precision * recall / (precision + recall)


def nltk_words(text: str) -> list[str]:
    """NLTK word tokens of lower-cased ``text``, offline.

    ``nltk.word_tokenize`` splits sentences with the Punkt model (downloaded data, not shipped
    with nltk) and then runs ``NLTKWordTokenizer`` on each sentence. Here sentences are split after
    ``. ! ?`` followed by whitespace and each is given to the same ``NLTKWordTokenizer``; the two
    agree on single-sentence answers and differ only where Punkt would not split (abbreviations).
    """
    from nltk.tokenize import NLTKWordTokenizer

    tokenizer = NLTKWordTokenizer()
    return [
        token
        for sentence in _SENTENCE_END.split(str(text).lower().strip())
        if sentence
        for token in tokenizer.tokenize(sentence)
    ]


def bleu1(prediction: str, reference: str) -> float:
    """Sentence BLEU-1: NLTK word tokens, unigram weights, smoothing method 1."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    predicted, gold = nltk_words(prediction), nltk_words(reference)
    if not predicted or not gold:
        return 0.0
    return float(
        sentence_bleu(
            [gold], predicted, weights=(1, 0, 0, 0), smoothing_function=SmoothingFunction().method1
        )
    )

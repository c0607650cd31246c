"""The one tokeniser behind every lexical index and query: :func:`terms`.

Every backend indexes and queries with these terms, so stemming and stopwords are identical
everywhere. Steps: casefold, Unicode word tokens (digits and combining marks kept, so Devanagari,
Thai or decomposed accents stay whole words), clitics split off at the apostrophe (``Caroline's``
-> ``caroline``, ``don't`` -> ``do``), English stopwords and conversational fillers dropped, then
the Porter (1980) suffix stemmer on ASCII words. Chinese, Japanese and Korean (and Thai, Lao,
Myanmar, Khmer), written without spaces between words, are cut into overlapping character bigrams (``北京见了`` -> ``北京``,
``京见``, ``见了``; a lone character stays a term), as Lucene's CJK analyser does: a query's
bigrams meet a text's whatever its word boundaries. A Han character or a Hangul syllable is also
a term of its own (``北``, ``京``, ...: the unigrams of Lucene's ``outputUnigrams``): either
can be a word alone (猫 cat, 家 home, 집 house), which no bigram of the text it is said in
spells, so a question naming it would meet nothing. Kana, and the letters of Thai, Lao,
Myanmar and Khmer, spell sounds, not words: alone they are no term (a one-kana word is a
particle, が, は, の). Pure Python and deterministic; stems are cached because the same words
recur constantly.

The tokeniser is part of the stores' file format (a unit's terms are re-derived to delete it):
schema 8 of SQLite (``stores/sqlite/schema.py``) and 3 of PostgreSQL re-index the units whose
terms :func:`legacy_terms` (the tokeniser before bigrams and marks) gave differently, schema 12
of SQLite and 8 of PostgreSQL those whose terms :func:`bigram_terms` (bigrams only) gave
differently.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "STOPWORDS",
    "bigram_terms",
    "document_terms",
    "legacy_terms",
    "reindexed_by_scripts",
    "reindexed_by_unigrams",
    "stem",
    "terms",
]

_LEGACY_TOKEN = re.compile(r"[^\W_]+(?:'[^\W_]+)*")
#: :func:`_token_pattern` on an ASCII text: there a word character other than ``_`` is a letter
#: or digit and no combining mark occurs (the marks' class is twice as slow to try per character)
_ASCII_TOKEN = re.compile(r"[a-zA-Z0-9]+(?:'[a-zA-Z0-9]+)*")
# Han (with its extensions and compatibility ideographs), Hiragana, Katakana (and its halfwidth
# forms), Hangul syllables and jamo; Thai, Lao, Myanmar and Khmer: scripts written without spaces
# between words (Korean has spaces, but particles join the words: bigrams find 서울 in 서울에서)
_CJK_RANGES = (
    "\u0e00-\u0eff\u1000-\u109f\u1100-\u11ff\u1780-\u17ff\u3040-\u30ff\u3130-\u318f"
    "\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff"
    "\uf900-\ufaff\uff66-\uff9f\U00020000-\U0003134f"
)
_CJK = re.compile(f"[{_CJK_RANGES}]+")
# the characters of those scripts that can be a word alone, a term of their own: Han (with its
# extensions and compatibility ideographs) and Hangul syllables
_UNIGRAM_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\U00020000-\U0003134f"
_UNIGRAM = re.compile(f"[{_UNIGRAM_RANGES}]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "`": "'"})
# What follows an apostrophe in a contraction or possessive; the head word is kept.
_CLITICS = frozenset({"s", "ll", "re", "ve", "d", "m", "t"})
_IRREGULAR_NEGATIONS = {"ca": "can", "wo": "will", "ai": "is", "sha": "shall"}  # can't, won't...

_STOPWORD_TEXT = """
    a about above after again against ain all am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn
    doing don down during each either else ever every few for from further had hadn has hasn
    have haven having he her here hers herself him himself his how however i if in into is
    isn it its itself let me more most much must mustn my myself neither no nor not now of
    off on once only or other ought our ours ourselves out over own same shan she should
    shouldn since so some such than that the their theirs them themselves then there these
    they this those though through thus to too under until up upon us very was wasn we were
    weren what when where whether which while who whom whose why will with won would wouldn
    yet you your yours yourself yourselves also being within without among via per
    etc may might shall
    yeah yea yes yep yup nope nah hey hi hello wow oh ooh ah aw aww uh um umm hmm hm mm
    ok okay lol haha hahaha hehe lmao omg really just anyway anyways actually basically
    literally totally kinda sorta gonna wanna gotta btw tbh idk
"""
STOPWORDS: frozenset[str] = frozenset(_STOPWORD_TEXT.split())


def terms(text: str) -> list[str]:
    """Index / query terms of ``text``, in order, with repeats (BM25 counts them)."""
    return _terms(text, unigrams=True)


def bigram_terms(text: str) -> list[str]:
    """The terms of the tokeniser before Han and Hangul unigrams (what stores of SQLite schema
    8 to 11 and PostgreSQL 3 to 7 indexed; their migration re-derives a unit's old terms)."""
    return _terms(text, unigrams=False)


def _terms(text: str, *, unigrams: bool) -> list[str]:
    out: list[str] = []
    folded = text.translate(_APOSTROPHES).casefold()
    if folded.isascii():  # no CJK in any token; a word without an apostrophe read in line
        for token in _ASCII_TOKEN.findall(folded):
            if "'" in token:
                _add_word(token, out)
            elif token not in STOPWORDS:
                out.append(stem(token))
        return out
    for token in _token_pattern().findall(folded):
        if _CJK.search(token):
            _split_cjk(token, out, unigrams)
        else:
            _add_word(token, out)
    return out


def legacy_terms(text: str) -> list[str]:
    """The terms of the tokeniser before CJK bigrams and combining marks (what stores written
    before schema 8 indexed; their migration re-derives a unit's old terms to delete them)."""
    out: list[str] = []
    for token in _LEGACY_TOKEN.findall(text.translate(_APOSTROPHES).casefold()):
        _add_word(token, out)
    return out


def reindexed_by_scripts(text: str) -> bool:
    """Whether :func:`terms` and :func:`legacy_terms` may differ on ``text``: it holds CJK or a
    combining mark (the only characters the two read differently)."""
    return bool(_CJK.search(text) or _marks().search(text))


def reindexed_by_unigrams(text: str) -> bool:
    """Whether :func:`terms` and :func:`bigram_terms` may differ on ``text``: it holds a Han
    character or a Hangul syllable."""
    return bool(_UNIGRAM.search(text))


def _add_word(token: str, out: list[str]) -> None:
    if "'" in token:
        token = _strip_clitic(token)
        if not token:
            return
    if token in STOPWORDS:
        return
    out.append(stem(token))


def _split_cjk(token: str, out: list[str], unigrams: bool) -> None:
    """A token holding CJK: the runs of other letters are words, each CJK run its bigrams and,
    with ``unigrams``, each of its Han characters and Hangul syllables (each before the bigram
    it starts)."""
    position = 0
    for run in _CJK.finditer(token):
        if run.start() > position:
            _add_word(token[position : run.start()].strip("'"), out)
        chars = run.group()
        if len(chars) == 1:
            out.append(chars)
        elif unigrams and _UNIGRAM.search(chars):
            for i, char in enumerate(chars):
                if _UNIGRAM.match(char):
                    out.append(char)
                if i + 1 < len(chars):
                    out.append(chars[i : i + 2])
        else:
            out.extend(chars[i : i + 2] for i in range(len(chars) - 1))
        position = run.end()
    rest = token[position:]
    if rest and rest[0] == "'" and rest[1:] in _CLITICS:
        return  # 北京's: a possessive on the last run
    if rest:
        _add_word(rest.strip("'"), out)


@lru_cache(maxsize=1)
def _marks() -> re.Pattern[str]:
    """Every combining mark of the Basic Multilingual Plane (Unicode categories Mn, Mc, Me), as
    one character class; built on first use (~20 ms), never at import."""
    ranges: list[str] = []
    start = previous = -2
    for code in range(0x300, 0x10000):
        if unicodedata.category(chr(code))[0] != "M":
            continue
        if code != previous + 1:
            if start >= 0:
                ranges.append(_char_range(start, previous))
            start = code
        previous = code
    ranges.append(_char_range(start, previous))
    return re.compile(f"[{''.join(ranges)}]")


def _char_range(first: int, last: int) -> str:
    return f"\\u{first:04x}" if first == last else f"\\u{first:04x}-\\u{last:04x}"


@lru_cache(maxsize=1)
def _token_pattern() -> re.Pattern[str]:
    """A word: letters and digits with the combining marks that belong to them."""
    marks = _marks().pattern[1:-1]
    letter = f"(?:[^\\W_]|[{marks}])"
    return re.compile(f"{letter}+(?:'{letter}+)*")


def document_terms(restatement: str, keywords: Iterable[str] = ()) -> list[str]:
    """The terms a memory unit is indexed under: its restatement plus its keywords."""
    return terms(" ".join((restatement, *keywords)))


def _strip_clitic(token: str) -> str:
    head, _, tail = token.partition("'")
    if tail in _CLITICS:
        if tail == "t" and head.endswith("n"):  # don't -> do, can't -> can, won't -> will
            head = _IRREGULAR_NEGATIONS.get(head[:-1], head[:-1])
        return head
    return token.replace("'", "")  # o'neill -> oneill, rock'n'roll -> rocknroll


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter stem of a casefolded word; words with digits or non-ASCII letters stay as they are."""
    if len(word) <= 2 or not word.isascii() or not word.isalpha():
        return word
    word = _step1ab(word)
    word = _step1c(word)
    word = _replace_suffix(word, _STEP2, 0)
    word = _replace_suffix(word, _STEP3, 0)
    word = _step4(word)
    return _step5(word)


# --- Porter (1980) -------------------------------------------------------------------------


def _consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in "aeiou":
        return False
    if ch == "y":
        return i == 0 or not _consonant(word, i - 1)
    return True


def _measure(stem_: str) -> int:
    """m in [C](VC)^m[V]: the number of vowel-consonant transitions."""
    m = 0
    previous_vowel = False
    for i in range(len(stem_)):
        vowel = not _consonant(stem_, i)
        if previous_vowel and not vowel:
            m += 1
        previous_vowel = vowel
    return m


def _has_vowel(stem_: str) -> bool:
    return any(not _consonant(stem_, i) for i in range(len(stem_)))


def _double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    n = len(word)
    return (
        n >= 3
        and _consonant(word, n - 3)
        and not _consonant(word, n - 2)
        and _consonant(word, n - 1)
        and word[-1] not in "wxy"
    )


def _step1ab(word: str) -> str:
    if word.endswith(("sses", "ies")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if word.endswith("eed"):
        return word[:-1] if _measure(word[:-3]) > 0 else word
    for suffix in ("ed", "ing"):
        if word.endswith(suffix) and _has_vowel(word[: -len(suffix)]):
            word = word[: -len(suffix)]
            if word.endswith(("at", "bl", "iz")):
                return word + "e"
            if _double_consonant(word) and word[-1] not in "lsz":
                return word[:-1]
            if _measure(word) == 1 and _cvc(word):
                return word + "e"
            return word
    return word


def _step1c(word: str) -> str:
    if word.endswith("y") and _has_vowel(word[:-1]):
        return word[:-1] + "i"
    return word


def _rules(pairs: str) -> tuple[tuple[str, str], ...]:
    rules: list[tuple[str, str]] = []
    for pair in pairs.split():
        suffix, _, replacement = pair.partition("=")
        rules.append((suffix, replacement))
    return tuple(sorted(rules, key=lambda rule: -len(rule[0])))  # longest suffix first


_STEP2 = _rules(
    "ational=ate tional=tion enci=ence anci=ance izer=ize abli=able alli=al entli=ent eli=e "
    "ousli=ous ization=ize ation=ate ator=ate alism=al iveness=ive fulness=ful ousness=ous "
    "aliti=al iviti=ive biliti=ble"
)
_STEP3 = _rules("icate=ic ative= alize=al iciti=ic ical=ic ful= ness=")
_STEP4_TEXT = "al ance ence er ic able ible ant ement ment ent ion ou ism ate iti ous ive ize"
_STEP4 = tuple(sorted(_STEP4_TEXT.split(), key=len, reverse=True))


def _replace_suffix(word: str, rules: tuple[tuple[str, str], ...], min_measure: int) -> str:
    for suffix, replacement in rules:
        if word.endswith(suffix):
            stem_ = word[: -len(suffix)]
            return stem_ + replacement if _measure(stem_) > min_measure else word
    return word


def _step4(word: str) -> str:
    for suffix in _STEP4:
        if word.endswith(suffix):
            stem_ = word[: -len(suffix)]
            if _measure(stem_) <= 1:
                return word
            if suffix == "ion" and not stem_.endswith(("s", "t")):
                return word
            return stem_
    return word


def _step5(word: str) -> str:
    if word.endswith("e"):
        m = _measure(word[:-1])
        if m > 1 or (m == 1 and not _cvc(word[:-1])):
            word = word[:-1]
    if word.endswith("ll") and _measure(word) > 1:
        word = word[:-1]
    return word

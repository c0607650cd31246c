"""The holder's latest memory first, for a question in a language the statement reader cannot read.

The statement reader (:mod:`ripplemem.read.latest_first`) parses clauses with English grammar;
in another language it reads nothing, and a question about the present got its answers in the
ranking's order, the old value as often first as the new. What is left to read without a
grammar is what :mod:`ripplemem.read.supersession` reads of any memory: who said it, when, and
how alike two memories are.

:func:`latest_alike_first` reads the holder's memories among the first
:data:`~ripplemem.read.supersession.LEAD` (said by the person the question names, or naming them
when they are not a speaker; a speaker whose name the question holds inside its text, in a
script written without spaces). Those that hold a word of the question (names and closed-class
words aside), or an inflection of one ("wohnt" / "wohne", "abita" / "abito": two words that
differ in their last two letters at most and share three, once the inflections that are no
ending are set aside: the German and Dutch participle's "ge-", the German umlaut, the Dutch
doubled vowel, :func:`_meets`), or tell a change into the state the question asks about with its verb
(to move house for to live, to rename for to be called: :data:`CHANGE_OF_STATE`) as the
speaker's own (:data:`FIRST_PERSON`) and as what is so now, answer it, and go to the place of the holder's first memory: the
lexical view matches whole words, so "Mein Hund heißt Bello" came before "Ich wohne in Hamburg"
for "Wo wohnt Lena?". The memories of the holder that say a thing alike to the first answer (a
``supersedes`` edge, or each among the other's nearest and more alike than the memory's average
pair: the stage's ``alike``, read in a memory of three or more) answer the same question. Of
those answers, when they were said in different sessions, the one said last leads, unless every
clause of it says what is not so now: a denial, an epistemic adverb, a future or a past state of
its language, or a condition, which governs its whole sentence (:data:`DENIAL`, :data:`HEDGE`,
:data:`IMPERFECT`, :func:`~ripplemem.language.tense_in`, :data:`CONDITION`; a clause with the
language's word for now, :data:`NOW`, and none of those asserts), or a reply too short to tell a
state. The answers pass the memories between (of other things); nothing else moves, and when no
memory holds a word of the question nothing moves at all: small talk is not told from an answer
by its place. A question told in a past tense of its language, or naming a time, is left as
ranked (:func:`asks_in`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from os.path import commonprefix
from typing import Literal

import numpy as np

from ripplemem.language import MIN_WORDS, QUERY_STOPWORDS, UNSPACED, language_of, tense_in
from ripplemem.read.latest_first import NEAREST
from ripplemem.records import Cues, Evidence, MemoryUnit, normalise_cue, said_order

__all__ = [
    "CHANGE_OF_STATE",
    "CONDITION",
    "DENIAL",
    "EARLIER",
    "FIRST_PERSON",
    "HEDGE",
    "IMPERFECT",
    "NOT_NOW",
    "NOW",
    "asks_in",
    "latest_alike_first",
    "says_now",
    "sentence_says_now",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: each language's negations: a clause that holds one denies (a closed class, as the tense tables
#: of :mod:`ripplemem.language`)
DENIAL: dict[str, frozenset[str]] = {
    "de": _words("nicht kein keine keinen keinem keiner nie niemals"),
    "nl": _words("niet geen nooit"),
    "fr": _words("pas jamais ne n"),
    "es": _words("no nunca jamás tampoco"),
    "it": _words("non mai"),
    "pt": _words("não nunca jamais"),
    "sv": _words("inte aldrig"),
    "da": _words("ikke aldrig"),
    "nb": _words("ikke aldri"),
    "pl": _words("nie nigdy"),
}
#: each language's conjunctions of condition and its conditional auxiliaries: the sentence that
#: holds one (its main clause with it) says what would be so, not what is
CONDITION: dict[str, frozenset[str]] = {
    "de": _words("wenn falls würde würden wäre"),
    "nl": _words("als indien zou zouden"),
    "fr": _words("si"),
    "es": _words("si"),
    "it": _words("se"),
    "pt": _words("se"),
    "sv": _words("om"),
    "da": _words("hvis"),
    "nb": _words("hvis"),
    "pl": _words("jeśli"),
}
#: each language's epistemic adverbs ("maybe", "probably", "some day"): a clause that holds one
#: says what may be so, not what is ("Vielleicht wohne ich irgendwann in Hamburg"; a closed class,
#: some of its members of two words: "tal vez", "peut-être")
HEDGE: dict[str, tuple[str, ...]] = {
    "de": ("vielleicht", "eventuell", "möglicherweise", "wahrscheinlich", "vermutlich", "womöglich",
           "irgendwann", "eines tages"),
    "nl": ("misschien", "wellicht", "waarschijnlijk", "mogelijk", "mogelijkerwijs", "eventueel", "ooit",
           "op een dag"),
    "fr": ("peut-être", "probablement", "éventuellement", "sans doute", "un de ces jours"),
    "es": ("quizás", "quizá", "tal vez", "probablemente", "posiblemente", "a lo mejor", "algún día", "acaso"),
    "it": ("forse", "probabilmente", "magari", "possibilmente", "prima o poi"),
    "pt": ("talvez", "provavelmente", "possivelmente", "algum dia", "quem sabe"),
    "sv": ("kanske", "troligen", "förmodligen", "möjligen"),
    "da": ("måske", "sandsynligvis", "formentlig", "muligvis"),
    "nb": ("kanskje", "sannsynligvis", "antakelig", "muligens"),
    "pl": ("może", "chyba", "prawdopodobnie", "kiedyś"),
}
_HEDGE = {
    language: re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, words)) + r")(?!\w)", re.IGNORECASE)
    for language, words in HEDGE.items()
}
_HEDGE_MARKS = {
    "zh": ("也许", "或许", "可能", "大概", "说不定", "有一天"),
    "ja": ("たぶん", "多分", "かもしれ", "おそらく", "いつか"),
    "ko": ("아마 ", "아마도", "언젠가"),
}
#: each language's words that make a sentence say what is not so now: its negations and its
#: conjunctions of condition; the scripts written without spaces by marks read inside the text
NOT_NOW: dict[str, frozenset[str]] = {
    language: DENIAL[language] | CONDITION[language] for language in DENIAL
}
#: each language's adverbs of the present ("now", "nowadays", "by now"): a clause that holds one
#: and no mark of its own of what is not so now asserts a value of the present, whatever its
#: sentence's other clause denies or tells of the past ("Ich wohne nicht mehr in Bonn, jetzt wohne
#: ich in Trier"; a closed class). Not Spanish "ya", which is "no longer" beside "no"
NOW: dict[str, frozenset[str]] = {
    "de": _words("jetzt nun inzwischen mittlerweile derzeit momentan zurzeit"),
    "nl": _words("nu tegenwoordig inmiddels momenteel"),
    "fr": _words("maintenant désormais actuellement dorénavant"),
    "es": _words("ahora actualmente"),
    "it": _words("adesso ora ormai attualmente"),
    "pt": _words("agora atualmente"),
    "sv": _words("nu numera"),
    "da": _words("nu nutildags"),
    "nb": _words("nå nu"),
    "pl": _words("teraz obecnie"),
}
_NOW_MARKS = {"zh": ("现在", "如今", "目前"), "ja": ("今", "現在", "いま"), "ko": ("지금", "이제", "요즘")}
_DENIAL_MARKS = {
    "zh": ("不", "没", "別", "别"),
    "ja": ("ない", "ません", "なかった"),
    "ko": ("않", "안 ", "없"),
}
_CONDITION_MARKS = {
    "zh": ("如果", "要是"),
    "ja": ("もし", "たら"),
    # a conditional ending, not the syllable "면" alone (라면 ramen, 면접 an interview)
    "ko": ("만약", "다면", "으면", "하면 "),
}
#: each language's imperfect, the past of a state or a habit ("vivía", "morava", "abitavo", "ils
#: habitaient", "je fumais"): what was so then, not a change told (the perfect and the simple
#: past tell events: "me mudé", "sono andata"); by its endings and its copulas' forms (French
#: "-ais" and "-ait" only after a subject pronoun: "mais", "fait" are no verbs)
IMPERFECT: dict[str, re.Pattern[str]] = {
    "es": re.compile(r"\w{2,}(?:aba|abas|ábamos|abais|aban)|era|eras|éramos|eran|iba|iban|tenía|tenían|vivía|vivían"),
    # ("tava", "tavam": the spoken "estava")
    "pt": re.compile(r"\w{2,}(?:ava|avas|ávamos|avam)|t(?:ava|avas|ávamos|avam)|era|eras|éramos|eram|tinha|tinham|vivia|viviam"),
    "it": re.compile(r"\w{2,}(?:avo|avamo|avate|avano|evano|ivano)|ero|eri|era|eravamo|erano|avevo|aveva|avevano"),
    "fr": re.compile(r"\w{3,}aient|étais|était|étaient|avais|avait|avaient"),
}
_FRENCH_IMPERFECT = re.compile(r"\b(?:je|j'|tu|il|elle|on|c')\s*(?:\w+\s+)?\w{2,}(?:ais|ait)\b", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+")
#: the fewest characters of a sentence that tells a state in a script written without spaces
_SHORTEST = 4
_SENTENCE = re.compile(r"[^.!?。！？]+")
#: the clauses of a sentence, as its punctuation parts them
_CLAUSE = re.compile(r"[^,;:—–、，；：]+")
_SAID = re.compile(r"^[^:]{1,80}? (?:said|asked|wrote):\s*")
#: a unit that holds its speaker's question ("Jonas asked: ..."), which asserts nothing
_ASKED = re.compile(r"^[^:]{1,80}? asked:")


def _text(unit: MemoryUnit) -> str:
    return _SAID.sub("", unit.restatement, count=1)


def sentence_says_now(sentence: str, language: str) -> bool:
    """Whether ``sentence`` may say what is so now: it holds no condition of its language, and
    either none of its clauses holds a denial, a past state or a future, or one clause holds the
    language's word for now (:data:`NOW`) and none of those ("Ya no vivo en Soria, ahora vivo en
    Teruel")."""
    # a reply or an interjection ("¡Uf, sí!", "Oui, bien sûr") tells no state
    if not _tells_a_state(sentence, language) or _holds(sentence, language, CONDITION, _CONDITION_MARKS):
        return False
    if _clause_says_now(sentence, language):
        return True
    return any(
        _holds(clause, language, NOW, _NOW_MARKS) and _tells_a_state(clause, language) and _clause_says_now(clause, language)
        for clause in _CLAUSE.findall(sentence)
    )


def _tells_a_state(text: str, language: str) -> bool:
    """Whether ``text`` is long enough to tell a state: :data:`MIN_WORDS` words, or in a script
    written without spaces :data:`_SHORTEST` characters."""
    if language in UNSPACED:
        return len(text.strip()) >= _SHORTEST
    return len(_WORD.findall(text)) >= MIN_WORDS


def _holds(text: str, language: str, words: Mapping[str, frozenset[str]], marks: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether ``text`` holds one of ``language``'s ``words`` (or, in a script written without
    spaces, one of its ``marks`` anywhere in it)."""
    if language in marks:
        return any(mark in text for mark in marks[language])
    return not words.get(language, frozenset()).isdisjoint(w.lower() for w in _WORD.findall(text))


def _clause_says_now(clause: str, language: str) -> bool:
    """Whether ``clause`` holds no denial, epistemic adverb (:data:`HEDGE`), past state
    (:data:`IMPERFECT`) or future of its language."""
    if _holds(clause, language, DENIAL, _DENIAL_MARKS):
        return False
    hedge = _HEDGE_MARKS.get(language)
    if (any(mark in clause for mark in hedge) if hedge is not None
            else language in _HEDGE and _HEDGE[language].search(clause) is not None):
        return False
    imperfect = IMPERFECT.get(language)
    if imperfect is not None and any(imperfect.fullmatch(w.lower()) for w in _WORD.findall(clause)):
        return False
    if language == "fr" and _FRENCH_IMPERFECT.search(clause):
        return False
    return tense_in(clause, language) not in ("future", "mixed")


def says_now(unit: MemoryUnit, language: str) -> bool:
    """Whether some sentence of ``unit`` may say what is so now (:func:`sentence_says_now`)."""
    return any(sentence_says_now(s, language) for s in _SENTENCE.findall(_text(unit)) if s.strip())


def _speakers_named(lead: Sequence[Evidence], query: str, language: str) -> list[str]:
    """The speakers of ``lead`` whose name ``query`` holds: in a script written without spaces a
    name is read inside the text ("Wei现在住在哪里？", "Minji는 지금 어디에 살아요?"), where the
    question's cues find no word of it."""
    folded = normalise_cue(query)
    found: list[str] = []
    for speaker in dict.fromkeys(s for e in lead for s in e.unit.speakers):
        name = normalise_cue(speaker)
        if not name:
            continue
        if language in UNSPACED:
            # a name in Latin letters is written in katakana in Japanese ("ユキ" for "Yuki")
            held = name in folded or (language == "ja" and _unaccented(name) in _katakana_names(query))
        else:
            held = re.search(r"(?<!\w)" + re.escape(name) + r"(?!\w)", folded) is not None
        if held:
            found.append(speaker)
    return found


#: the katakana syllables in the Hepburn romanisation, by their rows (a small "ャ", "ュ", "ョ"
#: after an "-i" syllable joins it: "キャ" kya, "シュ" shu; a small "ッ" doubles the consonant
#: after it; the long-vowel mark "ー" is left out, as a name in Latin letters leaves it)
_KANA_ROWS = (
    ("アイウエオ", ("a", "i", "u", "e", "o")), ("カキクケコ", ("ka", "ki", "ku", "ke", "ko")),
    ("サシスセソ", ("sa", "shi", "su", "se", "so")), ("タチツテト", ("ta", "chi", "tsu", "te", "to")),
    ("ナニヌネノ", ("na", "ni", "nu", "ne", "no")), ("ハヒフヘホ", ("ha", "hi", "fu", "he", "ho")),
    ("マミムメモ", ("ma", "mi", "mu", "me", "mo")), ("ヤユヨ", ("ya", "yu", "yo")),
    ("ラリルレロ", ("ra", "ri", "ru", "re", "ro")), ("ワヲン", ("wa", "o", "n")),
    ("ガギグゲゴ", ("ga", "gi", "gu", "ge", "go")), ("ザジズゼゾ", ("za", "ji", "zu", "ze", "zo")),
    ("ダヂヅデド", ("da", "ji", "zu", "de", "do")), ("バビブベボ", ("ba", "bi", "bu", "be", "bo")),
    ("パピプペポ", ("pa", "pi", "pu", "pe", "po")), ("ャュョァィゥェォ", ("ya", "yu", "yo", "a", "i", "u", "e", "o")),
)
_KANA = {kana: sound for row, sounds in _KANA_ROWS for kana, sound in zip(row, sounds, strict=True)}
_KATAKANA_RUN = re.compile(r"[\u30a1-\u30fa\u30fc]+")


def _katakana_names(text: str) -> set[str]:
    """Each run of katakana in ``text`` in Latin letters (:data:`_KANA_ROWS`)."""
    names = set()
    for run in _KATAKANA_RUN.findall(text):
        sounds: list[str] = []
        double = False
        for kana in run:
            if kana == "ッ":
                double = True
                continue
            sound = _KANA.get(kana, "")
            if kana in "ャュョ" and sounds and sounds[-1].endswith("i"):
                stem = sounds.pop()[:-1]
                sound = stem + (sound[1:] if stem.endswith(("sh", "ch", "j")) else sound)
            if double and sound:
                sound = sound[0] + sound
            double = False
            sounds.append(sound)
        names.add("".join(sounds))
    return names


def _unaccented(name: str) -> str:
    """``name`` without its diacritics and spaces ("Yūki": "yuki")."""
    return "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c) and c.isalnum())


def _holder_of(lead: Sequence[Evidence], names: Sequence[str]) -> Callable[[MemoryUnit], bool] | None:
    """Whose memories answer: the first of ``names`` who said a unit of ``lead``, or, when none
    did, the units naming the first name."""
    folded = [normalise_cue(n) for n in names if n.strip()]
    if not folded:
        return None
    def spoken_by(name: str) -> Callable[[MemoryUnit], bool]:
        return lambda unit: name in {normalise_cue(s) for s in unit.speakers}

    for name in folded:
        if any(spoken_by(name)(e.unit) for e in lead):
            return spoken_by(name)
    pattern = re.compile(r"(?<!\w)" + re.escape(folded[0]) + r"(?!\w)", re.IGNORECASE)
    return lambda unit: pattern.search(_text(unit)) is not None


#: each language's adverbs of an earlier time than now ("before", "previously", "formerly"): a
#: question holding one asks for the value before the latest (a closed class)
EARLIER: dict[str, frozenset[str]] = {
    "de": _words("vorher früher davor zuvor ehemals"),
    "nl": _words("vroeger eerder daarvoor voorheen"),
    "fr": _words("avant auparavant autrefois"),
    "es": _words("antes antiguamente anteriormente"),
    "it": _words("prima precedentemente"),
    "pt": _words("antes antigamente anteriormente"),
}
_EARLIER_MARKS = {"zh": ("以前", "之前", "原来", "从前"), "ja": ("以前", "前に", "元々", "もともと", "昔")}


def asks_in(query: str, language: str, cues: Cues | None) -> Literal["present", "past", "earlier"]:
    """What a question in ``language`` asks about: the value before the latest (it holds a word
    of an earlier time: "¿Dónde trabajaba Ane antes?", :data:`EARLIER`), a past of its own (told
    in a past tense of its language, or naming a time other than by its word for now: "Wo hat
    Lena 2022 gearbeitet?") or the present."""
    marks = _EARLIER_MARKS.get(language)
    words = {w.lower() for w in _WORD.findall(query)}
    if (marks is not None and any(m in query for m in marks)) or EARLIER.get(language, frozenset()) & words:
        return "earlier"
    if tense_in(query, language) in ("past", "mixed"):
        return "past"
    # a time named, but the word for now ("Jana现在住在哪里？": its day is the question's)
    if cues is not None and cues.time_span is not None and not _holds(query, language, NOW, _NOW_MARKS):
        return "past"
    return "present"


def latest_alike_first(
    evidence: Sequence[Evidence],
    *,
    query: str,
    language: str,
    names: Sequence[str],
    lead: int,
    alike: Callable[[str, str], bool],
    earliest: bool = False,
) -> tuple[list[Evidence], set[str]]:
    """``evidence`` with the holder's latest alike answer at the first answer's place, and the
    ids moved (see the module doc); ``names``: the people the question names, first the one it
    asks about."""
    items = list(evidence)
    head = items[:lead]
    theirs = _holder_of(head, [*names, *_speakers_named(head, query, language)])
    if theirs is None:
        return items, set()
    said = [e for e in head if theirs(e.unit) and not _ASKED.match(e.unit.restatement)]
    asked = _content(query, language, names)
    answers = [e for e in said if _answers(query, asked, e.unit, language, names)]
    if not answers:  # no word of the question: nothing to tell the answers from small talk by
        return items, set()
    first = answers[0]
    # alike in the memory (the stage's test) and among the memories of the question's language
    within = _alike_in(head, language)
    group = [
        e for e in said
        if e is first or e in answers or (alike(first.unit.id, e.unit.id) and within(first.unit.id, e.unit.id))
    ]
    ordered = list(group)
    if len({e.unit.episode_id for e in group}) > 1:
        if earliest:  # "antes", "vorher": the value before the latest
            leads: Evidence | None = min(group, key=lambda e: said_order(e.unit))
        else:
            leads = max((e for e in group if says_now(e.unit, language)), key=lambda e: said_order(e.unit), default=None)
        if leads is not None:
            ordered.remove(leads)
            ordered.insert(0, leads)
    # the answers take the place of the holder's first memory: past what the holder said of
    # other things, which the lexical view put first for sharing no word but the name
    at = items.index(said[0])
    before = [e.unit.id for e in items]
    rest = [e for e in items if e not in ordered]
    items = rest[:at] + ordered + rest[at:]
    return items, {e.unit.id for i, e in enumerate(items) if before[i] != e.unit.id and e in ordered}


def _answers(query: str, asked: Sequence[str], unit: MemoryUnit, language: str, names: Sequence[str]) -> bool:
    """Whether ``unit`` answers the question: it holds a word of it or an inflection of one
    (:func:`_meets`), or tells a change into the state it asks about (:func:`_changes_into`) as
    what is so now (a move planned or wished for, "si on me prenait, je déménagerais à
    Bordeaux", tells no state)."""
    text = _text(unit)
    words = _content(text, language, names)
    return _meets(asked, words, language) or (
        _changes_into(query, asked, text, language) and says_now(unit, language)
    )


def _alike_in(head: Sequence[Evidence], language: str) -> Callable[[str, str], bool]:
    """Whether two units of ``head`` say alike things, among the units in ``language``: each among
    the other's :data:`NEAREST` nearest of them and more alike than their average pair (their
    vectors less the mean of theirs), read when three or more are in that language. The
    namespace's mean will not do: beside memories in English two memories in Spanish are
    alike for their language alone ("Vivo en Valencia" and "Mi hermano se mudó a Bilbao")."""
    units = [e.unit for e in head if e.unit.vector is not None and language_of(_text(e.unit)) == language]
    near: dict[str, set[str]] = {}
    if len(units) > 2:
        vectors = np.asarray([u.vector for u in units], dtype=np.float32)
        vectors -= vectors.mean(axis=0)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        cosines = vectors @ vectors.T
        np.fill_diagonal(cosines, -np.inf)
        for row, unit in enumerate(units):
            nearest = np.argsort(-cosines[row])[:NEAREST]
            near[unit.id] = {units[int(i)].id for i in nearest if cosines[row, int(i)] > 0}
    return lambda a, b: b in near.get(a, ()) and a in near.get(b, ())


def _content(text: str, language: str, names: Sequence[str]) -> list[str]:
    """The words of ``text`` that are no closed-class word of its language nor a name; in a
    script written without spaces, its characters' bigrams."""
    if language in UNSPACED:
        chars = [c for c in text if c.isalnum()]
        return ["".join(p) for p in pairwise(chars)]
    closed = QUERY_STOPWORDS.get(language, frozenset()) | NOT_NOW.get(language, frozenset()) | NOW.get(language, frozenset())
    folded = {normalise_cue(n) for n in names}
    return [w for w in (w.lower() for w in _WORD.findall(text)) if w not in closed and w not in folded]


def _pairs(*pairs: tuple[str, str]) -> tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]:
    return tuple((re.compile(state), re.compile(change)) for state, change in pairs)


#: each language's verbs of two states a memory is asked about (to live somewhere, to be called
#: something), each with its verbs of the change into it (to move house, to rename), as patterns
#: of a word's forms (:func:`_stems`): a question asked with the state's verb is answered by a
#: memory told with the change's ("Où habite Claire ?": "On a déménagé à Nantes"). A closed table
#: of two rows per language, no list of phrases: other states and their changes are read by the
#: words the question and the memory share alone. Not to work: the verbs of a change of job (to
#: hire, to fire, to quit, to start) are said of others and of other things as often ("a startup
#: demitiu metade do pessoal" answered "Onde o Lucas trabalha?")
CHANGE_OF_STATE: dict[str, tuple[tuple[re.Pattern[str], re.Pattern[str]], ...]] = {
    "de": _pairs((r"wohn\w*|leb(?:e|st|t|en|te|ten)|lebt", r"(?:um|aus|ein|weg|zurück)?(?:zieh|zog)\w*|umzug\w*"),
                 (r"hei(?:ß|ss)\w*|nenn\w*", r"umbenann\w*|umbenenn\w*|umtauf\w*|umgetauft")),
    "nl": _pairs((r"w(?:o|oo)n(?:t|en|de|den|d)?", r"verhuis\w*|verhuiz\w*"),
                 (r"heet|heten|heette|noem\w*", r"hernoem\w*|omgedoopt|omdop\w*")),
    "fr": _pairs((r"habit\w*|vi[st]|viv\w+|vécu", r"déménag\w*|emménag\w*|install\w*"),
                 (r"appel\w*|appell\w*", r"renomm\w*|rebaptis\w*")),
    "es": _pairs((r"viv\w*|resid\w*", r"mud\w*|traslad\w*"),
                 (r"llam\w*", r"renombr\w*|rebautiz\w*")),
    "it": _pairs((r"abit\w*|viv\w*", r"trasfer\w*|trasloc\w*|trasloch\w*"),
                 (r"chiam\w*", r"rinomin\w*|ribattezz\w*")),
    "pt": _pairs((r"mor(?:o|a|as|amos|am|ar|ei|ou|ava|avam|ando|ado)|viv\w*|resid\w*", r"mud\w*"),
                 (r"cham\w*", r"renome\w*|rebatiz\w*")),
}
#: the same in the scripts written without spaces, as marks read inside the text
_CHANGE_OF_STATE_MARKS: dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]] = {
    "zh": ((("住",), ("搬",)), (("叫",), ("改名",))),
    "ja": ((("住",), ("引っ越", "引越", "転居")), (("名前", "呼"), ("改名",))),
    "ko": ((("살아", "살고", "사는", "삽니"), ("이사",)), (("이름",), ("개명",))),
}


#: each language's pronouns of the first person as a subject, a reflexive or an object (not its
#: possessives: "Mi hermano se mudó a Bilbao" is the brother's move): a change told with one in
#: its clause is the speaker's own ("Nos mudamos a Bilbao", "Wir sind nach Köln gezogen"); a
#: closed class. Chinese by its "我" (a script without spaces: "我哥哥搬到北京了" is not told apart);
#: Japanese and Korean leave the speaker unsaid and are not read for it
FIRST_PERSON: dict[str, frozenset[str]] = {
    "de": _words("ich wir mich uns"),
    "nl": _words("ik we wij mij me ons"),
    "fr": _words("je j on nous me m"),
    "es": _words("yo me nos nosotros nosotras"),
    "it": _words("io mi noi ci"),
    "pt": _words("eu me nós nos"),
}
_FIRST_PERSON_MARKS = {"zh": ("我",)}


def _changes_into(query: str, asked: Sequence[str], text: str, language: str) -> bool:
    """Whether ``text`` tells the speaker's own change (a clause with a pronoun of the first
    person: :data:`FIRST_PERSON`) into a state the question (``query``, its content ``asked``)
    asks about with the state's verb (:data:`CHANGE_OF_STATE`)."""
    marks = _CHANGE_OF_STATE_MARKS.get(language)
    clauses = [c for sentence in _SENTENCE.findall(text) for c in _CLAUSE.findall(sentence)]
    if marks is not None:
        own = _FIRST_PERSON_MARKS.get(language)
        return any(
            any(m in query for m in state) and any(
                any(m in clause for m in change) and (own is None or any(m in clause for m in own))
                for clause in clauses
            )
            for state, change in marks
        )
    pairs = CHANGE_OF_STATE.get(language, ())
    asked_forms = {form for a in set(asked) for form in _stems(a, language)}
    first_person = FIRST_PERSON.get(language, frozenset())
    for clause in clauses:
        words = [w.lower() for w in _WORD.findall(clause)]
        if first_person.isdisjoint(words):
            continue
        said_forms = {form for w in words for form in _stems(w, language)}
        if any(
            any(state.fullmatch(a) for a in asked_forms) and any(change.fullmatch(w) for w in said_forms)
            for state, change in pairs
        ):
            return True
    return False


def _meets(asked: Sequence[str], words: Sequence[str], language: str) -> bool:
    """Whether a word of ``words`` is one of ``asked`` or an inflection of one: the two, or their
    forms without an inflection that is no ending (:func:`_stems`), differ only in their last two
    letters at most, and share three ("abita" / "abito", "arbeitet" / "Arbeit", "wohnt" / "wohne",
    "gewohnt" / "wohne", "woont" / "wonen")."""
    said = set(words)
    if said.intersection(asked):
        return True
    said_stems = {stem for w in said for stem in _stems(w, language)}
    for a in set(asked):  # each word once: a long question may repeat its words
        for stem in _stems(a, language):
            for w in said_stems:
                shorter = min(len(stem), len(w))
                common = len(commonprefix([stem, w]))
                if stem == w or (common >= 3 and common >= shorter - 2 and abs(len(stem) - len(w)) <= 2):
                    return True
    return False


#: the separable particles a German or Dutch participle's "ge-" may follow ("angerufen", "opgebeld")
_PARTICIPLE = {
    "de": re.compile(r"(ab|an|auf|aus|bei|ein|mit|nach|vor|weg|zurück|um|her|hin)?ge(\w{4,})"),
    "nl": re.compile(r"(af|aan|op|uit|in|mee|na|terug|weg|toe|om)?ge(\w{4,})"),
}
_UMLAUT = str.maketrans("äöü", "aou")
_DOUBLED_VOWEL = re.compile(r"([aeou])\1")


def _stems(word: str, language: str) -> set[str]:
    """``word`` and its forms without the inflections of its language that are no ending: the
    "ge-" of a German or Dutch participle ("gewohnt": "wohnt"; "umgezogen": "umzogen"), the
    umlaut of a German stem ("fährt": "fahrt"), the doubled vowel of a Dutch closed syllable
    ("woont": "wont", as "wonen")."""
    forms = {word}
    participle = _PARTICIPLE.get(language)
    if participle is not None and (found := participle.fullmatch(word)):
        forms.add((found.group(1) or "") + found.group(2))
    if language == "de":
        forms |= {form.translate(_UMLAUT) for form in forms}
    elif language == "nl":
        forms |= {_DOUBLED_VOWEL.sub(r"\1", form) for form in forms}
    return forms

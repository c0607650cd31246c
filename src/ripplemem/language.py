"""Which language a sentence is in: by its script, a character n-gram model, or its function words.

The deterministic restatement rewrites English references: "I", "me", "my" become the speaker
(:mod:`ripplemem.write.restate`), "she", "her", "he" a person named before
(:mod:`ripplemem.write.pronouns`). Other languages written in the Latin alphabet share some of
those spellings with other meanings: French and Spanish "me" (*je me suis installée*, *me mudé*),
Danish and Norwegian "her" (here), Polish "my" (we). Rewriting them puts words in a memory that
nobody said ("Je Élodie suis installée à Lyon"). The time grounder reads a sentence's time
expressions in its own language ("letzte Woche", "hier", "昨天": :mod:`ripplemem.grounding.ground_time`).

A sentence in the Latin alphabet is read as another language by a character n-gram model
(py3langid's naive Bayes over byte n-grams, shipped with its weights, restricted to English and
the languages below): when it holds at least :data:`MIN_WORDS` words and the model gives another
language a probability of at least :data:`CONFIDENCE` (a sentence with :data:`ENGLISH_PLAIN`
English function words and none of another language's is plainly English: the model is not
asked, and it reads a long text's first :data:`MODEL_CHARS` characters). N-grams see what a word list cannot:
"Ontem à noite choveu" is Portuguese by its endings and accents though it holds no function word
of a list, and French is no Spanish for sharing "de", "la" and "que". A shorter sentence, or one
the model is not sure of, is another language only when its function words say so: at least
:data:`EVIDENCE` words of the closed classes (articles, pronouns, auxiliaries, conjunctions,
prepositions) of French, Spanish, Italian, Portuguese, German, Dutch, Danish, Norwegian, Swedish
or Polish that are no English word, and more of them than of English function words. A sentence
with one such word, or none, stays English: a name ("Café del Mar"), a greeting ("Merci!", "See
ya later!") or a foreign phrase among English words changes nothing. A sentence mostly in another
script is in that script's language (:func:`language_of`: Chinese, Japanese by its kana, Korean,
Russian or Ukrainian by its letters, Greek, Arabic, Hebrew, Hindi, Thai); it has no English
reference to rewrite.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

__all__ = [
    "ANY_EVENT",
    "ANY_EVENT_MARKS",
    "CONFIDENCE",
    "ENGLISH_PLAIN",
    "EVIDENCE",
    "FUNCTION_WORDS",
    "MIN_WORDS",
    "MODEL_CHARS",
    "QUERY_STOPWORDS",
    "english_words",
    "habitual_in",
    "in_other_language",
    "language_of",
    "own_clause_in",
    "question_language",
    "searched_words",
    "since_in",
    "span_prepositions",
    "tense_in",
    "unit_grain",
    "year_after",
]


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: function words of each language that are no English word (not "die", "den", "son", "con",
#: "per", "also", "was", "will", "war", "bin", "ton", "an", "in", "so", "man", "non", "er", "ale";
#: nor names: "Ben", "Mia"), by ISO 639-1 code
FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "fr": _words(
        """je tu il elle nous vous ils elles suis est sont était les une du aux et mais pas très
        avec pour dans ce cette qui où mes ses leur leurs sommes êtes avons"""
    ),
    "es": _words(
        """él ella nosotros soy estoy eres está están estaba el los las una unos unas y pero muy
        para por en del mi mis tus su sus qué porque también cuando donde nos fue fui este esta
        le les"""
    ),
    "it": _words(
        """io sono sei siamo gli della delle degli che anche perché mio miei sua suo mia il una nel
        nella alla abbiamo è"""
    ),
    "pt": _words("sou não com uma uns meu minha você estou"),
    "de": _words(
        """ich du sie wir ihr bist ist sind waren der das dem des ein eine einen und
        aber nicht mit für auf mein meine dein sein seine ihre auch noch schon sehr habe hast
        nach von zu bei aus dass oder wenn weil zum zur vom"""
    ),
    "nl": _words("ik het een niet mijn zijn maar ook wij jij hij zij heb"),
    "da": _words("jeg ikke og det hun han på af mig dig med nu"),
    "nb": _words("jeg ikke og det hun han på av meg deg med nu"),
    "sv": _words("jag inte och det är hon han på av mig dig att med nu"),
    "pl": _words(
        """się nie jest że jestem jesteśmy mam mój moja moje bardzo tylko przez dla już też jak tak
        czy nam nas"""
    ),
}
_OTHER = frozenset().union(*FUNCTION_WORDS.values())
#: the words of each language's closed classes a search looks past, as the lexical index looks
#: past English "my", "the", "in" (:func:`searched_words`): its function words above, and those
#: spelt like an English word, which a text already read as that language cannot mean
#: (articles, possessive determiners, personal pronouns, auxiliaries, prepositions, conjunctions)
QUERY_STOPWORDS: dict[str, frozenset[str]] = {
    language: words | _words(extra)
    for language, words, extra in (
        ("fr", FUNCTION_WORDS["fr"], """le la l un de des à au en sur son sa ton ta mon ma nos
            vos notre votre ne on y se me te lui ai as a ont es que quel quelle quels quelles"""),
        ("es", FUNCTION_WORDS["es"], """la lo un de a con al tu se me te es son era ha he han
            hay que yo tú mí sin sobre nuestro nuestra vuestro"""),
        ("it", FUNCTION_WORDS["it"], """la le lo i un uno di da in con su per tra fra al del ma
            e o mi ti si ci vi tu lui lei noi voi loro mia tuo tua ho hai ha hanno non"""),
        ("pt", FUNCTION_WORDS["pt"], """o a os as um de do da dos das em no na nos nas por para
            e ou mas que se me te eu tu ele ela nós vós eles elas seu sua meus minhas é são"""),
        ("de", FUNCTION_WORDS["de"], """die den er es an in im am um so also was war bin hat
            haben mich mir dich dir uns euch meinen meinem meiner deine ihr ihrem ihren"""),
        ("nl", FUNCTION_WORDS["nl"], """de en in op te van met voor aan is was we je ze mij me
            haar ons jullie dat die dit deze of om"""),
    )
}


def searched_words(text: str, language: str) -> str:
    """``text`` without the closed-class words of ``language`` (:data:`QUERY_STOPWORDS`; an
    English text, or one in a language without a list, as it is): what a lexical search of it
    looks for. In a small memory "meine" of "Wie heißt meine Katze?" weighs as much as "Katze",
    and "Meine Schwester wohnt in Hamburg" came first."""
    words = QUERY_STOPWORDS.get(language)
    if not words:
        return text
    return _LETTERS.sub(lambda m: " " if m.group().casefold() in words else m.group(), text)


_LETTERS = re.compile(r"[^\W\d_]+")

#: English function words (the lexical index's stopwords that no language above spells the same
#: way but "i" and "at", Scandinavian words too)
_ENGLISH = _words(
    """
    the and is are was were to of my i you it that this for with have has had be been not but
    we he she they will would can could just what how at our your his her them their
    there which who because from about or if when
    """
)
#: foreign function words a sentence must hold to be read as another language by them
EVIDENCE = 2
#: the words a sentence must hold for the n-gram model to read its language ("See ya later!",
#: "Vipassana Meditation": too little text to tell)
MIN_WORDS = 3
#: the languages written without spaces between words: their closed classes are marks read
#: inside the text, not words
UNSPACED = frozenset({"zh", "ja", "ko"})
#: the probability the n-gram model must give another language than English
CONFIDENCE = 0.9
#: English function words that make a sentence plainly English when it holds no other
#: language's (the model is not asked)
ENGLISH_PLAIN = 3
#: the characters of a text the model reads: its language shows in its first sentences
MODEL_CHARS = 600
_WORD = re.compile(r"[^\W\d_]+")
#: the model's codes of the languages it chooses among ("no" is its Norwegian, Bokmål here)
_MODEL_CODES = {"en": "en", "no": "nb", **{code: code for code in FUNCTION_WORDS if code != "nb"}}
_model: list[Any] = []
_model_lock = threading.Lock()


def _identifier() -> Any:
    """py3langid's identifier over English and :data:`FUNCTION_WORDS`' languages, loaded once
    (about 0.4 s: its weights are compressed in the package)."""
    if not _model:
        with _model_lock:
            if not _model:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier

                identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
                identifier.set_languages(sorted(_MODEL_CODES))
                _model.append(identifier)
    return _model[0]


def english_words(text: str) -> int:
    """How many English function words ``text`` holds (:data:`_ENGLISH`)."""
    return sum(m.group().lower() in _ENGLISH for m in _WORD.finditer(text))


def in_other_language(text: str) -> bool:
    """Whether ``text`` reads as a language other than English in the Latin alphabet (the model
    or its function words: see the module doc)."""
    if text.isascii() and " " not in text:
        return False
    return _latin_language(text) != "en"


def _latin_language(text: str) -> str:
    """The language of the Latin alphabet ``text`` is in by the n-gram model or by its function
    words, "en" when neither says another one (see the module doc)."""
    words = [m.group().lower() for m in _WORD.finditer(text)]
    english = sum(word in _ENGLISH for word in words)
    foreign = [word for word in words if word in _OTHER]
    if english >= ENGLISH_PLAIN and not foreign:
        return "en"  # plainly English: its function words, none of another language's
    if len(words) >= MIN_WORDS:
        code, probability = _identifier().classify(text[:MODEL_CHARS])
        if code != "en" and probability >= CONFIDENCE:
            return _MODEL_CODES[code]
    if len(foreign) >= EVIDENCE and len(foreign) > english:  # the function words say another
        return max(FUNCTION_WORDS, key=lambda code: sum(word in FUNCTION_WORDS[code] for word in foreign))
    return "en"


#: the words of each language that ask for any event: its interrogatives "what" and "when",
#: the pro-verbs "do" and "happen" in the forms a question takes them ("Was habe ich im März
#: gemacht?", "Qu'est-ce que j'ai fait ...", "¿Qué hice ...?", "Cosa ho fatto ...", "O que eu fiz
#: ...", "Wat heb ik ... gedaan?"): a question of nothing else asks for what happened at its time
#: (a closed class, as English "do" is a stopword of the index)
ANY_EVENT: dict[str, frozenset[str]] = {
    "de": _words("was wann tun getan tat machen mache machst macht gemacht passiert passierte geschehen los"),
    "fr": _words("qu que quoi quand ce est faire fait fais faisais passé passe passée arrivé"),
    "es": _words("qué que cuándo hacer hice hiciste hizo hicimos hecho hago hace pasó pasado ocurrió"),
    "it": _words("cosa che quando fare fatto fatta faccio fa feci successo accaduto"),
    "pt": _words("que quando fazer fiz fez fizemos feito faço faz aconteceu acontecido"),
    "nl": _words("wat wanneer doen doe deed deden gedaan gebeurd gebeurde"),
}
#: the same in the scripts written without spaces, as characters: "what", "do" and "happen", the
#: pronouns and the particles of a question ("3月3日我做了什么？", "3月3日に何をしましたか？"; kana
#: are read as no word)
ANY_EVENT_MARKS: dict[str, str] = {"zh": "什么甚么做干了过吗呢我你他她们的事情发生", "ja": "何事私僕俺"}


@lru_cache(maxsize=1024)  # a search reads its question's language in several stages
def question_language(text: str) -> str:
    """The language of a question: :func:`language_of`, but a question of :data:`MIN_WORDS` words or
    more that holds no English function word is in the language the n-gram model finds most
    likely, however sure it is ("Wo wohnt Lena?": German at 0.47). A question is short, and
    unlike a memory it has no name or greeting to keep English: a user asks in their language."""
    found = language_of(text)
    if found == "en" and (written := _without_spaces(text)) is not None:
        return written
    if found != "en" or not text.strip() or english_words(text) or not _in_latin(text):
        return found
    words = [m.group().lower() for m in _WORD.finditer(text)]
    if len(words) < MIN_WORDS or any(word in _QUESTION_ENGLISH for word in words):
        return found
    code, _ = _identifier().classify(text[:MODEL_CHARS])
    return _MODEL_CODES[code]


def _without_spaces(text: str) -> str | None:
    """The language of a script written without spaces that most of ``text``'s words are in, a
    character of it counted as a word ("Jana住在哪里？": four words of Chinese, one name in
    Latin letters; its letters alone, four and four, made it English), or None."""
    counts: dict[str, int] = {}
    for char in text:
        script = _script_of(char)
        if script in ("kana", "zh", "ko"):
            counts[script] = counts.get(script, 0) + 1
    if not counts:
        return None
    others = "".join(" " if _script_of(char) in ("kana", "zh", "ko") else char for char in text)
    if sum(counts.values()) <= len(_WORD.findall(others)):
        return None
    return "ja" if counts.get("kana") else max(counts, key=lambda name: counts[name])


def _in_latin(text: str) -> bool:
    """Whether most of ``text``'s letters are no letter of another script (:data:`_SCRIPTS`)."""
    letters = [c for c in text if c.isalpha()]
    return sum(_script_of(c) is None for c in letters) * 2 > len(letters)


#: the English question words and auxiliaries a question opens with, which the function words
#: of :data:`_ENGLISH` leave out
_QUESTION_ENGLISH = _words("where does do did whom whose why which what who how when is are was were has have had")


#: the scripts whose letters name their language, as ranges of code points (Han alone is Chinese;
#: with kana, Japanese; Cyrillic with the letters only Ukrainian has, Ukrainian)
_SCRIPTS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("kana", ((0x3040, 0x30FF), (0x31F0, 0x31FF))),
    ("zh", ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))),
    ("ko", ((0xAC00, 0xD7AF), (0x1100, 0x11FF), (0x3130, 0x318F))),
    ("ru", ((0x0400, 0x04FF),)),
    ("el", ((0x0370, 0x03FF), (0x1F00, 0x1FFF))),
    ("ar", ((0x0600, 0x06FF), (0x0750, 0x077F))),
    ("he", ((0x0590, 0x05FF),)),
    ("hi", ((0x0900, 0x097F),)),
    ("th", ((0x0E00, 0x0E7F),)),
)
_UKRAINIAN = frozenset("іїєґІЇЄҐ")
_SCRIPTS_START = min(low for _, ranges in _SCRIPTS for low, _ in ranges)


def _script_of(char: str) -> str | None:
    point = ord(char)
    if point < _SCRIPTS_START:  # Latin, and every character before the first script's
        return None
    for name, ranges in _SCRIPTS:
        if any(low <= point <= high for low, high in ranges):
            return name
    return None


@lru_cache(maxsize=8192)  # a text is read by several stages (a question, a unit's clauses)
def language_of(text: str) -> str:
    """The ISO 639-1 code of ``text``'s language: "en" unless most of its letters are of another
    script (that script's language) or the n-gram model or its function words say another
    language of the Latin alphabet (see the module doc)."""
    letters = [] if text.isascii() else [c for c in text if c.isalpha()]
    if letters:
        counts: dict[str, int] = {}
        for char in letters:
            script = _script_of(char)
            if script is not None:
                counts[script] = counts.get(script, 0) + 1
        if sum(counts.values()) * 2 > len(letters):
            if counts.get("kana"):
                return "ja"
            script = max(counts, key=lambda name: counts[name])
            if script == "ru" and any(c in _UKRAINIAN for c in text):
                return "uk"
            return script
    return _latin_language(text)


# -- tense ---------------------------------------------------------------------------------------

#: each language's past told by its closed classes: the past of its copula and auxiliaries, its
#: modal verbs and its common irregular verbs (their simple past is no regular ending: "ging",
#: "fiz", "kwam"), and its word for yesterday (as "tomorrow" tells a future: :data:`_FUTURE`)
_PAST = {
    "de": _words(
        """war waren warst wart hatte hatten hattest hattet wurde wurden gestern musste mussten
        konnte konnten wollte wollten sollte sollten durfte durften mochte ging gingen kam kamen
        fuhr fuhren flog flogen sah sahen traf trafen gab gaben nahm nahmen blieb blieben lief
        fand saß stand sprach schrieb rief fiel hielt wusste dachte brachte kannte begann begannen"""
    ),
    "nl": _words(
        """was waren had hadden werd werden gisteren moest moesten kon konden wilde wilden mocht
        ging gingen kwam kwamen zag zagen deed deden zei zeiden vond kocht kochten liep vloog
        reed bleef gaf nam kreeg sprak schreef begon begonnen"""
    ),
    "fr": _words("était étais étaient étions étiez avait avais avaient avions aviez fut furent fus hier"),
    "es": _words(
        """fue fui fuiste fuimos fueron era eras éramos eran estaba estabas estábamos estaban
        estuve estuvo estuvimos estuvieron había habías habíamos habían tuve tuvo hice hizo ayer
        dije dijo vi vio di dio pude pudo puse puso quise quiso vine vino supe supo traje trajo"""
    ),
    "it": _words("ero eri era eravamo eravate erano fui fu fummo furono avevo avevi aveva avevamo avevano ieri"),
    "pt": _words(
        """foi fui fomos foram era eras éramos eram estava estavas estávamos estavam tinha tinham
        ontem fiz fez fizemos fizeram tive teve tivemos tiveram estive esteve estivemos estiveram
        disse disseram vi viu vimos viram vim veio vieram dei deu deram pude pôde quis soube pus
        pôs trouxe"""
    ),
    "sv": _words("var hade igår"),
    "da": _words("var havde igår"),
    "nb": _words("var hadde igår"),
    "pl": _words("był była było byli były byłem byłam byłeś byłaś byliśmy byłyśmy wczoraj"),
    "ru": _words("был была было были вчера"),
    "uk": _words("був була було були вчора"),
}
#: a compound past: one of the auxiliaries with a past participle in the same clause ("ich bin
#: ... gezogen", "je suis allée", "sono andato", "he visto")
_COMPOUND_PAST = {
    # "ge-", after a separable prefix too ("angerufen", "opgebeld"; "gegaan", "getan")
    "de": (
        _words("habe hast hat haben habt bin bist ist sind seid"),
        re.compile(r"(?:ab|an|auf|aus|bei|ein|mit|nach|vor|weg|zurück|los|fest|her|hin)?ge\w{2,}(?:t|n)"),
    ),
    "nl": (
        _words("heb hebt heeft hebben ben bent is zijn"),
        re.compile(r"(?:af|aan|op|uit|in|mee|na|terug|weg|toe)?ge\w{2,}(?:d|t|n)"),
    ),
    "fr": (
        _words("ai as a avons avez ont suis es est sommes êtes sont"),
        # the participles of the "-er", "-re" and "-indre" verbs ("allée", "rendu", "repeint"),
        # and the irregular ones
        re.compile(
            r"\w{2,}(?:é|ée|és|ées)|\w+[^\Waeo](?:u|ue|us|ues)|\w+[aeo]int(?:e|s|es)?|fait|faite|pris|mis|vu|vue|eu|été|dit|venu|venue|parti|partie|"
            r"fini|finie|choisi|sorti|sortie|dormi|suivi|servi|réussi|écrit|conduit|construit|"
            r"ouvert|offert|découvert|souffert|appris|compris|promis|permis|mort|morte|née?"
        ),
    ),
    "es": (
        _words("he has ha hemos habéis han"),
        re.compile(r"\w{2,}(?:ado|ada|ido|ida)|hecho|dicho|visto|puesto|vuelto|escrito|roto|abierto"),
    ),
    "it": (
        _words("ho hai ha abbiamo avete hanno sono sei è siamo siete"),
        re.compile(r"\w{2,}(?:at[oaie]|it[oaie]|ut[oaie])|fatto|detto|visto|preso|messo|stato|stata"),
    ),
}
#: French and Italian form the past of a closed class of verbs (of motion and change of state)
#: and of the reflexive ones with "be"; with any other participle "be" is a passive, a present
#: ("est prévue", "è previsto": is planned): the "be" auxiliaries and those verbs' participles
_BE_PAST = {
    "fr": (
        _words("suis es est sommes êtes sont"),
        re.compile(
            r"(?:all|arriv|rest|tomb|entr|rentr|mont|retourn|pass)(?:é|ée|és|ées)|(?:re|de|par)?venue?s?"
            r"|partie?s?|sortie?s?|née?s?|morte?s?|descendue?s?"
        ),
        _words("me m te t se s nous vous"),
    ),
    "it": (
        _words("sono sei è siamo siete"),
        re.compile(r"(?:andat|venut|partit|arrivat|nat|mort|stat|rimast|tornat|ritornat|uscit|entrat|rientrat|"
                   r"cadut|diventat|success|salit|sces)[oaie]"),
        _words("mi ti si ci vi"),
    ),
}
#: German and Dutch participles with no "ge-": an inseparable prefix ("vergessen", "besucht",
#: "vergaderd") or a verb in "-ieren" ("telefoniert"); such a word is a participle only where the
#: participle stands, at the clause's end ("ich habe den Schlüssel vergessen"; not "ich habe
#: bestimmt Zeit"), or before a conjunction that starts the next clause
_PARTICIPLE_AT_END = {
    "de": (re.compile(r"(?:be|ver|er|ent|zer|emp|miss)\w{2,}(?:t|n)|\w{3,}iert"),
           _words("und aber oder denn weil dass als wenn nachdem bevor obwohl sondern")),
    "nl": (re.compile(r"(?:be|ver|ont|her|er)\w{2,}(?:d|t|n)"),
           _words("en maar of want omdat dat toen als nadat voordat hoewel")),
}
#: each language's future: its future auxiliaries and its word for tomorrow, and where the
#: future is a verb ending, that ending
_FUTURE = {
    "de": _words("werde wirst wird werden werdet morgen"),
    "nl": _words("zal zult zullen morgen"),
    "fr": _words("vais vas allons allez vont demain"),
    "es": _words("voy vas vamos van mañana iré irás irá iremos iréis irán haré harás hará haremos harán"),
    "it": _words("domani"),
    "pt": _words("vou vai vamos vão amanhã"),
    "sv": _words("ska kommer imorgon"),
    "da": _words("skal imorgen"),
    "nb": _words("skal imorgen"),
    "pl": _words("będę będziesz będzie będziemy będą jutro"),
    "ru": _words("буду будешь будет будем будут завтра"),
    "uk": _words("буду будеш буде будемо будуть завтра"),
}
_FUTURE_ENDING = {
    "fr": re.compile(r"\w{3,}(?:rai|rons|ront)"),
    "es": re.compile(r"\w{2,}(?:[aeií]|d)(?:ré|rás|rá|remos|rán)"),  # "compraré", "tendré"; not "compré"
    "it": re.compile(r"\w{3,}(?:rò|rà|remo|ranno)"),
    "pt": re.compile(r"\w{2,}[aei](?:rei|rás|rá|remos|rão)"),  # "comprarei"; not "comprei"
}


#: the regular simple past of Spanish and Portuguese by its endings: the accented first and third
#: person singular ("compré", "llegó", "salió") and the plural ("llegaron", "comieron") in
#: Spanish; "-ei" and "-ou" ("comprei", "chegou"; not the future "-rei") and "-aram", "-eram",
#: "-iram" in Portuguese. A word after an article is a noun ("un café"); the present of "estar",
#: "ser", "ir" and "dar" ("estou", "sou", "vou", "dou") ends in "-ou" too
_PAST_ENDING = {
    "es": re.compile(r"\w{3,}(?:é|ó|aste|iste)|\w{2,}(?:aron|ieron)"),
    "pt": re.compile(r"\w{2,}(?:ei|ou|aram|eram|iram)"),
}
_PRESENT_IN_OU = _words("estou sou vou dou")


def _simple_past(words: Sequence[str], language: str) -> bool:
    """Whether ``words`` hold a simple past of ``language`` told by its ending (:data:`_PAST_ENDING`)."""
    ending = _PAST_ENDING.get(language)
    future = _FUTURE_ENDING.get(language)
    return ending is not None and any(
        ending.fullmatch(word) and not (future is not None and future.fullmatch(word))
        and word not in _PRESENT_IN_OU and not (at > 0 and words[at - 1] in _ARTICLES)
        for at, word in enumerate(words)
    )


#: the marks of the past and the future in the scripts written without spaces, read inside the
#: text: Chinese aspect particles and auxiliaries, Japanese polite and plain past and the polite
#: non-past, Korean's future forms (its past is a syllable closed by ㅆ: :func:`_korean_past`)
_PAST_MARKS = {"zh": ("了", "过", "昨天"), "ja": ("ました", "でした", "かった", "った", "んだ", "した", "いた", "昨日")}
#: the Japanese plain past: "た" after a verb's continuative form, which ends in a kana of the
#: i- or e-row ("行ってきた", "食べた", "見た"; not "また", "あなた")
_JAPANESE_PAST = re.compile(r"[いきしちにひみりぎじびぴえけせてねへめれげぜでべぺ]た")
#: the Japanese progressive or state, "ている" in its polite forms ("勉強しています", "住んでいます"):
#: its "ます" tells the present
_JAPANESE_STATE = re.compile(r"[てで]い(?:ます|ません)")
_FUTURE_MARKS = {
    "zh": ("要", "会", "将", "打算", "明天"),
    "ja": ("ます", "明日", "予定", "つもり"),
    "ko": ("겠", "거예요", "거야", "내일"),
}
#: Hangul syllables: the first, how many there are, how many final consonants each vowel takes,
#: and the place of ㅆ among them
_HANGUL, _SYLLABLES, _FINALS, _SSANG_SIOS = 0xAC00, 11172, 28, 20


def _korean_past(text: str) -> bool:
    """A syllable closed by ㅆ (갔, 했, 왔, 었) but 있 ("there is"): the Korean past."""
    return any(
        0 <= (point := ord(char) - _HANGUL) < _SYLLABLES and point % _FINALS == _SSANG_SIOS
        and char != "있"
        for char in text
    )


#: the words that make a piece of a sentence a clause of its own in each language: its subject
#: pronouns and the present of its copula and of "have" (a closed class; a present tense shows
#: no mark of its own)
_OWN_CLAUSE = {
    "de": _words("ich du er sie es wir ihr man ist sind bin bist habe hat haben hast"),
    "fr": _words("je j tu il elle on nous vous ils elles est sont suis es ai as avons ont c"),
    "es": _words("yo tú él ella nosotros nosotras ellos ellas es son soy eres estoy está están hay tengo tiene"),
    "it": _words("io tu lui lei noi voi loro è sono sei ho ha hanno abbiamo c"),
    "pt": _words("eu tu ele ela nós eles elas é são sou estou está estão tenho tem"),
    "nl": _words("ik jij je hij zij ze wij we jullie is zijn ben bent heb heeft hebben"),
    "sv": _words("jag du han hon vi ni de är har"),
    "da": _words("jeg du han hun vi de er har"),
    "nb": _words("jeg du han hun vi de er har"),
    "pl": _words("ja ty on ona my wy oni jest są jestem mam ma"),
}


#: each language's words that make a time a habit or a rate ("every", "each", "per"): "jeden
#: Montag", "deux fois par semaine", "cada lunes", "ogni martedì", "每个星期六"; a closed class
_DISTRIBUTIVE = {
    "de": _words("jeden jede jedes jedem alle pro je"),
    "fr": _words("chaque tous toutes par"),
    "es": _words("cada todos todas por"),
    "it": _words("ogni tutti tutte per"),
    "pt": _words("cada todos todas por"),
    "nl": _words("elke iedere ieder per"),
    "sv": _words("varje per"),
    "da": _words("hver hvert per"),
    "nb": _words("hver hvert per"),
    "pl": _words("co każdy każdą każde"),
}
_DISTRIBUTIVE_MARKS = {"zh": ("每",), "ja": ("毎",), "ko": ("매",)}


def habitual_in(before: str, language: str) -> bool:
    """Whether the words just ``before`` a time in ``language`` make it a habit or a rate (its
    distributive words, :data:`_DISTRIBUTIVE`; an article between: "tous les samedis")."""
    marks = _DISTRIBUTIVE_MARKS.get(language)
    if marks is not None:
        return any(mark in before[-4:] for mark in marks)
    words = [m.group().lower() for m in _WORD.finditer(before)][-3:]
    distributive = _DISTRIBUTIVE.get(language, frozenset())
    return bool(words) and (words[-1] in distributive or (len(words) > 1 and words[-2] in distributive and words[-1] in _ARTICLES))


#: each language's prepositions of a span that began in the past and runs up to now ("seit
#: Montag", "depuis lundi", "sinds maandag"): the time they govern is behind, whatever the
#: clause's tense (a closed class)
_SINCE = {"en": _words("since"), "de": _words("seit"), "fr": _words("depuis"), "nl": _words("sinds")}
#: the prepositions that open a span either way, since or from ("desde el lunes", "da lunedì"):
#: since in a clause not told in the future and with no end after it ("Estaré aquí desde el lunes",
#: "desde el lunes hasta el viernes", "dal 15 al 20": from), with each language's ends of a span
_SINCE_OR_FROM = {
    "es": (_words("desde"), _words("hasta a al")),
    "pt": (_words("desde"), _words("até a ao à")),
    "it": (_words("da dal dalla dall dallo"), _words("a al alla all allo fino")),
}
#: what may stand between such a preposition and its time, in the time's noun phrase: an article
#: or a word for "last" ("seit letztem Montag", "desde el lunes"; not "dal cardiologo il 5 giugno")
_NOUN_PHRASE_LEAD = {
    "de": _words("dem der den letztem letzter letzten vergangenem vergangener vorigem voriger"),
    "fr": _words("le la les l dernier"),
    "nl": _words("de het vorige afgelopen"),
    "es": _words("el la los las pasado pasada"),
    "pt": _words("o a os as último última passado passada"),
    "it": _words("il lo la l scorso scorsa"),
}


#: the postpositions of a span from a time in the languages that put them after it: Japanese
#: "以来" (since) and "から" (from, since in a clause that tells no future: "三月から勉強しています"),
#: and the words of its end ("まで": "月曜から金曜まで" is a range)
_SINCE_AFTER = {"ja": (("以来",), ("から",), ("まで",))}


def span_prepositions(language: str) -> frozenset[str]:
    """``language``'s prepositions of a span from a time ("seit", "depuis", "desde", "da"): words
    of its closed classes, as its :data:`FUNCTION_WORDS` are."""
    either = _SINCE_OR_FROM.get(language)
    return _SINCE.get(language, frozenset()) | (either[0] if either else frozenset())


def _since_after(phrase: str, after: str, language: str, tense: str) -> bool:
    """:func:`since_in` for a language of postpositions (:data:`_SINCE_AFTER`)."""
    since, either, ends = _SINCE_AFTER[language]
    tail = phrase[-3:] + after[:3]
    if any(mark in tail for mark in since):
        return True
    return (
        tense not in ("future", "mixed") and any(mark in tail for mark in either)
        and not any(end in after[:12] for end in ends)
    )


def since_in(before: str, phrase: str, after: str, language: str, tense: str) -> bool:
    """Whether a time (``phrase``, with the text ``before`` and ``after`` it) is governed by a
    preposition of ``language`` that opens a span in the past up to now (:data:`_SINCE`, and
    :data:`_SINCE_OR_FROM` in a clause whose ``tense`` is no future, with no end after the time):
    the preposition starts the phrase or stands before it, with one word of its noun phrase
    between at most (an article, or a word for "last": :data:`_NOUN_PHRASE_LEAD`); in Japanese,
    its postposition ends the phrase or follows it (:data:`_SINCE_AFTER`)."""
    if language in _SINCE_AFTER:
        return _since_after(phrase, after, language, tense)
    since = _SINCE.get(language)
    either = _SINCE_OR_FROM.get(language)
    if either is not None:
        ends = either[1]
        next_word = [m.group().lower() for m in _WORD.finditer(after)][:1]
        if tense in ("future", "mixed") or (next_word and next_word[0] in ends):
            return False
        since = either[0]
    if since is None:
        return False
    lead = [m.group().lower() for m in _WORD.finditer(phrase)][:1]
    prior = [m.group().lower() for m in _WORD.finditer(before)][-2:]
    return bool(
        (lead and lead[0] in since) or (prior and prior[-1] in since) or (len(prior) == 2 and prior[0] in since and prior[1] in _NOUN_PHRASE_LEAD.get(language, ()))
    )


#: each language's words for a week, a month and a year (a closed class), by the grain they name
_UNIT_WORDS = {
    "week": re.compile(
        r"\b(?:wochen?|semaines?|semanas?|settiman[ae]|weken|week|veckan?|veckor|ugen?|uger|uken?|uker|"
        r"tydzień|tygodni[ea]?)\b|周前|周后|週前|週後|个星期|個星期|週間",  # not 周六: Saturday
        re.IGNORECASE,
    ),
    "month": re.compile(
        r"\b(?:monate?n?|monat|mois|mes|meses|mesi|mese|maanden?|maand|månad(?:er)?|måned(?:er)?|"
        r"miesiąc[ey]?|miesięcy)\b|个月|か月|ヶ月|カ月",
        re.IGNORECASE,
    ),
    "year": re.compile(
        r"\b(?:jahre?n?|jahr|ans?|années?|años?|anni|anno|anos?|jaren|jaar|år|rok|lat[a]?)\b|年前|年后|年後",
        re.IGNORECASE,
    ),
}


#: each language's words for last, this and next year told after a month in a form the time
#: parser does not read ("im Mai letzten Jahres", "en mayo del año pasado", "a maggio
#: dell'anno scorso"; a closed class), by the years they step from the reference's
_YEAR_AFTER_MONTH = {
    "de": ((-1, r"(?:des\s+)?(?:letzten|vergangenen|vorigen)\s+jahres"),
           (1, r"(?:des\s+)?(?:nächsten|kommenden)\s+jahres"), (0, r"dieses\s+jahres")),
    "es": ((-1, r"del\s+(?:año\s+pasado|pasado\s+año)"),
           (1, r"del\s+(?:año\s+que\s+viene|próximo\s+año|año\s+próximo)"), (0, r"de\s+este\s+año")),
    "it": ((-1, r"(?:dell['’]\s*anno\s+(?:scorso|passato)|dello\s+scorso\s+anno)"),
           (1, r"(?:dell['’]\s*anno\s+prossimo|del\s+prossimo\s+anno)"), (0, r"di\s+quest['’]\s*anno")),
    "pt": ((-1, r"do\s+ano\s+passado"), (1, r"do\s+(?:próximo\s+ano|ano\s+que\s+vem)"), (0, r"deste\s+ano")),
    "fr": ((-1, r"de\s+l['’]\s*année\s+(?:dernière|passée)"), (1, r"de\s+l['’]\s*année\s+prochaine"),
           (0, r"de\s+cette\s+année")),
    "pl": ((-1, r"(?:zeszłego|ubiegłego|poprzedniego)\s+roku"), (1, r"(?:przyszłego|następnego)\s+roku"),
           (0, r"tego\s+roku")),
}
_YEAR_AFTER = {
    code: [(step, re.compile(r"\s*" + pattern + r"(?![^\W\d_])", re.IGNORECASE)) for step, pattern in forms]
    for code, forms in _YEAR_AFTER_MONTH.items()
}


def year_after(after: str, language: str) -> tuple[int, int] | None:
    """(the years it steps from the reference's, its length) of a word group of ``language`` for
    last, this or next year that opens ``after``, the text after a month (:data:`_YEAR_AFTER_MONTH`);
    None when ``after`` opens with none."""
    for step, pattern in _YEAR_AFTER.get(language, ()):
        found = pattern.match(after)
        if found is not None:
            return step, found.end()
    return None


def unit_grain(phrase: str) -> str | None:
    """The grain a count of weeks, months or years in another language names ("vor zwei Wochen",
    "il y a trois mois", "dos años"): the unit's, as "two weeks ago" is a week in English."""
    return next((grain for grain, words in _UNIT_WORDS.items() if words.search(phrase)), None)


def own_clause_in(piece: str, language: str) -> bool:
    """Whether ``piece`` of a sentence in ``language`` is a clause of its own: it shows a tense
    (:func:`tense_in`), a subject pronoun or a present copula (``_OWN_CLAUSE``); a time told
    before a comma with no verb ("Am Freitag, ...") takes its sentence's tense."""
    if tense_in(piece, language):
        return True
    words = _OWN_CLAUSE.get(language)
    return words is not None and any(m.group().lower() in words for m in _WORD.finditer(piece))


#: the Romance languages put the past participle right after its auxiliary (an adverb or a
#: pronoun between at most: "ho già visto", "je suis bien arrivée"); German and Dutch at the
#: clause's end ("ich bin letzte Woche nach Berlin gezogen")
_PARTICIPLE_NEXT = frozenset({"fr", "es", "it", "pt"})
#: what makes the word after it a noun, not a participle ("Ho la visita": I have the appointment)
_ARTICLES = _words("la le les un une il lo l gli i el los las una uno o a os as um uma")


def _compound_past(words: Sequence[str], language: str) -> bool:
    """Whether ``words`` hold a compound past of ``language``: one of its auxiliaries with a past
    participle after it, next to it in a Romance language (:data:`_PARTICIPLE_NEXT`)."""
    auxiliaries, participle = _COMPOUND_PAST[language]
    be = _BE_PAST.get(language)
    for at, word in enumerate(words):
        if word not in auxiliaries:
            continue
        if be is not None and word in be[0] and not (at > 0 and words[at - 1] in be[2]):
            after = words[at + 1 : at + 3]  # "je suis allée"; "elle est prévue": a passive
            if any(be[1].fullmatch(other) for other in after):
                return True
            continue
        after = words[at + 1 : at + 3] if language in _PARTICIPLE_NEXT else words[at + 1 :]
        at_end = _PARTICIPLE_AT_END.get(language)
        for place, other in enumerate(after, start=at + 1):
            if language in _PARTICIPLE_NEXT and other in _ARTICLES:
                break
            if participle.fullmatch(other) and words[place - 1] != "zu":  # "zu gehen": an infinitive
                return True
            if at_end is not None and at_end[0].fullmatch(other) and (
                place + 1 == len(words) or words[place + 1] in at_end[1]
            ):
                return True
    return False


def tense_in(clause: str, language: str) -> str:
    """"past", "future", "mixed" (both) or "" (neither, or a language whose closed classes are
    not listed here) of a clause in ``language``, by its auxiliaries and copulas (see the
    tables above); English is read by :func:`ripplemem.grounding.time_patterns.tense_of`."""
    if language in UNSPACED:
        past = any(mark in clause for mark in _PAST_MARKS.get(language, ())) or (
            language == "ko" and _korean_past(clause)
        ) or (language == "ja" and _JAPANESE_PAST.search(clause) is not None)
        # (the polite "ます" of a state, "勉強しています": the present, no future)
        present = _JAPANESE_STATE.sub("", clause) if language == "ja" else clause
        future = any(mark in present for mark in _FUTURE_MARKS[language])
        return "mixed" if past and future else "past" if past else "future" if future else ""
    words = [m.group().lower() for m in _WORD.finditer(clause)]
    if not words:
        return ""
    past = bool(_PAST.get(language, frozenset()).intersection(words))
    if not past and language in _COMPOUND_PAST:
        past = _compound_past(words, language)
    past = past or _simple_past(words, language)
    ending = _FUTURE_ENDING.get(language)
    future = bool(_FUTURE.get(language, frozenset()).intersection(words)) or (
        ending is not None and any(ending.fullmatch(w) for w in words)
    )
    return "mixed" if past and future else "past" if past else "future" if future else ""

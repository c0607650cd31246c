"""The deterministic extractor: grounded memory units from windows without an LLM.

Every informative focus turn yields one unit, or several, each keeping the turn id. A message of
a few sentences (``sentence_units`` = (from, to) characters: longer than a short remark, shorter
than an essay) yields one unit per sentence, so each thing it says is a memory of its own and is
matched on its own ("I'm redoing the kitchen. By the way, I adopted a cat last week." holds two
facts a question asks about separately); a sentence shorter than
:data:`MIN_SENTENCE_UNIT_CHARS` stays with the one before it (the first, with the next). A longer
turn (an assistant's essay) is split at sentence boundaries into pieces of about
``max_unit_chars``, which bounds its units. The units of one turn are linked to each other by
the dialogue edges (:mod:`ripplemem.write.dialogue`). Pure chit-chat
(greetings, thanks, acknowledgements: sentences made only of function words, interjections and
names) yields nothing; chit-chat sentences inside an informative turn are left out of its unit.

A restatement keeps the original wording with speaker references resolved (see
:mod:`ripplemem.write.restate`); a piece whose first sentence has no resolved first-person subject
is prefixed "<Speaker> said:" (or "asked:" for a question; a verbless echo of a word or two it opens with,
"Bus? Not anymore ...", is no question: the sentence after it decides). An image caption becomes a unit of its own
(the photo is an event of its own, and folded into the text it drowns in it):
"<Speaker> shared a photo of ...". A short answer ("Yes, last week!") to the other speaker's
question right before it is restated together with that question and carries both turn ids.

Third-person pronouns ("she", "her", "his", ...) are then resolved against the people named in
the same turn and the two turns before it, when exactly one person fits
(:mod:`ripplemem.write.pronouns`); captions are left alone (an image captioner's "her" is someone
in the picture). A piece with a pronoun that mostly stands for a thing ("it", "they", "this",
...) keeps the nouns said just before it among its keywords (:mod:`ripplemem.write.antecedents`).
Participants are the speaker, the people named in the piece, the addressee when
"you" was resolved and the people its pronouns were resolved to; locations come from NER; time
phrases and the time span come from :func:`~ripplemem.grounding.ground_time.ground_times` against
the session time. When a piece grounds several intervals, the span is their hull if that is at
most 31 days long, else the narrowest one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from ripplemem import deadline
from ripplemem.grounding.ground_time import TimeGrounder, default_grounder
from ripplemem.records import SHARED_PHOTO, TimeSpan, Turn, UnitDraft, Window
from ripplemem.statements.answers import asks_for_a_thing
from ripplemem.statements.answers import fragment as verbless
from ripplemem.write.antecedents import context_before, nearest_nouns, refers_back
from ripplemem.write.entities import CALENDAR_WORDS, INTERJECTIONS, Entities, EntityRecognizer
from ripplemem.write.lexicon import Lexicon
from ripplemem.write.pronouns import Passage, resolve_passages
from ripplemem.write.replies import foreign_reply
from ripplemem.write.restate import PAST_FORMS, Resolved, resolve_speakers, split_sentences


def _word_set(text: str) -> frozenset[str]:
    return frozenset(text.split())


CHITCHAT_WORDS = INTERJECTIONS | _word_set(
    """see talk later soon catch chat chatting talking care luck hope wish day new going doing good
    fun sounds sound love miss appreciate friend buddy pal hear hearing know mean guess agree
    true thing things lot lots definitely speak meet touch wait can't cannot hearing glad happy
    stay tuned bet pic pics photo totally awesome super fantastic long time"""
)
_WORD = re.compile(r"[A-Za-z]+(?:['’][A-Za-z]+)?")
_DIGIT = re.compile(r"\d")
_LIST_MARKER = re.compile(r"\(?\d{1,3}[.)]$")
#: a letter outside the Latin blocks (Basic Latin to Latin Extended-B, Latin Extended Additional)
_OTHER_SCRIPT = re.compile(r"[^\W\d_\u0000-\u024f\u1e00-\u1eff]")
_ANSWER_START = re.compile(
    r"^(?:yes|yeah|yep|yup|no|nope|nah|sure|definitely|absolutely|of course|totally|"
    r"not really|not yet|kind of|sort of)\b",
    re.IGNORECASE,
)
_PHOTO = re.compile(
    r"^\[?\s*(?:shares?|shared|sharing)?\s*(?:a |an )?"
    r"(?:photo|photograph|photography|picture|image|pic|screenshot)s? of\s+",
    re.IGNORECASE,
)
_GENERIC_WORDS = _word_set(
    """lately recently want wants wanted think thinks thought getting seeing looks looked heard
    remember understand feel feels felt make makes making made take takes taking keep keeps
    really things something anything everything thanks thank sure yeah going doing done photo
    photography picture image"""
)
_MARKDOWN = re.compile(r"\*\*|__|`|^[ \t]*(?:#+|[-*•]|\d+[.)])[ \t]+", re.MULTILINE)
_MAX_HULL_DAYS = 31
_KEYWORDS = 6
#: the most words a question may have to be an echo of what was said before ("Bus?")
_ECHO_WORDS = 2
_SHORT_ANSWER_CHARS = 80
#: a sentence shorter than this ("It was great.", "Any tips?") is kept with the one before it
MIN_SENTENCE_UNIT_CHARS = 40
#: the turns (characters) that yield one unit per sentence
SENTENCE_UNITS = (150, 1000)


@dataclass(slots=True)
class _Piece:
    """A unit in the making: resolved text plus the raw text NER and time grounding read."""

    window: int
    turn_ids: tuple[str, ...]
    speaker: str
    restatement: str
    raw: str
    people: list[str] = field(default_factory=list)  # resolved names (speaker, addressee)
    caption: bool = False  # the unit of a shared photo
    turn: int = 0  # position of its (last) turn in the window, set by _pieces


_BASE_WORD = re.compile(r"([A-Za-z]+)(?:['’][A-Za-z]+)?")


def _words(text: str) -> list[str]:
    """Lower-cased words without contraction tails ("that's" -> "that")."""
    return [w.lower() for w in _BASE_WORD.findall(text)]


class DeterministicExtractor:
    """Offline extractor: spaCy NER + Duckling + speaker resolution; no LLM, no tokens."""

    name = "deterministic"
    tokens_used = 0

    def __init__(
        self,
        recognizer: EntityRecognizer | None = None,
        *,
        max_unit_chars: int = 300,
        sentence_units: tuple[int, int] | None = SENTENCE_UNITS,
        grounder: TimeGrounder | None = None,
        day_first: bool = False,
    ) -> None:
        self.recognizer = recognizer or EntityRecognizer()
        #: a slash date either order makes a day is read day first (``Settings.date_order``)
        self.day_first = day_first
        self.max_unit_chars = max_unit_chars
        self.sentence_units = sentence_units
        self.grounder = grounder or default_grounder()
        self._stop: frozenset[str] | None = None
        self._keyword_skip: frozenset[str] | None = None
        self._names_cache: dict[tuple[str, ...], tuple[frozenset[str], tuple[str, ...]]] = {}

    # -- public -------------------------------------------------------------------------------

    def extract(
        self, windows: Sequence[Window], *, lexicon: Lexicon | None = None
    ) -> list[list[UnitDraft]]:
        """One list of drafts per window, in turn order; names are read from and learned into
        ``lexicon`` (the recogniser's own when None)."""
        pieces: list[_Piece] = []
        for index, window in enumerate(windows):
            deadline.check("extraction")  # a call given a time budget stops between windows
            pieces.extend(self._pieces(index, window))
        entities = self._entities(windows, [(p.window, p.raw) for p in pieces], lexicon)
        self._resolve_pronouns(windows, pieces, entities, lexicon)
        nouns = self._nouns_before(windows, pieces, entities, lexicon)
        out: list[list[UnitDraft]] = [[] for _ in windows]
        # the last time named by the earlier pieces of the same turn: "The day before I swam"
        # cut from "Yesterday I ran 5k." counts from yesterday
        told: tuple[int, tuple[str, ...], TimeSpan | None] | None = None
        for position, (piece, found) in enumerate(zip(pieces, entities, strict=True)):
            deadline.check("time grounding")
            turn = (piece.window, piece.turn_ids)
            before = told[2] if told is not None and told[:2] == turn else None
            draft, last = self._draft(
                piece, found, windows[piece.window].local_time, before, nouns.get(position, ())
            )
            out[piece.window].append(draft)
            told = (*turn, last or before)
        return out

    # -- chit-chat and keywords -----------------------------------------------------------------

    @property
    def stop_words(self) -> frozenset[str]:
        if self._stop is None:
            from spacy.lang.en.stop_words import STOP_WORDS

            self._stop = frozenset(STOP_WORDS)
        return self._stop

    def is_chitchat(self, sentence: str, names: Sequence[str] = ()) -> bool:
        """True when every word is a function word, an interjection or a name (or a short
        form of one: "Mel" for "Melanie"). A sentence with letters of another script than Latin
        (Chinese, Cyrillic, Arabic, Devanagari, ...) is never chit-chat: the word lists are
        English, and a text they cannot read is stored, not dropped), unless it is a bare reply
        of another language ("Oui", "Nein.", "はい": :func:`~ripplemem.write.replies.foreign_reply`)."""
        if foreign_reply(sentence):
            return True
        if _OTHER_SCRIPT.search(sentence):
            return False  # a script our word lists do not cover: kept, never judged chit-chat
        key = tuple(dict.fromkeys(names))
        if key not in self._names_cache:
            words = frozenset(w for n in key for w in _words(n))
            firsts = tuple(w for n in key for w in _words(n)[:1])
            self._names_cache[key] = (self.stop_words | CHITCHAT_WORDS | words, firsts)
        allowed, firsts = self._names_cache[key]
        return all(
            w in allowed or (len(w) >= 2 and any(f.startswith(w) for f in firsts))
            for w in _words(sentence)
        )

    def _said(self, text: str, names: Sequence[str]) -> list[str]:
        """The sentences of ``text`` that are not chit-chat. A piece of function words with a
        number ("Am 3.", "At 10.", a bare "5." at the end) says a date, a time or an amount: it
        is never dropped, but joins the sentence after it, or the one before it at the end ("Am
        3." + "März um 14 Uhr ...": the splitter takes an ordinal's full stop, or one of an
        abbreviation it does not know, for a sentence's end), and stays alone when nothing else
        is said. A bare "1." or "2)" before more text numbers a list's item and is left out, as
        before."""
        kept: list[str] = []
        carried: list[str] = []  # pieces of function words waiting for a sentence, a number among them
        pieces = split_sentences(text)
        for position, sentence in enumerate(pieces):
            if _LIST_MARKER.match(sentence) and position + 1 < len(pieces) and not carried:
                continue  # "1." before its item: a list's numbering, not an amount
            if not self.is_chitchat(sentence, names):
                kept.append(" ".join([*carried, sentence]))
                carried = []
            elif carried or _DIGIT.search(sentence):
                carried.append(sentence)
        if carried and kept:
            kept[-1] = " ".join([kept[-1], *carried])
        elif carried:
            kept.append(" ".join(carried))
        return kept

    def _nouns_before(
        self,
        windows: Sequence[Window],
        pieces: Sequence[_Piece],
        entities: Sequence[Entities],
        lexicon: Lexicon | None,
    ) -> dict[int, tuple[str, ...]]:
        """By piece (its position), the nouns said just before it when it refers back
        (:mod:`ripplemem.write.antecedents`), but the names of people and places and the words
        it holds already: one tagging of the texts before them all."""
        asked = {
            i: spans
            for i, p in enumerate(pieces)
            if not p.caption and refers_back(p.raw)
            and (spans := context_before(windows[p.window], p.turn, p.raw))
        }
        if not asked:
            return {}
        texts = list(dict.fromkeys(text for spans in asked.values() for text, _ in spans))
        tagged = dict(zip(texts, self.recognizer.tag(texts), strict=True))
        known = lexicon.name_tokens if lexicon is not None else set(self.recognizer.known_people)
        names = {w.lower() for name in known for w in _words(name)}
        out: dict[int, tuple[str, ...]] = {}
        for i, spans in asked.items():
            piece, found = pieces[i], entities[i]
            named = (*piece.people, *found.people, *found.places, *windows[piece.window].speakers)
            own = {*_words(piece.raw), *(w for n in named for w in _words(n))}
            words = [(w, tag) for text, end in spans for w, tag, at in tagged[text] if at < end]
            out[i] = nearest_nouns(words, own, names, self._skipped_words)
        return out

    @property
    def _skipped_words(self) -> frozenset[str]:
        """Words never a keyword: function words, chit-chat, calendar and generic words."""
        if self._keyword_skip is None:
            self._keyword_skip = self.stop_words | CHITCHAT_WORDS | CALENDAR_WORDS | _GENERIC_WORDS
        return self._keyword_skip

    def _keywords(self, text: str, exclude: Sequence[str]) -> tuple[str, ...]:
        skip = self._skipped_words
        names = {w for name in exclude for w in _words(name)}
        seen: dict[str, int] = {}
        for position, word in enumerate(w.lower() for w in _WORD.findall(text)):
            if "'" in word or "’" in word:
                continue  # contractions and possessives: names or function words
            if len(word) >= 3 and word not in skip and word not in names and word not in seen:
                seen[word] = position
        best = sorted(seen, key=lambda w: -len(w))[:_KEYWORDS]
        return tuple(sorted(best, key=seen.__getitem__))

    # -- pieces ---------------------------------------------------------------------------------

    @staticmethod
    def _addressee(window: Window, speaker: str) -> str | None:
        names = list(dict.fromkeys(window.speakers)) or list(
            dict.fromkeys(t.speaker for t in window.turns)
        )
        others = [n for n in names if n != speaker]
        return others[0] if len(names) == 2 and speaker in names else None

    def _pieces(self, index: int, window: Window) -> list[_Piece]:
        pieces: list[_Piece] = []
        names = tuple(dict.fromkeys((*window.speakers, *(t.speaker for t in window.turns))))
        for position in range(window.focus_from, len(window.turns)):
            deadline.check("extraction")  # a window of 40 long turns is a lot of text
            turn = window.turns[position]
            previous = window.turns[position - 1] if position > 0 else None
            answer = self._answer_piece(index, window, turn, previous, names)
            if answer is not None:
                answer.turn = position
                pieces.append(answer)
                continue
            for piece in self._turn_pieces(index, window, turn, names):
                piece.turn = position
                pieces.append(piece)
        return pieces

    def _turn_pieces(
        self, index: int, window: Window, turn: Turn, names: Sequence[str]
    ) -> list[_Piece]:
        speaker = turn.speaker
        addressee = self._addressee(window, speaker)
        text = _MARKDOWN.sub("", turn.text)
        sentences = self._said(text, names)
        parts: list[tuple[str, Resolved]] = []
        parse = self.recognizer.parse
        for sentence in sentences:
            for fragment in self._fit(sentence):
                parts.append((fragment, resolve_speakers(fragment, speaker, addressee, parse=parse)))
        pieces: list[_Piece] = []
        group: list[tuple[str, Resolved]] = []
        by_sentence = self._by_sentence(text)
        for part in parts:
            if group and (
                (by_sentence and min(len(part[0]), _chars(group)) >= MIN_SENTENCE_UNIT_CHARS)
                or self._length(group + [part], speaker) > self.max_unit_chars
            ):
                pieces.append(self._piece(index, (turn.turn_id,), speaker, addressee, group))
                group = []
            group.append(part)
        if group:
            pieces.append(self._piece(index, (turn.turn_id,), speaker, addressee, group))
        caption = self._caption(speaker, turn.caption)
        if caption:  # the shared photo is an event of its own: its own unit, same turn id
            shared = [(turn.caption or "", Resolved(caption, True, False))]
            photo = self._piece(index, (turn.turn_id,), speaker, addressee, shared)
            photo.caption = True
            pieces.append(photo)
        return pieces

    def _by_sentence(self, text: str) -> bool:
        """Whether the turn ``text`` yields one unit per sentence (``sentence_units``)."""
        if self.sentence_units is None:
            return False
        low, high = self.sentence_units
        return low < len(text.strip()) <= high

    def _answer_piece(
        self,
        index: int,
        window: Window,
        turn: Turn,
        previous: Turn | None,
        names: Sequence[str],
    ) -> _Piece | None:
        """A short answer restated with the question it answers, or None."""
        text = turn.text.strip()
        if (
            previous is None
            or previous.speaker == turn.speaker
            or not text
            or len(text) > _SHORT_ANSWER_CHARS
            or turn.caption
        ):
            return None
        asked = split_sentences(previous.text)
        if not asked or not asked[-1].rstrip().endswith("?") or self.is_chitchat(asked[-1], names):
            return None
        # a yes or no, or a reply with no verb to a question for a thing ("Where are you
        # working these days?" / "At the Guardian now."): it says what it says with the question
        if not _ANSWER_START.match(text):
            question, reply = self.recognizer.parse([asked[-1], text])
            if not (asks_for_a_thing(question) and verbless(reply)):
                return None
        question = resolve_speakers(
            asked[-1], previous.speaker, turn.speaker, parse=self.recognizer.parse
        )
        reply = " ".join(
            resolve_speakers(s, turn.speaker, previous.speaker, parse=self.recognizer.parse).text
            for s in split_sentences(text)
        )
        restatement = f"{previous.speaker} asked: {question.text} {turn.speaker} answered: {reply}"
        return _Piece(
            window=index,
            turn_ids=(previous.turn_id, turn.turn_id),
            speaker=turn.speaker,
            restatement=restatement,
            raw=f"{asked[-1]} {text}",
            people=[turn.speaker, previous.speaker],
        )

    def _fit(self, sentence: str) -> list[str]:
        """A sentence longer than a unit, cut at clause breaks or spaces."""
        limit = self.max_unit_chars
        out: list[str] = []
        while len(sentence) > limit:
            cut = max(sentence.rfind(mark, 0, limit) for mark in ("; ", ", ", " - ", ": "))
            if cut < limit // 3:
                cut = sentence.rfind(" ", 0, limit)
            if cut <= 0:
                cut = limit
            out.append(sentence[: cut + 1].strip())
            sentence = sentence[cut + 1 :].strip()
        if sentence:
            out.append(sentence)
        return out

    @staticmethod
    def _caption(speaker: str, caption: str | None) -> str:
        if not caption or not caption.strip():
            return ""
        text = caption.strip().strip("[]").strip().rstrip(".")
        match = _PHOTO.match(text)
        if match:
            return f"{speaker} {SHARED_PHOTO} of {text[match.end() :]}."
        return f"{speaker} {SHARED_PHOTO}: {text}."

    def _prefix(self, speaker: str, group: list[tuple[str, Resolved]]) -> str:
        """"" when the piece opens with the speaker as its subject, else "<Speaker> asked: " for
        a question, "<Speaker> said: " otherwise. A short echo the piece opens with ("Bus? Not
        anymore, now it's the e-bike.") is no question of the speaker's: the sentence after it
        decides."""
        first = group[0][1]
        if len(group) > 1 and self._echo(group[0][0]):
            first = group[1][1]
        if first.speaker_subject:
            return ""
        verb = "asked" if first.text.rstrip().endswith("?") else "said"
        return f"{speaker} {verb}: "

    def _echo(self, sentence: str) -> bool:
        """Whether ``sentence`` echoes a word or two of what was said before as a question, with
        no verb ("Bus?", "Leeds?", "Green tea?"; not "Moved?", "Did you?")."""
        text = sentence.strip()
        words = [w.lower() for w in _WORD.findall(text)]
        if not text.endswith("?") or len(words) > _ECHO_WORDS:
            return False
        if any(w in PAST_FORMS or w.endswith("ed") for w in words):
            return False  # "Moved house?", "Sold it?": the parse can take them for a name
        return verbless(self.recognizer.parse([text])[0])

    def _length(self, group: list[tuple[str, Resolved]], speaker: str) -> int:
        return len(self._prefix(speaker, group)) + sum(len(r.text) + 1 for _, r in group)

    def _piece(
        self,
        index: int,
        turn_ids: tuple[str, ...],
        speaker: str,
        addressee: str | None,
        group: list[tuple[str, Resolved]],
    ) -> _Piece:
        people = [speaker]
        if addressee and any(r.addressee_used for _, r in group):
            people.append(addressee)
        text = " ".join(r.text for _, r in group)
        return _Piece(
            window=index,
            turn_ids=turn_ids,
            speaker=speaker,
            restatement=self._prefix(speaker, group) + text,
            raw=" ".join(raw for raw, _ in group),
            people=people,
        )

    # -- grounding ------------------------------------------------------------------------------

    def _entities(
        self,
        windows: Sequence[Window],
        texts_of: list[tuple[int, str]],
        lexicon: Lexicon | None,
    ) -> list[Entities]:
        """NER for every (window index, text), batched per set of speakers."""
        found: list[Entities | None] = [None] * len(texts_of)
        groups: dict[tuple[str, ...], list[int]] = {}
        for i, (window, _) in enumerate(texts_of):
            groups.setdefault(tuple(windows[window].speakers), []).append(i)
        for speakers, members in groups.items():
            texts = [texts_of[i][1] for i in members]
            for i, entities in zip(members, self.recognizer.find(
                texts, people=speakers, lexicon=lexicon
            )):
                found[i] = entities
        return [f or Entities() for f in found]

    def _resolve_pronouns(
        self,
        windows: Sequence[Window],
        pieces: list[_Piece],
        entities: list[Entities],
        lexicon: Lexicon | None,
    ) -> None:
        """Third-person pronouns of each window's pieces, in turn order; the window's overlap
        turns (yielding no piece here) are read as context."""
        members: dict[int, list[int]] = {}
        for i, piece in enumerate(pieces):
            if not piece.caption:
                members.setdefault(piece.window, []).append(i)
        overlap = [
            (index, position, _MARKDOWN.sub("", windows[index].turns[position].text))
            for index in members
            for position in range(windows[index].focus_from)
        ]
        overlap_found = self._entities(
            windows, [(index, text) for index, _, text in overlap], lexicon
        )
        context: dict[int, list[Passage]] = {}
        for (index, position, text), found in zip(overlap, overlap_found):
            context.setdefault(index, []).append(Passage(position, text, found.people))
        for index, chosen in members.items():
            window = windows[index]
            speakers = tuple(dict.fromkeys((*window.speakers, *(t.speaker for t in window.turns))))
            passages = context.get(index, []) + [
                Passage(pieces[i].turn, pieces[i].restatement, entities[i].people) for i in chosen
            ]
            results = resolve_passages(passages, speakers=speakers)
            for i, result in zip(chosen, results[len(passages) - len(chosen) :]):
                pieces[i].restatement = result.text
                pieces[i].people.extend(r for r in result.referents if r not in pieces[i].people)

    def _draft(
        self, piece: _Piece, found: Entities, reference: datetime | None, before: TimeSpan | None,
        nouns_before: tuple[str, ...] = (),
    ) -> tuple[UnitDraft, TimeSpan | None]:
        """The piece's draft, and the last time it names (None: none); ``nouns_before`` (said
        before it, when it refers back) join its keywords."""
        participants = list(dict.fromkeys([*piece.people, *found.people]))
        grounding = self.grounder.ground_text(piece.raw, reference, before, day_first=self.day_first)
        times = grounding.times
        named = [t.span for t in times if t.span is not None]
        # the unit's time: from an onset ahead on ("from July we'll be paying 1350"); a time named
        # after it in the turn counts from the onset itself (``named``)
        spans = list(dict.fromkeys(held for t in times if (held := t.held()) is not None))
        span = _combine(spans)
        return UnitDraft(
            restatement=piece.restatement,
            turn_ids=piece.turn_ids,
            participants=tuple(participants),
            locations=found.places,
            time_span=span,
            time_phrases=tuple(dict.fromkeys(t.phrase for t in times)),
            time_spans=tuple(spans) if len(spans) > 1 and span in spans else (),
            keywords=(*self._keywords(piece.raw, [*participants, *found.places]), *nouns_before),
            time_fallback=not grounding.complete,
        ), (named[-1] if named else None)


def _closed_by(onward: TimeSpan, spans: list[TimeSpan]) -> TimeSpan:
    """``onward`` (open towards the future) up to the end of the last closed span of ``spans``
    that ends after its start, or as is."""
    ends = [s.end for s in spans if not s.open_ended and s.end > onward.start]
    return TimeSpan(onward.start, max(ends)) if ends else onward


def _chars(group: list[tuple[str, Resolved]]) -> int:
    return sum(len(raw) for raw, _ in group)


def _combine(spans: list[TimeSpan]) -> TimeSpan | None:
    """The hull of the spans when it is short, else the narrowest span; a span open towards the
    future ends with the last time named after its start ("staying in Rome from Friday, back
    on the twelfth": Friday to the twelfth)."""
    if not spans:
        return None
    spans = [_closed_by(s, spans) if s.open_ended else s for s in spans]
    hull = TimeSpan(min(s.start for s in spans), max(s.end for s in spans))
    if (hull.end - hull.start).days <= _MAX_HULL_DAYS:
        return hull
    return min(spans, key=lambda s: s.end - s.start)

"""Past forms the tagger took for base forms, retagged from the lemmatizer's own tables, with the
real spaCy model (write/verb_forms.py)."""

from __future__ import annotations

import pytest

from ripplemem.statements.clauses import clauses_of
from ripplemem.statements.kept import rows_of
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.verb_forms import irregular_pasts


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def _verb(recognizer: EntityRecognizer, text: str, word: str) -> tuple[str, str]:
    token = next(t for t in recognizer.parse([text])[0] if t.text == word)
    return token.tag_, token.lemma_


@pytest.mark.parametrize(
    "text, word, lemma",
    [
        ("Got a ThinkPad X1 second-hand, and I put Linux on it.", "Got", "get"),
        ("Took the job at Ocado in the end.", "Took", "take"),
        ("Ran my first 10k on Sunday.", "Ran", "run"),
        ("Kept the old bike for the commute.", "Kept", "keep"),
    ],
)
def test_a_past_form_at_the_head_of_a_sentence_is_a_past(
    recognizer: EntityRecognizer, text: str, word: str, lemma: str
) -> None:
    assert _verb(recognizer, text, word) == ("VBD", lemma)


def test_the_sentence_then_states_the_speakers_doing(recognizer: EntityRecognizer) -> None:
    doc = recognizer.parse(["Got a ThinkPad X1 second-hand."])[0]
    (clause,) = clauses_of(doc, "Diego", ["Diego"])
    assert (clause.kind, clause.predicate) == ("speaker", "get")


@pytest.mark.parametrize(
    "text, word, tag",
    [
        ("Get a ThinkPad, honestly.", "Get", "VB"),  # an imperative's base form
        ("I want to get a ThinkPad.", "get", "VB"),  # an infinitive
    ],
)
def test_base_forms_stay(recognizer: EntityRecognizer, text: str, word: str, tag: str) -> None:
    assert _verb(recognizer, text, word)[0] == tag


def test_the_forms_are_no_verbs_base_form(recognizer: EntityRecognizer) -> None:
    recognizer.parse(["warm up"])
    pasts = irregular_pasts(recognizer._nlp)
    assert {"got": "get", "took": "take", "ran": "run"}.items() <= pasts.items()
    # "found" (to found), "saw" (to saw), "lay" (to lay), "felt" (to felt) are base forms too
    assert not {"found", "saw", "lay", "felt", "put", "read"} & pasts.keys()
    assert not any(form.endswith("ing") for form in pasts)


def test_a_pipeline_without_a_lemmatizer_retags_nothing() -> None:
    class Bare:
        component_names = ("tagger",)

    assert irregular_pasts(Bare()) == {}



def test_a_parse_kept_before_the_retagging_is_retagged_as_it_is_rebuilt(recognizer: EntityRecognizer) -> None:
    """A store written before keeps "Got" as a base form; rebuilt, it reads as the past, with no
    parse again (the kept parse keeps the identity it had)."""
    (doc,) = recognizer.parse(["Got a ThinkPad X1 second-hand."])
    kept = list(rows_of(doc))  # words, spaces, tags, parts of speech, morphologies, deps, heads, lemmas
    kept[2] = ["VB", *kept[2][1:]]  # as the tagger gave it
    kept[3] = ["VERB", *kept[3][1:]]
    kept[4] = ["VerbForm=Inf", *kept[4][1:]]
    kept[7] = ["got", *kept[7][1:]]
    (rebuilt,) = recognizer.rebuild([tuple(kept)])
    assert (rebuilt[0].tag_, rebuilt[0].lemma_) == ("VBD", "get")


@pytest.mark.parametrize(
    ("text", "word", "tag", "lemma"),
    [
        ("I forgot I'd switched to Octopus.", "forgot", "VBD", "forget"),  # the tagger's VBP
        ("I forgot I'd switched to Octopus.", "'d", "VBD", "have"),  # "had" before a participle
        ("I'd love a new bike.", "'d", "MD", "would"),  # a modal before a base form
        ("I'd have gone to Leeds.", "'d", "MD", "would"),  # "would have"
        ("We are moving to Leeds.", "are", "VBP", "be"),  # "be" is read right: left alone
    ],
)
def test_a_past_read_as_a_present_and_had_read_as_would(
    recognizer: EntityRecognizer, text: str, word: str, tag: str, lemma: str
) -> None:
    assert _verb(recognizer, text, word) == (tag, lemma)


def test_a_subject_hung_on_an_auxiliary_is_its_verbs(recognizer: EntityRecognizer) -> None:
    (doc,) = recognizer.parse(["Remember when I got pre-approved for $400,000?"])
    subject = next(t for t in doc if t.text == "I")
    assert (subject.dep_, subject.head.text) == ("nsubjpass", "pre-approved")


def test_a_main_verb_the_parse_calls_an_auxiliary_keeps_its_subject(recognizer: EntityRecognizer) -> None:
    (doc,) = recognizer.parse(["John loves running John's own studio."])
    assert doc[0].head.text == "loves"  # not moved to "running"


def test_the_mending_of_a_rebuilt_parse_is_the_mending_of_the_parse(recognizer: EntityRecognizer) -> None:
    """Mended once or again (a kept parse is mended as it is rebuilt), a doc reads the same, also
    where the parse chains auxiliaries ("I 'd would ... remember")."""
    texts = [
        "we the pre-approved ? remember would not pre-approved I gone would I 'd would to Lisbon remember when have , 12 switched",
        "I forgot I'd switched to Octopus.",
        "Remember when I got pre-approved for $400,000?",
        "Got a ThinkPad X1 second-hand, and I put Linux on it.",
    ]
    docs = recognizer.parse(texts)
    rebuilt = recognizer.rebuild([rows_of(doc) for doc in docs])
    for doc, again in zip(docs, rebuilt, strict=True):
        assert [(t.tag_, t.lemma_, t.dep_, t.head.i) for t in doc] == [(t.tag_, t.lemma_, t.dep_, t.head.i) for t in again]

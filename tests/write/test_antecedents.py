"""The nouns said before a unit that refers back join its keywords: through the deterministic
extractor with the shipped spaCy model, through a search of a real SQLite memory, and the
stage's own rules."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.records import Turn, UnitDraft, Window
from ripplemem.write.antecedents import CONTEXT_KEYWORDS, context_before, nearest_nouns, refers_back
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.extract_rules import DeterministicExtractor

WHEN = datetime(2023, 5, 8, 13, 56)
SPEAKERS = ("Melanie", "Caroline")
MUSEUM = (
    ("Melanie", "Yesterday I took the kids to the natural history museum."),
    ("Caroline", "What were they so stoked about?"),
    ("Melanie", "They were stoked for the dinosaur exhibit! They loved learning about fossils."),
)


@pytest.fixture(scope="module")
def extractor() -> DeterministicExtractor:
    return DeterministicExtractor(EntityRecognizer())


def window(*turns: tuple[str, str]) -> Window:
    return Window("D1", WHEN, tuple(Turn(f"D1:{i + 1}", s, t) for i, (s, t) in enumerate(turns)), SPEAKERS)


def of_turn(drafts: list[UnitDraft], turn_id: str) -> UnitDraft:
    (unit,) = [d for d in drafts if d.turn_ids[-1] == turn_id]
    return unit


def test_a_reply_that_says_they_keeps_the_nouns_of_the_turns_before(extractor: DeterministicExtractor) -> None:
    (drafts,) = extractor.extract([window(*MUSEUM)])
    reply = of_turn(drafts, "D1:3")
    assert "kids" not in reply.restatement and "museum" not in reply.restatement
    assert {"kids", "museum"} <= set(reply.keywords)
    assert reply.restatement.startswith("Melanie said: They were stoked")  # the words stay as said


def second_keywords(extractor: DeterministicExtractor, first: str, second: str) -> set[str]:
    """The keywords of the second of two turns (Caroline's, then Melanie's)."""
    (drafts,) = extractor.extract([window(("Caroline", first), ("Melanie", second))])
    return set(of_turn(drafts, "D1:2").keywords)


def test_a_unit_that_refers_to_nothing_gets_no_more_keywords(extractor: DeterministicExtractor) -> None:
    kept = second_keywords(extractor, "Yesterday I took the kids to the natural history museum.",
                           "I painted a sunrise over the lake last weekend.")
    assert not {"kids", "museum", "history"} & kept


def test_names_are_not_added(extractor: DeterministicExtractor) -> None:
    kept = second_keywords(extractor, "Jonathan gave me a ukulele for my birthday.", "Do you play it every day?")
    assert "ukulele" in kept and not {"jonathan", "caroline", "melanie"} & kept


def test_a_turn_in_another_language_lends_no_nouns(extractor: DeterministicExtractor) -> None:
    kept = second_keywords(extractor, "Ich habe gestern das rote Fahrrad im Laden gekauft.",
                           "It looks great in the photo you sent me.")
    assert kept <= {"looks", "great", "photo", "sent"}, kept


def words(text: str) -> set[str]:
    return {w.strip(".,!?'").lower() for w in text.split()}


def test_the_first_turn_and_a_shared_photo_get_nothing_before(extractor: DeterministicExtractor) -> None:
    turns = (
        Turn("D1:1", "Melanie", "It was the best holiday of my life, honestly."),
        Turn("D1:2", "Caroline", "Look what I found on the sofa!", caption="a dog asleep on its new bed"),
    )
    (drafts,) = extractor.extract([Window("D1", WHEN, turns, SPEAKERS)])
    assert drafts
    for draft in drafts:  # every keyword is a word of the unit itself
        assert set(draft.keywords) <= words(draft.restatement), draft


def test_the_lexical_view_finds_the_reply_by_the_nouns_before_it(tmp_path: Path) -> None:
    with Memory(Settings(store=str(tmp_path / "m.db"))) as memory:
        memory.add([{"speaker": s, "text": t} for s, t in MUSEUM], namespace="mel", session_time=WHEN)
        found = memory.search("kids museum", namespace="mel", recipe="bm25")
    said = [e.unit.restatement for e in found.evidence]
    assert any("dinosaur exhibit" in text for text in said), said


# -- the stage's own rules -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("They were stoked for the dinosaur exhibit!", True),
        ("It was an awesome time.", True),
        ("Glad to be part of it.", True),
        ("Those are gorgeous!", True),
        ("I adopted a puppy last week.", False),
        ("Italy was lovely.", False),  # a word that starts with "it" is not "it"
        ("She gave me her old bike.", False),  # he and she are the pronoun stage's
    ],
)
def test_refers_back(text: str, expected: bool) -> None:
    assert refers_back(text) is expected


def test_context_before_reads_the_lookback_turns_and_its_own_turn_up_to_it() -> None:
    turns = window(
        ("Melanie", "We went camping at the lake."),
        ("Caroline", "Sounds lovely."),
        ("Melanie", "The kids loved the tent."),
        ("Caroline", "My cat knocked over the vase. It broke into pieces."),
    )
    spans = context_before(turns, 3, "It broke into pieces.")
    texts = [text[:end] for text, end in spans]
    assert texts == ["Sounds lovely.", "The kids loved the tent.", "My cat knocked over the vase. "]
    assert context_before(turns, 0, "We went camping at the lake.") == []


def test_nearest_nouns_reads_backwards_and_skips() -> None:
    tagged = [("Yesterday", "NN"), ("I", "PRP"), ("took", "VBD"), ("the", "DT"), ("kids", "NNS"),
              ("to", "IN"), ("the", "DT"), ("museum", "NN"), ("with", "IN"), ("Jon", "NNP"),
              ("at", "IN"), ("5", "CD"), ("pm", "NN")]  # fmt: skip
    assert nearest_nouns(tagged, {"yesterday"}, {"jon"}) == ("museum", "kids")
    assert nearest_nouns(tagged, count=2) == ("jon", "museum")
    assert CONTEXT_KEYWORDS == 3

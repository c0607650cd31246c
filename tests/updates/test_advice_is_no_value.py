"""Another speaker's advice to the holder ("You should try keto", "Why not move to Leeds?" is a
question and says nothing) is no value of the holder's: an aside, and what is not so now, so it
goes below the holder's own statement that answers. Conversations of their own, written before
the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.latest_first import Holder, _advice
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer

from .dialogues import Sessions, add_sessions, first_rank


def _add(memory: Memory, sessions: Sessions) -> None:
    add_sessions(memory, ("Xia", "Lu"), sessions)


def _first(memory: Memory, question: str, word: str) -> int:
    return first_rank(memory, question, word)


def test_advice_goes_below_the_holders_statement(memory: Memory) -> None:
    _add(memory, [
        ("2022-01-10", [("Xia", "All my notes are in Obsidian now."), ("Lu", "Nice.")]),
        ("2023-02-02", [("Lu", "You should move your notes to Notion, honestly."), ("Xia", "Hmm.")]),
    ])
    question = "Did Xia move her notes to Notion?"
    assert _first(memory, question, "obsidian") < _first(memory, question, "notion")


@pytest.mark.parametrize(
    ("said_by", "text", "advice"),
    [
        ("Lu", "Xia should try the keto diet.", True),  # Lu's advice, "you" resolved to Xia
        ("Lu", "Xia could move to Leeds with us.", True),
        ("Lu", "Should Xia move to Leeds?", False),  # a question says nothing
        ("Lu", "Xia moved to Leeds.", False),  # asserted: someone else's report, an aside as before
        ("Xia", "I should try the keto diet.", False),  # the holder's own words: not advice
        ("Lu", "I should try the keto diet.", False),  # about Lu
    ],
)
def test_advice_is_another_speakers_unasserted_words_about_the_holder(
    said_by: str, text: str, advice: bool
) -> None:
    (doc,) = EntityRecognizer().parse([text])
    holder = Holder("xia", frozenset({"diet", "live"}))
    assert any(_advice(c, holder) for c in clauses_of(doc, said_by, ["Xia", "Lu"])) is advice

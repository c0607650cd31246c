"""A question's closed-class words are not what a lexical search looks for, in any language.

The index drops English "my", "the", "in"; a question in another language kept "meine", "ma",
"mi", so in a small memory "Meine Schwester Anna wohnt in Hamburg" came before the cat for "Wie
heißt meine Katze?" (a question in another language is aligned by BM25 alone).
"""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.language import language_of, searched_words


@pytest.mark.parametrize(
    ("question", "left"),
    [
        ("Wie heißt meine Katze?", {"wie", "heißt", "katze"}),
        ("Où habite ma sœur maintenant ?", {"habite", "sœur", "maintenant"}),
        ("¿Cómo se llama mi gata?", {"¿cómo", "llama", "gata"}),
        ("Dove lavora la mia amica?", {"dove", "lavora", "amica"}),
    ],
)
def test_the_closed_classes_of_the_questions_language_are_left_out(question: str, left: set[str]) -> None:
    assert set(searched_words(question, language_of(question)).lower().replace("?", " ").split()) == left


def test_an_english_question_is_searched_as_written() -> None:
    question = "Where does my sister live in the summer?"
    assert searched_words(question, language_of(question)) == question


@pytest.mark.parametrize("recipe", ["ripple", "bm25"])
def test_the_noun_not_the_possessive_finds_the_memory(recipe: str) -> None:
    with Memory.open("memory://") as memory:
        for text in ["Meine Schwester Anna wohnt in Hamburg.", "Ich habe eine Katze namens Mimi.",
                     "Ma sœur Claire habite à Nantes.", "J'ai une chatte qui s'appelle Mimi.",
                     "Mi hermana vive en Bilbao.", "Tengo una gata que se llama Luna."]:
            memory.add([{"speaker": "Jonas", "text": text}], user_id="jonas", session_time="2024-03-01")
        found = memory.search("Wie heißt meine Katze?", user_id="jonas", recipe=recipe)
        assert "Katze" in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]

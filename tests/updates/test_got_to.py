""""get to" in the simple past entails its infinitive ("I finally got to move into my own place
in Brixton": the move happened, a statement of where Sol lives), as "managed to" does; the
obligation of "I've got to move out" and someone else's doing in "I got my brother to move the
boxes" are not the speaker's statement."""

from __future__ import annotations

import pytest

from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


@pytest.mark.parametrize(("text", "asserted"), [
    ("Sol finally got to move into Sol's own place in Brixton last month.", True),
    ("We got to stay in the old town for the whole week.", True),
    ("Sol has got to move out by June.", False),
    ("Sol got Sol's brother to move the boxes.", False),
])
def test_got_to_entails_only_in_the_simple_past_without_an_object(
    recognizer: EntityRecognizer, text: str, asserted: bool
) -> None:
    (doc,) = recognizer.parse([text])
    infinitive = [c for c in clauses_of(doc, "Sol") if c.predicate in ("move", "stay")]
    assert infinitive, text
    assert (infinitive[0].asserted and infinitive[0].subject in ("sol", "we")) is asserted, infinitive[0]

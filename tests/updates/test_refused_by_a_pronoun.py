"""An offer refused by a pronoun ("The bank offered me a job, but I turned it down"): the "it" is
what the first half offers, so that half is a concession whose value did not come to be (read
as what is not so now, as a refusal's own object is), not a statement of the offerer's taken as
given. The memory's restatement writes the speaker's name for "I" ("..., but Ike turned it
down"): it reads as the "I" it stands for. Conversations of their own, written before the rule."""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.statements.clauses import clauses_of
from ripplemem.write.entities import EntityRecognizer

from .dialogues import add_sessions, first_rank


@pytest.mark.parametrize(
    "text",
    [
        "The bank offered me a job, but I turned it down.",
        "The bank offered Ike a job, but Ike turned it down.",
        "My boss offered me the Leeds role but I declined it.",
        "The bank offered me a job, but I passed on it.",
        "The agent showed us the flat in Hove, but we said no to it.",
    ],
)
def test_the_first_half_of_a_refusal_by_a_pronoun_did_not_come_to_be(text: str) -> None:
    (doc,) = EntityRecognizer().parse([text])
    offer, refusal = clauses_of(doc, "ike")[:2]
    assert offer.irrealis and not offer.presupposed and not offer.asserted
    assert refusal.irrealis


@pytest.mark.parametrize(
    "text",
    [
        "We moved to Leeds in May, but my brother stayed in York.",  # two subjects side by side
        "The bank offered me a job, but the pay was awful.",  # no refusal
        "I turned down the job at the bank.",  # a refusal's own object
    ],
)
def test_other_buts_keep_their_reading(text: str) -> None:
    (doc,) = EntityRecognizer().parse([text])
    first = clauses_of(doc, "ike")[0]
    assert first.irrealis == ("turned down" in text)


def test_the_restated_name_reads_as_the_speakers_i() -> None:
    parsed = EntityRecognizer().parse(["I stayed in York, but Ike's sister moved to Leeds."])
    (said,) = parsed
    assert clauses_of(said, "ike")[0].presupposed  # two subjects: the first half is given
    (conceded,) = EntityRecognizer().parse(["My sister moved to Leeds, but Ike stayed in York."])
    (also,) = EntityRecognizer().parse(["My sister moved to Leeds, but I stayed in York."])
    assert clauses_of(conceded, "ike")[0].presupposed == clauses_of(also, "ike")[0].presupposed


def test_an_offer_refused_by_a_pronoun_goes_below_an_unread_memory(memory: Memory) -> None:
    add_sessions(memory, ("Ike", "Lu"), [
        ("2022-01-10", [("Ike", "Monzo's remote setup suits me."), ("Lu", "Nice.")]),
        ("2023-02-02", [("Ike", "Revolut offered me a job but I turned it down, the commute would kill me."),
                        ("Lu", "Fair.")]),
    ])
    question = "Where does Ike work?"
    assert first_rank(memory, question, "monzo") < first_rank(memory, question, "revolut")

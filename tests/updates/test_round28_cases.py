"""Update situations of round 28, written before any rule of that round, after a current
question of the fresh update suite's tune split ("at my review she increased the sertraline to
100mg"): someone changes a particular thing the question names, written with "the" and no
owner ("the coach moved the training to Wednesdays"), against a change to someone else's thing,
to another thing, or to a price for other people.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round28_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("sertraline-review", "current", "Dan",
         ("2023-05-10", "My sertraline dose is 50mg, one tablet every morning."),
         ("2023-09-18", "At my review last week the GP increased the sertraline to 100mg."),
         "What dose of sertraline is Dan on?", "100mg", "50mg"),
    Case("book-club-crown", "current", "Ada",
         ("2022-02-03", "The book club meets at the library on Thursdays."),
         ("2022-09-15", "The organiser moved the book club to the Crown pub, more room there."),
         "Where does Ada's book club meet?", "Crown", "library"),
    Case("smiths-rent", "control", "Joe",
         ("2023-01-09", "Our rent is 900 a month, bills on top."),
         ("2023-07-03", "The landlord put the Smiths' rent up to 1,100, poor things."),
         "How much rent does Joe pay?", "900", "1,100"),
    Case("training-wednesday", "current", "Leo",
         ("2021-04-06", "Training is on Tuesday nights at the park."),
         ("2021-10-12", "The coach moved the training to Wednesday nights at the sports hall."),
         "When is Leo's training?", "Wednesday", "Tuesday"),
    Case("sister-appointment", "control", "Kat",
         ("2024-01-08", "My appointment is on Monday at 9, at the Elm Street surgery."),
         ("2024-01-15", "The dentist moved my sister's appointment to Friday afternoon."),
         "When is Kat's appointment?", "Monday", "Friday"),
    Case("wedding-barn", "current", "Lou",
         ("2022-03-21", "The wedding is at the registry office in June."),
         ("2022-08-29", "Priya's mum moved the wedding to a barn in Devon, she insisted."),
         "Where is Lou's wedding?", "barn", "registry"),
    Case("choir-orchestra", "control", "Mo",
         ("2023-02-13", "The choir rehearses at St Mark's church on Mondays."),
         ("2023-06-26", "The director moved the orchestra to the town hall for the summer."),
         "Where does Mo's choir rehearse?", "St Mark", "town hall"),
    Case("physio-mondays", "current", "Ben",
         ("2022-11-04", "My physio sessions are on Fridays at the clinic on Bridge Road."),
         ("2023-01-20", "The clinic moved the physio sessions to Mondays after Christmas."),
         "When are Ben's physio sessions?", "Mondays", "Fridays"),
    Case("broadband-new-customers", "control", "Sue",
         ("2023-03-06", "We pay 40 a month for broadband with Virgin."),
         ("2023-08-14", "Virgin put the price up to 55 a month for new customers."),
         "How much does Sue pay for broadband?", "40 a month", "55 a month"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round28_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

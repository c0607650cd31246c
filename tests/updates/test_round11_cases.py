"""Update situations of round 11, written before any rule of that round: questions that ask
for a kind of value ("where", "who", "how many", "how much"), a later statement of the holder
that gives a value of that kind, and controls where the holder's later small talk gives no value
of the kind asked ("I'm so sorry to hear that", "I had a quiet weekend at home"). Two thirds of
them (every case but each third one as first written): the part the rules of that round are
developed against; the rest is test_round11_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("truro", "current", "Nell",
         ("2022-01-01", "I live in Exeter, near the quay."),
         ("2022-06-06", "I moved to Truro in March, it's lovely down here."),
         "Where does Nell live?", "Truro", "Exeter"),
    Case("rent-870", "current", "Kit",
         ("2021-02-02", "My rent is 800 a month for the studio."),
         ("2021-09-09", "The landlord put it up, I pay 870 now."),
         "How much does Kit pay for rent?", "870", "800"),
    Case("lives-with", "current", "Vera",
         ("2020-03-03", "I live with my sister Jo in a flat in Brighton."),
         ("2020-10-10", "These days I live with my partner Sam in Hove."),
         "Who does Vera live with?", "Sam", "Jo"),
    Case("kids-three", "current", "Dom",
         ("2019-04-04", "We have two kids, both at the primary school."),
         ("2020-01-20", "Our third was born in December, so we have three kids now."),
         "How many kids does Dom have?", "three kids", "two kids"),
    Case("boss-who", "current", "Ama",
         ("2022-02-02", "My manager is Clive, he's fine."),
         ("2022-08-08", "Clive left, my new manager is Priti and she's great."),
         "Who is Ama's manager?", "Priti", "he's fine"),
    # controls: the holder's later small talk gives no value of the kind asked
    Case("partner-sorry", "control", "Tara",
         ("2021-05-05", "My boyfriend Luke and I have been together three years."),
         ("2021-11-11", "I'm so sorry to hear that, that's really hard."),
         "Who is Tara's partner?", "Luke", "sorry"),
    Case("cats-weekend", "control", "Pam",
         ("2022-03-03", "I have two cats, Tom and Jerry."),
         ("2022-09-09", "I had a lovely quiet weekend at home with a good book."),
         "How many cats does Pam have?", "two cats", "quiet weekend"),
    Case("work-tired", "control", "Gil",
         ("2020-06-06", "I work at the Royal Mail depot on nights."),
         ("2020-12-12", "I've been really tired lately, I need a holiday."),
         "Where does Gil work?", "Royal Mail", "tired"),
    Case("salary-bike", "control", "Joss",
         ("2023-01-01", "I earn 38,000 a year at the council."),
         ("2023-05-05", "I bought a second-hand road bike and I love it."),
         "How much does Joss earn?", "38,000", "road bike"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round11_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

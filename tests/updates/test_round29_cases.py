"""Update situations of round 29, written before any rule of that round, after the kept-apart
cases of rounds 26 and 28 ("My brother bought a Tesla", "Priya's mum moved the wedding"):
a person named by a noun, not a name ("my dad", "Sam's dad", "my mother-in-law"), changes a
particular thing the question names (the holder's change, told by who made it), against the
same kind of person buying or changing something of their own or someone else's.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round29_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("dad-tesla", "control", "Nia",
         ("2022-04-11", "I drive a grey Skoda Octavia, it's done 80,000 miles."),
         ("2022-10-17", "My dad bought a Tesla last month, he won't stop talking about it."),
         "Did Nia buy a Tesla?", "Skoda", "Tesla"),
    Case("sister-octopus", "control", "Ola",
         ("2023-01-16", "We're with EDF for our gas and electricity."),
         ("2023-06-05", "My sister switched to Octopus Energy in March, she says the app is great."),
         "Did Ola switch to Octopus?", "EDF", "Octopus"),
    Case("party-red-lion", "current", "Ivy",
         ("2022-05-02", "The party is at the community hall on Saturday the 14th."),
         ("2022-05-09", "Sam's dad moved the party to the Red Lion garden, the hall double-booked."),
         "Where is Ivy's party?", "Red Lion", "community hall"),
    Case("christening-chapel", "current", "Rae",
         ("2021-02-08", "The christening is at St Mary's church in May."),
         ("2021-03-22", "My mother-in-law moved the christening to June, at the chapel in Bray."),
         "Where is Rae's christening?", "chapel", "St Mary"),
    Case("neighbour-rent", "control", "Tariq",
         ("2023-03-13", "My rent is 800 a month, including water."),
         ("2023-09-04", "My neighbour's landlord put her rent up to 950, she's furious."),
         "How much rent does Tariq pay?", "800", "950"),
    Case("teacher-lesson", "current", "Eli",
         ("2022-09-05", "My piano lesson is on Tuesdays at five."),
         ("2023-01-09", "My teacher moved my lesson to Thursdays at six."),
         "When is Eli's piano lesson?", "Thursdays", "Tuesdays"),
    Case("brother-sheffield", "control", "Gil",
         ("2021-06-07", "I work at the Leeds office, on the third floor."),
         ("2021-11-15", "My brother moved to the Sheffield office last week."),
         "Which office does Gil work at?", "Leeds", "Sheffield"),
    Case("reunion-harrogate", "current", "Mel",
         ("2023-04-03", "The reunion is at the Grand Hotel in York."),
         ("2023-07-10", "Jo's husband moved the reunion to a pub in Harrogate, cheaper."),
         "Where is Mel's reunion?", "Harrogate", "Grand Hotel"),
    Case("son-kobo", "control", "Ed",
         ("2022-12-05", "I read on a Kindle Paperwhite, mostly crime novels."),
         ("2023-02-20", "My son bought a Kobo Libra with his birthday money."),
         "Did Ed buy a Kobo?", "Kindle", "Kobo"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "sister-octopus": "the sister's switch now reads as hers (an aside), but the memory of the true value ('We're "
                      "with EDF') is more than 0.25 less relevant than it and does not answer, so nothing goes "
                      "below it (as round 26's octopus-going-to)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round29_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

"""Update situations of round 6, written before any rule of that round: turns dense with time
expressions ("as of this month", "since the review in April", "two weeks ago", "back in 2015",
"for a week in July", "when I was a kid"), questions worded unlike the memories ("Where is Luca
living these days?", "Is Rhea vegetarian?"), and money, medication, routines, clubs, other
people's jobs. The controls tell of an earlier time, a bounded stay, a plan that fell through or
someone else's change: nothing new of the holder's value.
This is the third kept apart (each third case as first written, split off before any rule
change): read once, at the end of the round."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("spin-class", "current", "Hana",
         ("2022-09-05", "I do the 6pm spin class on Tuesdays at the gym."),
         ("2023-01-16", "Two weeks ago I switched to the 7am spin class on Thursdays, way less crowded."),
         "When does Hana go to spin class?", "7am", "6pm"),
    Case("giffgaff", "current", "Ola",
         ("2022-01-01", "I'm on a Three contract, 25 pounds a month with unlimited data."),
         ("2022-09-19", "Last month I moved my number over to giffgaff, it's only 10 pounds."),
         "Which mobile network is Ola on?", "giffgaff", "Three contract"),
    Case("evening-runs", "current", "Nadia",
         ("2023-01-01", "I run before work at 6, every weekday."),
         ("2023-04-04", "Since the clocks changed I've been running in the evenings after work instead."),
         "When does Nadia go running?", "evenings", "before work"),
    Case("ama-first-team", "current", "Jon",
         ("2022-05-05", "My friend Ama coaches the under-12s at the cricket club."),
         ("2022-10-10", "Ama's moved up to coaching the first team this season, she's thrilled."),
         "Which team does Ama coach?", "first team", "under-12s"),
    Case("used-to-40mg", "control", "Ruth",
         ("2023-01-01", "I take 20mg of omeprazole a day."),
         ("2023-03-03", "I used to take 40mg of omeprazole years ago, but it gave me headaches."),
         "How much omeprazole does Ruth take?", "20mg", "40mg"),
    Case("mate-virgin", "control", "Gus",
         ("2022-03-03", "My broadband is with BT, about 35 pounds a month."),
         ("2022-07-07", "My mate switched his broadband to Virgin last month and says it's much faster."),
         "Who is Gus's broadband with?", "BT", "Virgin"),
    Case("oakwood-fell-through", "control", "Vic",
         ("2022-01-01", "I'm a member of the Riverside tennis club."),
         ("2022-05-05", "I was going to join the Oakwood golf club in April, but it fell through."),
         "Which club is Vic a member of?", "Riverside", "Oakwood"),
    Case("rent-at-first", "earlier", "Lou",
         ("2022-03-03", "Our rent is 950 a month, bills included."),
         ("2023-03-03", "Since March our rent has gone up to 1,080, bills still included."),
         "What was Lou's rent at first?", "950", "1,080"),
]


#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET = {
    "evening-runs": "kept apart: fails at the split and at the end of round 6 (not investigated)",
    "ama-first-team": "kept apart: fails at the split and at the end of round 6 (not investigated)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round6_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

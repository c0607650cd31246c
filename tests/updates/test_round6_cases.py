"""Update situations of round 6, written before any rule of that round: turns dense with time
expressions ("as of this month", "since the review in April", "two weeks ago", "back in 2015",
"for a week in July", "when I was a kid"), questions worded unlike the memories ("Where is Luca
living these days?", "Is Rhea vegetarian?"), and money, medication, routines, clubs, other
people's jobs. The controls tell of an earlier time, a bounded stay, a plan that fell through or
someone else's change: nothing new of the holder's value.
Two thirds of them (every case but each third one as first written): the part the rules of that
round are developed against; the rest is test_round6_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("rent-asof", "current", "Priya",
         ("2022-03-01", "My rent is 1,150 a month for the one-bed in Hackney."),
         ("2022-11-04", "As of this month the landlord put my rent up to 1,320, which is brutal."),
         "How much is Priya's rent?", "1,320", "1,150"),
    Case("meds-since", "current", "Dan",
         ("2023-01-10", "I take 50mg of sertraline every morning."),
         ("2023-05-22", "Since the review in April I've been on 100mg of sertraline, and I sleep better."),
         "What dose of sertraline does Dan take?", "100mg", "50mg"),
    Case("walking-football", "current", "Kev",
         ("2021-04-04", "I play five-a-side with the Tuesday lot at the leisure centre."),
         ("2021-10-10", "These days I mostly play walking football with my dad's club on Saturdays, my knee can't take five-a-side."),
         "What football does Kev play?", "walking football", "Tuesday lot"),
    Case("husband-surgery", "current", "Zara",
         ("2022-02-14", "My husband Tariq works as a nurse at St Mary's."),
         ("2022-12-01", "Tariq started at the GP surgery on the high street in October, so no more night shifts for him."),
         "Where does Tariq work?", "GP surgery", "St Mary's"),
    Case("luca-munich", "current", "Gio",
         ("2023-02-02", "My brother Luca lives in Turin and works for Fiat."),
         ("2023-09-09", "Luca's been based in Munich since the summer, BMW poached him."),
         "Where is Luca living these days?", "Munich", "Turin"),
    Case("chickens", "current", "Beth",
         ("2022-04-04", "I've got 40 chickens on the smallholding now."),
         ("2022-10-10", "After the hatch in September we're up to 55 chickens."),
         "How many chickens does Beth have?", "55 chickens", "40 chickens"),
    Case("yaris", "current", "Mo",
         ("2021-05-05", "I drive a 2009 Ford Focus, it's falling apart."),
         ("2022-02-02", "On 3 January I finally picked up my new car, a secondhand Toyota Yaris hybrid."),
         "What car does Mo drive?", "Toyota Yaris", "Ford Focus"),
    Case("fish-again", "current", "Rhea",
         ("2022-06-06", "I'm vegetarian, have been for years."),
         ("2023-02-02", "I'm no longer vegetarian, since January I eat fish again on doctor's orders."),
         "Is Rhea vegetarian?", "no longer vegetarian", "have been for years"),
    # a later turn that tells no new value of the holder's: an earlier time, a bounded stay,
    # a plan, someone else's change
    Case("back-in-2015", "control", "Fay",
         ("2022-01-01", "I work as a paralegal at a firm in Manchester."),
         ("2022-06-06", "Back in 2015 I worked at a call centre in Leeds, worst job ever."),
         "Where does Fay work?", "paralegal", "call centre"),
    Case("kid-in-cork", "control", "Cian",
         ("2021-01-01", "I live in Galway, near the harbour."),
         ("2021-05-05", "When I was a kid we lived in Cork for a few years."),
         "Where does Cian live?", "Galway", "Cork"),
    Case("week-in-cardiff", "control", "Ned",
         ("2022-02-02", "I live in Bristol, in a flat in Easton."),
         ("2022-08-08", "For a week in July I stayed at my sister's in Cardiff while my flat was painted."),
         "Where does Ned live?", "Bristol", "Cardiff"),
    Case("year-3-maybe", "control", "Kim",
         ("2023-01-01", "I teach Year 6 at the primary school."),
         ("2023-06-06", "From September I might be teaching Year 3, nothing's confirmed yet."),
         "Which year does Kim teach?", "Year 6", "Year 3"),
    Case("two-weeks-lisbon", "control", "Ross",
         ("2023-02-02", "I live in Edinburgh with my girlfriend."),
         ("2023-08-08", "We spent two amazing weeks in Lisbon in June, I didn't want to come home."),
         "Where does Ross live?", "Edinburgh", "Lisbon"),
    Case("last-year-35k", "control", "Tess",
         ("2023-01-01", "I earn 42k now after the promotion."),
         ("2023-04-04", "Last year I was on 35k, so the promotion made a real difference."),
         "How much does Tess earn?", "42k", "35k"),
    # the question asks for the earlier value
    Case("isla-nursery", "earlier", "Mark",
         ("2022-02-02", "My daughter Isla goes to Greenfield nursery three days a week."),
         ("2022-09-09", "Isla started at St Anne's primary in September, she loves it."),
         "Which nursery did Isla go to before she started school?", "Greenfield", "St Anne's"),
    Case("honda-first", "earlier", "Abe",
         ("2021-01-01", "I ride a Honda CB500 to work every day."),
         ("2021-07-07", "Since May I've been commuting on a Yamaha Tracer, the Honda got stolen."),
         "What motorbike did Abe ride originally?", "CB500", "Yamaha"),
]


#: cases the read path does not pass yet, and why
NOT_YET = {
    "meds-since": "the restatement 'Since the review in April Dan has been on 100mg' is parsed with "
    "'the review in April Dan' as the subject (a name right after a fronted phrase, no comma)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round6(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

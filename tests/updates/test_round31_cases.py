"""Update situations of round 31, written before any rule of that round: a new value told as chat
writes it, with neither subject nor verb ("Still at Acme.", "New deadlift PR: 102.5kg!", "Back on
the night shift."), or by a quantified "us" ("Most of us moved over to Gracie Barra"), against
the same kind of fragment about someone else, a fragment that asks or wishes, and one with no
value.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round31_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("still-acme", "control", "Dev",
         ("2022-03-07", "I work at Acme as a data analyst."),
         ("2022-11-14", "Great news about Tom's new job at Google, he's over the moon."),
         "Where does Dev work?", "Acme", "Google"),
    Case("deadlift-pr", "current", "Rosa",
         ("2023-05-05", "My deadlift PR is 80kg for one rep."),
         ("2024-03-15", "New deadlift PR: 102.5kg! Finally over 100."),
         "What's Rosa's deadlift personal best?", "102.5", "80kg"),
    Case("night-shift", "current", "Omar",
         ("2021-06-01", "I'm on days at the depot, six till two."),
         ("2021-12-06", "Back on the night shift at the depot, ten till six."),
         "Which shift does Omar work?", "night shift", "six till two"),
    Case("gracie-barra", "current", "Leo",
         ("2023-01-15", "I train at Roots BJJ on Canal Street three nights a week."),
         ("2023-10-02", "Roots closed in August. Most of us moved over to Gracie Barra by the station."),
         "Which gym does Leo train at?", "Gracie Barra", "Roots BJJ"),
    Case("fingers-crossed", "control", "Nell",
         ("2022-02-21", "I teach maths at Hillside Academy."),
         ("2022-06-13", "Fingers crossed for the head of department job at Kingsway."),
         "Where does Nell teach?", "Hillside", "Kingsway"),
    Case("two-kids", "current", "Priti",
         ("2020-04-06", "We've got one little boy, Arjun, he's two."),
         ("2022-09-12", "Two kids now, both at Oakfield Primary since September."),
         "How many children does Priti have?", "Two kids", "one little boy"),
    Case("book-club-fragment", "current", "Ruth",
         ("2023-05-02", "My book club is reading Demon Copperhead this month."),
         ("2023-09-10", "This month? Tomorrow, and Tomorrow, and Tomorrow. Loved it so far."),
         "Which book is Ruth's book club reading?", "Tomorrow, and Tomorrow", "Demon Copperhead"),
    Case("meal-deal-ask", "control", "Ade",
         ("2023-09-04", "I bring homemade lentil soup to work every day now."),
         ("2024-01-08", "Meal deal from Tesco for old times' sake? Tempting."),
         "What does Ade have for lunch at work?", "lentil soup", "Meal deal"),
    Case("most-of-them", "control", "Iris",
         ("2022-05-16", "I swim at the Leisure Centre pool before work."),
         ("2022-10-03", "The pool closed for repairs, so most of them moved over to the lido."),
         "Where does Iris swim?", "Leisure Centre", "lido"),
    Case("lovely-day", "control", "Max",
         ("2023-03-20", "I live in a flat in Hove, near the seafront."),
         ("2023-08-14", "Lovely day in Brighton yesterday, proper sunshine."),
         "Where does Max live?", "Hove", "Brighton"),
    Case("new-car-fragment", "current", "Gail",
         ("2021-02-01", "I drive an old red Fiesta."),
         ("2021-08-23", "New car! A blue Kia Picanto, tiny but perfect."),
         "What car does Gail drive?", "Kia Picanto", "Fiesta"),
    Case("sisters-flat", "control", "Bea",
         ("2022-01-10", "I rent a room in a shared house in Leyton."),
         ("2022-07-04", "Big news from my sister: a flat in Hackney, finally."),
         "Where does Bea live?", "Leyton", "Hackney"),
]

CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {}  # 'book-club-fragment' passes since an opening echo question is no question (QA7 Q7-06)


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round31_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

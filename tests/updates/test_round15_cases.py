"""Update situations of round 15, written before any rule of that round: the new value told
inside an ask, in a clause the ask rests on ("What time should I set my alarm, considering I
start at 8 now?", "Any tips for the commute, since I work in Canary Wharf these days?", "I'm
planning to play on Sunday, like we do every other week"), and controls where the clause inside
the ask is not the holder's value: a condition, someone else's, a wish. Two thirds of them
(every case but each third one as written): the part the rules of that round are developed
against; the rest is test_round15_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("alarm-8", "current", "Ada",
         ("2022-01-10", "I start work at 9 every morning."),
         ("2022-06-10", "What time should I set my alarm, considering I start work at 8 now?"),
         "What time does Ada start work?", "at 8 now", "at 9 every"),
    Case("wharf", "current", "Bea",
         ("2021-03-03", "I work in Croydon at an insurance firm."),
         ("2021-09-09", "Any tips for the commute, since I work in Canary Wharf these days?"),
         "Where does Bea work?", "Canary Wharf", "Croydon"),
    Case("tennis-fortnight", "current", "Cy",
         ("2023-02-02", "I play squash with Tom every Monday."),
         ("2023-07-07", "I'm planning to book a court for Sunday, like we do every other week now."),
         "How often does Cy play with Tom?", "every other week", "every Monday"),
    Case("feed-twice", "current", "Dov",
         ("2020-04-04", "We feed Rex once a day, in the evening."),
         ("2020-10-10", "Could you recommend a dry food, as we feed Rex twice a day now?"),
         "How often is Rex fed?", "twice a day", "once a day"),
    Case("energy-120", "current", "Eve",
         ("2022-05-05", "I pay 90 a month for gas and electricity."),
         ("2022-11-11", "Can you find me a cheaper tariff, because I pay 120 a month now?"),
         "How much does Eve pay for energy?", "120", "90 a month"),
    Case("hove-route", "current", "Fin",
         ("2021-06-06", "I live in Worthing, near the pier."),
         ("2021-12-12", "Do you know a good running route, given that I live in Hove now?"),
         "Where does Fin live?", "Hove", "Worthing"),
    Case("vegan-recipes", "current", "Gus",
         ("2020-07-07", "I'm vegetarian, but I still eat eggs and cheese."),
         ("2021-01-07", "Can you suggest some quick dinners, seeing as I'm fully vegan now?"),
         "What diet does Gus follow?", "fully vegan", "vegetarian, but"),
    Case("night-shift", "current", "Hal",
         ("2022-08-08", "I work day shifts at the warehouse."),
         ("2023-02-08", "How do I sleep better, now that I work nights at the warehouse?"),
         "What shifts does Hal work?", "nights at", "day shifts"),
    Case("bus-now", "current", "Ivy",
         ("2023-03-03", "I drive to the office every day."),
         ("2023-09-03", "Which podcast should I try, as I take the bus to the office now?"),
         "How does Ivy get to the office?", "take the bus", "drive to the office"),
    # controls: the clause inside the ask is a condition, someone else's, or a wish
    Case("if-hove", "control", "Jo",
         ("2021-02-02", "I live in Worthing with my partner."),
         ("2021-08-08", "Would it be worth it if I moved to Hove for the new job?"),
         "Where does Jo live?", "Worthing", "Hove"),
    Case("sister-leeds", "control", "Kit",
         ("2020-03-03", "I live in York, right by the minster."),
         ("2020-09-09", "Can you recommend a school near Leeds, since my sister lives there now?"),
         "Where does Kit live?", "York", "Leeds"),
    Case("wish-octopus", "control", "Lou",
         ("2022-04-04", "My energy supplier is EDF."),
         ("2022-10-04", "Should I switch to Octopus, considering my neighbour pays less with them?"),
         "Who is Lou's energy supplier?", "EDF", "Octopus"),
    Case("wish-nights", "control", "Mo",
         ("2021-05-05", "I work day shifts at the hospital."),
         ("2021-11-05", "How would I cope, given that I'd work nights if I took the promotion?"),
         "What shifts does Mo work?", "day shifts", "work nights"),
    Case("friend-vegan", "control", "Ned",
         ("2023-01-01", "I'm vegetarian and have been for years."),
         ("2023-06-01", "Can you suggest a dinner menu, as my friend Ola is vegan now?"),
         "What diet does Ned follow?", "vegetarian and", "vegan now"),
    Case("plan-bus", "control", "Ola",
         ("2022-02-02", "I drive to work every day."),
         ("2022-08-02", "Is a bus pass worth it, considering I might take the bus from next month?"),
         "How does Ola get to work?", "drive to work", "take the bus"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "alarm-8": "misparse: with the stand-in name ('What time should John set John's alarm, considering John "
               "starts work at 8 now?') the parser takes 'starts' for the subject of 'work', so the clause under "
               "'considering' has no verb of its own",
    "feed-twice": "'How often is Rex fed?' asks about Rex, the fed one: the speaker's 'we feed Rex ...' are read "
                  "as asides of another holder",
    "vegan-recipes": "'seeing as I'm fully vegan now': 'seeing' is parsed as a clause of its own with no subject, "
                     "the 'as' clause under it is read as no one's",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round15_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

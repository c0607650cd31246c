"""Update situations of round 4, written before any rule of that round, in areas and wordings of
their own: money, health, routines, other people's jobs, subscriptions, places visited versus
lived in, preferences that flip, offers declined without "but", other people's plans,
conditionals, reported speech, and questions that ask for the earlier value. This is the third
kept apart (each third case as first written, split off before any rule change): the rules of
that round were not developed against it, and it is read once, at the end of the round."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("running", "current", "Paul",
         ("2023-02-06", "I go running at six every morning before work."),
         ("2023-07-21", "These days I run in the evening after dinner, mornings were too hard."),
         "When does Paul go running?", "evening", "six every morning"),
    Case("olives", "current", "Mei",
         ("2021-04-02", "Olives are disgusting, I pick them off every pizza."),
         ("2022-04-20", "Funny thing, I love olives now, I snack on them all the time."),
         "Does Mei like olives?", "olives now", "disgusting"),
    Case("electricity", "current", "Rhys",
         ("2022-06-01", "Our electricity bill is about 80 euros a month."),
         ("2023-01-15", "The electricity bill jumped to 130 euros a month this winter."),
         "How much is Rhys's electricity bill?", "130", "80 euros"),
    Case("cousin-job", "current", "Ben",
         ("2023-04-04", "My cousin Priya works at a cafe near the station as a barista."),
         ("2023-10-10", "Priya finished her training and works as a nurse at the infirmary."),
         "Where does Priya work?", "infirmary", "barista"),
    # a change that did not happen to the holder's value
    Case("declined-nurse", "control", "Ines",
         ("2023-02-02", "I work as a nurse at the city hospital."),
         ("2023-07-07", "I turned down the offer from the private clinic in the end."),
         "Where does Ines work?", "city hospital", "private clinic"),
    Case("conference", "control", "Pablo",
         ("2022-05-05", "I live in Madrid, in a flat near the Retiro park."),
         ("2022-10-10", "I was in Seville last month for a work conference."),
         "Where does Pablo live?", "Madrid", "Seville"),
    Case("dad-says", "control", "Gino",
         ("2023-03-13", "I drive a red Fiat Panda, it's tiny but fine."),
         ("2023-09-23", "My dad says a Toyota Yaris would be far more reliable."),
         "What car does Gino drive?", "Panda", "Yaris"),
    Case("sister-thinking", "control", "Tom",
         ("2022-03-30", "My sister Jo lives in Cardiff near the bay."),
         ("2022-09-30", "Jo is thinking about moving to Bristol for her partner."),
         "Where does Jo live?", "Cardiff", "Bristol"),
    Case("provider", "control", "Will",
         ("2023-04-14", "My phone contract is with Vodafone."),
         ("2023-10-24", "I'm going to switch to Three when the contract runs out in spring."),
         "Which phone network is Will with?", "Vodafone", "Three"),
    Case("salary", "earlier", "Kim",
         ("2022-01-20", "My salary is 42,000 a year at the agency."),
         ("2023-01-20", "I got a raise, my salary is 48,000 now."),
         "What was Kim's salary before the raise?", "42,000", "48,000"),
    Case("bank", "earlier", "Lucy",
         ("2021-06-06", "I bank with Barclays, I've had the account since school."),
         ("2022-06-06", "I moved my current account to Monzo."),
         "Which bank was Lucy with before?", "Barclays", "Monzo"),
]


@pytest.mark.parametrize("case", with_reasons(CASES, {}))
def test_round4(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

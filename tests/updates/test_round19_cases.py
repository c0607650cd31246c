"""Update situations of round 19, written before any rule of that round, after a pattern seen in
LongMemEval's knowledge-update questions (public data nobody here wrote): a question that asks how
often, and a new frequency told beside other words that fit the question better - a plan for the
next time, a booking ("I'm planning to play tennis at the park this Sunday, like we do every
other week"). Controls use the same words for no new frequency of the holder's (someone else's,
a condition, someone's advice, a thought). Two thirds of them (every case but each third one as
written): the part the rules of that round are developed against; the rest is
test_round19_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("tennis-other-week", "current", "Ada",
         ("2022-03-06", "I play tennis with friends at the park every Sunday."),
         ("2022-07-31", "I'm planning to play tennis with friends at the park this Sunday, like we do every other week."),
         "How often does Ada play tennis?", "every other week", "every Sunday"),
    Case("gym-twice", "current", "Ben",
         ("2021-01-18", "I go to the gym four times a week."),
         ("2021-09-13", "Heading to the gym tonight, I only manage twice a week these days."),
         "How often does Ben go to the gym?", "twice a week", "four times a week"),
    Case("mum-calls", "current", "Cat",
         ("2020-02-10", "I ring my mum every evening."),
         ("2020-10-12", "Going to call my mum tomorrow, we talk once a week now that she's busy."),
         "How often does Cat call her mum?", "once a week", "every evening"),
    Case("swim-weekends", "current", "Dan",
         ("2023-01-09", "I swim every morning before work."),
         ("2023-06-12", "I want to try the new pool on Friday; I swim at weekends only these days."),
         "How often does Dan swim?", "weekends only", "every morning"),
    Case("club-monthly", "current", "Eve",
         ("2022-01-10", "Our book club meets every week."),
         ("2022-08-15", "Book club is on Thursday, we've moved to meeting monthly."),
         "How often does Eve's book club meet?", "meeting monthly", "every week"),
    Case("haircut-quarterly", "current", "Fin",
         ("2021-04-12", "I get my hair cut every month."),
         ("2021-11-15", "Booked a haircut for Saturday - I only go every three months now."),
         "How often does Fin get a haircut?", "every three months", "every month"),
    Case("running-daily", "current", "Gia",
         ("2023-01-02", "I run three times a week."),
         ("2023-05-08", "Doing a 10K on Sunday; I've been running daily since January."),
         "How often does Gia run?", "running daily", "three times a week"),
    Case("dad-monthly", "current", "Hal",
         ("2020-03-02", "I visit my dad every weekend."),
         ("2020-09-07", "Seeing my dad next Saturday, I get up there about once a month now with the new job."),
         "How often does Hal visit his dad?", "once a month", "every weekend"),
    # controls: the same kind of words, no new frequency of the holder's
    Case("sister-every-other-day", "control", "Ivo",
         ("2022-03-06", "I play tennis every Sunday."),
         ("2022-07-31", "I'm playing tennis this Sunday; my sister plays every other day."),
         "How often does Ivo play tennis?", "every Sunday", "every other day"),
    Case("if-daily", "control", "Jo",
         ("2021-01-18", "I go to the gym four times a week."),
         ("2021-09-13", "Heading to the gym tonight; if I had more time I'd go daily."),
         "How often does Jo go to the gym?", "four times a week", "go daily"),
    Case("coach-twice", "control", "Kai",
         ("2023-01-09", "I swim every morning before work."),
         ("2023-06-12", "My coach says I should swim twice a day."),
         "How often does Kai swim?", "every morning", "twice a day"),
    Case("thinking-quarterly", "control", "Lin",
         ("2021-04-12", "I get my hair cut every month."),
         ("2021-11-15", "I'm thinking of only getting it cut every three months."),
         "How often does Lin get a haircut?", "every month", "every three months"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round19_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

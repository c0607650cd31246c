"""Update situations of round 18, written before any rule of that round, after three patterns
seen in LongMemEval's knowledge-update questions (public data nobody here wrote): the new value
told inside a question or request as what the question takes as given ("..., considering I get
up at five now?", "now that I live in Leeds"); told in a relative clause that stands for the whole
sentence before it ("..., which brings my tally to 41 species"); and a question about a thing of
a person it names elsewhere than as its subject ("How many women are on the team led by
Rachel?"). Controls use the same words for no new value of the holder's ("considering" as a
plan, a condition, a "would", someone else's total, another person's team). Two thirds of them
(every case but each third one as written): the part the rules of that round are developed
against; the rest is test_round18_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    # the new value as what a question or request takes as given
    Case("vegetarian-given", "current", "Ada",
         ("2022-03-07", "I eat meat with most meals, chicken mostly."),
         ("2022-09-19", "Can you suggest a curry for Friday, given that I'm vegetarian now?"),
         "What diet does Ada follow?", "vegetarian now", "chicken mostly"),
    Case("up-at-five", "current", "Bea",
         ("2021-01-11", "I get up at half six on weekdays."),
         ("2021-06-14", "What's a good time to start my run, considering I get up at five now?"),
         "What time does Bea get up?", "up at five", "half six"),
    Case("now-that-leeds", "current", "Cal",
         ("2023-02-06", "I live in a flat in Croydon."),
         ("2023-08-21", "Which football club should I follow now that I live in Leeds?"),
         "Where does Cal live?", "Leeds", "Croydon"),
    Case("seeing-as-nights", "current", "Dee",
         ("2020-04-13", "I work day shifts at the hospital."),
         ("2020-10-05", "How do I sleep properly, seeing as I'm on nights at the hospital now?"),
         "What shifts does Dee work?", "on nights", "day shifts"),
    # the new value in a relative clause that stands for the sentence before it
    Case("tally-41", "current", "Gus",
         ("2022-04-04", "I've spotted 40 species of birds on the marsh so far."),
         ("2022-05-16", "Saw a bittern on the marsh yesterday, which brings my tally to 41 species."),
         "How many bird species has Gus seen on the marsh?", "tally to 41", "40 species"),
    Case("deposit-fund", "current", "Hal",
         ("2021-02-01", "I've saved 2,000 pounds towards the deposit."),
         ("2021-12-13", "Paid in my bonus today, which puts the deposit fund at 5,000 pounds."),
         "How much has Hal saved for the deposit?", "5,000 pounds", "2,000 pounds"),
    Case("fourth-marathon", "current", "Ivy",
         ("2019-05-06", "I've run three marathons."),
         ("2019-10-07", "Finished Berlin in September, which makes it four marathons for me."),
         "How many marathons has Ivy run?", "four marathons", "three marathons"),
    Case("reading-office", "current", "Jay",
         ("2020-01-20", "I commute to the office in Reading every day."),
         ("2020-07-27", "The company shut the Reading office, which means I work from home full time now."),
         "Where does Jay work?", "from home", "office in Reading"),
    # a thing of a person the question names elsewhere than as its subject
    Case("rachel-team", "current", "Mo",
         ("2023-01-16", "My old manager Rachel now leads a team of ten, and half of them are women."),
         ("2023-07-24", "Rachel's team has six women out of ten people these days."),
         "How many women are on the team led by Rachel?", "six women", "half of them"),
    Case("tom-car", "current", "Ned",
         ("2021-03-01", "My neighbour Tom drives a red Fiesta."),
         ("2021-09-06", "Tom's car is a white Tesla now, it's silent on the drive."),
         "What colour is the car Tom drives?", "white Tesla", "red Fiesta"),
    Case("patel-class", "current", "Oz",
         ("2022-09-05", "Mrs Patel has 24 pupils in her class."),
         ("2023-01-09", "Mrs Patel's class is up to 30 pupils now after the merger."),
         "How many pupils are in Mrs Patel's class?", "30 pupils", "24 pupils"),
    Case("kim-shop", "current", "Pia",
         ("2020-05-11", "My friend Kim runs a bakery in Bath."),
         ("2020-11-16", "Kim sold the bakery and runs a bike shop in Bath now."),
         "What kind of shop is run by Kim?", "bike shop", "runs a bakery"),
    # controls: the same kind of words, no new value of the holder's
    Case("considering-moving", "control", "Eli",
         ("2023-02-06", "I live in a flat in Croydon."),
         ("2023-08-21", "I'm considering moving to Leeds, what's the football like there?"),
         "Where does Eli live?", "Croydon", "Leeds"),
    Case("if-nights", "control", "Fay",
         ("2020-04-13", "I work day shifts at the hospital."),
         ("2020-10-05", "How would I sleep properly if I went on nights at the hospital?"),
         "What shifts does Fay work?", "day shifts", "on nights"),
    Case("would-bring-tally", "control", "Kit",
         ("2022-04-04", "I've spotted 40 species of birds on the marsh so far."),
         ("2022-05-16", "I'm hoping for a bittern on the marsh, which would bring my tally to 41 species."),
         "How many bird species has Kit seen on the marsh?", "40 species", "tally to 41"),
    Case("brother-marathons", "control", "Lou",
         ("2019-05-06", "I've run three marathons."),
         ("2019-10-07", "My brother finished Berlin in September, which makes it five marathons for him."),
         "How many marathons has Lou run?", "three marathons", "five marathons"),
    Case("sarah-climbing", "control", "Quin",
         ("2022-06-06", "Sarah and I go to the Pure Gym on King Street together."),
         ("2022-12-12", "Sarah joined the climbing wall in town on her own."),
         "Which gym does Quin go to with Sarah?", "Pure Gym", "climbing wall"),
    Case("other-team", "control", "Rae",
         ("2023-01-16", "I lead a team of eight people at work."),
         ("2023-07-24", "My old manager Rachel leads a team of twelve now."),
         "How many people are on the team Rae leads?", "team of eight", "twelve"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round18_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

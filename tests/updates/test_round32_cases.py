"""Update situations of round 32, written before any rule of that round (from QA round 5's
Q5-2, Q5-3 and Q5-5): a question for the value before one it names ("Where did Kai work before
Fabrikam?", "before she joined Greenfield?": the named value is the later one), or for the first
one; a correction under a verbless heading ("Correction: ...", "Sorry, typo earlier - ...",
"Update: ...") that says the statement again with the new value; a trip or a stay bounded by a
length, an end ("until Thursday"), a purpose ("for a trade fair", "on holiday") or a return
("back from") said after where the holder lives.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round32_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    # the value before the one the question names, or the first
    Case("before-named-employer", "earlier", "Kai",
         ("2022-02-07", "I work at Northwind as a tax adviser."),
         ("2023-03-13", "I work at Fabrikam now, much better hours."),
         "Where did Kai work before Fabrikam?", "Northwind", "Fabrikam now"),
    Case("before-joined", "earlier", "Lu",
         ("2021-04-19", "I teach at St Mary's primary school in the village."),
         ("2022-09-26", "I joined Greenfield Academy in September as head of year."),
         "Where did Lu teach before she joined Greenfield?", "St Mary's", "head of year"),
    Case("before-named-city", "earlier", "Ana",
         ("2022-05-02", "I live in Sheffield with two flatmates."),
         ("2023-07-10", "I moved to Glasgow last month, still unpacking."),
         "Where did Ana live before Glasgow?", "Sheffield", "unpacking"),
    Case("before-named-car", "earlier", "Tom",
         ("2021-03-01", "I drive a grey Vauxhall Astra."),
         ("2022-05-16", "I bought a Mazda MX-5 in the spring, I love it."),
         "What did Tom drive before the Mazda?", "Astra", "MX-5"),
    Case("first-job", "earlier", "Bea",
         ("2020-06-08", "I work as a waitress at the Harbour Cafe."),
         ("2022-10-03", "I started a new job as a paralegal at Hart and Co last week."),
         "What was Bea's first job?", "waitress", "paralegal"),
    Case("before-switched", "earlier", "Raj",
         ("2022-01-10", "My phone network is Vodafone."),
         ("2023-02-20", "I switched to Three last week, the data is much cheaper."),
         "Which network was Raj on before he switched to Three?", "Vodafone", "cheaper"),
    # a correction under a verbless heading: the statement said again, with the new value
    Case("correction-heading", "current", "Mo",
         ("2024-01-08", "My dentist appointment is on the 12th of March."),
         ("2024-01-09", "Correction: my dentist appointment is on the 14th of March."),
         "When is Mo's dentist appointment?", "14th", "12th"),
    Case("typo-earlier", "current", "Ola",
         ("2023-05-02", "My sister's name is Katy."),
         ("2023-05-03", "Sorry, typo earlier - my sister is called Katie, with an ie."),
         "What is Ola's sister called?", "Katie, with", "Katy."),
    Case("update-heading", "current", "Dee",
         ("2024-02-05", "My flight to Rome is on Saturday morning."),
         ("2024-02-06", "Update: my flight to Rome is on Sunday morning."),
         "When is Dee's flight to Rome?", "Update", "Saturday"),
    Case("quick-correction", "current", "Jas",
         ("2024-03-04", "My meeting with the bank is at 2pm on Thursday."),
         ("2024-03-05", "Quick correction: my meeting with the bank is at 3pm on Thursday."),
         "What time is Jas's meeting with the bank?", "3pm", "2pm"),
    Case("wrong-day-earlier", "current", "Nia",
         ("2023-09-11", "My piano lesson is on Tuesdays after work."),
         ("2023-09-12", "Wrong day earlier, sorry - my piano lesson is on Wednesdays after work."),
         "When is Nia's piano lesson?", "Wednesdays", "Tuesdays"),
    Case("correction-to-what-i-said", "current", "Hal",
         ("2023-11-06", "My gym is The Gym Group on Mill Road."),
         ("2023-11-07", "Correction to what I said yesterday: my gym is PureGym on Mill Road."),
         "Which gym does Hal go to?", "PureGym", "The Gym Group"),
    # a trip or a bounded stay is not where the holder lives
    Case("back-from", "control", "Ivy",
         ("2024-01-15", "I live in a flat in Leith, near the shore."),
         ("2024-04-08", "Just got back from ten days in Crete!"),
         "Where does Ivy live?", "Leith", "Crete"),
    Case("until-thursday", "control", "Gus",
         ("2024-01-22", "I live in Cardiff, near the bay."),
         ("2024-03-18", "I'm in Berlin for a trade fair until Thursday."),
         "Where does Gus live?", "Cardiff", "Berlin"),
    Case("on-holiday-this-week", "control", "Pam",
         ("2023-02-13", "I live in a terraced house in Leeds."),
         ("2023-08-07", "We're in the Lake District on holiday this week."),
         "Where does Pam live?", "Leeds", "Lake District"),
    Case("spent-last-week", "control", "Rob",
         ("2023-03-06", "I live in Norwich with my partner."),
         ("2023-10-16", "I spent last week in Porto, the food was incredible."),
         "Where does Rob live?", "Norwich", "Porto"),
    Case("here-for-work", "control", "Eve",
         ("2024-02-12", "I live in Bath, in a flat by the river."),
         ("2024-05-13", "Greetings from Madrid! Here for work till Sunday."),
         "Where does Eve live?", "Bath", "Madrid"),
    Case("visiting-for-days", "control", "Zoe",
         ("2023-04-03", "I live in York, just inside the walls."),
         ("2023-09-25", "Currently in Oslo visiting my brother for a few days."),
         "Where does Zoe live?", "York", "Oslo"),
]

CASES: list[Case] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "until-thursday": "an end the parse hangs below the purpose ('for a trade fair until Thursday') does not bound "
    "the stay: a rule that reads it lost one held-out control, so it is not landed",
    "spent-last-week": "'spent last week in Porto': the parse hangs the length as a modifier, not the object "
    "'spent' counts; a rule that reads it lost one held-out control, so it is not landed",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round32_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

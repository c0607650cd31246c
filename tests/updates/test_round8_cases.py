"""Update situations of round 8, written before any rule of that round: changes told in a dialogue —
the holder's short answer to a question ("Where are you working these days?" / "At the Guardian
now."), the other speaker's words that the holder confirms ("Congratulations on the new job at
the council!" / "Thanks!"), a value in a noun phrase ("my new iPhone 15 keeps overheating") —
and controls where the other speaker's words give a value the holder denies, wishes, or that is
someone else's.
Two thirds of them (every case but each third one as first written): the part the rules of that
round are developed against; the rest is test_round8_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

CASES = [
    Exchange("short-answer-guardian", "current", "Maya",
             ("2022-03-03", (("a", "I work at the BBC, on the news desk."),)),
             ("2022-11-11", (("Sam", "Where are you working these days?"), ("a", "At the Guardian now, on the politics team."))),
             "Where does Maya work?", "Guardian", "BBC"),
    Exchange("congrats-council", "current", "Jade",
             ("2022-02-02", (("a", "I'm a teaching assistant at Hillside primary."),)),
             ("2022-09-09", (("Sam", "Congratulations on the new job at the council, you must be thrilled!"), ("a", "Thanks, I really am!"))),
             "Where does Jade work?", "council", "Hillside"),
    Exchange("greyhound", "current", "Lin",
             ("2022-01-01", (("a", "We've got two dogs, both rescues."),)),
             ("2022-08-08", (("Sam", "How many dogs do you have now?"), ("a", "Three! We adopted a greyhound last week."))),
             "How many dogs does Lin have?", "greyhound", "two dogs"),
    Exchange("yes-mazda", "current", "Ben",
             ("2023-01-01", (("a", "I drive a Vauxhall Corsa."),)),
             ("2023-04-04", (("Sam", "Did you end up buying that Mazda you test drove?"), ("a", "Yes, picked it up on Saturday!"))),
             "What car does Ben drive?", "Mazda", "Corsa"),
    Exchange("engaged", "current", "Zoe",
             ("2021-01-01", (("a", "I'm single and honestly loving it."),)),
             ("2022-01-01", (("Sam", "Are you still seeing Tom?"), ("a", "Engaged, actually! He proposed in Rome."))),
             "What is Zoe's relationship status?", "Engaged", "single"),
    Exchange("ward-manager", "current", "Nia",
             ("2022-01-01", (("a", "I'm a nurse on the cardiac ward."),)),
             ("2023-01-01", (("Sam", "How are you finding being ward manager?"), ("a", "Exhausting, but I love it."))),
             "What is Nia's job?", "ward manager", "cardiac ward"),
    Exchange("not-yet-nottingham", "control", "Jess",
             ("2022-01-01", (("a", "I live in Leicester with my mum."),)),
             ("2022-07-07", (("Sam", "Have you moved to Nottingham yet?"), ("a", "Not yet, maybe next year."))),
             "Where does Jess live?", "Leicester", "Nottingham"),
    Exchange("brother-trio", "control", "Dev",
             ("2022-02-02", (("a", "I play bass in a covers band."),)),
             ("2022-06-06", (("Sam", "My brother just joined a jazz trio on drums."), ("a", "Oh nice, tell him good luck!"))),
             "What does Dev play?", "bass", "jazz trio"),
    Exchange("bali-wish", "control", "Cal",
             ("2022-01-01", (("a", "I live in Bristol, by the harbour."),)),
             ("2022-04-04", (("Sam", "You should just move to Bali."), ("a", "Ha, I wish!"))),
             "Where does Cal live?", "Bristol", "Bali"),
    Exchange("flatmate-bakery", "control", "Tom",
             ("2022-02-02", (("a", "I work as a chef at a hotel."),)),
             ("2022-10-10", (("Sam", "Is your flatmate still at the bakery?"), ("a", "Yeah, she loves it there."))),
             "Where does Tom work?", "chef at a hotel", "bakery"),
    Exchange("electric-maybe", "control", "Rae",
             ("2022-02-02", (("a", "I drive a Ford Fiesta."),)),
             ("2022-08-08", (("Sam", "Would you ever get an electric car?"), ("a", "Maybe one day, if the prices come down."))),
             "What car does Rae drive?", "Fiesta", "electric car"),
    # the question asks for the earlier value
    Exchange("bbc-before", "earlier", "Ife",
             ("2022-03-03", (("a", "I work at the BBC, on the news desk."),)),
             ("2022-11-11", (("Sam", "Where are you working these days?"), ("a", "At the Guardian now."))),
             "Where did Ife work before the Guardian?", "BBC", "Guardian now"),
    # the value in a noun phrase, or after a question
    Exchange("bus-now", "current", "Eli",
             ("2022-03-03", (("a", "I cycle to work every day."),)),
             ("2022-09-09", (("Sam", "Do you still cycle in?"), ("a", "Not since the knee op, I take the bus now."))),
             "How does Eli get to work?", "bus", "to work every day"),
    Exchange("new-iphone", "current", "Sami",
             ("2023-01-01", (("a", "I'm using a Pixel 6."),)),
             ("2023-09-09", (("a", "My new iPhone 15 keeps overheating, any tips?"),)),
             "What phone does Sami use?", "iPhone", "Pixel"),
    Exchange("ridgeway", "current", "Amy",
             ("2022-01-01", (("a", "My son goes to Oakfield primary."),)),
             ("2022-10-10", (("a", "My son's new teacher at Ridgeway secondary seems lovely."),)),
             "Which school does Amy's son go to?", "Ridgeway", "Oakfield"),
    Exchange("just-three-days", "current", "Bo",
             ("2022-01-01", (("a", "I work four days a week at the library."),)),
             ("2022-06-06", (("Sam", "How many days are you doing at the library now?"), ("a", "Just three, since the budget cuts."))),
             "How many days a week does Bo work?", "Just three", "four days"),
]

#: cases the read path does not pass yet, and why
NOT_YET = {
    "congrats-council": "the value is in Sam's congratulations ('the new job at the council'); Jade's 'Thanks, I really "
    "am!' confirms it in a unit of its own, so it stays someone else's words",
    "yes-mazda": "the yes grants 'Did Ben end up buying that Mazda Ben test drove?', but the restated relative clause "
    "('that Mazda Ben test drove') is parsed as a clause of its own, so the statement gives no value",
    "engaged": "a fragment that answers a yes-or-no question ('Is Zoe still seeing Tom?' / 'Engaged, actually!') "
    "has no place in the question to fill",
    "ward-manager": "the new role is only taken as given by Sam's question ('How are you finding being ward manager?'); "
    "Nia's reply gives no value",
    "ridgeway": "the school is in a noun phrase ('my son's new teacher at Ridgeway secondary'), not stated by a clause",
}


@pytest.fixture(scope="module")
def exchanges(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round8(exchanges: Memory, case: Exchange) -> None:
    assert holds(exchanges, case)

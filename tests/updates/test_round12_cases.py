"""Update situations of round 12, written before any rule of that round: values told the way
people write in a chat, without the subject ("Moved to Hove in March", "Been on 30mg since the
review", "Cycling to work these days"), after a verb that entails its complement ("I managed to
join the Highgate club", "I finally got round to moving my account to Monzo") or in a clause
without a subject of its own ("Since moving to Chorlton I walk everywhere"), and controls: a
true value told without a subject against someone else's change, a try, a failure ("Didn't
manage to get into ...", "Forgot to switch to ..."), a thought, and later small talk without a
subject. Two thirds of them (every case but each third one as first written): the part the
rules of that round are developed against; the rest is test_round12_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    # a new value told without the subject
    Case("hove-moved", "current", "Rhea",
         ("2022-01-10", "I rent a flat in Croydon with two friends."),
         ("2022-05-02", "Moved to Hove in March, still unpacking."),
         "Where does Rhea live?", "Hove", "Croydon"),
    Case("scotsman", "current", "Fin",
         ("2021-03-03", "I work as a barista at a cafe in Leith."),
         ("2021-09-20", "Started at the Scotsman last week, proper journalism at last!"),
         "Where does Fin work?", "Scotsman", "Leith"),
    Case("gym-better", "current", "Ola",
         ("2023-02-02", "My gym is the PureGym on Mill Road."),
         ("2023-07-07", "Switched to the Better leisure centre, it has a pool."),
         "Which gym does Ola go to?", "Better leisure", "PureGym"),
    Case("octavia", "current", "Baz",
         ("2020-04-04", "I drive a little Fiat Panda."),
         ("2020-11-11", "Finally got rid of the Panda, driving a Skoda Octavia now."),
         "What car does Baz drive?", "Skoda", "little Fiat"),
    Case("dose-30", "current", "Ivy",
         ("2022-06-06", "I'm on 20mg of citalopram."),
         ("2022-12-12", "Been on 30mg since the review, feels better."),
         "What dose of citalopram is Ivy on?", "30mg", "20mg"),
    Case("cycling", "current", "Lou",
         ("2021-01-15", "I take the bus to work every day."),
         ("2021-06-15", "Cycling to work these days, it's quicker."),
         "How does Lou get to work?", "Cycling", "bus"),
    # a new value after a verb that entails its complement
    Case("highgate", "current", "Zara",
         ("2019-05-05", "I'm a member of the Fernwood tennis club."),
         ("2020-02-02", "I managed to join the Highgate tennis club after years on the waiting list."),
         "Which tennis club is Zara a member of?", "Highgate", "Fernwood"),
    Case("monzo", "current", "Ned",
         ("2022-03-01", "I bank with Barclays."),
         ("2022-08-30", "I finally got round to moving my account to Monzo."),
         "Who does Ned bank with?", "Monzo", "Barclays"),
    Case("pixel", "current", "Sue",
         ("2023-01-20", "My phone is an old iPhone 8."),
         ("2023-04-18", "I remembered to pick up my new Pixel 8 from the shop."),
         "What phone does Sue have?", "Pixel", "iPhone"),
    # controls
    Case("didsbury", "control", "Kaz",
         ("2021-02-14", "Living in Didsbury these days, love it."),
         ("2021-08-08", "My brother just moved to Salford."),
         "Where does Kaz live?", "Didsbury", "Salford"),
    Case("york-office", "control", "Moe",
         ("2022-01-05", "Working at the Leeds office since January."),
         ("2022-07-07", "I tried to get a transfer to the York office."),
         "Which office does Moe work at?", "Leeds office", "York office"),
    Case("almond", "control", "Pia",
         ("2020-09-09", "Drinking oat milk in everything now."),
         ("2021-01-01", "Been thinking about trying almond milk."),
         "What milk does Pia drink?", "oat milk", "almond milk"),
    Case("life-drawing", "control", "Eli",
         ("2022-09-01", "I go to the Tuesday pottery class at the arts centre."),
         ("2023-01-10", "Didn't manage to get into the Thursday life drawing class."),
         "Which class does Eli go to?", "pottery", "life drawing"),
    Case("fiesta-tired", "control", "Ros",
         ("2021-04-04", "My car is a blue Ford Fiesta."),
         ("2021-10-10", "Been so tired lately, work is mad."),
         "What car does Ros have?", "Ford Fiesta", "tired"),
    Case("octopus-forgot", "control", "Tom",
         ("2022-02-22", "I'm with EDF for gas and electricity."),
         ("2022-10-01", "Forgot to switch to Octopus before the deadline, annoying."),
         "Who is Tom's energy supplier?", "EDF", "Octopus"),
    # a new value in a clause without a subject of its own
    Case("chorlton", "current", "Ada",
         ("2020-03-03", "I live in a shared house in Fallowfield."),
         ("2020-09-09", "Since moving to Chorlton I walk everywhere."),
         "Where does Ada live?", "Chorlton", "Fallowfield"),
    Case("library", "current", "Rob",
         ("2021-05-05", "I work at the Odeon box office."),
         ("2021-12-12", "After starting at the library I finally have weekends off."),
         "Where does Rob work?", "library", "Odeon"),
    Case("spanish", "current", "Ben",
         ("2022-01-01", "I study French at evening classes."),
         ("2022-06-01", "Since switching to Spanish I've been practising every day."),
         "What language does Ben study?", "Spanish", "French"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "scotsman": "the new memory is the holder's statement but says where Fin started, not where Fin works: "
                "it fits the question 0.16 against the old memory's 0.36, more than 0.12 apart, and the two "
                "memories are not each other's nearest, so they are not read as one thing",
    "monzo": "'moving my account to Monzo' is too far from 'Who does Ned bank with?' to answer it (more than "
             "0.25 below the most relevant memory) and names none of the old memory's values",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round12_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

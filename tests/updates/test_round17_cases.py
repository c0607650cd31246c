"""Update situations of round 17, written before any rule of that round: the holder tells the
new value in words far from the question's but close to the old memory's ("Started on the sports
desk at the Scotsman last week" after "I work at the Herald as a sub-editor", for "Where does Fin
work?"), so the new memory may rank among the first but fit the question much less than the old
one; and controls told in the same words that are no new value of the holder's (someone
else's, a test drive, a "might", a condition, a wish). Two thirds of them (every case but each
third one as written): the part the rules of that round are developed against; the rest is
test_round17_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("scotsman-desk", "current", "Fin",
         ("2022-02-07", "I work at the Herald as a sub-editor."),
         ("2022-09-12", "Started on the sports desk at the Scotsman last week."),
         "Where does Fin work?", "Scotsman", "sub-editor"),
    Case("jazz-saturday", "current", "Gemma",
         ("2021-04-05", "I drive a silver Corolla to work."),
         ("2021-10-11", "Picked up a secondhand Honda Jazz on Saturday, it's tiny but nippy."),
         "What car does Gemma drive?", "Honda Jazz", "silver Corolla"),
    Case("leisure-centre", "current", "Hugo",
         ("2023-01-09", "I'm a member of the Anytime Fitness on Queen Street."),
         ("2023-06-19", "I've been training at the council leisure centre since March, much cheaper."),
         "Which gym is Hugo a member of?", "leisure centre", "Queen Street"),
    Case("cello-lessons", "current", "Iris",
         ("2020-02-03", "I'm learning the violin with a teacher on Saturdays."),
         ("2020-08-17", "These days my lessons are on the cello, the teacher says I have the arms for it."),
         "What instrument is Iris learning?", "cello", "violin"),
    Case("priti-haircut", "current", "Jonah",
         ("2022-03-14", "My barber is Dave at the shop on Mill Lane."),
         ("2022-10-03", "Found a new place for haircuts, a woman called Priti does mine now."),
         "Who cuts Jonah's hair?", "Priti", "Mill Lane"),
    Case("towpath-route", "current", "Kemi",
         ("2021-05-10", "I run laps of Victoria Park before work."),
         ("2021-11-22", "My route now is along the canal towpath, it's flatter."),
         "Where does Kemi go running?", "towpath", "Victoria Park"),
    Case("discworld-train", "current", "Leon",
         ("2023-02-20", "On the train I read crime novels, mostly Rebus."),
         ("2023-08-28", "Been working through Pratchett's Discworld books on the train lately."),
         "What does Leon read on his commute?", "Discworld", "Rebus"),
    Case("giffgaff-number", "current", "Mira",
         ("2020-06-08", "My phone contract is with Vodafone."),
         ("2021-01-11", "Moved my number to giffgaff in March, a tenner a month."),
         "Which phone network is Mira on?", "giffgaff", "Vodafone"),
    Case("lights-out", "current", "Nate",
         ("2022-05-16", "I go to bed around midnight most nights."),
         ("2022-12-05", "Lights out at ten these days, the baby wakes us at five."),
         "What time does Nate go to bed?", "Lights out", "around midnight"),
    Case("overnight-oats", "current", "Opal",
         ("2021-07-05", "Breakfast for me is toast with peanut butter."),
         ("2022-01-17", "I've switched my mornings to overnight oats with berries."),
         "What does Opal have for breakfast?", "overnight oats", "peanut butter"),
    Case("dr-obi", "current", "Pavel",
         ("2023-03-13", "My dentist is Dr Hughes on the high street."),
         ("2023-09-04", "Registered with the Smile Clinic near the office, I see Dr Obi now."),
         "Who is Pavel's dentist?", "Dr Obi", "Dr Hughes"),
    Case("duolingo-portuguese", "current", "Rosa",
         ("2020-09-07", "I'm studying Italian at evening classes."),
         ("2021-03-15", "Duolingo has me doing Portuguese every night now, a 200-day streak."),
         "What language is Rosa studying?", "Portuguese", "Italian"),
    # controls: the same kind of words, no new value of the holder's
    Case("flatmate-scotsman", "control", "Sami",
         ("2022-02-07", "I work at the Herald as a sub-editor."),
         ("2022-09-12", "My flatmate started on the sports desk at the Scotsman last week."),
         "Where does Sami work?", "sub-editor", "Scotsman"),
    Case("jazz-test-drive", "control", "Tara",
         ("2021-04-05", "I drive a silver Corolla to work."),
         ("2021-10-11", "I took a Honda Jazz out for a test drive on Saturday, it was tiny but nippy."),
         "What car does Tara drive?", "silver Corolla", "Honda Jazz"),
    Case("might-leisure-centre", "control", "Uma",
         ("2023-01-09", "I'm a member of the Anytime Fitness on Queen Street."),
         ("2023-06-19", "I might start training at the council leisure centre, it's much cheaper."),
         "Which gym is Uma a member of?", "Queen Street", "leisure centre"),
    Case("daughter-cello", "control", "Vic",
         ("2020-02-03", "I'm learning the violin with a teacher on Saturdays."),
         ("2020-08-17", "My daughter's lessons are on the cello, the teacher says she has the arms for it."),
         "What instrument is Vic learning?", "violin", "cello"),
    Case("if-towpath", "control", "Wes",
         ("2021-05-10", "I run laps of Victoria Park before work."),
         ("2021-11-22", "If the park closes, my route would be along the canal towpath."),
         "Where does Wes go running?", "Victoria Park", "towpath"),
    Case("wish-oats", "control", "Xena",
         ("2021-07-05", "Breakfast for me is toast with peanut butter."),
         ("2022-01-17", "I'd love to switch my mornings to overnight oats with berries."),
         "What does Xena have for breakfast?", "peanut butter", "overnight oats"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "jazz-saturday": "'Picked up a secondhand Honda Jazz on Saturday, it's tiny but nippy': the parse hangs "
                     "'Picked' from 'it's' as an adverbial clause, so it is nobody's; read as a sentence of its "
                     "own (tried) it is Gemma's statement but fits the question 0.15 against the old memory's "
                     "0.57, and the two are not each other's nearest: not read as the same thing",
    "cello-lessons": "'These days my lessons are on the cello': a thing of the holder's the question does not name "
                     "('lessons' for 'What instrument is Iris learning?'), and 'the teacher says I have the arms "
                     "for it' is the teacher's word",
    "giffgaff-number": "'Moved my number to giffgaff in March': the tagger reads the first word as a name, and the "
                       "memory is more than 0.25 less relevant to the question than the old one: not read",
    "jazz-test-drive": "'I took a Honda Jazz out for a test drive' is Tara's asserted statement; that a test drive "
                       "is no car of hers, no structure says",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round17_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

"""Update situations of round 21, written before any rule of that round, after patterns seen in
the fresh update suite's tune split (benchmarks/data/updates_fresh.json, written by someone who
never read the rules), each a class of words the grammar of English gives, not a list of topics:

* a verb of near miss: "nearly", "almost" on a verb say its event did not happen ("I very nearly
  switched to British Gas"), and only on that verb ("I nearly cried when we moved");
* a verb of wishing, dreaming or hoping: its complement is what the speaker does not have ("I wish
  I drove a Porsche"), not what they do;
* a verb of going on (stay, stick with, keep, remain): it takes the value it goes on with as held
  now, even said of the future ("I'll stick with Vodafone"; a presupposition of continuation),
  but not a stay of bounded length nor someone else's.

Two thirds of them (every case but each third one as written): the part the rules of that round are
developed against; the rest is test_round21_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    # a near miss is no change; the words next to it keep their own event
    Case("octopus-nearly", "control", "Dave",
         ("2023-03-04", "We're with Octopus for our electricity, the overnight rate is great."),
         ("2023-09-16", "I very nearly switched us to British Gas last month, the form was filled in."),
         "Which energy supplier are we with?", "Octopus", "British Gas"),
    Case("bath-almost", "control", "Hana",
         ("2022-01-10", "We live in a terraced house in Bath."),
         ("2022-07-18", "We almost moved to Bristol in May, the buyers pulled out at the last minute."),
         "Where do we live?", "Bath", "Bristol"),
    Case("forgot-switched", "current", "Dave",
         ("2023-03-04", "We're with Octopus for our electricity, the overnight rate is great."),
         ("2023-09-16", "I almost forgot to say, we switched to British Gas last month."),
         "Which energy supplier are we with?", "British Gas", "Octopus"),
    Case("cried-moved", "current", "Hana",
         ("2022-01-10", "We live in a terraced house in Bath."),
         ("2022-07-18", "I nearly cried when we finally moved to Bristol in May."),
         "Where do we live?", "Bristol", "Bath"),
    # what one wishes for, dreams of or hopes for is not what one has
    Case("kia-wish", "control", "Ivo",
         ("2023-02-11", "I drive a little Kia Picanto to work."),
         ("2023-08-05", "Saw one at the lights today. I wish I drove a Porsche Taycan, honestly."),
         "What car do I drive?", "Kia", "Porsche"),
    Case("library-dream", "control", "Ruth",
         ("2021-04-12", "I work at the central library in town."),
         ("2021-10-25", "Sometimes I dream that I work at a bookshop by the sea."),
         "Where do I work?", "library", "bookshop"),
    Case("tesco-hope", "control", "Kofi",
         ("2022-05-02", "I work on the tills at Tesco on weekdays."),
         ("2022-11-14", "I hope I get the admin job at the council, the interview went well."),
         "Where do I work?", "Tesco", "council"),
    Case("whitby-wish-see", "current", "Ruth",
         ("2021-04-12", "I live in a flat near the minster in York."),
         ("2021-10-25", "I wish you could see the view. I live in a flat by the harbour in Whitby now."),
         "Where do I live?", "Whitby", "York"),
    # going on with a value says it is held now
    Case("vodafone-stick", "current", "Lena",
         ("2023-01-20", "My phone is on a Three contract, the signal is awful at home."),
         ("2023-06-30", "Porting my number was painless, so I'll stick with Vodafone from now on."),
         "Which network is my phone on?", "Vodafone", "Three"),
    Case("fortnightly-stay", "current", "Kenji",
         ("2022-02-01", "Our newsletter goes out every Monday morning."),
         ("2022-09-12", "We've found a calmer rhythm, we'll stay fortnightly for the newsletter."),
         "How often does our newsletter go out?", "fortnightly", "Monday"),
    Case("choir-remain", "current", "Ines",
         ("2021-03-15", "I sing with the St Luke's church choir on Thursdays."),
         ("2021-09-20", "The community choir at the arts centre is so much fun, I'll remain with them for good."),
         "Which choir do I sing with?", "arts centre", "St Luke"),
    Case("keep-yoga", "current", "Omar",
         ("2022-06-06", "I do spin classes at the gym twice a week."),
         ("2022-12-05", "Yoga suits my back better, I'm going to keep doing yoga at the studio on Sundays."),
         "What exercise class do I do?", "yoga", "spin"),
    Case("aunt-stay-bounded", "control", "Lena",
         ("2023-01-20", "I live in a shared house in Leeds."),
         ("2023-06-30", "While the roof is fixed I'll stay with my aunt in York for two weeks."),
         "Where do I live?", "Leeds", "York"),
    Case("brother-stick", "control", "Kenji",
         ("2022-02-01", "My phone is on a Three contract, the signal is awful at home."),
         ("2022-09-12", "My brother says he'll stick with Vodafone, he loves their app."),
         "Which network is my phone on?", "Three", "Vodafone"),
    Case("wish-stay", "control", "Ines",
         ("2021-03-15", "I sing with the St Luke's church choir on Thursdays."),
         ("2021-09-20", "I wish I could stay with the arts centre choir, but their night clashes with work."),
         "Which choir do I sing with?", "St Luke", "arts centre"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "cried-moved": "the move told in a 'when' clause of another event is read as the speaker's, but its unit is "
                   "far less relevant to the question than the old home's (centred cosine -0.28 vs -0.10), and "
                   "their clauses' fits differ by more than SAME: not read as answering the same thing",
    "choir-remain": "'I'll remain with them': the value goes on through 'them' (the choir named in the clause "
                    "before), and no pronoun is resolved to a thing; the clause gives no value",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round21_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

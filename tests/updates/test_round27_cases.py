"""Update situations of round 27, written before any rule of that round, after a control of the
fresh update suite's tune split ("I'll stick with the Kia for another five years"): the
speaker going on with a value for a further length of time ("I'll stay with Three for another
year"), which says the value is held now, against a stay of that length somewhere ("I'm staying
in Rome for another two weeks"), someone else going on, and going on under a condition.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round27_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("three-another-year", "current", "Ben",
         ("2022-03-14", "I'm with Vodafone on a 24-month contract for my phone."),
         ("2023-05-22", "I'll stay with Three for another year at least, the signal at home is great."),
         "Which network is Ben's phone on?", "Three", "Vodafone"),
    Case("chorlton-renting", "current", "Kemi",
         ("2021-09-06", "We rent a flat in Didsbury, above the bakery."),
         ("2022-10-03", "We're going to keep renting in Chorlton for another two years before we buy."),
         "Where does Kemi rent?", "Chorlton", "Didsbury"),
    Case("rome-two-weeks", "control", "Maya",
         ("2023-01-09", "I live in Leeds with my partner, near the park."),
         ("2023-06-19", "I'm staying in Rome for another two weeks, the conference got extended."),
         "Where does Maya live?", "Leeds", "Rome"),
    Case("oakwood-three-years", "current", "Priya",
         ("2020-02-10", "I teach Year 4 at Hillside Primary."),
         ("2021-07-12", "I'll remain at Oakwood Academy for another three years, they've made me head of year."),
         "Which school does Priya teach at?", "Oakwood", "Hillside"),
    Case("pilates-another-term", "current", "Lou",
         ("2022-01-17", "I do yoga at the leisure centre on Tuesdays."),
         ("2022-09-12", "I'll carry on with pilates at the church hall for another term, my back loves it."),
         "What exercise class does Lou go to?", "pilates", "yoga"),
    Case("sister-pwc", "control", "Omar",
         ("2021-05-03", "I work at Deloitte in the audit team."),
         ("2022-04-25", "My sister will stay at PwC for another year before she goes travelling."),
         "Which firm does Omar work at?", "Deloitte", "PwC"),
    Case("monzo-few-years", "current", "Hana",
         ("2020-06-01", "We bank with Barclays, same branch since uni."),
         ("2022-11-14", "We'll continue with Monzo for another few years, the app is brilliant."),
         "Who does Hana bank with?", "Monzo", "Barclays"),
    Case("bmw-if-job", "control", "Rob",
         ("2022-08-08", "I drive a blue Golf, it's done 90,000 miles."),
         ("2023-02-20", "If I get the Leeds job, I'll keep the company BMW for another two years."),
         "What car does Rob drive?", "Golf", "BMW"),
    Case("anytime-another-year", "current", "Sam",
         ("2021-10-11", "Our gym is The Gym Group on Oxford Road."),
         ("2023-01-16", "We're going to stick with Anytime Fitness for another year, it's open all night."),
         "Which gym does Sam go to?", "Anytime", "Gym Group"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "monzo-few-years": "read as going on now, but the unit shares no word with the question ('continue with Monzo' "
                       "for 'bank with') and is more than 0.25 less relevant than the old value: it does not answer",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round27_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

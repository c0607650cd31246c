"""Update situations of round 13, written before any rule of that round: a new value told
beside the old one denied, given up or put in the past in the same turn ("I'm not at Halifax
anymore, I'm at Google now", "I used to drive the Fiesta but now it's a VW Golf", "I stopped
the sertraline, the GP put me on citalopram instead"), and controls where a later turn only
denies or puts in the past a value that was never the current one ("I didn't get the job at
Google in the end", "We're not moving to Bristol after all", "I used to drink tea all day when
I was a student"). Two thirds of them (every case but each third one as first written): the
part the rules of that round are developed against; the rest is test_round13_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    # a new value beside the old one denied or given up
    Case("google", "current", "Ana",
         ("2021-02-01", "I work in the accounts team at Halifax bank."),
         ("2021-09-01", "I'm not at Halifax anymore, I'm at Google now."),
         "Where does Ana work?", "Google", "accounts team"),
    Case("hove-house", "current", "Bea",
         ("2020-05-05", "I live in a flat in Leeds near the station."),
         ("2020-12-12", "I don't live in Leeds anymore, we bought a house in Hove."),
         "Where does Bea live?", "Hove", "near the station"),
    Case("golf", "current", "Cy",
         ("2022-03-03", "I drive a red Ford Fiesta."),
         ("2022-10-10", "I used to drive the Fiesta but now it's a VW Golf."),
         "What car does Cy drive?", "VW Golf", "red Ford"),
    Case("disney", "current", "Dee",
         ("2021-01-20", "I pay for Netflix and Spotify every month."),
         ("2021-07-07", "No more Netflix for me, I switched to Disney+ in May."),
         "Which video streaming service does Dee use?", "Disney", "Netflix and Spotify"),
    Case("citalopram", "current", "Eve",
         ("2022-02-02", "I'm on sertraline for my anxiety."),
         ("2022-08-08", "I stopped the sertraline, the GP put me on citalopram instead."),
         "What medication does Eve take for her anxiety?", "citalopram", "on sertraline for"),
    Case("harriers", "current", "Gus",
         ("2019-04-04", "My running club is the Hackney Harriers."),
         ("2019-11-11", "I quit the Harriers and joined Victoria Park runners, much friendlier."),
         "Which running club is Gus in?", "Victoria Park", "Hackney Harriers"),
    Case("riverside", "current", "Hal",
         ("2020-01-10", "I teach maths at Oakfield primary."),
         ("2020-10-01", "I left Oakfield in the summer and I teach at Riverside academy now."),
         "Where does Hal teach?", "Riverside", "Oakfield primary"),
    Case("train", "current", "Ida",
         ("2021-03-15", "I usually cycle to the office."),
         ("2021-09-15", "I never cycle these days, I take the train to the office since the crash."),
         "How does Ida get to the office?", "train", "usually cycle"),
    Case("alex", "current", "Jo",
         ("2022-04-01", "My partner is Jamie, we've been together two years."),
         ("2022-11-01", "Jamie and I aren't together anymore. I'm seeing someone called Alex now."),
         "Who is Jo's partner?", "Alex", "two years"),
    # controls: a later turn only denies, or puts in the past, a value never current
    Case("no-google", "control", "Kim",
         ("2021-05-05", "I work at Halifax bank in Leeds."),
         ("2021-10-10", "I didn't get the job at Google in the end."),
         "Where does Kim work?", "Halifax", "Google"),
    Case("no-bristol", "control", "Lee",
         ("2020-06-06", "I live in Bath with my two cats."),
         ("2020-09-09", "We're not moving to Bristol after all, the sale fell through."),
         "Where does Lee live?", "Bath", "Bristol"),
    Case("dentist", "control", "Mo",
         ("2022-01-01", "My dentist is Dr Shah on King Street."),
         ("2022-06-06", "I never went to see the new dentist on Queen Street."),
         "Who is Mo's dentist?", "Dr Shah", "Queen Street"),
    Case("student-tea", "control", "Nat",
         ("2023-01-01", "I drink a flat white every morning."),
         ("2023-04-04", "I used to drink tea all day when I was a student."),
         "What does Nat drink in the morning?", "flat white", "tea all day"),
    Case("tennis-knee", "control", "Oz",
         ("2021-07-07", "I play five-a-side football on Wednesdays."),
         ("2021-12-12", "I don't play tennis anymore, my knee can't take it."),
         "What sport does Oz play?", "five-a-side", "tennis"),
    Case("three", "control", "Pat",
         ("2022-02-14", "I'm with Vodafone on a monthly plan."),
         ("2022-09-01", "I almost switched to Three, but their signal is awful here."),
         "Which mobile network is Pat with?", "Vodafone", "Three"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round13_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

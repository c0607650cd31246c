"""Update situations of round 22, written before any rule of that round, after a pattern seen in
the fresh update suite's tune split (benchmarks/data/updates_fresh.json, written by someone who
never read the rules): the holder's value is changed by someone else, who is the subject, and
the holder or a thing of theirs is what the change acts on ("my manager moved me to the Leeds
office", "our landlord put our rent up to 1,350"). Controls: the same verbs acting on someone
else or on someone else's thing, someone else's own change, a modal, an offer not taken.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round22_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("manager-leeds", "current", "Ravi",
         ("2022-03-14", "I work at the Manchester office, on the third floor."),
         ("2022-09-19", "Big change, my manager moved me to the Leeds office in August."),
         "Which office do I work at?", "Leeds", "Manchester"),
    Case("gp-20mg", "current", "Alice",
         ("2023-01-09", "I take 10mg of citalopram every morning."),
         ("2023-06-12", "At the review the GP put me on 20mg of citalopram, it's helping."),
         "What dose of citalopram am I on?", "20mg", "10mg"),
    Case("landlord-rent", "current", "Femi",
         ("2021-02-01", "Our rent is 1,200 a month for the flat."),
         ("2021-08-16", "Our landlord put our rent up to 1,350 a month from July."),
         "How much is our rent?", "1,350", "1,200"),
    Case("sister-plan", "current", "Jo",
         ("2022-04-04", "My phone is on the 10GB plan with Giffgaff."),
         ("2022-10-10", "My sister switched my phone plan to the unlimited one for my birthday."),
         "Which phone plan am I on?", "unlimited", "10GB"),
    Case("coach-defence", "current", "Kai",
         ("2023-02-20", "I play up front for the Sunday league team."),
         ("2023-09-04", "The new coach moved me to centre back, I love it."),
         "What position do I play?", "centre back", "up front"),
    Case("boss-team", "current", "Mina",
         ("2021-05-10", "I'm on the payments team at work."),
         ("2021-11-22", "Helen put me on the fraud team last month, so that's where I am now."),
         "Which team am I on at work?", "fraud", "payments"),
    # controls: the change acts on someone else, is someone else's own, or did not happen
    Case("manager-colleague", "control", "Ravi",
         ("2022-03-14", "I work at the Manchester office, on the third floor."),
         ("2022-09-19", "My manager moved my colleague Tom to the Leeds office in August."),
         "Which office do I work at?", "Manchester", "Leeds"),
    Case("landlord-neighbours", "control", "Femi",
         ("2021-02-01", "Our rent is 1,200 a month for the flat."),
         ("2021-08-16", "The landlord put the neighbours' rent up to 1,400 a month."),
         "How much is our rent?", "1,200", "1,400"),
    Case("sister-might", "control", "Jo",
         ("2022-04-04", "My phone is on the 10GB plan with Giffgaff."),
         ("2022-10-10", "My sister might switch my phone plan to the unlimited one."),
         "Which phone plan am I on?", "10GB", "unlimited"),
    Case("gp-offered", "control", "Alice",
         ("2023-01-09", "I take 10mg of citalopram every morning."),
         ("2023-06-12", "The GP offered to put me on 20mg but I'd rather not."),
         "What dose of citalopram am I on?", "10mg", "20mg"),
    Case("brother-leeds", "control", "Ravi",
         ("2022-03-14", "I work at the Manchester office, on the third floor."),
         ("2022-09-19", "My brother moved to the Leeds office of his bank in August."),
         "Which office do I work at?", "Manchester", "Leeds"),
    Case("coach-friend", "control", "Kai",
         ("2023-02-20", "I play up front for the Sunday league team."),
         ("2023-09-04", "The new coach moved my mate Dev to centre back."),
         "What position do I play?", "up front", "centre back"),
    # a person named or "she" as the one who changes the holder's thing
    Case("okafor-dose", "current", "Dan",
         ("2023-03-06", "I'm on 50mg of sertraline, it took a while to settle."),
         ("2023-09-18", "At my review Dr Okafor increased my dose to 100mg."),
         "What dose of sertraline am I on?", "100mg", "50mg"),
    Case("landlady-she", "current", "Bea",
         ("2022-01-17", "Our rent is 900 a month, bills included."),
         ("2022-07-25", "The landlady came round and she put our rent up to 975."),
         "How much rent do we pay?", "975", "900"),
    Case("okafor-mum", "control", "Dan",
         ("2023-03-06", "I'm on 50mg of sertraline, it took a while to settle."),
         ("2023-09-18", "At her review Dr Okafor increased my mum's dose to 100mg."),
         "What dose of sertraline am I on?", "50mg", "100mg"),
    Case("landlady-smiths", "control", "Bea",
         ("2022-01-17", "Our rent is 900 a month, bills included."),
         ("2022-07-25", "The landlady came round, she put the Smiths' rent up to 975 next door."),
         "How much rent do we pay?", "900", "975"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "coach-defence": "a mis-parse: 'moved Kai to centre back' reads 'to centre back' as a clause of its own, so the "
                     "move gives no value",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round22_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

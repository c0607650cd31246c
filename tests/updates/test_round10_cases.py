"""Update situations of round 10, written before any rule of that round: a new value told in the
same breath as something the holder means to do with a thing they already have ("I keep
meaning to update my CV - I'm at Deloitte now"), against controls where what they mean to do
brings a new value of its own ("I'd love to get a Tesla one day"). Two thirds of them (every case
but each third one as first written): the part the rules of that round are developed against;
the rest is test_round10_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("cv-deloitte", "current", "Ravi",
         ("2022-02-02", "I work at KPMG in the audit team."),
         ("2022-09-09", "I keep meaning to update my CV on LinkedIn - I'm at Deloitte now, by the way."),
         "Where does Ravi work?", "Deloitte", "KPMG"),
    Case("membership-pool", "current", "Orla",
         ("2021-03-03", "I swim at the leisure centre on Friday mornings."),
         ("2021-10-10", "I need to renew my swim membership soon, I go to the Jubilee lido these days."),
         "Where does Orla swim?", "Jubilee", "leisure centre"),
    Case("insurance-octavia", "current", "Femi",
         ("2020-04-04", "I drive a silver Honda Jazz."),
         ("2020-11-11", "I have to sort out the insurance for my car, it's a Skoda Octavia now."),
         "What car does Femi drive?", "Octavia", "Jazz"),
    Case("vet-bella", "current", "Lucy",
         ("2022-05-05", "My cat is called Whiskers."),
         ("2022-12-12", "I must book my cat's jab, we renamed her Bella after the move."),
         "What is Lucy's cat called?", "Bella", "Whiskers"),
    Case("rent-check", "current", "Tariq",
         ("2023-01-01", "My rent is 900 a month."),
         ("2023-07-07", "I should check my tenancy agreement again, my rent is 975 a month since June."),
         "How much is Tariq's rent?", "975", "900"),
    Case("followers", "current", "Mina",
         ("2023-02-02", "I have about 800 followers on my baking account."),
         ("2023-02-20", "I've been meaning to look at my follower count - I think I'm close to 1,100 now."),
         "How many followers does Mina have?", "1,100", "800"),
    # controls: what the holder means to do brings a value of its own
    Case("tesla-someday", "control", "Gus",
         ("2021-01-01", "I drive a little grey Fiat Panda."),
         ("2021-08-08", "I'd love to get a Tesla one day, maybe when the Panda dies."),
         "What car does Gus drive?", "Panda", "Tesla"),
    Case("move-lisbon", "control", "Ada",
         ("2022-03-03", "I live in Bristol with my partner."),
         ("2022-10-10", "I keep meaning to move to Lisbon, the weather there is so much better."),
         "Where does Ada live?", "Bristol", "Lisbon"),
    Case("switch-octopus", "control", "Ben",
         ("2023-01-01", "Our energy supplier is British Gas."),
         ("2023-06-06", "I need to switch my energy to Octopus, British Gas keeps putting prices up."),
         "Who is Ben's energy supplier?", "British Gas", "Octopus"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round10_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

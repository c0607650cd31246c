"""Update situations of round 5, written before any rule of that round, in the way people tell an
assistant things: the value said in passing inside a longer turn — in a relative clause ("Karim,
an old teammate, who's now at KPMG"), in the reason of a question ("since I'm on night shifts
now, could you ..."), after a particle ("moved back to Lisbon"), after a verb that entails its
complement ("managed to run 5k in 27 minutes") — and the controls that look the same but state
nothing of the holder's value (an attempt, a wish, a hypothetical reason, someone else's move).
This is the third kept apart (each third case as first written, split off before any rule
change): read once, at the end of the round."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("five-k", "current", "Ella",
         ("2023-02-12", "My 5k time is about 31 minutes at the moment."),
         ("2023-06-18", "Last Sunday I finally managed to run 5k in 27 minutes at the park run!"),
         "How fast does Ella run 5k?", "27 minutes", "31 minutes"),
    Case("dog-age", "current", "Mira",
         ("2022-01-15", "My dog Biscuit is two years old and full of energy."),
         ("2023-02-20", "Can you recommend some toys for my dog Biscuit, who is three years old now?"),
         "How old is Biscuit?", "three years", "two years"),
    Case("oat-milk", "current", "Lisa",
         ("2022-02-02", "We buy whole cow's milk for the kids every week."),
         ("2022-08-08", "We switched over to oat milk for the kids after the allergy tests."),
         "What milk does Lisa buy for the kids?", "oat milk", "cow's milk"),
    Case("salary", "current", "Dev",
         ("2022-04-04", "My salary is 42,000 a year at the agency."),
         ("2023-04-04", "Could you help me budget, now that my salary went up to 48,000 a year?"),
         "What is Dev's salary?", "48,000", "42,000"),
    # a change that did not happen to the holder's value
    Case("might-nights", "control", "Ife",
         ("2022-05-05", "I work the day shift at the warehouse."),
         ("2022-10-10", "Could you suggest a sleep routine, since I might switch to night shifts in January?"),
         "Which shift does Ife work?", "day shift", "night shifts"),
    Case("no-marathon", "control", "Kit",
         ("2022-04-04", "My marathon best is 3 hours 40 from Berlin."),
         ("2023-04-30", "I didn't manage to finish the London marathon this year, my calf went at mile 18."),
         "What is Kit's marathon best?", "3 hours 40", "London marathon"),
    Case("hoped-promotion", "control", "Priti",
         ("2022-01-10", "I'm a junior analyst at the bank."),
         ("2022-12-12", "I hoped to become a senior analyst this year, but the review got pushed to spring."),
         "What is Priti's job title?", "junior analyst", "senior analyst"),
    # the question asks for the earlier value
    Case("salary-before", "earlier", "Dev",
         ("2022-04-04", "My salary is 42,000 a year at the agency."),
         ("2023-04-04", "Could you help me budget, now that my salary went up to 48,000 a year?"),
         "What was Dev's salary before the raise?", "42,000", "48,000"),
]


#: cases the read path does not pass yet, and why
NOT_YET = {
    "oat-milk": "'switched over to oat milk' is tagged with 'oat' as a verb ('to oat'), so the "
    "clause gives no value (round 6 read the round-5 misses: the other two hold now)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round5_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

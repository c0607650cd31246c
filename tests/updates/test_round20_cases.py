"""Update situations of round 20, written before any rule of that round, after a pattern seen in
the fresh update suite's tune split (benchmarks/data/updates_fresh.json, written by someone who
never read the rules): the holder is someone the speaker talks about, named once, and the new
value is said of them with "he" or "she" ("Vikram called last night, he lives in Singapore
now"). Controls use a pronoun that does not point back at the holder alone (two people named
before it), or one under a plan, a condition or a stay. Two thirds of them (every case but each
third one as written): the part the rules of that round are developed against; the rest is
test_round20_apart.py. Every case passed at the rules they were written against (the later
statement is read as the holder's through the name it opens with), so the round added no rule;
they stay as regression cases."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("vikram-singapore", "current", "Arjun",
         ("2023-04-20", "My brother Vikram lives in Dubai, the airline is based there."),
         ("2023-10-25", "Vikram called last night, he lives in Singapore now since the airline moved him."),
         "Where does Vikram live?", "Singapore", "Dubai"),
    Case("priya-bookshop", "current", "Maya",
         ("2022-02-14", "My sister Priya works at a bakery in Porto."),
         ("2022-09-05", "Priya finally quit, she works at a bookshop by the river now."),
         "Where does Priya work?", "bookshop", "bakery"),
    Case("tom-tesla", "current", "Lena",
         ("2021-05-03", "My neighbour Tom drives an old Volvo estate."),
         ("2021-11-22", "Saw Tom this morning, he drives a white Tesla these days."),
         "What car does Tom drive?", "Tesla", "Volvo"),
    Case("rose-york", "current", "Ola",
         ("2023-01-16", "My grandmother Rose lives on her own in Whitby."),
         ("2023-07-10", "Rose had a fall in March, so she lives with my aunt in York now."),
         "Where does Rose live?", "York", "Whitby"),
    Case("marta-hillview", "current", "Ben",
         ("2022-03-07", "Our coach Marta trains the juniors at Riverside FC."),
         ("2022-10-17", "Marta left in the summer, she coaches the juniors at Hillview United now."),
         "Which club does Marta coach?", "Hillview", "Riverside"),
    Case("leo-kingsway", "current", "Dina",
         ("2021-03-01", "My son Leo goes to St Anne's primary school."),
         ("2021-10-04", "Leo turned eleven in August, he goes to Kingsway Academy now."),
         "Which school does Leo go to?", "Kingsway", "St Anne"),
    Case("nina-daniel", "current", "Kat",
         ("2022-05-09", "My friend Nina is dating a guy called Mark from her climbing gym."),
         ("2022-12-12", "Nina had a rough autumn, she is seeing a lovely man called Daniel now."),
         "Who is Nina dating?", "Daniel", "Mark"),
    Case("graham-foodbank", "current", "Sue",
         ("2020-06-01", "My dad Graham works as a postman in Leeds."),
         ("2021-02-08", "Graham retired at Christmas, he volunteers at the food bank now."),
         "What does Graham do for work?", "food bank", "postman"),
    # controls: a pronoun that does not point back at the holder alone, or no value of theirs
    Case("friend-omar", "control", "Arjun",
         ("2023-04-20", "My brother Vikram lives in Dubai, the airline is based there."),
         ("2023-10-25", "Vikram's friend Omar came over for dinner, he lives in Singapore now."),
         "Where does Vikram live?", "Dubai", "Singapore"),
    Case("priya-if", "control", "Maya",
         ("2022-02-14", "My sister Priya works at a bakery in Porto."),
         ("2022-09-05", "Priya says if she got the job at the bank she would work in Lisbon."),
         "Where does Priya work?", "bakery", "Lisbon"),
    Case("tom-thinking", "control", "Lena",
         ("2021-05-03", "My neighbour Tom drives an old Volvo estate."),
         ("2021-11-22", "Tom came round for coffee, he is thinking of buying a Tesla next year."),
         "What car does Tom drive?", "Volvo", "Tesla"),
    Case("rose-stay", "control", "Ola",
         ("2023-01-16", "My grandmother Rose lives on her own in Whitby."),
         ("2023-07-10", "Rose came down for the weekend, she is staying with my aunt in York for two weeks."),
         "Where does Rose live?", "Whitby", "York"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round20_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

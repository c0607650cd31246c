"""Update situations of round 37, all controls: a later memory of the same person about a thing
of the same sort as the one asked about ("Swam 40 lengths this morning" after "I do yoga on Monday
evenings"), which shares no word with the question nor the answer and fits it far less: it says
alike, but answers nothing, and must not lead. Written after a rule for them was measured on the
tune splits (what says alike answers the same thing only when it also speaks of what the
question or the answer speaks of, or is about as relevant), before any run of them; the rule was
not kept (it lost four changes told in words of their own of earlier rounds). Two thirds
of them (every case but each third one as written) are this file; the rest is
test_round37_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("yoga-not-swim", "control", "Ines",
             ("2024-03-04", (("a", "I do yoga on Monday evenings at the studio on King Street."),)),
             ("2024-03-20", (("a", "Swam 40 lengths this morning, new record!"),)),
             "When does Ines do yoga?", "yoga on Monday evenings", "40 lengths"),
    Exchange("dentist-not-physio", "control", "Omar",
             ("2024-01-08", (("a", "My dentist is Dr Hale on Bridge Street."),)),
             ("2024-02-12", (("a", "I'm seeing a physio for my knee, she's brilliant."),)),
             "Who is Omar's dentist?", "Dr Hale", "physio for"),
    Exchange("pip-not-spaniel", "control", "Cleo",
             ("2023-09-18", (("a", "Our cat Pip only eats the chicken pouches."),)),
             ("2023-10-02", (("a", "Walked the neighbour's spaniel round the park today."),)),
             "What does Cleo's cat eat?", "chicken pouches", "spaniel"),
    Exchange("bus-not-train", "control", "Hugh",
             ("2024-05-06", (("a", "I take the number 12 bus to work every day."),)),
             ("2024-05-27", (("a", "Took the train to Bristol for my aunt's birthday on Saturday."),)),
             "How does Hugh get to work?", "number 12 bus", "train to Bristol"),
    Exchange("book-club-not-choir", "control", "Vera",
             ("2023-11-06", (("a", "My book club meets on the first Tuesday of the month."),)),
             ("2023-11-29", (("a", "Choir rehearsal ran late again tonight."),)),
             "When does Vera's book club meet?", "first Tuesday", "Choir rehearsal"),
    Exchange("salary-not-service", "control", "Dev",
             ("2024-02-05", (("a", "I earn 42,000 a year at the council."),)),
             ("2024-04-15", (("a", "Paid 300 for the car service this week, ouch."),)),
             "How much does Dev earn?", "42,000", "car service"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round37_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)

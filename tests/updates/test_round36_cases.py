"""Update situations of round 36: a longer reply that answers the other speaker's question in its
first words ("Did you find a new piano teacher?" / "Yes, Lorenzo Ricci, a friend of my cousin.
He's patient and ..."), where the reply alone says nothing of what it answers; and, as controls,
a reply that declines ("No, way too pricey ...") or grants a question about someone else. Written
before the rule they test (an answer read with the question it answers), before any run of them.
Two thirds of them (every case but each third one as written) are this file; the rest is
test_round36_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("new-teacher", "current", "Ada",
             ("2022-02-07", (("a", "My piano teacher is Mrs Abbott, she's been teaching me for years."),)),
             ("2022-10-03", (("Bo", "Did you find a new piano teacher after Mrs Abbott retired?"),
                             ("a", ("Yes, Lorenzo Ricci, a friend of my cousin. He's patient and his flat has a "
                                   "lovely old Steinway.")))),
             "Who is Ada's piano teacher?", "Lorenzo Ricci", "teacher is Mrs Abbott"),
    Exchange("new-dentist", "current", "Wren",
             ("2021-06-14", (("a", "I see Dr Fenwick at the Kingsway practice for my teeth."),)),
             ("2022-01-24", (("Cal", "Which dentist are you with these days?"),
                             ("a", ("The Orchard Street clinic, Dr Akande. Much nicer waiting room and they open on "
                                   "Saturdays too.")))),
             "Which dentist does Wren go to?", "Orchard Street clinic", "Dr Fenwick at the Kingsway"),
    Exchange("no-tesla", "control", "Pim",
             ("2022-04-11", (("a", "I drive a blue Honda Jazz, it's tiny but it never breaks."),)),
             ("2022-12-05", (("Rae", "Did you buy that Tesla you were looking at?"),
                             ("a", ("No, way too pricey once I added the insurance. The Jazz will do for another "
                                   "couple of years.")))),
             "What car does Pim drive?", "blue Honda Jazz", "that Tesla"),
    Exchange("new-phone", "current", "Lou",
             ("2023-01-16", (("a", "I've got an old iPhone 11, the battery dies by lunchtime."),)),
             ("2023-08-21", (("Max", "Did you get a new phone in the end?"),
                             ("a", ("Yep, a Pixel 8 from the shop on Mill Road. The camera is unreal and the battery "
                                   "lasts two days.")))),
             "What phone does Lou have?", "Pixel 8", "old iPhone 11"),
    Exchange("brother-at-the-bank", "control", "Nell",
             ("2022-03-28", (("a", "I work at the library on Elm Road, mostly the children's section."),)),
             ("2022-09-12", (("Jo", "Did your brother take the job at the bank?"),
                             ("a", ("Yes, he starts on Monday at the branch in town. He's nervous but the pay is much "
                                   "better than the call centre.")))),
             "Where does Nell work?", "library on Elm Road", "job at the bank"),
    Exchange("ironworks", "current", "Sami",
             ("2021-09-06", (("a", "I lift at FitHub on Station Road, three times a week."),)),
             ("2022-05-16", (("Ty", "Where are you training these days?"),
                             ("a", ("Ironworks, the old warehouse gym by the river. Way more space, fewer mirror "
                                   "selfies, and the owner's a former weightlifter.")))),
             "Which gym does Sami go to?", "Ironworks", "FitHub on Station Road"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round36_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)

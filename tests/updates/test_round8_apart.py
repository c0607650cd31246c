"""Update situations of round 8, written before any rule of that round: changes told in a dialogue —
the holder's short answer to a question ("Where are you working these days?" / "At the Guardian
now."), the other speaker's words that the holder confirms ("Congratulations on the new job at
the council!" / "Thanks!"), a value in a noun phrase ("my new iPhone 15 keeps overheating") —
and controls where the other speaker's words give a value the holder denies, wishes, or that is
someone else's.
This is the third kept apart (each third case as first written, split off before any rule
change): read once, at the end of the round."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

CASES = [
    Exchange("new-flat-question", "current", "Ravi",
             ("2023-01-01", (("a", "I live in a shared house in Headingley."),)),
             ("2023-06-06", (("Sam", "How's the new flat in Chapel Allerton?"), ("a", "Love it, so much quieter."))),
             "Where does Ravi live?", "Chapel Allerton", "Headingley"),
    Exchange("lido", "current", "Kit",
             ("2022-05-05", (("a", "I swim at the Marshall Street baths."),)),
             ("2022-08-08", (("Sam", "Still swimming at Marshall Street?"), ("a", "No, I switched to the lido in Brockwell Park."))),
             "Where does Kit swim?", "Brockwell", "Marshall Street baths"),
    # nothing new of the holder's value
    Exchange("no-tesco", "control", "Ollie",
             ("2022-01-01", (("a", "I work at the Co-op in town."),)),
             ("2022-05-05", (("Sam", "Did you take the job at Tesco?"), ("a", "No, I turned it down, the hours were awful."))),
             "Where does Ollie work?", "Co-op", "Tesco"),
    Exchange("still-from-home", "control", "Ana",
             ("2023-01-01", (("a", "I teach piano from home."),)),
             ("2023-05-05", (("Sam", "Are you teaching at the music school now?"), ("a", "No, still from home, I like my own hours."))),
             "Where does Ana teach piano?", "teaches piano from home", "music school"),
    Exchange("rent-not-for-me", "control", "Leo",
             ("2023-01-01", (("a", "My rent is 900 a month."),)),
             ("2023-06-06", (("Sam", "I heard rents went up to 1,100 round yours?"), ("a", "Not for me, my landlord kept it the same."))),
             "How much is Leo's rent?", "900", "1,100"),
    Exchange("dogs-originally", "earlier", "Pat",
             ("2022-01-01", (("a", "We've got two dogs, both rescues."),)),
             ("2022-08-08", (("Sam", "How many dogs now?"), ("a", "Three, we adopted a greyhound."))),
             "How many dogs did Pat have originally?", "two dogs", "greyhound"),
    Exchange("manager-at-aldi", "current", "Joe",
             ("2022-01-01", (("a", "I work at Lidl in the warehouse."),)),
             ("2022-07-07", (("a", "My manager at Aldi is so much nicer than the last one."),)),
             "Where does Joe work?", "Aldi", "Lidl"),
    Exchange("mum-perth", "current", "Gwen",
             ("2022-01-01", (("a", "My mum lives in Dundee."),)),
             ("2022-09-09", (("Sam", "How's your mum settling into the care home in Perth?"), ("a", "Slowly, but the staff are great."))),
             "Where does Gwen's mum live?", "Perth", "Dundee"),
]

#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET = {
    "new-flat-question": "kept apart: fails at the split and at the end of round 8 (not investigated)",
    "still-from-home": "kept apart: fails at the split and at the end of round 8 (not investigated)",
    "dogs-originally": "kept apart: fails at the split and at the end of round 8 (not investigated)",
    "manager-at-aldi": "kept apart: fails at the split and at the end of round 8 (not investigated)",
    "mum-perth": "kept apart: fails at the split and at the end of round 8 (not investigated)",
}


@pytest.fixture(scope="module")
def exchanges(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round8_apart(exchanges: Memory, case: Exchange) -> None:
    assert holds(exchanges, case)

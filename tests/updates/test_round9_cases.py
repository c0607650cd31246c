"""Update situations of round 9, written before any rule of that round: a value told together
with a clause hung on it ("I started at Brightwater, which is a design agency in Leeds", "we
moved into a flat that overlooks the harbour in Leith", "the clinic where I work now"), against
controls where such a clause describes a person ("my friend Tom, who moved to Berlin") or a thing
the holder only met in passing ("a recruiter from a bank that is opening an office in Leeds").
Two thirds of them (every case but each third one as first written): the part the rules of that
round are developed against; the rest is test_round9_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("brightwater", "current", "Maya",
         ("2022-03-01", "I work at Harlow and Co, a law firm near the cathedral."),
         ("2022-10-12", "I've just started at Brightwater, which is a design agency in Leeds."),
         "Where does Maya work?", "Brightwater", "Harlow"),
    Case("leith-flat", "current", "Sam",
         ("2021-02-02", "We rent a two-bed flat in Hackney."),
         ("2021-09-15", "We moved into a flat that overlooks the harbour in Leith."),
         "Where does Sam live?", "Leith", "Hackney"),
    Case("gym-hove", "current", "Tom",
         ("2023-01-05", "I train at the PureGym on Mill Road most evenings."),
         ("2023-07-20", "I joined a climbing wall that opened last month right by the station in Hove."),
         "Where does Tom train?", "climbing wall", "PureGym"),
    Case("phone-three", "current", "Ola",
         ("2022-04-04", "My phone contract is with Vodafone, it's 30 a month."),
         ("2022-11-11", "I switched to a SIM-only deal with Three that costs 12 a month."),
         "Which network is Ola's phone on?", "Three", "Vodafone"),
    Case("choir-tuesday", "current", "Ines",
         ("2021-05-05", "I sing with the community choir at the town hall."),
         ("2021-12-12", "These days I sing with a chamber choir that rehearses in St Mary's church."),
         "Which choir does Ines sing with?", "chamber choir", "community choir"),
    Case("clinic-where", "current", "Dev",
         ("2020-06-06", "I'm a physio at the Royal Infirmary."),
         ("2021-03-03", "I moved to a private clinic in Didsbury, where I only see sports injuries."),
         "Where does Dev work as a physio?", "Didsbury", "Royal Infirmary"),
    Case("bank-monzo", "current", "Lena",
         ("2022-01-01", "My salary goes into my Barclays current account."),
         ("2022-08-08", "I moved my salary to Monzo, which pays interest on the balance."),
         "Which bank does Lena's salary go into?", "Monzo", "Barclays"),
    Case("car-leaf", "current", "Raj",
         ("2020-02-02", "I drive a 2012 Ford Focus to work."),
         ("2020-12-12", "I've got a Nissan Leaf now, which my brother sold me cheap."),
         "What car does Raj drive?", "Leaf", "Focus"),
    Case("school-oakfield", "current", "Nina",
         ("2023-01-10", "My son Leo goes to Greenway primary."),
         ("2023-09-20", "Leo started at Oakfield, a school that specialises in music, this September."),
         "Which school does Leo go to?", "Oakfield", "Greenway"),
    # controls: the clause describes a person, or a thing the holder only met
    Case("tom-berlin", "control", "Abi",
         ("2022-02-02", "I live in Leeds, in a terrace off Kirkstall Road."),
         ("2022-09-09", "I had dinner with my friend Tom, who moved to Berlin last year."),
         "Where does Abi live?", "Leeds", "Berlin"),
    Case("recruiter-bank", "control", "Kofi",
         ("2021-03-03", "I work at the central library as an archivist."),
         ("2021-10-10", "I met a recruiter from a bank that is opening an office in Leeds."),
         "Where does Kofi work?", "library", "bank"),
    Case("sister-flat", "control", "Jo",
         ("2023-02-02", "I live in a flat in Clifton with my cat."),
         ("2023-08-08", "I helped my sister paint the house that she bought in Bedminster."),
         "Where does Jo live?", "Clifton", "Bedminster"),
    Case("gym-visit", "control", "Pete",
         ("2022-01-20", "I'm a member of the Fitness First on Oxford Road."),
         ("2022-06-06", "I tried a free class at a gym that opened near my office, not for me."),
         "Which gym is Pete a member of?", "Fitness First", "free class"),
    Case("car-test", "control", "Gwen",
         ("2021-04-04", "I drive a little red Fiat 500."),
         ("2021-11-11", "I test drove a Tesla that my neighbour is selling, way too expensive."),
         "What car does Gwen drive?", "Fiat", "Tesla"),
    Case("choir-friend", "control", "Hugh",
         ("2020-05-05", "I sing bass in the Bath Male Voice Choir."),
         ("2020-10-10", "My partner joined a gospel choir that meets in the Baptist church."),
         "Which choir does Hugh sing in?", "Male Voice", "gospel"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "bank-monzo": "the named-entity tagger takes 'Monzo' for a person, so 'which pays interest' reads as someone "
    "else's words and the memory as an aside",
    "gym-visit": "'tried a free class at a gym ..., not for me': a trial and its verbless rejection read as the "
    "holder's statement",
    "car-test": "'test drove a Tesla': a trial reads as the holder's statement of what they drive",
    "recruiter-bank": "'met a recruiter from a bank that is opening an office in Leeds': the holder's statement "
    "fits the question poorly but joins the answer as a nearest neighbour of the library statement in a "
    "conversation of six memories, and is later",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round9_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

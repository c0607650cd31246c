"""Update situations of round 14, written before any rule of that round: a new value told in a
noun phrase of the holder's ("My new place in York has a garden", "My new job at the Nuffield
clinic has better hours") or worded far from the question and the old memory, the new value
of the same kind as the old one ("Treated myself to an iPhone 15 Pro", "Sainsbury's took me on
as a shift manager", "Paying 1,050 now"), and controls where a later turn names a value of the
same kind that is someone else's, a thing seen or a place passed through ("My sister got a job
at Sainsbury's", "We drove through York on the way back"). Two thirds of them (every case but
each third one as first written): the part the rules of that round are developed against; the
rest is test_round14_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("york-place", "current", "Abe",
         ("2021-01-01", "I live in a flat in Leeds."),
         ("2021-07-07", "My new place in York has a garden, finally!"),
         "Where does Abe live?", "York", "flat in Leeds"),
    Case("nuffield", "current", "Bo",
         ("2020-02-02", "I work as a nurse at St James's hospital."),
         ("2020-08-08", "My new job at the Nuffield clinic has much better hours."),
         "Where does Bo work?", "Nuffield", "St James"),
    Case("iphone", "current", "Kai",
         ("2022-03-03", "My phone is a Samsung Galaxy S10."),
         ("2022-09-09", "Treated myself to an iPhone 15 Pro last week."),
         "What phone does Kai have?", "iPhone", "Samsung"),
    Case("okafor", "current", "Ray",
         ("2021-04-04", "My GP is Dr Patel at the Elm Street surgery."),
         ("2021-10-10", "Dr Okafor has taken over my care at the practice."),
         "Who is Ray's doctor?", "Okafor", "Patel"),
    Case("anytime", "current", "Vi",
         ("2023-01-05", "I go to PureGym near the station."),
         ("2023-06-05", "Signed up at Anytime Fitness, being open all night is handy."),
         "Which gym does Vi go to?", "Anytime", "PureGym"),
    Case("sainsburys", "current", "Sara",
         ("2020-03-03", "I work at Tesco on the tills."),
         ("2020-09-09", "Sainsbury's took me on as a shift manager in June."),
         "Where does Sara work?", "Sainsbury", "Tesco"),
    Case("niro", "current", "Uri",
         ("2022-05-05", "My car is a 2012 Honda Civic."),
         ("2022-11-11", "The new Kia Niro is so quiet compared to the Civic."),
         "What car does Uri drive?", "Kia", "2012 Honda"),
    Case("starling", "current", "Val",
         ("2021-06-06", "I bank with Lloyds."),
         ("2021-12-12", "The Starling app is so much better than Lloyds ever was."),
         "Who does Val bank with?", "Starling", "banks with Lloyds"),
    Case("rent-1050", "current", "Wyn",
         ("2022-01-15", "My rent is 900 a month."),
         ("2022-07-15", "Paying 1,050 now since the new contract started."),
         "How much is Wyn's rent?", "1,050", "900"),
    # controls: a later value of the same kind that is not the holder's
    Case("sister-job", "control", "Xia",
         ("2021-02-02", "I work at Tesco on the tills."),
         ("2021-08-08", "My sister got a job at Sainsbury's."),
         "Where does Xia work?", "Tesco", "Sainsbury"),
    Case("iphone-ads", "control", "Yan",
         ("2022-02-02", "I have a Pixel 7 phone."),
         ("2022-08-08", "The new iPhone ads are everywhere at the moment."),
         "What phone does Yan have?", "Pixel", "iPhone"),
    Case("drove-york", "control", "Zed",
         ("2020-04-04", "I live in Leeds near the university."),
         ("2020-10-10", "We drove through York on the way back from the coast."),
         "Where does Zed live?", "near the university", "York"),
    Case("husband-dentist", "control", "Ann",
         ("2023-03-03", "My dentist is Dr Shah."),
         ("2023-09-09", "My husband's new dentist, Dr Lowe, is lovely."),
         "Who is Ann's dentist?", "Shah", "Lowe"),
    Case("neighbour-gas", "control", "Ben",
         ("2021-05-05", "I'm with Octopus for energy."),
         ("2021-11-11", "My neighbour swears by British Gas."),
         "Who is Ben's energy supplier?", "Octopus", "British Gas"),
    Case("nike", "control", "Cat",
         ("2022-06-06", "My gym is the Better centre on Mill Road."),
         ("2022-12-12", "My new trainers from Nike are brilliant for the gym."),
         "Which gym does Cat go to?", "Better centre", "Nike"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "okafor": "'my GP' and 'Dr Okafor has taken over my care' are not read as the doctor the question asks for: "
              "the question names a doctor, the memories a GP and a care (no word in common), so neither is the "
              "holder's statement about the thing asked",
    "anytime": "'Signed up at Anytime Fitness, being open all night is handy' is parsed as one clause whose subject "
               "is the sign-up, not the speaker's",
    "niro": "'The new Kia Niro is so quiet' names the car without saying whose it is",
    "starling": "'The Starling app is so much better than Lloyds ever was' says nothing the holder has or does",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round14_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

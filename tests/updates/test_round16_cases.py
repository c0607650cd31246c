"""Update situations of round 16, written before any rule of that round: the holder tells the
new value in words that are their statement but can read as something less - the first half of
"X but Y" where Y speaks of someone or something else ("We moved to Leeds in May, but my brother
stayed in York"), a clause after a denial of the old value ("I don't drive the Golf anymore,
I've got a Tesla"), a subject said without its article ("Rent went up to 1,300"), what the
holder can do now ("I can run 10k in 48 minutes now"), what they have to do now ("I have to be at
the depot by 6 now"), a membership taken for a length of time ("I signed up for a year at
PureGym"); and controls where those words are indeed no new value: a concession undone by what
follows, a denial of a plan, a possibility, a place stayed at for two weeks, a price of a place
not the holder's. Two thirds of them (every case but each third one as written): the part the
rules of that round are developed against; the rest is test_round16_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

ALL = [
    Case("leeds-but-brother", "current", "Ana",
         ("2022-01-12", "We live in York, about ten minutes from the station."),
         ("2022-07-20", "We moved to Leeds in May, but my brother stayed in York."),
         "Where does Ana live?", "moved to Leeds", "ten minutes from"),
    Case("golf-tesla", "current", "Ben",
         ("2021-02-03", "I drive a VW Golf, it's a 2015 diesel."),
         ("2021-09-14", "I don't drive the Golf anymore, I've got a Tesla Model 3 now."),
         "What car does Ben drive?", "Tesla Model 3", "2015 diesel"),
    Case("rent-1300", "current", "Cal",
         ("2023-01-05", "My rent is 1,100 a month for the flat."),
         ("2023-08-02", "Rent went up to 1,300 in March, which hurts."),
         "How much rent does Cal pay?", "1,300", "1,100 a month"),
    Case("run-48", "current", "Dee",
         ("2020-03-09", "My best 10k time is 55 minutes."),
         ("2020-10-19", "After all that training I can run 10k in 48 minutes now."),
         "How fast does Dee run a 10k?", "48 minutes", "55 minutes"),
    Case("depot-6", "current", "Eli",
         ("2022-04-11", "I start at the depot at 8 every morning."),
         ("2022-11-21", "With the new rota I have to be at the depot by 6 now."),
         "What time does Eli start at the depot?", "by 6 now", "at 8 every"),
    Case("puregym-year", "current", "Fay",
         ("2021-05-17", "I go to the leisure centre gym on Mill Road."),
         ("2021-12-06", "I signed up for a year at PureGym on the high street."),
         "Which gym does Fay go to?", "PureGym", "Mill Road"),
    Case("oat-but-tea", "current", "Gil",
         ("2023-02-13", "I take semi-skimmed milk in my coffee."),
         ("2023-09-25", "I switched to oat milk in the summer, but my partner still buys semi-skimmed."),
         "What milk does Gil take in coffee?", "oat milk", "semi-skimmed milk"),
    Case("not-acme-globex", "current", "Hana",
         ("2020-06-01", "I work at Acme as a data analyst."),
         ("2021-01-18", "I'm not at Acme anymore, I joined Globex in October."),
         "Where does Hana work?", "joined Globex", "data analyst"),
    Case("dose-bare", "current", "Ivo",
         ("2022-02-21", "My sertraline dose is 50mg a day."),
         ("2022-09-12", "Dose got bumped up to 100mg at the last review."),
         "What dose of sertraline is Ivo on?", "100mg", "50mg a day"),
    Case("can-decaf", "current", "Jun",
         ("2021-03-22", "I drink three espressos a day, strong ones."),
         ("2021-10-04", "Since the palpitations I can only drink decaf now."),
         "What coffee does Jun drink?", "decaf", "three espressos"),
    Case("nights-but-fine", "current", "Kai",
         ("2023-03-06", "I work day shifts at the care home."),
         ("2023-10-16", "I went onto nights at the care home last month, but the pay is better."),
         "What shifts does Kai work?", "onto nights", "day shifts"),
    Case("choir-year", "current", "Lia",
         ("2020-04-20", "I sing with the church choir on Thursdays."),
         ("2020-11-09", "I joined the Hallé community choir for the season, rehearsals are on Tuesdays."),
         "Which choir does Lia sing with?", "community choir", "church choir"),
    # controls: the later words are no new value of the holder's
    Case("looked-leeds", "control", "Max",
         ("2021-06-14", "We live in York, in a terrace near the river."),
         ("2022-01-10", "We looked at a house in Leeds, but we're staying in York after all."),
         "Where does Max live?", "near the river", "house in Leeds"),
    Case("not-think-globex", "control", "Nia",
         ("2022-07-04", "I work at Acme in the accounts team."),
         ("2023-01-23", "I don't think I'll take the Globex offer, it's too far to commute."),
         "Where does Nia work?", "accounts team", "Globex offer"),
    Case("can-tesla", "control", "Oli",
         ("2020-08-03", "I drive a Skoda Fabia, a little red one."),
         ("2021-02-15", "I can get a Tesla through the lease scheme at work."),
         "What car does Oli drive?", "Skoda Fabia", "lease scheme"),
    Case("sister-fortnight", "control", "Pia",
         ("2023-04-03", "I live in Bath, in a flat on Walcot Street."),
         ("2023-10-30", "I'm staying at my sister's in Bristol for two weeks while my kitchen is redone."),
         "Where does Pia live?", "Walcot Street", "sister's in Bristol"),
    Case("rent-bristol", "control", "Quin",
         ("2021-09-06", "My rent is 850 a month for a studio."),
         ("2022-03-28", "Rent in central Bristol is 1,400 a month for a one-bed, it's mad."),
         "How much rent does Quin pay?", "850 a month", "1,400 a month"),
    Case("have-to-stocktake", "control", "Rae",
         ("2022-10-10", "I start at the warehouse at 9 every day."),
         ("2023-05-15", "Ugh, I have to be at the warehouse by 5 tomorrow for the stocktake."),
         "What time does Rae start at the warehouse?", "at 9 every", "by 5 tomorrow"),
]
#: the part the rules are developed against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "depot-6": "'I have to be at the depot by 6 now': a necessity in the present is read as what is to be done, "
               "not as a standing rule (no structure tells 'have to be there by 6 now' from 'we have to move "
               "the wedding')",
    "oat-but-tea": "misparse: 'switched to oat milk' is parsed with 'to oat' as an infinitive, so the first half of "
                   "the contrast has no value of its own",
    "can-decaf": "'I can only drink decaf now': 'can' is read as a possibility, as in 'I can get a Tesla through "
                 "the lease scheme' (no structure tells an ability or a restriction now from a possibility)",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round16_cases(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

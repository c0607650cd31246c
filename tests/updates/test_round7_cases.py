"""Update situations of round 7, written before any rule of that round: changes told in words no
rule lists ("traded the Golf in for", "ditched PureGym for", "took up pottery", "home is Lisbon
these days", "the GP put me on"), values the question names otherwise ("Who is Tom's partner?"
for "I'm seeing someone called Jess now"), and the same in Spanish, German and French (the
question in the memory's language). The controls: someone else's change, a look, a trial, an
interview not won, a holiday, a condition.
Two thirds of them (every case but each third one as first written): the part the rules of that
round are developed against; the rest is test_round7_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("traded-golf", "current", "Ari",
         ("2022-02-02", "I drive an old Golf, it has 180,000 miles on it."),
         ("2022-09-09", "I traded the Golf in for a Kia Niro last month."),
         "What car does Ari drive?", "Kia Niro", "180,000 miles"),
    Case("ditched-gym", "current", "Lena",
         ("2023-01-03", "I'm a member at PureGym on the high street."),
         ("2023-05-05", "I ditched PureGym for the council pool, it's half the price."),
         "Where does Lena work out?", "council pool", "member at PureGym"),
    Case("home-lisbon", "current", "Iona",
         ("2022-04-04", "I live in Glasgow, in the West End."),
         ("2023-04-04", "Home is Lisbon these days, I love the light here."),
         "Where does Iona live?", "Lisbon", "Glasgow"),
    Case("new-boss", "current", "Sanjay",
         ("2022-01-10", "My boss is Karen, she runs the finance team."),
         ("2022-06-10", "Karen left in March, my new boss is a guy called Pete."),
         "Who is Sanjay's boss?", "Pete", "runs the finance team"),
    Case("de-bmw", "current", "Jonas",
         ("2022-05-05", "Ich arbeite bei Siemens in München."),
         ("2023-02-02", "Seit Januar arbeite ich bei BMW."),
         "Wo arbeitet Jonas?", "BMW", "Siemens"),
    Case("fr-infirmiere", "current", "Chloé",
         ("2021-06-06", "Je travaille comme serveuse dans un café."),
         ("2022-06-06", "Maintenant je suis infirmière à l'hôpital."),
         "Quel est le métier de Chloé ?", "infirmière", "serveuse"),
    Case("seeing-jess", "current", "Tom",
         ("2021-02-02", "My girlfriend Maria and I have been together for three years."),
         ("2021-10-10", "Maria and I broke up in the summer, I'm seeing someone called Jess now."),
         "Who is Tom's partner?", "Jess", "together for three years"),
    Case("fexofenadine", "current", "Pia",
         ("2022-04-04", "For my hay fever I take cetirizine every day."),
         ("2023-05-05", "The cetirizine stopped working, so the GP put me on fexofenadine instead."),
         "What does Pia take for her hay fever?", "fexofenadine", "cetirizine every day"),
    # nothing new of the holder's value
    Case("es-hermano", "control", "Marta",
         ("2022-03-03", "Vivo en Valencia, cerca de la playa."),
         ("2022-09-09", "Mi hermano se mudó a Bilbao el mes pasado."),
         "¿Dónde vive Marta?", "Valencia", "Bilbao"),
    Case("de-urlaub", "control", "Paul",
         ("2022-02-02", "Ich wohne in Hamburg, direkt an der Elbe."),
         ("2022-10-10", "Letztes Jahr war ich zwei Wochen in Wien im Urlaub."),
         "Wo wohnt Paul?", "Hamburg", "Wien"),
    Case("friend-sax", "control", "Ines",
         ("2022-02-02", "I play the cello in a community orchestra."),
         ("2022-08-08", "My friend Jade took up the saxophone, she's hooked."),
         "What instrument does Ines play?", "cello", "saxophone"),
    Case("daughter-durham", "control", "Chidi",
         ("2022-01-01", "We live in Reading, near the university."),
         ("2022-10-10", "Our daughter moved into halls in Durham in September."),
         "Where does Chidi live?", "Reading", "Durham"),
    Case("vet-interview", "control", "Eve",
         ("2022-03-03", "I work at the garden centre on weekends."),
         ("2022-07-07", "I had an interview at the vet's in June, but I didn't get it."),
         "Where does Eve work at weekends?", "garden centre", "vet's"),
    Case("cornwall-cottage", "control", "Hal",
         ("2022-02-02", "I live in Leeds with my two cats."),
         ("2022-06-06", "We rented a cottage in Cornwall for the bank holiday, it was gorgeous."),
         "Where does Hal live?", "Leeds", "Cornwall"),
    # the question asks for the earlier value (Spanish: neither 'antes' nor the memories are read,
    # the ranking decides; for a question in another language it rests on the lexical view, and
    # the older memory leads by BM25 alone, holding the question's 'en' twice)
    Case("es-banco", "earlier", "Ane",
         ("2022-01-01", "Trabajo en un banco en Bilbao."),
         ("2022-11-11", "Desde marzo trabajo en una librería."),
         "¿Dónde trabajaba Ane antes?", "banco", "librería"),
    Case("dentist-before", "earlier", "Sue",
         ("2022-02-02", "My dentist is Dr Patel in Hove."),
         ("2022-09-09", "I switched to a dentist in Brighton, Dr Reeves, much closer to work."),
         "Who was Sue's dentist before she switched?", "Dr Patel", "Dr Reeves"),
]


#: cases the read path does not pass yet, and why
NOT_YET = {
    "cornwall-cottage": "'rented a cottage in Cornwall for the bank holiday': a stay for an occasion, not counted in units "
    "of time, reads as a statement of where Hal is",
    "fr-infirmiere": "French: the statement reader parses English only, so the stage reads neither memory and the ranking decides",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round7(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

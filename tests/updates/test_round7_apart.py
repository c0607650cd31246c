"""Update situations of round 7, written before any rule of that round: changes told in words no
rule lists ("traded the Golf in for", "ditched PureGym for", "took up pottery", "home is Lisbon
these days", "the GP put me on"), values the question names otherwise ("Who is Tom's partner?"
for "I'm seeing someone called Jess now"), and the same in Spanish, German and French (the
question in the memory's language). The controls: someone else's change, a look, a trial, an
interview not won, a holiday, a condition.
This is the third kept apart (each third case as first written, split off before any rule
change): read once, at the end of the round."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("took-up-pottery", "current", "Omar",
         ("2021-03-03", "My hobby is painting watercolours at weekends."),
         ("2021-11-11", "I gave up the watercolours and took up pottery, I'm at the studio every Saturday."),
         "What is Omar's hobby?", "pottery", "painting watercolours"),
    Case("es-madrid", "current", "Lucía",
         ("2022-03-03", "Vivo en Sevilla con mi novio."),
         ("2023-03-03", "Ahora vivo en Madrid, me mudé por el trabajo."),
         "¿Dónde vive Lucía?", "Madrid", "Sevilla"),
    Case("baby-finn", "current", "Dina",
         ("2022-01-01", "We have two kids, Sam and Lily."),
         ("2022-07-07", "Baby number three arrived in May, a little boy called Finn!"),
         "How many kids does Dina have?", "Finn", "two kids"),
    Case("senior-dev", "current", "Kofi",
         ("2022-02-02", "I'm a junior developer at a fintech startup."),
         ("2023-02-02", "Got promoted! I'm a senior developer now, same startup."),
         "What is Kofi's job title?", "senior developer", "junior developer"),
    Case("looked-at-tesla", "control", "Bea",
         ("2023-01-01", "I drive a Skoda Octavia estate."),
         ("2023-03-03", "I looked at a Tesla at the weekend but it's way out of budget."),
         "What car does Bea drive?", "Skoda", "Tesla"),
    Case("tidal-trial", "control", "Nico",
         ("2023-01-01", "I pay for Spotify Premium, the family plan."),
         ("2023-04-04", "I'm trying out Tidal on a free trial this month, the sound is incredible."),
         "Which music service does Nico pay for?", "Spotify", "Tidal"),
    Case("tutoring-if", "control", "Uma",
         ("2023-01-01", "I teach maths at a secondary school."),
         ("2023-05-05", "If the private tutoring keeps growing, I could quit teaching next year."),
         "What does Uma do for work?", "teach maths", "private tutoring"),
    Case("rowing-first", "earlier", "Fin",
         ("2021-01-01", "I row at the university boat club."),
         ("2021-09-09", "These days I mostly cycle, I sold the rowing machine too."),
         "What sport did Fin do originally?", "boat club", "mostly cycle"),
]


#: cases the read path does not pass, and why (read once, at the end of the round)
NOT_YET = {
    "baby-finn": "kept apart: fails at the split and at the end of round 7 (not investigated)",
    "tutoring-if": "kept apart: fails at the split and at the end of round 7 (not investigated)",
    "tidal-trial": "held at the split and at the end of round 7 through a misparse of 'Nico is trying out Tidal' "
    "(no subject); parsed right since round 9, the trial reads as what Nico pays for",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round7_apart(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

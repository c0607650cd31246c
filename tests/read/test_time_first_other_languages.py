"""A date question in another language: its own time first, read without an English parse.

The question's own time is read from its parse (``read/when.py``), and the parse is English:
"Was habe ich am 3. März gemacht?" named no time of its own clause, and its English keywords
("habe", "gemacht") asked for more than what happened then, so a memory sharing "habe" came
first. A question in another language is read without a parse (each time not said as a bound
is its own) and asks for more than its time only by a word outside its language's closed
classes and words that ask for any event.
"""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.when import asks_more_in

ASKED = "2026-05-10T10:00"
SAID = {
    "de": ["Heute war ich beim Zahnarzt.", "Heute habe ich ein neues Fahrrad gekauft.", "Heute war ich im Kino."],
    "fr": ["Aujourd'hui je suis allée chez le dentiste.", "Aujourd'hui j'ai acheté un vélo.", "Aujourd'hui je suis allée au cinéma."],
    "es": ["Hoy fui al dentista.", "Hoy he comprado una bicicleta nueva.", "Hoy fui al cine con mi hermana."],
    "it": ["Oggi sono andata dal dentista.", "Oggi ho comprato una bici nuova.", "Oggi sono andata al cinema."],
    "ja": ["今日は歯医者に行きました。", "今日は自転車を買いました。", "今日は映画を見ました。"],
    "zh": ["今天我去看牙医了。", "今天我买了一辆新自行车。", "今天我去看电影了。"],
}
DAYS = ["2026-03-03T18:00", "2026-03-05T18:00", "2026-04-20T18:00"]
ASKS = [
    ("de", "Was habe ich am 3. März gemacht?", 0), ("de", "Was habe ich letzten Monat gemacht?", 2),
    ("fr", "Qu'est-ce que j'ai fait le mois dernier ?", 2), ("fr", "Qu'est-ce que j'ai fait le 3 mars ?", 0),
    ("es", "¿Qué hice el 3 de marzo?", 0), ("it", "Cosa ho fatto il mese scorso?", 2),
    ("ja", "3月3日に何をしましたか？", 0), ("zh", "3月3日我做了什么？", 0),
]


@pytest.mark.parametrize(("language", "question", "answer"), ASKS, ids=[f"{a[0]}-{i}" for i, a in enumerate(ASKS)])
def test_the_memory_of_the_time_asked_comes_first(language: str, question: str, answer: int) -> None:
    memory = Memory.open("memory://")
    for text, day in zip(SAID[language], DAYS, strict=True):
        memory.add([{"speaker": "Lena", "text": text}], user_id="lena", session_time=day)
    found = memory.search(question, user_id="lena", question_time=ASKED)
    assert found.evidence[0].unit.restatement.endswith(SAID[language][answer]), [e.unit.restatement for e in found.evidence]
    scores = [e.score for e in found.evidence]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("question", "language", "phrases", "more"),
    [("Qu'est-ce que j'ai fait le mois dernier ?", "fr", ["le mois dernier"], False),
     ("Was habe ich im März gekauft?", "de", ["im März"], True),
     ("Wann war ich beim Zahnarzt?", "de", [], True),
     ("3月3日我做了什么？", "zh", ["3月3日"], False),
     ("3月3日我买了什么？", "zh", ["3月3日"], True),
     ("Cosa ho mangiato il 3 marzo?", "it", ["il 3 marzo"], True)],
)
def test_what_a_question_asks_besides_its_time(question: str, language: str, phrases: list[str], more: bool) -> None:
    assert asks_more_in(question, language, [], phrases) is more

"""The statement reader parses English: in another language the supersession stage reads chains only.

Read by the English parser, "Lundi, je suis allée chez le dentiste" and "En avril, j'étais à
Berlin" were two asserted statements of the present, and the later one went first for a
question about the past ("Quand suis-je allée chez le dentiste ?"). A question or a memory in
another language has no reading now; an explicit update's chain is still read first.
"""

from __future__ import annotations

import pytest

from ripplemem import Memory

CASES = [
    ("fr", [("Mardi, je suis allé chez le coiffeur.", "2024-05-10"), ("En mars, j'étais à Lisbonne.", "2024-05-20")],
     "Quand suis-je allé chez le coiffeur ?", "coiffeur"),
    ("es", [("El martes fui a la peluquería.", "2024-05-10"), ("En marzo estuve en Lisboa.", "2024-05-20")],
     "¿Cuándo fui a la peluquería?", "peluquería"),
    ("es-qa", [("El lunes fui al dentista.", "2024-05-10"), ("En abril estuve en París.", "2024-05-20")],
     "¿Cuándo fui al dentista?", "dentista"),
    ("de", [("Am Dienstag war ich beim Friseur.", "2024-05-10"), ("Im März war ich in Lissabon.", "2024-05-20")],
     "Wann war ich beim Friseur?", "Friseur"),
]


@pytest.mark.parametrize(("language", "said", "question", "answer"), CASES, ids=[c[0] for c in CASES])
def test_a_later_memory_does_not_pass_the_answer(
    memory: Memory, language: str, said: list[tuple[str, str]], question: str, answer: str
) -> None:
    for text, day in said:
        memory.add([{"speaker": "Noa", "text": text}], user_id="noa", session_time=day)
    found = memory.search(question, user_id="noa", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]
    assert not any(n.startswith("supersession") and "moved" in n for n in found.trace.notes), found.trace.notes


def test_an_update_in_another_language_still_leads(memory: Memory) -> None:
    old = memory.add([{"speaker": "Noa", "text": "Ich wohne in Köln, in der Südstadt."}], user_id="noa", session_time="2024-01-10")
    memory.add([{"speaker": "Noa", "text": "Im Februar war ich eine Woche in Hamburg."}], user_id="noa", session_time="2024-03-01")
    memory.update(old.units[0].id, "Seit April wohne ich in Bonn.", user_id="noa", session_time="2024-04-20")
    found = memory.search("Wo wohnt Noa?", user_id="noa", question_time="2024-06-01")
    ranked = [e.unit.restatement for e in found.evidence]
    assert ranked.index(next(r for r in ranked if "Bonn" in r)) < ranked.index(next(r for r in ranked if "Köln" in r)), ranked

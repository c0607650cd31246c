"""The statement reader parses English: in another language the supersession stage reads chains only.

Read by the English parser, "Lundi, je suis allée chez le dentiste" and "En avril, j'étais à
Berlin" were two asserted statements of the present, and the later one went first for a
question about the past ("Quand suis-je allée chez le dentiste ?"). A question or a memory in
another language has no reading now; an explicit update's chain is still read first.
"""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.other_languages import sentence_says_now

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


# a question in another language about the present: the holder's latest alike answer leads,
# said in words no rule lists, in each language's own grammar (no English parse of it)
LATEST = [
    ("it", [("Abito a Torino, in un bilocale in centro.", "2024-01-12"),
            ("Da marzo abito a Bologna, mi sono trasferita per il lavoro nuovo.", "2024-05-03")],
     "Dove abita Giulia?", "Bologna", "Torino"),
    ("de", [("Ich arbeite als Krankenschwester in der Uniklinik.", "2024-01-12"),
            ("Seit dem Frühjahr arbeite ich als Hebamme in einer Praxis in der Altstadt.", "2024-05-03")],
     "Als was arbeitet Giulia?", "Hebamme", "Krankenschwester"),
    ("pt", [("Eu jogo vôlei às terças com o pessoal do trabalho.", "2024-01-12"),
            ("Agora eu jogo basquete às quintas, o time de vôlei acabou.", "2024-05-03")],
     "Que esporte a Giulia joga?", "basquete", "terças"),
]


@pytest.mark.parametrize(("language", "said", "question", "new", "old"), LATEST, ids=[c[0] for c in LATEST])
def test_the_latest_alike_answer_of_the_holder_leads(
    memory: Memory, language: str, said: list[tuple[str, str]], question: str, new: str, old: str
) -> None:
    memory.add([{"speaker": "Giulia", "text": "Che caldo oggi!" if language == "it" else "Hallo!"}], user_id="g", session_time="2024-01-12")
    for text, day in said:
        memory.add([{"speaker": "Giulia", "text": text}], user_id="g", session_time=day)
    found = memory.search(question, user_id="g", question_time="2024-06-01")
    ranked = [e.unit.restatement for e in found.evidence]
    assert ranked.index(next(r for r in ranked if new in r)) < ranked.index(next(r for r in ranked if old in r)), ranked
    scores = [e.score for e in found.evidence]
    assert scores == sorted(scores, reverse=True)  # the order is the scores'


# what is not so now stays where the ranking put it: a past state (the imperfect), a
# condition, a denial, a future
STAYS = [
    ("es", [("Vivo en Valencia, cerca del puerto.", "2024-01-12"),
            ("De estudiante vivía en Salamanca, en un piso compartido.", "2024-05-03")],
     "¿Dónde vive Giulia?", "Valencia"),
    ("de", [("Ich wohne in Freiburg, direkt an der Dreisam.", "2024-01-12"),
            ("Wenn ich die Stelle bekomme, ziehe ich vielleicht nach Zürich.", "2024-05-03")],
     "Wo wohnt Giulia?", "Freiburg"),
    ("fr", [("J'habite à Nantes, près de l'île.", "2024-01-12"),
            ("Quand j'étais petite, j'habitais à Brest avec mes grands-parents.", "2024-05-03")],
     "Où habite Giulia ?", "Nantes"),
]


@pytest.mark.parametrize(("language", "said", "question", "answer"), STAYS, ids=[c[0] for c in STAYS])
def test_what_is_not_so_now_does_not_lead(
    memory: Memory, language: str, said: list[tuple[str, str]], question: str, answer: str
) -> None:
    for text, day in said:
        memory.add([{"speaker": "Giulia", "text": text}], user_id="g", session_time=day)
    found = memory.search(question, user_id="g", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


def test_a_word_of_the_question_in_another_form_answers(memory: Memory) -> None:
    # "wohnt" / "wohne": the lexical view matches whole words, and in a small memory the name
    # alone put the dog first (of two memories, each is as alike to the other as to any)
    memory.add([{"speaker": "Lena", "text": "Ich wohne seit fünf Jahren in Hamburg."}], user_id="l", session_time="2024-01-10")
    memory.add([{"speaker": "Lena", "text": "Mein Hund heißt Bello."}], user_id="l", session_time="2024-06-10")
    for question in ("Wo wohnt Lena?", "Wo wohnt Lena jetzt?"):
        found = memory.search(question, user_id="l", question_time="2024-07-01")
        assert "Hamburg" in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]
        scores = [e.score for e in found.evidence]
        assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize(
    ("sentence", "language", "now"),
    [("저는 서울에서 라면 가게를 해요", "ko", True),  # 라면 (ramen) holds no conditional ending
     ("합격하면 부산으로 이사해요", "ko", False), ("차가 없어요", "ko", False),
     ("Wenn ich die Stelle bekomme, ziehe ich nach Zürich", "de", False),
     ("De estudiante vivía en Salamanca", "es", False), ("Ahora vivo en Madrid", "es", True),
     ("Uf, sí", "es", False), ("如果找到工作我就搬家", "zh", False), ("我住在北京", "zh", True)],
)
def test_what_a_sentence_says_is_so_now(sentence: str, language: str, now: bool) -> None:
    assert sentence_says_now(sentence, language) is now

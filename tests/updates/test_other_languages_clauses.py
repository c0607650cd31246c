"""A memory in another language is not so now only when each of its clauses is not.

"Ich wohne nicht mehr in Bonn, jetzt wohne ich in Trier" holds a denial, and its whole sentence
was read as one: the old home stayed first. The clause that holds the language's word for now
and no denial, past state or future of its own asserts the new value; a condition governs its
whole sentence ("Si me dan la plaza, ahora vivo en Cádiz" asserts nothing).
"""

from __future__ import annotations

import pytest

from ripplemem import Memory
from ripplemem.read.other_languages import sentence_says_now

#: (language, the old value, small talk, the new value said as "no longer X, now Y", the question,
#: a word of the new value)
NO_LONGER_NOW = [
    ("de", "Ich arbeite bei Siemens in Erlangen.", "Am Sonntag waren wir im Zoo.",
     "Ich arbeite nicht mehr bei Siemens, jetzt arbeite ich bei Bosch in Bamberg.", "Wo arbeitet Jana?", "Bosch"),
    ("es", "Vivo en Granada, en el Albaicín.", "El domingo fuimos al cine con mis primos.",
     "Ya no vivo en Granada, ahora vivo en Almería con mi pareja.", "¿Dónde vive Jana?", "Almería"),
    ("fr", "Je travaille à la poste de Rennes.", "Dimanche on a fait une balade en forêt.",
     "Je ne travaille plus à la poste, maintenant je travaille dans une librairie.", "Où travaille Jana ?", "librairie"),
    ("it", "Lavoro in banca a Verona.", "Domenica siamo andati al lago.",
     "Non lavoro più in banca, adesso lavoro in una scuola media.", "Dove lavora Jana?", "scuola"),
    ("nl", "Ik werk bij een verzekeraar in Zwolle.", "Zondag hebben we pannenkoeken gegeten.",
     "Ik werk niet meer bij de verzekeraar, nu werk ik bij een bakkerij.", "Waar werkt Jana?", "bakkerij"),
]


@pytest.mark.parametrize(("language", "old", "aside", "new", "question", "answer"), NO_LONGER_NOW, ids=[c[0] for c in NO_LONGER_NOW])
def test_no_longer_the_old_now_the_new_leads(
    memory: Memory, language: str, old: str, aside: str, new: str, question: str, answer: str
) -> None:
    for text, day in ((old, "2024-01-08"), (aside, "2024-02-12"), (new, "2024-05-06")):
        memory.add([{"speaker": "Jana", "text": text}], user_id="jana", session_time=day)
    found = memory.search(question, user_id="jana", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


@pytest.mark.parametrize(
    ("sentence", "language", "now"),
    [("Ich wohne nicht mehr in Bonn, jetzt wohne ich in Trier", "de", True),
     ("Ich wohne nicht mehr in Bonn", "de", False),
     ("Jetzt wohne ich nicht mehr in Bonn, leider", "de", False),  # the clause of now denies
     ("Wenn ich die Stelle bekomme, wohne ich jetzt in Trier", "de", False),  # a condition governs
     ("Si me dan la plaza, ahora vivo en Cádiz", "es", False),
     ("De joven vivía en Soria, ahora vivo en Teruel", "es", True),  # a past state, then now
     ("Je ne suis plus à Lille, désormais je suis à Metz", "fr", True),
     ("Non sono più a Pisa, ora sto a Lucca", "it", True),
     ("Ik woon niet meer in Delft, tegenwoordig woon ik in Leiden", "nl", True),
     ("Não moro mais em Braga, agora moro em Faro", "pt", True),
     ("もう神戸には住んでいません、今は奈良に住んでいます", "ja", True),
     ("我不住在天津了，现在住在青岛", "zh", True),
     ("我不住在天津了", "zh", False)],
)
def test_a_clause_of_now_asserts(sentence: str, language: str, now: bool) -> None:
    assert sentence_says_now(sentence, language) is now

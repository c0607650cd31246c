"""A memory in another language is not so now only when each of its clauses is not.

"Ich wohne nicht mehr in Bonn, jetzt wohne ich in Trier" holds a denial, and its whole sentence
was read as one: the old home stayed first. The clause that holds the language's word for now
and no denial, past state or future of its own asserts the new value; a condition governs its
whole sentence ("Si me dan la plaza, ahora vivo en Cádiz" asserts nothing).
"""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from ripplemem import Memory
from ripplemem.read.other_languages import latest_alike_first, sentence_says_now
from ripplemem.records import Evidence, MemoryUnit

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


# a speculation told in the present tense: an epistemic adverb of its language ("maybe",
# "probably", "some day") says what may be so, and the home said before stays first
HEDGED = [
    ("de", "Ich wohne in Regensburg, nahe am Dom.", "Eventuell wohne ich eines Tages am Meer, mal sehen.", "Wo wohnt Jana?", "Regensburg"),
    ("nl", "Ik woon in Arnhem, vlak bij het park.", "Waarschijnlijk woon ik ooit op een boot.", "Waar woont Jana?", "Arnhem"),
    ("es", "Vivo en Huesca, cerca de la plaza.", "A lo mejor algún día vivo en una isla.", "¿Dónde vive Jana?", "Huesca"),
    ("it", "Abito a Parma, vicino al duomo.", "Forse prima o poi abito in campagna.", "Dove abita Jana?", "Parma"),
    ("fr", "J'habite à Dijon, près des halles.", "Peut-être que j'habite à la mer un de ces jours.", "Où habite Jana ?", "Dijon"),
]


@pytest.mark.parametrize(("language", "home", "hedged", "question", "answer"), HEDGED, ids=[c[0] for c in HEDGED])
def test_a_speculation_does_not_lead(
    memory: Memory, language: str, home: str, hedged: str, question: str, answer: str
) -> None:
    memory.add([{"speaker": "Jana", "text": home}], user_id="jana", session_time="2024-01-08")
    memory.add([{"speaker": "Jana", "text": "I watched a quiz show on Saturday."}], user_id="jana", session_time="2024-02-12")
    memory.add([{"speaker": "Jana", "text": hedged}], user_id="jana", session_time="2024-05-06")
    found = memory.search(question, user_id="jana", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


@pytest.mark.parametrize(
    ("sentence", "language", "now"),
    [("Vielleicht arbeite ich bald in Köln", "de", False), ("Ich arbeite in Köln", "de", True),
     ("Misschien werk ik in Gent", "nl", False), ("Tal vez trabajo en Cádiz", "es", False),
     ("Talvez eu more em Faro", "pt", False), ("Peut-être que je travaille à Metz", "fr", False),
     ("也许我住在青岛", "zh", False), ("たぶん奈良に住んでいます", "ja", False),
     # the hedge is its clause's: the clause of now asserts
     ("Vielleicht ziehe ich mal nach Kiel, jetzt wohne ich in Lübeck", "de", True)],
)
def test_an_epistemic_adverb_hedges_its_clause(sentence: str, language: str, now: bool) -> None:
    assert sentence_says_now(sentence, language) is now


# a word of the question in another inflection of its language: the German and Dutch participle's
# "ge-" ("gewohnt" / "wohne"), the Dutch doubled vowel ("woont" / "wonen")
EARLIER_HOME = [
    ("de", ["Ich wohne in Passau, direkt am Inn.", "Meine Tante feiert im Mai ihren Geburtstag.",
            "Wir haben am Freitag Pizza gegessen.", "Wir sind nach Augsburg gezogen, die Miete ist günstiger."],
     "Wo hat Jana früher gewohnt?", "Passau"),
    ("nl", ["Ik woon in Tilburg, bij het station.", "Mijn tante viert in mei haar verjaardag.",
            "We hebben vrijdag pizza gegeten.", "Sinds maart wonen we in Breda, de huur is lager."],
     "Waar heeft Jana vroeger gewoond?", "Tilburg"),
    ("nl-now", ["Ik woon in Tilburg, bij het station.", "Mijn tante viert in mei haar verjaardag.",
                "We hebben vrijdag pizza gegeten.", "Sinds maart wonen we in Breda, de huur is lager."],
     "Waar woont Jana?", "Breda"),
]


@pytest.mark.parametrize(("case", "said", "question", "answer"), EARLIER_HOME, ids=[c[0] for c in EARLIER_HOME])
def test_a_word_of_the_question_in_another_inflection_answers(
    memory: Memory, case: str, said: list[str], question: str, answer: str
) -> None:
    for text, day in zip(said, ("2024-01-08", "2024-02-12", "2024-02-13", "2024-05-06"), strict=True):
        memory.add([{"speaker": "Jana", "text": text}], user_id="jana", session_time=day)
    found = memory.search(question, user_id="jana", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


def _said(number: int, text: str, day: int, vector: list[float]) -> Evidence:
    unit = MemoryUnit(
        id=f"u{number}", namespace="jana", restatement=f"Jana said: {text}", vector=np.asarray(vector, dtype=np.float32),
        participants=("Jana",), locations=(), time_span=None, episode_id=f"s{day}", turn_ids=(f"t{number}",),
        session_time=datetime(2024, 1, day), created_at=datetime(2024, 1, day), speakers=("Jana",),
    )
    return Evidence(unit=unit, score=1.0, hits=())


@pytest.mark.parametrize("earliest", [False, True], ids=["present", "earlier"])
def test_a_question_no_memory_answers_moves_nothing(earliest: bool) -> None:
    # no memory holds a word of the question: the rule cannot tell an answer from small talk, and
    # two alike pieces of small talk said in different sessions are no value and its update
    ranked = [
        _said(1, "Am Sonntag waren wir wieder im Kino.", 20, [1.0, 0.0, 0.0]),
        _said(2, "Ich bin Krankenpflegerin in der Uniklinik.", 3, [0.0, 1.0, 0.0]),
        _said(3, "Wir haben am Samstag einen Film gesehen.", 10, [0.9, 0.1, 0.0]),
        _said(4, "Meine Tante feiert im Mai Geburtstag.", 25, [0.0, 0.0, 1.0]),
    ]
    question = "Was hat Jana früher studiert?" if earliest else "Was studiert Jana?"
    ordered, moved = latest_alike_first(
        ranked, query=question, language="de", names=["Jana"], lead=len(ranked), alike=lambda a, b: True,
        earliest=earliest,
    )
    assert [e.unit.id for e in ordered] == ["u1", "u2", "u3", "u4"] and not moved


# a move told with the verb for moving answers a question asked with the verb for living (a
# closed table per language: CHANGE_OF_STATE), and a name glued to the text of a script written
# without spaces is the holder's ("Jana现在住在哪里？")
MOVED = [
    ("fr", "J'habite à Tours, près de la gare.", "Le week-end dernier on a vu un concert.",
     "On a emménagé à Angers en avril.", "Où habite Jana ?", "Angers"),
    ("pt", "Moro em Coimbra, perto da universidade.", "No sábado vimos um concerto.",
     "Mudámo-nos para Braga em abril.", "Onde mora a Jana?", "Braga"),
    ("it", "Abito a Padova, vicino alla stazione.", "Sabato abbiamo visto un concerto.",
     "Ad aprile ci siamo trasferiti a Trento.", "Dove abita Jana?", "Trento"),
    ("de", "Ich wohne in Kassel, nahe am Bahnhof.", "Am Samstag waren wir im Konzert.",
     "Im April sind wir nach Fulda umgezogen.", "Wo wohnt Jana?", "Fulda"),
    ("zh", "我住在南京。", "我们星期六听了音乐会。", "四月我们搬到了杭州。", "Jana现在住在哪里？", "杭州"),
    ("ko", "저는 대구에 살아요.", "토요일에 콘서트에 갔어요.", "사월에 광주로 이사했어요.", "Jana는 지금 어디에 살아요?", "광주"),
    ("ja", "福岡に住んでいます。", "土曜日にコンサートに行きました。", "四月に札幌に引っ越しました。", "Janaは今どこに住んでいますか？", "札幌"),
]


@pytest.mark.parametrize(("language", "home", "aside", "moved", "question", "answer"), MOVED, ids=[c[0] for c in MOVED])
def test_a_move_told_with_the_verb_for_moving_answers_where_one_lives(
    memory: Memory, language: str, home: str, aside: str, moved: str, question: str, answer: str
) -> None:
    for text, day in ((home, "2024-01-08"), (aside, "2024-02-12"), (moved, "2024-05-06")):
        memory.add([{"speaker": "Jana", "text": text}], user_id="jana", session_time=day)
    found = memory.search(question, user_id="jana", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


def test_a_move_wished_for_is_no_answer(memory: Memory) -> None:
    # the verb for moving in a condition tells no state: the home said before stays first
    memory.add([{"speaker": "Jana", "text": "J'habite à Tours, près de la gare."}], user_id="jana", session_time="2024-01-08")
    memory.add([{"speaker": "Jana", "text": "Le week-end dernier on a vu un concert."}], user_id="jana", session_time="2024-02-12")
    memory.add([{"speaker": "Jana", "text": "Si je trouvais un poste là-bas, je déménagerais à Brest."}], user_id="jana", session_time="2024-05-06")
    found = memory.search("Où habite Jana ?", user_id="jana", question_time="2024-06-01")
    assert "Tours" in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


def test_a_name_in_katakana_names_the_speaker_in_latin_letters(memory: Memory) -> None:
    # "ケンタ" is how Japanese writes the speaker "Kenta": his memories answer
    for text, day in (("名古屋に住んでいます。", "2024-01-08"), ("土曜日にコンサートに行きました。", "2024-02-12"),
                      ("四月に仙台に引っ越しました。", "2024-05-06")):
        memory.add([{"speaker": "Kenta", "text": text}], user_id="kenta", session_time=day)
    found = memory.search("ケンタは今どこに住んでいますか？", user_id="kenta", question_time="2024-06-01")
    assert "仙台" in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]


@pytest.mark.parametrize(
    ("home", "other", "question", "answer"),
    [("Ich wohne in Kassel, nahe am Bahnhof.", "Mein Bruder ist letzten Monat nach Kiel gezogen.", "Wo wohnt Jana?", "Kassel"),
     ("Vivo en Huesca, cerca de la plaza.", "Mi prima se mudó a Vigo en abril.", "¿Dónde vive Jana?", "Huesca")],
    ids=["de", "es"],
)
def test_someone_elses_move_is_no_answer(memory: Memory, home: str, other: str, question: str, answer: str) -> None:
    # the move of a brother or a cousin, told by the holder, holds no pronoun of the first person
    memory.add([{"speaker": "Jana", "text": home}], user_id="jana", session_time="2024-01-08")
    memory.add([{"speaker": "Jana", "text": "I watched a quiz show on Saturday."}], user_id="jana", session_time="2024-02-12")
    memory.add([{"speaker": "Jana", "text": other}], user_id="jana", session_time="2024-05-06")
    found = memory.search(question, user_id="jana", question_time="2024-06-01")
    assert answer in found.evidence[0].unit.restatement, [e.unit.restatement for e in found.evidence]

"""Which language a sentence is in (ripplemem/language.py): by its function words, or its script."""

from __future__ import annotations

import pytest

from ripplemem.language import in_other_language, language_of, question_language, tense_in


@pytest.mark.parametrize(
    "text",
    [
        "Je me suis installée à Lyon, près de la Croix-Rousse.",
        "Me mudé a Sevilla en abril, mi piso está cerca del río.",
        "Wir sind nach Hamburg gezogen, endlich näher am Meer!",
        "Sono andato a Milano con mia sorella e non mi è piaciuto.",
        "Eu sou de Lisboa, mas moro em Porto com a minha família.",
        "Ik ben niet thuis, maar mijn broer is er wel.",
        "Vi bor her nu, og hun er glad for det.",
        "My mieszkamy w Krakowie, bardzo nam się tu podoba.",  # Polish "my" is "we"
    ],
)
def test_function_words_of_another_language(text: str) -> None:
    assert in_other_language(text)


@pytest.mark.parametrize(
    "text",
    [
        "I moved to Zürich with my boyfriend.",
        "We had dinner at Café del Mar on Friday.",  # a name with a Spanish "del"
        "I met Pierre et Marie at the café du monde.",  # two foreign words, more English ones
        "Merci!",  # one word is no evidence
        "Count me in.",
        "Bien sûr.",
        "",
    ],
)
def test_english_with_foreign_words_or_too_little_to_tell(text: str) -> None:
    assert not in_other_language(text)


@pytest.mark.parametrize(
    "text, language",
    [
        ("Ich bin letzte Woche nach Berlin gezogen.", "de"),
        ("Je suis allée à Lyon hier avec ma sœur.", "fr"),
        ("Sono andato a Roma due giorni fa con mia sorella.", "it"),
        ("Jag flyttade förra veckan till Malmö och det är bra.", "sv"),
        ("Ik ben vorige maand verhuisd, het is niet slecht.", "nl"),
        ("Fui ao Porto na semana passada com a minha família.", "pt"),
        ("我昨天去了北京。", "zh"),
        ("昨日東京に行きました。", "ja"),  # kana: Japanese, though it holds Han too
        ("어제 서울에 갔어요.", "ko"),
        ("Я переехал в Москву в прошлом месяце.", "ru"),
        ("Я переїхав до Києва минулого місяця.", "uk"),
        ("I moved to Zürich with my boyfriend.", "en"),
        ("We had dinner at Café del Mar on Friday.", "en"),
        ("Merci!", "en"),
        ("I'm learning 日本語 at night school.", "en"),  # a few letters of another script
        ("", "en"),
    ],
)
def test_the_language_of_a_sentence(text: str, language: str) -> None:
    assert language_of(text) == language


# the n-gram model reads what no function word of the lists says (written before it was used):
# endings, accents and the words a list leaves out, and tells apart the Romance languages that
# share "de", "la" and "que"
@pytest.mark.parametrize(
    "text, language",
    [
        ("Ontem à noite fomos jantar fora com os vizinhos.", "pt"),
        ("Amanhã tenho consulta no dentista às dez.", "pt"),
        ("La settimana scorsa ho cambiato lavoro.", "it"),
        ("Domani sera ceniamo dai nonni.", "it"),
        ("Morgen gaan we fietsen in de duinen.", "nl"),
        ("Hier soir, nous avons regardé un film chez Paul.", "fr"),
        ("Anoche cenamos en casa de mis padres.", "es"),
        ("Wir waren gestern im Kino.", "de"),
    ],
)
def test_the_language_of_a_sentence_no_list_names(text: str, language: str) -> None:
    assert language_of(text) == language


# and English stays English: greetings and short replies the model is unsure of, sentences
# with foreign names, words or a place
@pytest.mark.parametrize(
    "text",
    [
        "See ya later!",
        "Bye Joanna!",
        "Vipassana Meditation",
        "Yup, ttyl!",
        "It's Shia Labeouf!",
        "day 5 in zurich too",
        "We stayed at the Hotel de la Paix in Lausanne for a week.",
        "My nonna makes the best tiramisu con mascarpone.",
    ],
)
def test_english_stays_english(text: str) -> None:
    assert language_of(text) == "en"


@pytest.mark.parametrize(
    "clause, language, tense",
    [
        ("Am Donnerstag war ich im Kino", "de", "past"),
        ("Ich habe mit Anna Tennis gespielt", "de", "past"),  # a compound past
        ("Ich habe einen Hund", "de", ""),  # the auxiliary alone is a present
        ("Am Samstag werde ich ins Kino gehen", "de", "future"),
        ("je suis allée au cinéma", "fr", "past"),
        ("je suis contente", "fr", ""),
        ("nous partirons demain", "fr", "future"),
        ("fui a Roma pero mañana voy a Madrid", "es", "mixed"),
        ("我昨天去了北京", "zh", "past"),  # an aspect mark, read inside the text
        ("我有两个孩子", "zh", ""),
        ("Jeg bor i Oslo", "nb", ""),
    ],
)
def test_the_tense_of_a_clause_in_another_language(clause: str, language: str, tense: str) -> None:
    assert tense_in(clause, language) == tense


# a question is short: with no English function word, the n-gram model's likeliest language is
# its language however unsure the model is ("Wo wohnt Lena?": German at under one half)
@pytest.mark.parametrize(
    ("question", "language"),
    [("Wo wohnt Lena?", "de"), ("Où habite Giulia ?", "fr"), ("¿Dónde vive Giulia?", "es"),
     ("Dove abita Giulia?", "it"), ("Que esporte a Giulia joga?", "pt"), ("Waar woont Daan nu?", "nl"),
     ("Where does Giulia live?", "en"), ("Who is Giulia?", "en"), ("Is Lena vegan?", "en"),
     ("What did Caroline paint last week?", "en"), ("Lena?", "en"), ("李娜住在哪里？", "zh")],
)
def test_the_language_of_a_short_question(question: str, language: str) -> None:
    assert question_language(question) == language


# a character of a script written without spaces counts as a word beside a name in Latin letters
@pytest.mark.parametrize(
    ("question", "language"),
    [("Valentina住在哪里？", "zh"), ("Valentina는 어디 살아?", "ko"), ("Valentinaはどこ？", "ja"),
     ("Where does 王芳 live?", "en"), ("What is 寿司?", "en")],
)
def test_a_name_in_latin_letters_leaves_a_question_in_its_script(question: str, language: str) -> None:
    assert question_language(question) == language


def test_a_short_memory_keeps_english() -> None:
    # the same words said as a memory stay English: a name or a greeting keeps a memory English
    assert language_of("Wo wohnt Lena?") == "en"


def test_no_script_before_the_first_scripts_range() -> None:
    """The characters before the first range of :data:`_SCRIPTS` (Latin, digits, punctuation)
    are of no script, as reading every range says; the first of a range is of its script."""
    from ripplemem.language import _SCRIPTS, _SCRIPTS_START, _script_of

    assert all(
        not any(low <= point <= high for _, ranges in _SCRIPTS for low, high in ranges)
        for point in range(_SCRIPTS_START)
    )
    assert all(_script_of(chr(point)) is None for point in range(_SCRIPTS_START))
    assert all(_script_of(chr(ranges[0][0])) == name for name, ranges in _SCRIPTS)


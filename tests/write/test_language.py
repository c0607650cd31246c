"""Which sentences read as another language (write/language.py): by their function words."""

from __future__ import annotations

import pytest

from ripplemem.write.language import in_other_language


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

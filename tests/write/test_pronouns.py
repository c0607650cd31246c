"""Third-person pronouns: resolved through the deterministic extractor with the shipped spaCy
model, and the resolver's rules on their own."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import Turn, UnitDraft, Window
from ripplemem.write.entities import EntityRecognizer
from ripplemem.write.extract_rules import DeterministicExtractor
from ripplemem.write.pronouns import Mentions, Passage, resolve_passages, resolve_third_person

WHEN = datetime(2026, 3, 2, 19, 10)
SPEAKERS = ("Alex", "Sam")


@pytest.fixture(scope="module")
def extractor() -> DeterministicExtractor:
    return DeterministicExtractor(EntityRecognizer())


def extract(extractor: DeterministicExtractor, *turns: tuple[str, str], **kw) -> list[UnitDraft]:
    speakers = kw.get("speakers", SPEAKERS)
    window = Window("S1", WHEN, tuple(Turn(f"S1:{i + 1}", s, t) for i, (s, t) in enumerate(turns)),
                    speakers)  # fmt: skip
    (drafts,) = extractor.extract([window])
    return drafts


def of_turn(drafts: list[UnitDraft], turn_id: str) -> UnitDraft:
    (unit,) = [d for d in drafts if d.turn_ids[-1] == turn_id]
    return unit


def test_the_demo_allergy_turn_names_maya(extractor: DeterministicExtractor) -> None:
    drafts = extract(
        extractor,
        ("Sam", "How is Maya doing? Is her birthday still in April?"),
        ("Alex", "Yes, April 25th. I want to plan a nice dinner for her this year."),
        ("Alex", ("One problem: she told me last week that she is seriously allergic to "
                  "seafood. Even a bit of shrimp sends her to the hospital.")),
    )  # fmt: skip
    allergy = of_turn(drafts, "S1:3")
    assert allergy.restatement == (
        "Alex said: One problem: Maya told Alex last week that Maya is seriously allergic to "
        "seafood. Even a bit of shrimp sends Maya to the hospital."
    )
    assert allergy.participants == ("Alex", "Maya")
    answer = of_turn(drafts, "S1:2")  # the short answer, restated with its question
    assert "plan a nice dinner for Maya this year" in answer.restatement
    assert "Maya" in answer.participants


def test_possessive_in_the_same_turn(extractor: DeterministicExtractor) -> None:
    (unit,) = extract(extractor, ("Sam", "How is Maya doing? Is her birthday still in April?"))
    assert unit.restatement == "Sam asked: How is Maya doing? Is Maya's birthday still in April?"
    assert unit.participants == ("Sam", "Maya")


def test_two_people_in_the_window_leave_it_unresolved(extractor: DeterministicExtractor) -> None:
    drafts = extract(
        extractor,
        ("Sam", "Did Maya like the concert with Priya?"),
        ("Alex", "I think she loved it, she would not stop singing."),
    )
    unit = of_turn(drafts, "S1:2")
    assert unit.restatement == "Alex thinks she loved it, she would not stop singing."
    assert unit.participants == ("Alex",)


def test_a_name_beyond_the_window_is_not_used(extractor: DeterministicExtractor) -> None:
    drafts = extract(
        extractor,
        ("Sam", "Maya finally visited the new aquarium downtown."),
        ("Alex", "The aquarium has a huge shark tank now."),
        ("Sam", "Sounds like a fun afternoon, I should go."),
        ("Alex", "Last week she said it was the best day of the year."),
    )
    unit = of_turn(drafts, "S1:4")
    assert "she said" in unit.restatement
    assert "Maya" not in unit.participants


def test_only_speakers_named_leaves_it_unresolved(extractor: DeterministicExtractor) -> None:
    drafts = extract(
        extractor,
        ("Sam", "Alex, I finally finished the marathon on Sunday."),
        ("Alex", "Sam, that is amazing. She must be proud of you."),
    )
    unit = of_turn(drafts, "S1:2")
    assert "She must be proud of Sam" in unit.restatement
    assert set(unit.participants) == {"Alex", "Sam"}


def test_a_person_without_a_name_competes(extractor: DeterministicExtractor) -> None:
    drafts = extract(
        extractor,
        ("Sam", "Is Maya coming to the barbecue on Saturday?"),
        ("Alex", "I invited a friend from work too. She says the ribs are great there."),
    )
    unit = of_turn(drafts, "S1:2")
    assert "She says" in unit.restatement and "Maya" not in unit.participants


def test_a_described_name_is_one_person(extractor: DeterministicExtractor) -> None:
    (unit,) = extract(
        extractor, ("Alex", "My sister Priya and I went to Lisbon. She bought a box of pastries.")
    )
    assert unit.restatement.endswith("Priya bought a box of pastries.")
    assert "Priya" in unit.participants


def test_user_assistant_chat_resolves_within_a_long_turn(
    extractor: DeterministicExtractor,
) -> None:
    (unit,) = extract(
        extractor,
        ("User", ("I'm planning a party for my niece Emma. Emma is turning seven next month. "
                  "She loves dinosaurs, so I want a dinosaur cake for her.")),
        speakers=("User", "Assistant"),
    )  # fmt: skip
    assert "Emma loves dinosaurs, so User wants a dinosaur cake for Emma." in unit.restatement
    assert unit.participants == ("User", "Emma")


def test_captions_are_not_resolved(extractor: DeterministicExtractor) -> None:
    turns = (
        Turn("S1:1", "Sam", "How is Maya doing?"),
        Turn("S1:2", "Alex", "Great, look.", caption="a photo of a woman holding her cake"),
    )
    (drafts,) = extractor.extract([Window("S1", WHEN, turns, SPEAKERS)])
    photo = [d for d in drafts if "photo" in d.restatement]
    assert photo and photo[0].restatement.endswith("holding her cake.")
    assert "Maya" not in photo[0].participants


@pytest.mark.parametrize(
    "text, resolved",
    [
        ("Is her birthday in April?", "Is Maya's birthday in April?"),
        ("I made dinner for her.", "I made dinner for Maya."),
        ("I told her about it.", "I told Maya about it."),
        ("I let her choose.", "I let Maya choose."),
        ("It helped her music reach fans.", "It helped Maya's music reach fans."),
        ("His car broke down.", "Maya's car broke down."),
        ("She's been great and she'll come.", "Maya has been great and Maya will come."),
        ("He's adorable.", "Maya is adorable."),
        ("She'd love it.", "Maya would love it."),
        ("They loved it and she did too.", "They loved it and Maya did too."),
        ("She did it herself.", "Maya did it herself."),
    ],
)
def test_rewriting(text: str, resolved: str) -> None:
    context = Mentions(people=("Maya",))
    result = resolve_third_person(text, [], speakers=SPEAKERS, context=context)
    assert result.text == resolved
    assert result.referents == ("Maya",)


@pytest.mark.parametrize(
    "text, people, context",
    [
        ("He said she was right.", [], Mentions(people=("Maya",))),  # two people, one name
        ("She was right.", [], Mentions(people=("Maya",), genders=frozenset({"he"}))),
        ("She was right.", [], Mentions(people=("Maya", "Priya"))),
        ("She was right.", [], Mentions(people=("Maya",), unnamed=True)),
        ("My mom said she was right.", ["Maya"], Mentions(people=("Maya",))),
        ("She told Maya.", ["Maya"], Mentions()),  # the name comes after the pronoun
        ("She was right.", [], Mentions()),
    ],
)
def test_left_unresolved(text: str, people: list[str], context: Mentions) -> None:
    result = resolve_third_person(text, people, speakers=SPEAKERS, context=context)
    assert result.text == text and result.referents == ()


@pytest.mark.parametrize(
    "text",
    [
        "Wir sind nach Hamburg gezogen, endlich näher am Meer!",  # "her" inside "näher"
        "Vi bor her nu, og hun er glad for det.",  # Danish "her" (here), and "he" nowhere
        "Elle est partie, je crois qu'elle est chez sa mère.",
    ],
)
def test_words_of_another_language_stay_as_written(text: str) -> None:
    context = Mentions(people=("Maya",))
    result = resolve_third_person(text, [], speakers=SPEAKERS, context=context)
    assert result.text == text and result.referents == ()


def test_a_name_given_now_outweighs_an_earlier_description() -> None:
    context = Mentions(unnamed=True)  # "Who was that actress?"
    result = resolve_third_person(
        "It was Emma Watson, she's a big supporter of gender equality. I love her films.",
        ["Emma Watson"],
        speakers=SPEAKERS,
        context=context,
    )
    assert result.text.endswith("she's a big supporter of gender equality. I love Emma "
                                "Watson's films.")  # fmt: skip
    assert result.referents == ("Emma Watson",)


def test_a_longer_form_of_a_name_is_the_same_person() -> None:
    result = resolve_third_person(
        "Andy Weir wrote it. Andy says he loves Mars.", ["Andy Weir", "Andy"], speakers=SPEAKERS
    )
    assert result.text == "Andy Weir wrote it. Andy says Andy Weir loves Mars."


def test_passages_chain_and_forget() -> None:
    passages = [
        Passage(0, "Maya visited.", ("Maya",)),
        Passage(1, "Did she like it?", ()),
        Passage(2, "She loved it.", ()),  # Maya two turns back
        Passage(3, "She wants to go back.", ()),  # via the resolved "she" of turn 2
        Passage(7, "She is busy.", ()),  # nothing in the two turns before
    ]
    texts = [r.text for r in resolve_passages(passages, speakers=SPEAKERS)]
    assert texts == [
        "Maya visited.",
        "Did Maya like it?",
        "Maya loved it.",
        "Maya wants to go back.",
        "She is busy.",
    ]


def test_words_in_quotes_stay_as_written() -> None:
    context = Mentions(people=("Maya",), genders=frozenset({"she"}))
    result = resolve_third_person(
        'She sang "She Loves You" and "make him an offer he can\'t refuse" to her dad.',
        [],
        speakers=SPEAKERS,
        context=context,
    )
    assert result.text == (
        'Maya sang "She Loves You" and "make him an offer he can\'t refuse" to Maya\'s dad.'
    )


def test_a_pronoun_in_quotes_does_not_compete() -> None:
    # the quoted "he" is no second person: "she" outside the quote still resolves
    text = 'She quoted "he who hesitates is lost" at me.'
    context = Mentions(people=("Maya",), genders=frozenset({"she"}))
    result = resolve_third_person(text, [], speakers=SPEAKERS, context=context)
    assert result.text == 'Maya quoted "he who hesitates is lost" at me.'
    assert result.mentions.genders == frozenset({"she"})

"""People and places in dialogue lines, with the real spaCy model."""

from __future__ import annotations

import pytest

from ripplemem.write.entities import Entities, EntityRecognizer

SPEAKERS = ("Caroline", "Melanie")


@pytest.fixture(scope="module")
def recognizer() -> EntityRecognizer:
    return EntityRecognizer()


def find_one(recognizer: EntityRecognizer, text: str) -> Entities:
    return recognizer.find([text], people=SPEAKERS)[0]


@pytest.mark.parametrize(
    "text, people",
    [
        ("Caroline went to a support group yesterday.", ("Caroline",)),
        ("Melanie took the kids camping.", ("Melanie",)),
        ("CAROLINE! You did it!", ("Caroline",)),
        ("Hey Mel! How was the trip?", ("Melanie",)),  # a short form of exactly one speaker
        ("Wow, that's cool, Caroline!", ("Caroline",)),
        ("Bye Caroline, see you soon", ("Caroline",)),
        ("Yesterday I met my friend Jordan Lee at the market.", ("Jordan Lee",)),
    ],
)
def test_people_in_dialogue_lines(recognizer: EntityRecognizer, text: str, people: tuple) -> None:
    assert find_one(recognizer, text).people == people


@pytest.mark.parametrize(
    "text",
    [
        "Glad you liked it!",
        "Wow! Hey! Yeah!",
        "Dance is my passion, I love to dance.",
        "Tues works for me.",
        "Last Fri was fun.",
        "I think so. Me too.",
        "Nature is so calming, I love nature.",
    ],
)
def test_junk_is_not_a_person(recognizer: EntityRecognizer, text: str) -> None:
    assert find_one(recognizer, text).people == ()


@pytest.mark.parametrize(
    "text, places",
    [
        ("We drove to the Grand Canyon last summer.", ("Grand Canyon",)),
        ("Melanie took the kids to the beach in Miami.", ("Miami",)),
        ("We walked all over Alfama in Lisbon.", ("Alfama", "Lisbon")),
        ("Sam recommended Harbor Grill for dinner.", ("Harbor Grill",)),  # a venue, not a person
        ("We had dinner at the Riverside Cafe.", ("Riverside Cafe",)),
        ("I love painting sunsets.", ()),
    ],
)
def test_places(recognizer: EntityRecognizer, text: str, places: tuple) -> None:
    assert find_one(recognizer, text).places == places


def test_venue_is_not_also_a_person(recognizer: EntityRecognizer) -> None:
    found = find_one(recognizer, "Harbor Grill is a seafood restaurant.")
    assert found == Entities(people=(), places=("Harbor Grill",))


def test_confirmed_names_are_remembered_and_recased() -> None:
    recognizer = EntityRecognizer()
    first = recognizer.find(["My sister Priya Sharma visited us."], people=SPEAKERS)[0]
    assert "Priya Sharma" in first.people
    assert "Priya Sharma" in recognizer.known_people
    later = recognizer.find(["PRIYA SHARMA called."], people=SPEAKERS)[0]
    assert later.people == ("Priya Sharma",)


def test_batch_keeps_order_and_length(recognizer: EntityRecognizer) -> None:
    texts = ["", "Caroline is here.", "ok", "Melanie lives in Boston."]
    found = recognizer.find(texts, people=SPEAKERS)
    assert [f.people for f in found] == [(), ("Caroline",), (), ("Melanie",)]
    assert found[3].places == ("Boston",)
    assert recognizer.find([], people=SPEAKERS) == []


def test_only_the_needed_components_run(recognizer: EntityRecognizer) -> None:
    recognizer.find(["warm up"])
    names = recognizer._nlp.pipe_names
    assert names == ["ner"]  # known names are marked by the recogniser, not a pipe
    assert not {"parser", "tagger", "lemmatizer"} & set(names)


def test_remembered_names_match_and_leave_every_pipe_running() -> None:
    """Names remembered before the pipeline loads are matched, and every entity pipe runs."""
    recognizer = EntityRecognizer()
    recognizer.remember(["Jordan Lee", "Ana Ruiz"])
    found = recognizer.find(["Jordan Lee and ANA RUIZ flew to Boston."], people=SPEAKERS)[0]
    assert set(recognizer._nlp.disabled) == set(recognizer._parse_pipes)  # only the parse's
    assert found.people == ("Jordan Lee", "Ana Ruiz")
    assert found.places == ("Boston",)  # the statistical model still runs after the marking


def test_the_parse_shares_the_pipeline_and_leaves_entities_as_they_were() -> None:
    recognizer = EntityRecognizer()
    text = "Jordan Lee works at Halcyon Labs in Boston."
    before = recognizer.find([text], people=SPEAKERS)[0]
    doc = recognizer.parse([text])[0]
    works = next(t for t in doc if t.text == "works")
    assert works.lemma_ == "work" and {c.dep_ for c in works.children} >= {"nsubj", "prep"}
    assert set(recognizer._nlp.disabled) == set(recognizer._parse_pipes)
    assert recognizer.find([text], people=SPEAKERS)[0] == before


# --- uncommon first names (write/first_names.py): people the small model misses -------------


@pytest.fixture(scope="module")
def fresh() -> EntityRecognizer:
    """A recogniser of its own: the names below must not be known from other tests."""
    return EntityRecognizer()


@pytest.mark.parametrize(
    "text, people, places",
    [
        ("I went to Lisbon with Priya two weekends ago.", ("Priya",), ("Lisbon",)),
        ("Siobhan and I finally tried that ramen place.", ("Siobhan",), ()),
        ("My friend Aoife is moving away.", ("Aoife",), ()),
        ("I called Adriene about the yoga class with my sister Niamh.", ("Niamh",), ()),
        ("Melanie went hiking with Zoltan.", ("Melanie", "Zoltan"), ()),  # the model: a place
    ],
)
def test_uncommon_first_names_said_as_people(
    fresh: EntityRecognizer, text: str, people: tuple, places: tuple
) -> None:
    found = find_one(fresh, text)
    assert (found.people, found.places) == (people, places)


def test_a_first_name_with_a_possessive_the_model_made_an_org() -> None:
    found = EntityRecognizer().find(["My friend Aoife’s dog is cute."], people=SPEAKERS)[0]
    assert found.people == ("Aoife",)  # the model: ORG "Aoife’s", two tokens


def test_a_found_first_name_is_learned(fresh: EntityRecognizer) -> None:
    find_one(fresh, "We had brunch with Bartek on Sunday.")
    assert "Bartek" in fresh.known_people
    assert find_one(fresh, "Bartek loves Lisbon.").people == ("Bartek",)  # no context needed now


@pytest.mark.parametrize(
    "text",
    [
        "Cool! Cherish those family moments.",  # a verb at the start of a sentence
        "I've been playing a new game called Azul.",  # a first name elsewhere, a thing here
        "Can you recommend some good places to visit in Nikko?",
        "We stayed at Koko in the old town.",
        "Artists have collaborated with Carlotta's Village on a collection.",  # a brand
    ],
)
def test_a_first_name_without_a_persons_context_is_no_person(text: str) -> None:
    assert EntityRecognizer().find([text], people=SPEAKERS)[0].people == ()


def test_first_names_that_are_common_words_are_not_in_the_gazetteer() -> None:
    from ripplemem.write.first_names import faker_first_names, uncommon_first_names

    names = uncommon_first_names()
    assert {"Priya", "Aoife", "Siobhan", "Zoltan"} <= names
    assert {"Will", "May", "Grace", "Hope", "Maya", "Sofia"} <= faker_first_names()
    assert not {"Will", "May", "Grace", "Hope", "Maya", "Sofia"} & names  # WordPiece words
    assert 10_000 < len(names) < len(faker_first_names())


def test_a_released_pipeline_serves_the_next_recogniser_as_a_fresh_load_would() -> None:
    """A recogniser that is gone leaves its loaded pipeline to the next one (no second load of
    the model); what the next one finds owes nothing to the names the first one learned."""
    import gc

    from ripplemem.write import entities

    texts = ["I saw ANA RUIZ and JORDAN LEE at the Harbor Grill.", "Ana Ruiz called Mel."]
    first = EntityRecognizer()
    first.remember(["Jordan Lee", "Ana Ruiz"])
    learned = first.find(texts, people=SPEAKERS)
    pipeline = first._nlp
    del first
    gc.collect()
    assert any(idle is pipeline for idle in entities._IDLE.pop(entities.DEFAULT_MODEL))
    fresh = EntityRecognizer()  # nothing idle: it loads the model
    expected = fresh.find(texts, people=SPEAKERS)
    assert fresh._nlp is not pipeline and expected != learned  # the learned names matter here
    entities._IDLE[entities.DEFAULT_MODEL] = [pipeline]
    reused = EntityRecognizer()
    assert reused.find(texts, people=SPEAKERS) == expected
    assert reused._nlp is pipeline and not entities._IDLE[entities.DEFAULT_MODEL]
    assert set(reused._nlp.disabled) == set(reused._parse_pipes)


def test_a_closed_memory_hands_its_pipeline_to_the_next_even_while_something_keeps_it(
    tmp_path,
) -> None:
    """Closing a Memory releases its loaded pipeline at once, not when it is collected: a
    reference cycle (a web framework's cache of a server's endpoints) cannot make the next
    Memory of the process load the model again. A released recogniser used again loads a
    pipeline and still knows the names it learned."""
    from ripplemem.memory import Memory
    from ripplemem.settings import Settings
    from ripplemem.testing import FakeEmbedder
    from ripplemem.write import entities

    entities._IDLE.pop(entities.DEFAULT_MODEL, None)
    first = Memory(Settings(store=str(tmp_path / "one.db")), embedder=FakeEmbedder())
    first.add([{"speaker": "Caroline", "text": "I met Zoltan Ruiz at the harbour."}])
    recognizer = first._core.parts.recognizer
    recognizer.remember(["Jordan Lee", "Ana Ruiz"])
    texts = ["I saw ANA RUIZ and JORDAN LEE at the Harbor Grill.", "Ana Ruiz called Mel."]
    learned = recognizer.find(texts, people=SPEAKERS, learn=False)
    pipeline = recognizer._nlp
    kept = [first, recognizer]
    kept.append(kept)  # a cycle: only the collector could free it
    first.close()
    assert [idle is pipeline for idle in entities._IDLE[entities.DEFAULT_MODEL]] == [True]
    second = Memory(Settings(store=str(tmp_path / "two.db")), embedder=FakeEmbedder())
    second._core.warm_up()
    assert second._core.parts.recognizer._nlp is pipeline
    assert not entities._IDLE[entities.DEFAULT_MODEL]
    # the closed one, used again, loads its own pipeline with the names it had learned
    assert recognizer.find(texts, people=SPEAKERS, learn=False) == learned
    assert recognizer._nlp is not None and recognizer._nlp is not pipeline
    assert "Jordan Lee" in learned[0].people
    second.close()
    recognizer.release()
    assert len(entities._IDLE[entities.DEFAULT_MODEL]) == 2
    recognizer.release()  # twice: nothing handed back twice
    assert len(entities._IDLE[entities.DEFAULT_MODEL]) == 2
    entities._IDLE[entities.DEFAULT_MODEL].clear()


@pytest.mark.parametrize(
    "text, people",
    [
        # QA3 Q3-10: read by the English model, "J'ai" and "Lyon" were people
        ("Je suis allée à Lyon mardi dernier avec Caroline.", ("Caroline",)),
        ("J'ai aussi un chat, Minou, et un chien qui s'appelle Rex.", ()),
        ("Seit letztem Sommer. J'ai aussi un chat, Minou.", ()),  # a sentence in each language
        ("Gestern habe ich Jürgen in Berlin getroffen, sagt Melanie.", ("Melanie",)),
        ("先週の金曜日に東京で田中さんに会いました。", ()),
    ],
)
def test_another_language_gives_the_known_names_only(
    recognizer: EntityRecognizer, text: str, people: tuple
) -> None:
    """The model is English: in a sentence of another language the known names (the speakers',
    the lexicon's) are its people and it names no place."""
    found = find_one(recognizer, text)
    assert (found.people, found.places) == (people, ())


def test_an_english_sentence_beside_another_language_is_read_by_the_model() -> None:
    recognizer = EntityRecognizer()
    (found,) = recognizer.find(
        ["J'ai aussi un chat, Minou. Yesterday I met my friend Jordan Lee in Paris."], people=SPEAKERS
    )
    assert found.people == ("Jordan Lee",) and found.places == ("Paris",)
    assert "Minou" not in recognizer.known_people  # nothing learned from the French sentence

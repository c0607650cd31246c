"""The kind of answer a question asks for (read/answer_kind.py): a unit that holds no time or
amount the question asks for scores lower; one that holds it keeps its score."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ripplemem import Memory, Settings
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.read.answer_kind import (
    _NUMBER,
    _RECURRING,
    KIND_TERM,
    _names,
    asked_kind,
    holds,
    prefer_the_kind,
)
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, TimeSpan
from ripplemem.testing.builders import make_unit

MAY_3 = TimeSpan(datetime(2023, 5, 3), datetime(2023, 5, 3, 23, 59, 59))


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("When did Caroline go to the support group?", "time"),
        ("And when is the dentist?", "time"),
        ("Remind me when the boiler was serviced", "time"),
        ("In which month did John visit Italy?", "time"),
        ("What year did Audrey adopt her first dog?", "time"),
        ("How long ago did I start running?", "time"),
        ("How much is my rent now?", "number"),
        ("How much did I pay for the bike?", "number"),
        ("How much does Maya like jazz?", None),  # a degree, not an amount
        # a count gathered over memories, or a time computed from two, is not held by one memory
        ("How many plants did I buy this year?", None),
        ("How many days passed between the two trips?", None),
        ("Who cooked the risotto?", None),  # whoever said a memory is a person too, often the one
        ("Where does Jay work now?", None),  # "from home" is a place no name says
        ("What did Maya do on 3 May?", None),
        ("Tell me about the trip", None),
        ("¿Dónde vive Priya?", None),  # "where" is no kind in any language
        # written before the rule: "when" in the languages the write path reads the times of
        ("Wann bin ich nach Berlin gezogen?", "time"),
        ("Quand est-ce que Léa a déménagé ?", "time"),
        ("¿Cuándo se mudó Priya a Oporto?", "time"),
        ("Quando sei andato a Roma?", "time"),
        ("Wanneer ben ik verhuisd?", "time"),
        ("När flyttade du till Malmö?", "time"),
        ("Kiedy przeprowadziłeś się do Krakowa?", "time"),
        ("Когда ты переехал в Москву?", "time"),
        ("我什么时候去了北京？", "time"),  # the question word stands where the answer would
        ("いつ東京に行きましたか？", "time"),
        ("언제 서울에 갔어요?", "time"),
        ("Wie viel kostet die Miete?", None),  # "wie viel", "combien": an amount or a count alike
        ("What happened when we were in Rome?", None),  # "when" not opening the question
    ],
)
def test_the_opening_words_say_the_kind(question: str, kind: str | None) -> None:
    assert asked_kind(question) == kind


def test_what_a_unit_holds() -> None:
    assert holds(make_unit("t", time_span=MAY_3), "time")
    assert not holds(make_unit("said", session_time=datetime(2023, 5, 3)), "time")  # every unit has a day
    # a habit or a clock time is a time too, though no day of the calendar is one
    assert holds(make_unit("swim", restatement="Maya swims every Monday."), "time")
    assert holds(make_unit("alarm", restatement="Omar gets up at 5:30 now."), "time")
    assert not holds(make_unit("great", restatement="Swimming is great exercise."), "time")
    assert holds(make_unit("rent", restatement="Sam's rent went up to £950."), "number")
    assert holds(make_unit("cats", restatement="Mia has three cats."), "number")
    assert not holds(make_unit("none", restatement="Mia loves her cats."), "number")


def _item(unit_id: str, score: float, span: TimeSpan | None = None) -> Evidence:
    return Evidence(make_unit(unit_id, time_span=span), score, ())


def test_units_without_the_kind_go_below_and_the_others_keep_their_score() -> None:
    great = _item("great", 2.0)
    went = _item("went", 1.8, MAY_3)
    other = _item("other", 1.5)
    ordered, kind = prefer_the_kind([great, went, other], "When did Maya go?", 0.35)
    assert kind == "time"
    assert [e.unit.id for e in ordered] == ["went", "great", "other"]
    assert [e.score for e in ordered] == sorted(e.score for e in ordered)[::-1]  # score and rank agree
    lowered = next(e for e in ordered if e.unit.id == "great")
    assert lowered.terms is not None and lowered.terms.extra[KIND_TERM] == -0.35
    assert lowered.score == pytest.approx(1.65)
    kept = next(e for e in ordered if e.unit.id == "went")
    assert kept.score == 1.8 and (kept.terms is None or KIND_TERM not in kept.terms.extra)


def test_the_order_is_kept_when_nothing_tells_the_units_apart() -> None:
    great, other = _item("great", 2.0), _item("other", 1.5)
    assert prefer_the_kind([great, other], "When did Maya go?", 0.35) == ([great, other], None)  # none holds one
    went, also = _item("went", 2.0, MAY_3), _item("also", 1.5, MAY_3)
    assert prefer_the_kind([went, also], "When did Maya go?", 0.35) == ([went, also], None)  # all do
    assert prefer_the_kind([great, _item("w", 1.0, MAY_3)], "What did Maya do?", 0.35)[1] is None
    assert prefer_the_kind([great, _item("w", 1.0, MAY_3)], "When did Maya go?", 0.0)[1] is None  # off


@pytest.fixture(scope="module")
def memory():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        for text in ("The support group was wonderful, everyone there was so welcoming.",
                     "I went to the support group yesterday.",
                     "The rent for the flat went up to 950 pounds.",
                     "The rent for the flat is the worst thing about living here."):
            opened.add([{"speaker": "Maya", "text": text}], user_id="maya", session_time="2023-05-10")
        yield opened


def _ranked(memory: Memory, question: str, recipe: str) -> list[Evidence]:
    return list(memory.search(question, user_id="maya", recipe=get_recipe(recipe)).evidence)


def test_the_recipe_lowers_the_memories_that_name_no_time(memory: Memory) -> None:
    question = "When did Maya go to the support group?"
    on, off = _ranked(memory, question, "ripple"), _ranked(memory, question, "ripple-no-kind")
    went = next(e for e in on if "yesterday" in e.unit.restatement)
    assert went.unit.time_span is not None
    assert went.terms is not None and KIND_TERM not in went.terms.extra
    wonderful = next(e for e in on if "wonderful" in e.unit.restatement)
    assert wonderful.terms is not None and wonderful.terms.extra[KIND_TERM] == -0.35
    assert all(e.terms is None or KIND_TERM not in e.terms.extra for e in off)

    def gap(items: list[Evidence]) -> float:
        return (next(e.score for e in items if "wonderful" in e.unit.restatement)
                - next(e.score for e in items if "yesterday" in e.unit.restatement))

    assert gap(on) == pytest.approx(gap(off) - 0.35, abs=0.05)
    assert on[0].unit.id == went.unit.id
    assert "kind: the units that name no time score lower" in " ".join(
        memory.search(question, user_id="maya").trace.notes
    )


def test_a_question_for_an_amount_lowers_the_memories_without_a_number(memory: Memory) -> None:
    on = _ranked(memory, "How much is the rent for the flat?", "ripple")
    amount = next(e for e in on if "950" in e.unit.restatement)
    assert amount.terms is not None and KIND_TERM not in amount.terms.extra
    worst = next(e for e in on if "worst" in e.unit.restatement)
    assert worst.terms is not None and worst.terms.extra[KIND_TERM] == -0.35



_PIECES = [
    "at", "5", "12", "7", ":", "30", "pm", "PM", "am", "a.m.", "p.m.", "every", "Every", "other", "day",
    "someday", "daydream", "Monday", "mondays", "weekend", "Weekends", "daily", "annually", "one",
    "someone", "oneself", "Dozens", "dozen", "half", "halfway", "twice", "$", "camping", "family",
    "_", "-", ",", ".", " ", "  ", "naïve", "ſeven", "K", "2020",
]


@given(st.lists(st.sampled_from(_PIECES), max_size=12))
@settings(max_examples=400, deadline=None)
def test_a_text_names_a_time_or_a_number_as_the_patterns_say(pieces: list[str]) -> None:
    """The shortcuts for texts in ASCII answer as the two patterns do, glued or spaced."""
    for text in ("".join(pieces), " ".join(pieces)):
        assert _names(text, "time") == (_RECURRING.search(text) is not None)
        assert _names(text, "number") == (_NUMBER.search(text) is not None)

"""Which memories answer is measured against the most relevant memory of the person asked about,
not against words the ranking already took as not theirs (the ``asker`` and ``speaker`` terms): an
assistant's advice in the question's own words ("the best app to keep your recipes in is ...")
must not push the person's statements out of those that answer. Units of their own."""

from __future__ import annotations

from datetime import datetime

from ripplemem.read.supersession import MARGIN, answering_units
from ripplemem.records import Evidence, MemoryUnit, ScoreTerms


def _item(unit_id: str, speaker: str, text: str, lowered: str | None = None) -> Evidence:
    unit = MemoryUnit(
        id=unit_id, namespace="n", restatement=f"{speaker} said: {text}", vector=None,
        participants=(speaker,), locations=(), time_span=None, episode_id="S1", turn_ids=(f"S1:{unit_id}",),
        session_time=datetime(2024, 1, 1), created_at=datetime(2024, 1, 1), speakers=(speaker,),
    )
    extra = {lowered: -0.3} if lowered else {}
    return Evidence(unit, 1.0, (), ScoreTerms(alignment=1.0, provenance=0.0, anchor=0.0, extra=extra, total=1.0))


def test_the_bar_is_the_asked_persons_best_memory() -> None:
    lead = [
        _item("a", "Assistant", "The best app to keep your recipes in is one with tags.", lowered="asker"),
        _item("b", "User", "My recipes are all in one long Google Doc."),
        _item("c", "User", "I moved every single one over to Paprika."),
        _item("d", "User", "The weather was grim all week."),
    ]
    scores = [0.40, -0.08, -0.27, -0.60]
    found = answering_units(lead, scores)
    assert found[:1] == ["a"]  # still answers: its words may be what is asked
    assert "c" in found  # within the margin of the person's best memory
    assert "d" not in found  # beyond it
    assert scores[0] - scores[2] > MARGIN  # the assistant's words alone would have left it out


def test_words_of_a_partner_the_question_does_not_name_do_not_set_the_bar() -> None:
    lead = [
        _item("a", "Ben", "Which gym do you go to these days? The one by the station?", lowered="speaker"),
        _item("b", "Maya", "I go to the climbing wall on Mill Road now."),
    ]
    assert answering_units(lead, [0.35, 0.02]) == ["a", "b"]


def test_with_nothing_lowered_the_bar_is_the_best_memory() -> None:
    lead = [_item("a", "Maya", "I go to the climbing wall."), _item("b", "Maya", "I like long walks.")]
    assert answering_units(lead, [0.35, 0.02]) == ["a"]

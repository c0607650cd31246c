"""One rule for every stage that reorders evidence: the score follows the place."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import datetime

import pytest

from ripplemem.read.rank import PLACEMENT_STEP, lower, rescore
from ripplemem.records import Evidence, ExpansionPath, Hit, MemoryUnit, ScoreTerms


def _item(name: str, score: float, terms: bool = True) -> Evidence:
    unit = MemoryUnit(name, "ns", name, None, (), (), None, "e", (name,), None, datetime(2024, 1, 1))
    given = ScoreTerms(alignment=0.5, provenance=0.5, anchor=0.0, total=score) if terms else None
    return Evidence(unit, score, (), given)


def _scores(items: list[Evidence]) -> list[float]:
    return [e.score for e in items]


def test_a_unit_moved_up_takes_a_score_between_its_new_neighbours() -> None:
    a, b, c, d = _item("a", 2.0), _item("b", 1.8), _item("c", 1.6), _item("d", 1.0)
    out = rescore([a, d, b, c], {"d"}, "supersession")
    assert [e.unit.id for e in out] == ["a", "d", "b", "c"]
    assert _scores(out) == [2.0, pytest.approx(1.9), 1.8, 1.6]
    assert out[1].terms is not None and out[1].terms.total == out[1].score
    assert out[1].terms.extra["supersession"] == pytest.approx(0.9)


def test_moved_units_at_the_ends_step_away_from_the_kept_ones() -> None:
    top, low = _item("top", 0.5), _item("low", 3.0)
    out = rescore([top, _item("x", 2.0), _item("y", 1.0), low], {"top", "low"}, "context")
    assert _scores(out) == [pytest.approx(2.0 + PLACEMENT_STEP), 2.0, 1.0, pytest.approx(1.0 - PLACEMENT_STEP)]


def test_moved_units_whose_scores_fit_keep_them() -> None:
    items = [_item("a", 2.0), _item("b", 1.5), _item("c", 1.0)]
    assert rescore(items, {"b"}, "context") == items


def test_a_kept_unit_out_of_order_is_placed_too_and_terms_are_made_for_pulled_units() -> None:
    out = rescore([_item("a", 2.0), _item("p", 2.0, terms=False), _item("b", 2.5), _item("c", 1.0)], {"p"}, "s")
    scores = _scores(out)
    assert scores == sorted(scores, reverse=True)
    assert all(e.terms is not None and e.terms.total == e.score for e in out)


def test_rescoring_and_lowering_keep_every_other_field() -> None:
    """A moved or lowered item changes its score and its terms' total and term only."""
    unit = MemoryUnit("m", "ns", "m", None, (), (), None, "e", ("m",), None, datetime(2024, 1, 1))
    path = ExpansionPath("a", "semantic", ("a", "m"), 0.9, 0.4)
    item = Evidence(
        unit, 1.0, (Hit("expansion", 0, 0.4),),
        ScoreTerms(alignment=0.3, provenance=0.6, anchor=1.0, extra={"exchange": 0.2}, total=1.0),
        (path,), superseded_by="n", valid_until=datetime(2024, 2, 1),
    )
    moved = rescore([_item("a", 2.0), item, _item("b", 1.5)], {"m"}, "supersession")[1]
    (lowered,) = lower([item], lambda e: True, 0.25, "ask")
    for changed, score, term in ((moved, 1.75, "supersession"), (lowered, 0.75, "ask")):
        assert changed.score == pytest.approx(score)
        assert replace(changed, score=item.score, terms=item.terms) == item
        assert changed.terms is not None and item.terms is not None
        assert changed.terms.total == changed.score
        assert changed.terms.extra == {"exchange": 0.2, term: pytest.approx(score - 1.0)}
        assert replace(changed.terms, extra=item.terms.extra, total=item.terms.total) == item.terms
    assert [f.name for f in fields(Evidence)] == [
        "unit", "score", "hits", "terms", "paths", "superseded_by", "valid_until"
    ], "a new field of Evidence: keep it in rank._scored too"

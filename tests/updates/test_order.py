"""The order of the holder's statements of one thing: every statement of the latest value above
the earlier values, not only the latest one; nothing passes a more relevant unit that does not
answer. Written before the rule, on :func:`ripplemem.read.latest_first.order` itself."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from ripplemem.read.latest_first import Reading, order
from ripplemem.records import MemoryUnit


def _unit(unit_id: str, day: int, turn: int) -> MemoryUnit:
    return MemoryUnit(
        unit_id, "ns", unit_id, None, ("Maya",), (), None, f"s{day}", (f"s{day}:{turn}",),
        datetime(2024, 1, day), datetime(2024, 1, day), extra={"turn_index": turn},
    )


UNITS = {u.id: u for u in (
    _unit("old", 1, 1), _unit("new-a", 5, 1), _unit("new-b", 5, 3), _unit("other", 3, 1),
)}
STATED = Reading("stated", 0.6)


def _alike(a: str, b: str) -> bool:
    return False


def test_every_statement_of_the_latest_value_goes_above_the_earlier_one() -> None:
    answering = {"old": STATED, "new-a": STATED, "new-b": STATED}
    relevance = {"old": 0.5, "new-a": 0.5, "new-b": 0.5}
    ranked, moved = order(["old", "new-a", "new-b"], UNITS, answering, relevance, _alike)
    assert ranked == ["new-b", "new-a", "old"]
    assert moved == {"new-b", "new-a"}


def test_for_an_earlier_value_the_earliest_leads_and_the_rest_keep_their_places() -> None:
    answering = {"old": STATED, "new-a": STATED, "new-b": STATED}
    relevance = {"old": 0.5, "new-a": 0.5, "new-b": 0.5}
    ranked, _ = order(["new-b", "new-a", "old"], UNITS, answering, relevance, _alike, latest=False)
    assert ranked == ["old", "new-b", "new-a"]


def test_no_statement_passes_a_more_relevant_unit_that_does_not_answer() -> None:
    answering = {"old": STATED, "new-a": STATED, "new-b": STATED}
    relevance = {"old": 0.5, "new-a": 0.5, "new-b": 0.5, "other": 0.9}
    ranked, _ = order(["old", "other", "new-a", "new-b"], UNITS, answering, relevance, _alike)
    assert ranked.index("other") == 1  # it keeps its place: nothing passes it
    assert ranked.index("new-b") < ranked.index("new-a")


def test_every_unit_of_the_lead_within_the_margin_answers() -> None:
    """Not only the few most relevant: in a long chat the latest value may sit in the 8th most
    relevant unit of the first 10, below assistant replies about the same subject."""
    from ripplemem.read.supersession import LEAD, MARGIN, answering_units
    from ripplemem.records import Evidence

    lead = [Evidence(_unit(f"u{i}", 1 + i, 1), 1.0 - i / 100, ()) for i in range(LEAD)]
    scores = [0.6 - 0.02 * i for i in range(LEAD)]
    found = answering_units(lead, scores)
    assert found == [f"u{i}" for i in range(LEAD) if scores[i] >= scores[0] - MARGIN]
    assert "u8" in found


def test_a_question_answers_when_its_clauses_are_read_and_the_margin_is_the_best_statements() -> None:
    """"Can you recommend toys for my dog, who is three now?" takes a value as given, which only
    its clauses tell: with a statement reader a question within the margin answers too; the
    margin is still counted from the best unit that is not a question."""
    from ripplemem.read.supersession import MARGIN, answering_units
    from ripplemem.records import Evidence

    def unit(unit_id: str, text: str) -> Evidence:
        return Evidence(replace(_unit(unit_id, 1, 1), restatement=text), 1.0, ())

    lead = [
        unit("asks-high", "Mira asked: Can you recommend toys for my dog, who is three now?"),
        unit("states", "Mira said: My dog Biscuit is two years old."),
        unit("asks-low", "Mira asked: Any news?"),
    ]
    scores = [0.9, 0.5, 0.5 - MARGIN - 0.01]
    assert answering_units(lead, scores) == ["states"]
    assert answering_units(lead, scores, questions=True) == ["asks-high", "states"]


def test_a_statement_whose_clause_fits_less_but_whose_memory_is_as_relevant_answers_the_same_thing() -> None:
    """"I've got 1250 followers" and, later, "I've been meaning to check my current follower
    count - I think I'm close to 1300 now": the later clause alone fits the question less (its
    words do not name the count), the memory as a whole as well."""
    answering = {"old": Reading("stated", 0.64), "new-a": Reading("stated", 0.35)}
    ranked, moved = order(["old", "new-a"], UNITS, answering, {"old": 0.34, "new-a": 0.47}, _alike)
    assert ranked == ["new-a", "old"] and moved == {"new-a"}


def test_a_statement_that_fits_less_and_is_less_relevant_is_about_something_else() -> None:
    answering = {"old": Reading("stated", 0.64), "new-a": Reading("stated", 0.35)}
    ranked, moved = order(["old", "new-a"], UNITS, answering, {"old": 0.50, "new-a": 0.30}, _alike)
    assert ranked == ["old", "new-a"] and not moved


def test_what_is_not_so_now_goes_below_an_unread_answer_also_beside_a_statement() -> None:
    """A near miss ("I very nearly switched to Vodafone") above an answering unit no reading
    reads ("Giffgaff, ten pounds a month") goes right below it, also when the holder stated
    something else that answers and ranks below both ("I bought a Pixel 7"): the unread unit
    may say how things are; the near miss says they are not so."""
    units = {u.id: u for u in (_unit("unread", 1, 2), _unit("stated", 2, 1), _unit("near-miss", 3, 1))}
    answering = {"stated": Reading("stated", 0.2), "near-miss": Reading("aside", 0.6, not_now=True)}
    relevance = {"near-miss": 0.9, "unread": 0.8, "stated": 0.3}
    ranked, moved = order(
        ["near-miss", "unread", "stated"], units, answering, relevance, _alike, answers={"unread", "stated", "near-miss"}
    )
    assert ranked.index("unread") < ranked.index("near-miss")
    assert "near-miss" in moved


def test_an_aside_that_is_so_now_keeps_its_place_above_an_unread_answer() -> None:
    units = {u.id: u for u in (_unit("unread", 1, 2), _unit("stated", 2, 1), _unit("plan", 3, 1))}
    answering = {"stated": Reading("stated", 0.2), "plan": Reading("aside", 0.6)}
    relevance = {"plan": 0.9, "unread": 0.8, "stated": 0.3}
    ranked, _ = order(["plan", "unread", "stated"], units, answering, relevance, _alike, answers={"unread", "stated", "plan"})
    assert ranked.index("plan") < ranked.index("unread")


def test_for_a_yes_or_no_question_what_is_not_so_now_goes_below_an_unread_answer_too() -> None:
    """The same rule in the order of a yes-or-no question about a past event (``asides_only``)."""
    units = {u.id: u for u in (_unit("unread", 1, 2), _unit("stated", 2, 1), _unit("near-miss", 3, 1))}
    answering = {"stated": Reading("stated", 0.2), "near-miss": Reading("aside", 0.6, not_now=True)}
    relevance = {"near-miss": 0.9, "unread": 0.8, "stated": 0.3}
    ranked, _ = order(
        ["near-miss", "unread", "stated"], units, answering, relevance, _alike,
        answers={"unread", "stated", "near-miss"}, asides_only=True,
    )
    assert ranked.index("unread") < ranked.index("near-miss")


def test_a_statement_passes_the_units_the_stage_did_not_weigh() -> None:
    """A piece of a lead turn waiting below the lead (the ranking spread it) passes the units
    between, which the stage never weighed (no relevance): they lay below every unit it read,
    and a relevance they were never given (0.0, above a group of negative centred cosines)
    held the latest value back."""
    answering = {"old": STATED, "new-b": STATED}
    relevance = {"old": -0.2, "new-b": -0.15}
    ranked, moved = order(["old", "other", "new-b"], UNITS, answering, relevance, _alike)
    assert ranked == ["new-b", "old", "other"]
    assert moved == {"new-b"}


def test_an_older_statement_does_not_follow_past_a_more_relevant_answer() -> None:
    """The latest leads; each older statement of the same thing goes right below the one before
    it passing the group's members and what answers less than it does, never another statement
    more relevant to the question (one the group does not hold: "It reminded John of that sense
    of community" does not pass "John heard some cool stories from an elderly veteran")."""
    units = {**UNITS, "mid": _unit("mid", 3, 2), "apart": _unit("apart", 4, 1)}
    answering = {
        "old": Reading("stated", 0.3), "mid": Reading("stated", 0.25), "new-a": STATED,
        "apart": Reading("stated", 0.4),
    }
    relevance = {"old": 0.2, "mid": 0.1, "new-a": 0.5, "apart": 0.3}

    def alike(a: str, b: str) -> bool:
        return {a, b} <= {"old", "mid", "new-a"}

    ranked, _ = order(["new-a", "old", "apart", "mid"], units, answering, relevance, alike)
    assert ranked.index("apart") < ranked.index("mid")


def test_small_talk_at_chance_does_not_pass_an_earlier_unread_answer() -> None:
    """A statement that fits the question no better than an unrelated sentence (below
    :data:`~ripplemem.read.latest_first.CHANCE`) and speaks of nothing the question does keeps
    below an earlier answer that no reading reads ("We watched the new Dune film on Saturday"
    for "How does Ivy get to work?", under "Ivy drives to work"); one that fits passes it."""
    from ripplemem.read.latest_first import CHANCE

    relevance = {"old": 0.5, "new-a": 0.1}
    for fit, passes in ((CHANCE / 2, False), (CHANCE * 3, True)):
        ranked, _ = order(
            ["old", "new-a"], UNITS, {"new-a": Reading("stated", fit)}, relevance, _alike,
            answers={"old", "new-a"}, topic=lambda a, b: False,
        )
        assert (ranked[0] == "new-a") is passes, fit


def test_an_earlier_value_read_by_no_reading_leads_without_a_fit_of_its_own() -> None:
    """For an earlier value, the leader may be an answer no reading reads (the earliest that a
    later statement says alike); passing an older answer above it reads the leader's fit only
    when it has one (it raised a KeyError)."""
    units = {u.id: u for u in (_unit("chat", 1, 1), _unit("unread", 2, 1), _unit("said", 5, 1))}
    answering = {"said": STATED}
    relevance = {"chat": 0.6, "unread": 0.4, "said": 0.5}

    def alike(a: str, b: str) -> bool:
        return {a, b} == {"unread", "said"}

    ranked, moved = order(
        ["chat", "unread", "said"], units, answering, relevance, alike,
        answers={"chat", "unread"}, latest=False, topic=lambda a, b: a != "chat",
    )
    # it speaks of what the question does: it passes the answer said before it
    assert ranked == ["unread", "chat", "said"] and moved == {"unread"}

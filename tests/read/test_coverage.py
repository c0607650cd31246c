"""The coverage cut (read/coverage.py): for a question that gathers several memories, the head
of the final list covers distinct episodes; a question that asks for one thing keeps rho's order,
or, with ``session_support``, puts the units of the sessions that match it most first."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory, Settings
from ripplemem.read.coverage import asks_for_coverage, cover_episodes, support_sessions
from ripplemem.recipes import get_recipe
from ripplemem.records import Cues, Evidence, TimeSpan
from ripplemem.testing.builders import make_unit

T0 = datetime(2024, 5, 1, 10, 0)


def _evidence(uid: str, episode: str, score: float) -> Evidence:
    return Evidence(make_unit(uid, episode_id=episode, session_time=T0), score, (), None, ())


def ids(evidence) -> list[str]:
    return [e.unit.id for e in evidence]


def test_a_close_unit_of_a_new_episode_goes_before_further_units_of_a_covered_one():
    ranked = [
        _evidence("a1", "s1", 1.00), _evidence("a2", "s1", 0.95), _evidence("a3", "s1", 0.90),
        _evidence("b1", "s2", 0.85), _evidence("c1", "s3", 0.80), _evidence("z", "s4", 0.0),
    ]
    covered = cover_episodes(ranked, 0.3)
    assert ids(covered)[:3] == ["a1", "b1", "c1"]
    assert sorted(ids(covered)) == sorted(ids(ranked))  # reordered, nothing dropped or added
    scores = [e.score for e in covered]
    assert scores == sorted(scores, reverse=True)  # best score first after the move
    moved = {e.unit.id for e in covered if e.terms is not None and "coverage" in e.terms.extra}
    assert {"b1", "c1"} <= moved


def test_a_much_more_relevant_unit_of_a_covered_episode_keeps_its_place():
    ranked = [
        _evidence("a1", "s1", 1.0), _evidence("a2", "s1", 0.9),
        _evidence("b1", "s2", 0.2), _evidence("z", "s3", 0.0),
    ]
    assert ids(cover_episodes(ranked, 0.3)) == ["a1", "a2", "b1", "z"]
    # a larger weight puts the new episode first all the same
    assert ids(cover_episodes(ranked, 0.8))[:2] == ["a1", "b1"]


def test_weight_zero_and_distinct_episodes_keep_rho_order():
    ranked = [_evidence(f"u{i}", f"s{i}", 1.0 - i / 10) for i in range(6)]
    assert ids(cover_episodes(ranked, 0.3)) == ids(ranked)
    same = [_evidence(f"u{i}", "s", 1.0 - i / 10) for i in range(6)]
    assert ids(cover_episodes(same, 0.3)) == ids(same)
    mixed = [_evidence("a1", "s1", 1.0), _evidence("a2", "s1", 0.9), _evidence("b1", "s2", 0.8)]
    assert ids(cover_episodes(mixed, 0.0)) == ["a1", "a2", "b1"]


def test_a_unit_whose_session_matches_too_goes_before_a_lone_match():
    ranked = [
        _evidence("lone", "s1", 1.00), _evidence("b1", "s2", 0.98), _evidence("c1", "s3", 0.70),
        _evidence("b2", "s2", 0.60), _evidence("z", "s4", 0.10),
    ]
    supported = support_sessions(ranked, 0.1)
    # b1 gains 0.1 * 0.60 (b2), b2 0.1 * 0.98 (b1); the lone match and c1 gain nothing
    assert ids(supported) == ["b1", "lone", "c1", "b2", "z"]
    assert sorted(ids(supported)) == sorted(ids(ranked))  # reordered, nothing dropped or added
    scores = [e.score for e in supported]
    assert scores == sorted(scores, reverse=True)  # best score first after the move
    moved = {e.unit.id for e in supported if e.terms is not None and "session_support" in e.terms.extra}
    assert moved == {"b1"}


def test_session_support_weight_zero_or_distinct_sessions_keep_rho_order():
    ranked = [_evidence(f"u{i}", f"s{i}", 1.0 - i / 10) for i in range(6)]
    assert ids(support_sessions(ranked, 0.1)) == ids(ranked)
    mixed = [_evidence("a1", "s1", 1.0), _evidence("b1", "s2", 0.98), _evidence("b2", "s2", 0.9)]
    assert ids(support_sessions(mixed, 0.0)) == ["a1", "b1", "b2"]
    # a far better lone match keeps the head
    assert ids(support_sessions(mixed, 0.01)) == ["a1", "b1", "b2"]


def test_the_trigger_reads_the_question_structure():
    assert asks_for_coverage("How many books did I read this year?", Cues(keywords=("books", "read")))
    assert asks_for_coverage("Which did I visit first, Rome or Oslo?", Cues(keywords=("visit",)))
    span = TimeSpan(datetime(2024, 3, 1), datetime(2024, 3, 31, 23, 59))
    assert asks_for_coverage("What did I do in March?", Cues(keywords=("do",), time_span=span)) == (
        "a span of time"
    )
    day = TimeSpan.day(datetime(2024, 3, 5))
    assert not asks_for_coverage("What did I cook on 5 March?", Cues(keywords=("cook",), time_span=day))
    assert not asks_for_coverage("What is my dog's name?", Cues(keywords=("dog", "name")))


def test_the_stage_is_a_named_recipe_and_off_by_default():
    assert get_recipe("ripple-coverage").rank.coverage > 0
    assert get_recipe("ripple").rank.coverage == 0
    assert get_recipe("ripple-paper").rank.coverage == 0
    assert get_recipe("ripple-session-support").rank.session_support > 0
    assert get_recipe("ripple").rank.session_support == 0
    assert get_recipe("ripple-paper").rank.session_support == 0


SESSIONS = [
    ("2024-01-10", [
        "I read the book Dune, and reading that book was the best thing I did.",
        "I read more of the Dune book on Sunday, the book is long.",
        "My book club picked Dune, so I read the book every evening.",
        "I read the last pages of the Dune book last night.",
    ]),
    ("2024-02-14", ["Over the weekend I finished Circe by Madeline Miller, a novel."]),
    ("2024-03-20", ["On the train this month I got through Piranesi by Susanna Clarke."]),
    ("2024-04-02", ["My dog Biscuit learned to fetch the ball in the park."]),
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    with Memory(Settings(store=str(tmp_path_factory.mktemp("coverage") / "m.db"))) as memory:
        for day, lines in SESSIONS:
            memory.add(
                [{"role": "user", "content": line} for line in lines],
                user_id="reader", session_time=f"{day}T10:00:00", session_id=f"s-{day}",
            )
        yield memory


def _episodes(recall, n: int) -> list[str]:
    return [e.unit.episode_id for e in recall.evidence[:n]]


def test_a_counting_question_gets_distinct_sessions_in_its_head(memory):
    question = "How many books did I read?"
    ripple = memory.search(question, user_id="reader", recipe="ripple-coverage")
    # rho's order without the later stage that may also spread a count (the latest said first)
    plain = memory.search(question, user_id="reader", recipe="ripple-no-supersession")
    assert sorted(ids(ripple.evidence)) == sorted(ids(plain.evidence))  # the same units
    assert any(n.startswith("coverage:") for n in ripple.trace.notes)
    assert not any(n.startswith("coverage:") for n in plain.trace.notes)
    head = 5
    # rho alone fills the head with the Dune session, which says "read" and "book" most
    assert len(set(_episodes(plain, head))) < 3
    assert len(set(_episodes(ripple, head))) == 3  # Dune, Circe and Piranesi's sessions


def test_a_single_answer_question_keeps_rho_order(memory):
    question = "What is the name of my dog?"
    ripple = memory.search(question, user_id="reader", recipe="ripple-coverage")
    plain = memory.search(question, user_id="reader", recipe="ripple")
    assert ids(ripple.evidence) == ids(plain.evidence)
    assert not any(n.startswith("coverage:") for n in ripple.trace.notes)


def test_session_support_reorders_a_single_answer_question_only(memory):
    single = "What is the name of my dog?"
    supported = memory.search(single, user_id="reader", recipe="ripple-session-support")
    plain = memory.search(single, user_id="reader", recipe="ripple")
    assert sorted(ids(supported.evidence)) == sorted(ids(plain.evidence))  # the same units
    assert any(n.startswith("session support:") for n in supported.trace.notes)
    assert not any(n.startswith("session support:") for n in plain.trace.notes)
    scores = [e.score for e in supported.evidence]
    assert scores == sorted(scores, reverse=True)
    several = "How many books did I read?"
    counted = memory.search(several, user_id="reader", recipe="ripple-session-support")
    assert ids(counted.evidence) == ids(memory.search(several, user_id="reader", recipe="ripple").evidence)
    assert not any(n.startswith("session support:") for n in counted.trace.notes)

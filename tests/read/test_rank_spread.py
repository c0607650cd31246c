from __future__ import annotations

from datetime import datetime

import numpy as np

from ripplemem.read.rank_spread import spread_turns
from ripplemem.recipes import get_recipe
from ripplemem.records import Evidence, MemoryUnit

T0 = datetime(2024, 5, 1, 10, 0)


def _evidence(uid: str, turns: tuple[str, ...], score: float) -> Evidence:
    unit = MemoryUnit(
        id=uid, namespace="ns", restatement=uid, vector=np.ones(2, dtype=np.float32),
        participants=(), locations=(), time_span=None, episode_id="s", turn_ids=turns,
        session_time=T0, created_at=T0,
    )
    return Evidence(unit, score, (), None, ())


def ids(evidence) -> list[str]:
    return [e.unit.id for e in evidence]


def test_further_pieces_of_a_turn_wait_behind_every_new_turn():
    ranked = [
        _evidence("reply-1", ("t2",), 5.0),
        _evidence("reply-2", ("t2",), 4.0),  # another piece of the same long reply
        _evidence("question", ("t1",), 3.0),
        _evidence("reply-3", ("t2",), 2.0),
        _evidence("other", ("t7",), 1.0),
    ]
    assert ids(spread_turns(ranked)) == ["reply-1", "question", "other", "reply-2", "reply-3"]


def test_a_unit_bringing_any_new_turn_keeps_its_place_and_nothing_is_dropped():
    ranked = [
        _evidence("a", ("t1",), 3.0),
        _evidence("ab", ("t1", "t2"), 2.0),  # brings t2
        _evidence("b", ("t2",), 1.5),  # t2 is in already
        _evidence("no-turn", (), 1.0),  # no turn ids: its own source
    ]
    spread = spread_turns(ranked)
    assert ids(spread) == ["a", "ab", "no-turn", "b"]
    assert sorted(ids(spread)) == sorted(ids(ranked))


def test_distinct_turns_keep_rho_order():
    ranked = [_evidence(f"u{i}", (f"t{i}",), 10.0 - i) for i in range(5)]
    assert ids(spread_turns(ranked)) == ids(ranked)


def test_the_paper_recipe_keeps_rho_order():
    assert get_recipe("ripple").rank.spread_turns
    assert not get_recipe("ripple-paper").rank.spread_turns
    assert not get_recipe("ripple", rank={"spread_turns": False}).rank.spread_turns

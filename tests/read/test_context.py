"""Dialogue context (read/context.py): the neighbouring turns of the best units get reserved slots."""

from __future__ import annotations

from datetime import datetime

import numpy as np
import pytest

from ripplemem.memory import Memory
from ripplemem.read.context import assemble
from ripplemem.recipes import get_recipe
from ripplemem.records import Conversation, Evidence, MemoryUnit, Session, Turn
from ripplemem.settings import Settings
from ripplemem.structure import turn_distance

T0 = datetime(2024, 5, 1, 12, 0)
QUESTION = "Which restaurant did Bob suggest for Friday dinner?"
LINES = [
    ("Ann", "Any idea where we should go for dinner on Friday?"),
    ("Bob", "The Blue Lantern noodle bar, without a doubt."),
    ("Ann", "I finished the marathon training plan today."),
    ("Bob", "My sister moved to Lisbon for work last month."),
    ("Ann", "The dentist said my teeth are fine."),
    ("Bob", "I am repainting the kitchen this weekend."),
    ("Ann", "Our cat knocked over a plant again."),
    ("Bob", "Dinner last Friday at the steakhouse was too loud."),
    ("Ann", "Friday dinners with friends are my favourite."),
    ("Bob", "I fixed the bike's flat tyre."),
]


@pytest.fixture(scope="module")
def memory(tmp_path_factory):
    turns = tuple(Turn(f"t{i}", who, text) for i, (who, text) in enumerate(LINES))
    conversation = Conversation("c1", (Session("s1", T0, turns),))
    path = tmp_path_factory.mktemp("context") / "m.db"
    with Memory(Settings(store=path, extractor="deterministic", planner="deterministic")) as m:
        m.add(conversation, namespace="ns")
        yield m


def ids(evidence) -> list[str]:
    return [e.unit.id for e in evidence]


def test_context_units_follow_the_head_of_the_ranking(memory):
    plain = memory.search(
        QUESTION, namespace="ns", recipe=get_recipe("ripple", budget=10, context={"share": 0})
    )
    recipe = get_recipe("ripple", budget=4, context={"share": 0.5, "anchors": 2})
    recall = memory.search(QUESTION, namespace="ns", recipe=recipe)
    evidence = list(recall.evidence)
    assert len(evidence) == 4
    top = [e.unit for e in plain.evidence[:2]]
    context = [e for e in evidence if "context" in e.views]
    assert context, "a neighbouring turn of the best units should be reserved a slot"
    for item in context:
        (path,) = [p for p in item.paths if p.anchor in {u.id for u in top}][:1]
        anchor = next(u for u in top if u.id == path.anchor)
        assert turn_distance(anchor, item.unit) <= 1 and path.nodes == (anchor.id, item.unit.id)
    # the head is the plain ranking's, the context comes right after it
    head = [e for e in evidence if "context" not in e.views or e.unit.id in ids(plain.evidence[:2])]
    assert ids(evidence)[: 4 - len(context)] == ids(head)[: 4 - len(context)]
    assert any("dialogue context" in note for note in recall.trace.notes)


def test_no_slots_no_context(memory):
    recall = memory.search(
        QUESTION, namespace="ns", recipe=get_recipe("ripple-no-context", budget=4)
    )
    assert all("context" not in e.views for e in recall.evidence)


def _evidence(uid: str, score: float) -> Evidence:
    unit = MemoryUnit(
        id=uid,
        namespace="ns",
        restatement=uid,
        vector=np.ones(2, dtype=np.float32),
        participants=(),
        locations=(),
        time_span=None,
        episode_id="s",
        turn_ids=(uid,),
        session_time=T0,
        created_at=T0,
    )
    return Evidence(unit, score, (), None, ())


def test_assemble_keeps_head_then_context_then_the_rest():
    ranked = [
        _evidence(u, s) for u, s in (("a", 5), ("b", 4), ("c", 3), ("x", 2), ("d", 1), ("y", 0.5))
    ]
    assert ids(assemble(ranked, ["x", "y"], budget=4, slots=2)) == ["a", "b", "x", "y"]
    # a context unit already in the head keeps its place; the free slot is filled by rho
    assert ids(assemble(ranked, ["b", "y"], budget=4, slots=2)) == ["a", "b", "y", "c"]
    assert ids(assemble(ranked, [], budget=4, slots=2)) == ["a", "b", "c", "x"]


def test_context_slots_scale_with_the_budget_and_bad_overrides_are_refused():
    assert get_recipe("ripple").context_slots == 6  # 20 % of 30
    assert get_recipe("ripple", budget=10).context_slots == 2
    assert get_recipe("ripple-no-context").context_slots == 0
    with pytest.raises(ValueError, match=r"context\.share"):
        get_recipe("ripple", context={"share": 1.5})
    with pytest.raises(ValueError, match="context_slot"):
        get_recipe("ripple", context_slots=3)  # a derived value, not a field


LONG_REPLY = (
    "The Blue Lantern noodle bar on Harbor Street is the place for Friday dinner with the team. "
    "Their hand-pulled noodles with chili oil are famous across the whole neighbourhood. "
    "The owner Mrs Lin grows the herbs for the broth in a rooftop garden above the kitchen. "
    "They take bookings for groups of eight or more, so call them early in the week. "
    "Parking is hard on Fridays, the tram stop by the harbour is only two minutes away."
)


def test_context_brings_neighbouring_turns_not_pieces_of_the_same_turn(tmp_path):
    """A long turn is cut into several units; its own pieces add no turn, so they get no slot."""
    turns = (
        Turn("t0", "Ann", "Any idea where we should go for dinner on Friday with the team?"),
        Turn("t1", "Bob", LONG_REPLY),
        Turn("t2", "Ann", "Great, I will book a table for nine people there on Tuesday."),
        *(Turn(f"t{i}", who, text) for i, (who, text) in enumerate(LINES[2:], start=3)),
    )
    conversation = Conversation("c1", (Session("s1", T0, turns),))
    with Memory(
        Settings(store=tmp_path / "m.db", extractor="deterministic", planner="deterministic")
    ) as m:
        m.add(conversation, namespace="ns")
        pieces = [u for u in m.list(namespace="ns") if u.turn_ids == ("t1",)]
        assert len(pieces) >= 2, "the long reply should be cut into several units"
        recipe = get_recipe("ripple", budget=6, context={"share": 0.5, "anchors": 1})
        recall = m.search(
            "Which noodle bar did Bob suggest for Friday dinner?", namespace="ns", recipe=recipe
        )
    evidence = list(recall.evidence)
    assert evidence[0].unit.turn_ids == ("t1",)
    context = [e for e in evidence if any(h.view == "context" for h in e.hits)]
    assert context, "the neighbouring turns of the best unit should be reserved slots"
    assert all(e.unit.turn_ids != ("t1",) for e in context)
    assert {t for e in context for t in e.unit.turn_ids} & {"t0", "t2"}


def test_context_skips_a_unit_whose_turn_the_head_already_holds(tmp_path):
    """A turn's text and its photo caption are two units; with the text in the head of the
    ranking, the caption brings no new turn, so it gets no context slot."""
    from ripplemem.read.context import context_candidates

    turns = tuple(
        Turn(f"t{i}", who, text, "a photo of a bowl of noodles on a red table" if i == 2 else None)
        for i, (who, text) in enumerate(LINES)
    )
    conversation = Conversation("c1", (Session("s1", T0, turns),))
    with Memory(
        Settings(store=tmp_path / "m.db", extractor="deterministic", planner="deterministic")
    ) as m:
        m.add(conversation, namespace="ns")
        units = m.list(namespace="ns")
        by_turn: dict[str, list[MemoryUnit]] = {}
        for unit in units:
            by_turn.setdefault(unit.turn_ids[0], []).append(unit)
        assert len(by_turn["t2"]) == 2, "text and caption of t2 should be two units"
        text = next(u for u in by_turn["t2"] if "photo" not in u.restatement)
        caption = next(u for u in by_turn["t2"] if u is not text)
        source = by_turn["t1"][0]
        linked = dict(m.store.neighbours("ns", [source.id], "structural")[source.id])
        assert caption.id in linked, "the caption is a dialogue neighbour of t1"
        head = [Evidence(u, 1.0 - i / 10, (), None, ()) for i, u in enumerate((source, text))]
        recipe = get_recipe("ripple", budget=4, context={"share": 0.5, "anchors": 1})
        chosen = context_candidates(m.store, "ns", head, recipe)
    assert chosen, "t0 (or t3) should still get a slot"
    assert all(c.unit.id != caption.id for c in chosen)
    assert all(not set(c.unit.turn_ids) <= {"t1", "t2"} for c in chosen)
    # the neighbours are read without vectors; the chosen ones with theirs (rho reads them)
    assert all(c.unit.vector is not None for c in chosen)

"""The demo conversation end to end, with the settings `ripplemem demo` uses."""

from __future__ import annotations

from ripplemem import Memory, Settings
from ripplemem.demo import load_demo


def test_the_allergy_is_recalled_for_the_harbor_grill_question(tmp_path) -> None:
    conversation, questions = load_demo()
    flagship = questions[0]
    assert "Harbor Grill" in flagship["question"]
    settings = Settings(
        store=tmp_path / "demo.db", extractor="deterministic", planner="deterministic"
    )
    with Memory(settings) as memory:
        memory.add(conversation, namespace="demo")
        recall = memory.search(
            flagship["question"], namespace="demo", question_time=flagship["time"], limit=10
        )
    top = [e.unit for e in recall.evidence]
    allergy = [u for u in top if "allergic to seafood" in u.restatement]
    assert allergy, [u.restatement for u in top]
    assert "Maya" in allergy[0].participants  # "she told me": Maya, named two turns before
    assert any("seafood restaurant" in u.restatement for u in top)

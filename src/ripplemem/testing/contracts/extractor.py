"""What every :class:`~ripplemem.write.base.Extractor` must do.

Subclass :class:`ExtractorContract` and give it an ``extractor`` fixture. The windows below are
plain facts a user tells an assistant; every extractor must find something in them.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem.records import UnitDraft, Window
from ripplemem.records.dialogue import Turn
from ripplemem.write.base import Extractor

SESSION_TIME = datetime(2024, 5, 20, 10, 0)
FACTS = Window(
    session_id="s1",
    session_time=SESSION_TIME,
    turns=(
        Turn("t1", "Maya", "I moved to Lisbon last month for a job at a bakery."),
        Turn("t2", "Sam", "Congratulations! Do you like it there?"),
        Turn("t3", "Maya", "I love it. My sister Ana visits me next week."),
    ),
    speakers=("Maya", "Sam"),
)
#: the same conversation, one window later: t1 is overlap (context), t2-t3 are new
LATER = Window(
    session_id="s1",
    session_time=SESSION_TIME,
    turns=FACTS.turns,
    speakers=FACTS.speakers,
    focus_from=1,
)


class ExtractorContract:
    """One draft list per window, drafts grounded in the window's new turns."""

    @pytest.fixture
    def extractor(self) -> Extractor:  # pragma: no cover - the subclass provides it
        raise NotImplementedError("subclass ExtractorContract and provide an `extractor` fixture")

    def test_it_is_an_extractor(self, extractor):
        assert isinstance(extractor, Extractor)
        assert isinstance(extractor.name, str) and extractor.name
        assert isinstance(extractor.tokens_used, int) and extractor.tokens_used >= 0

    def test_no_windows_give_no_drafts(self, extractor):
        assert extractor.extract([]) == []

    def test_one_list_per_window_in_order(self, extractor):
        drafts = extractor.extract([FACTS, LATER])
        assert len(drafts) == 2
        assert all(isinstance(d, UnitDraft) for batch in drafts for d in batch)

    def test_facts_yield_drafts_that_cite_the_new_turns(self, extractor):
        (drafts,) = extractor.extract([FACTS])
        assert drafts, "three turns of plain facts gave no unit"
        focus = {t.turn_id for t in FACTS.focus_turns}
        for draft in drafts:
            assert draft.restatement.strip()
            assert draft.turn_ids and set(draft.turn_ids) <= focus

    def test_overlap_turns_are_context_only(self, extractor):
        (drafts,) = extractor.extract([LATER])
        focus = {t.turn_id for t in LATER.focus_turns}
        assert all(set(d.turn_ids) <= focus for d in drafts)

    def test_a_window_without_new_turns_gives_nothing(self, extractor):
        spent = Window("s1", SESSION_TIME, FACTS.turns, FACTS.speakers, focus_from=len(FACTS.turns))
        assert extractor.extract([spent]) == [[]]

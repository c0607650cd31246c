"""A turn's pieces all belong to the lead the supersession stage reads.

The final ranking spreads a turn's pieces (:mod:`ripplemem.read.rank_spread`): the best-ranked
piece holds the turn's place and the others wait after every other turn. When the piece that
holds the place is the turn's question ("What laptop stand would you recommend?") and the piece
that states the new value ("I gave up on the Dell and bought a MacBook Air") waits beyond the
stage's lead, the latest value was never read and the old one stayed first.
"""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .ranking import rank_of

ASKS = ["What laptop stand would you recommend for it?", "What do laptop users do about photo backups?"]


@pytest.mark.parametrize("ask", ASKS)
def test_the_piece_that_states_the_new_value_is_read(memory: Memory, ask: str) -> None:
    memory.add(
        [
            {"speaker": "Ines", "text": "My Dell XPS laptop has become painfully slow and the fan roars whenever I open a spreadsheet."},
            {"speaker": "Assistant", "text": "Try disabling start-up apps and cleaning the fan vents."},
            {"speaker": "Ines", "text": "I use it mostly for work spreadsheets and some photo editing at weekends."},
            {"speaker": "Assistant", "text": "Photo editing likes more memory; 16 GB helps."},
        ],
        user_id="ines", session_time="2024-02-01",
    )
    memory.add(
        [
            {"speaker": "Ines", "text": "I gave up on the Dell in the end and bought a MacBook Air in May, and I'm amazed how "
             "quiet it is. I'm now trying to move my photos off Google. " + ask},
            {"speaker": "Assistant", "text": "Most 13-inch sleeves fit; check the inner dimensions."},
            {"speaker": "Ines", "text": "My sister wants a laptop for university, any advice?"},
            {"speaker": "Assistant", "text": "A light laptop with long battery life suits students."},
            {"speaker": "Ines", "text": "She studies architecture, so she will run CAD software."},
            {"speaker": "Assistant", "text": "Then a laptop with a dedicated graphics card is worth it."},
        ],
        user_id="ines", session_time="2024-06-10",
    )
    question = "What laptop do I use?"
    assert rank_of(memory, question, "ines", "bought a MacBook Air") < rank_of(memory, question, "ines", "Dell XPS laptop")

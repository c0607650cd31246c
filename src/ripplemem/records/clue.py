"""Clues of the associative (AssoMem) graph: one per session, merged when alike."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np

ClueSource = Literal["llm", "keyphrases"]


@dataclass(frozen=True, slots=True)
class Clue:
    """A topic node: its text (an LLM's one-sentence summary, or salient keyphrases), its
    L2-normalised vector, how it was made, and how many sessions were merged into it."""

    id: str
    namespace: str
    text: str
    vector: np.ndarray = field(repr=False)  # left out of repr()
    source: ClueSource
    sessions: int = 1


@dataclass(frozen=True, slots=True)
class Membership:
    """A unit (utterance node) attached to its session's clue, with the edge weight."""

    unit_id: str
    clue_id: str
    weight: float

"""The extractor seam: windows in, grounded unit drafts out (one list per window)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ripplemem.records import UnitDraft, Window
from ripplemem.write.lexicon import Lexicon


@runtime_checkable
class Extractor(Protocol):
    """Windows in, one list of grounded drafts per window out.

    ``tokens_used`` counts the LLM tokens spent so far (0 for a deterministic extractor).
    ``lexicon`` is what the namespace's memories taught the entity recogniser (names, places'
    casing, common words); an extractor that recognises names reads it and learns into it."""

    @property
    def name(self) -> str: ...
    @property
    def tokens_used(self) -> int: ...

    def extract(
        self, windows: Sequence[Window], *, lexicon: Lexicon | None = None
    ) -> list[list[UnitDraft]]: ...

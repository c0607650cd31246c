"""The extractor seam: windows in, grounded unit drafts out (one list per window)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ripplemem.records import UnitDraft, Window


@runtime_checkable
class Extractor(Protocol):
    """Windows in, one list of grounded drafts per window out.

    ``tokens_used`` counts the LLM tokens spent so far (0 for a deterministic extractor)."""

    @property
    def name(self) -> str: ...
    @property
    def tokens_used(self) -> int: ...

    def extract(self, windows: Sequence[Window]) -> list[list[UnitDraft]]: ...

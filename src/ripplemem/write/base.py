"""The extractor seam: windows in, grounded unit drafts out (one list per window)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ripplemem.records import UnitDraft, Window


@runtime_checkable
class Extractor(Protocol):
    name: str

    def extract(self, windows: Sequence[Window]) -> list[list[UnitDraft]]: ...

"""What an extractor reports beside its drafts: the windows where its own path failed.

An LLM extractor that cannot get a usable reply for some turns (the reply was cut off twice,
never validated, or the endpoint stayed unavailable) extracts those turns with its deterministic
fallback instead and says so: each draft written that way carries a ``provenance``, and the
window's :class:`WindowDrafts` lists an :class:`ExtractionFallback`, which ``add`` returns in
``AddResult.fallbacks``. Nothing is lost silently.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ripplemem.records.unit import UnitDraft
from ripplemem.records.wire import ExtractionFallbackModel


@dataclass(frozen=True, slots=True)
class ExtractionFallback:
    """Turns of one session that the fallback extractor wrote instead of the primary one."""

    session_id: str
    turn_ids: tuple[str, ...]
    extractor: str  # what wrote the units instead, e.g. "deterministic"
    instead_of: str  # the extractor that failed, e.g. "llm:qwen2.5-coder-0.5b"
    reason: str
    units: int  # drafts the fallback wrote for these turns

    def provenance(self) -> dict:
        """The ``provenance`` each draft of these turns carries (kept in the unit's ``extra``)."""
        return {"extractor": self.extractor, "instead_of": self.instead_of, "reason": self.reason}

    def to_model(self) -> ExtractionFallbackModel:
        return ExtractionFallbackModel(
            session_id=self.session_id, turn_ids=list(self.turn_ids), extractor=self.extractor,
            instead_of=self.instead_of, reason=self.reason, units=self.units,
        )

    @classmethod
    def from_model(cls, model: ExtractionFallbackModel) -> ExtractionFallback:
        return cls(
            model.session_id, tuple(model.turn_ids), model.extractor, model.instead_of,
            model.reason, model.units,
        )


class WindowDrafts(list[UnitDraft]):
    """The drafts of one window (a list, as :class:`~ripplemem.write.base.Extractor` returns)
    plus the fallbacks that wrote some of them."""

    fallbacks: tuple[ExtractionFallback, ...]

    def __init__(
        self, drafts: Iterable[UnitDraft] = (), fallbacks: Iterable[ExtractionFallback] = ()
    ) -> None:
        super().__init__(drafts)
        self.fallbacks = tuple(fallbacks)


def fallbacks_of(drafts: list[UnitDraft]) -> tuple[ExtractionFallback, ...]:
    """The fallbacks a window's drafts report (none for a plain list)."""
    return drafts.fallbacks if isinstance(drafts, WindowDrafts) else ()

"""What the write path and ``answer`` return."""

from __future__ import annotations

from dataclasses import dataclass, field

from ripplemem.records.evidence import Evidence
from ripplemem.records.unit import MemoryUnit
from ripplemem.records.wire import AddResultModel, AnswerModel

#: The stages after embedding: the units go into the store and the graph.
INSERT_STAGES: tuple[str, ...] = ("store", "near", "link", "dialogue", "supersede", "clues")


@dataclass(slots=True)
class AddResult:
    units: list[MemoryUnit] = field(default_factory=list)
    edges: int = 0
    windows: int = 0
    skipped: int = 0  # units already stored (re-adding the same messages is idempotent)
    tokens: int = 0  # LLM tokens spent on extraction and clues (0 offline)
    clues: int = 0  # new clue nodes of the associative graph
    clue_links: int = 0  # utterance-utterance links added
    seconds: float = 0.0
    #: Wall time per stage in ms: ``segment``, ``extract``, ``prepare`` (skip stored units,
    #: ground time), ``embed``, ``clue_text`` (the clue texts of new sessions), then, inside the
    #: add's one write block, ``store``, ``near`` (the dense search the linker and the clue graph
    #: share), ``link``, ``dialogue``, ``supersede``, ``clues``. The graph insertion of :data:`INSERT_STAGES` is
    #: what a store's size can make slower; the rest is per message.
    timings_ms: dict[str, float] = field(default_factory=dict)

    @property
    def insert_ms(self) -> float:
        """Milliseconds spent storing and linking the new units (the graph insertion)."""
        return sum(self.timings_ms.get(stage, 0.0) for stage in INSERT_STAGES)

    def to_model(self, *, with_vectors: bool = False) -> AddResultModel:
        return AddResultModel(
            units=[u.to_model(with_vector=with_vectors) for u in self.units],
            edges=self.edges,
            windows=self.windows,
            skipped=self.skipped,
            tokens=self.tokens,
            clues=self.clues,
            clue_links=self.clue_links,
            seconds=self.seconds,
            timings_ms=dict(self.timings_ms),
        )

    def to_json(self, *, with_vectors: bool = False) -> dict:
        """The result's JSON form (:class:`~ripplemem.records.wire.AddResultModel`)."""
        return self.to_model(with_vectors=with_vectors).model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict) -> AddResult:
        model = AddResultModel.model_validate(data)
        return cls(
            units=[MemoryUnit.from_model(u) for u in model.units],
            edges=model.edges,
            windows=model.windows,
            skipped=model.skipped,
            tokens=model.tokens,
            clues=model.clues,
            clue_links=model.clue_links,
            seconds=model.seconds,
            timings_ms=dict(model.timings_ms),
        )


@dataclass(frozen=True, slots=True)
class Answer:
    """The model's short answer, the evidence it was given and the tokens it cost in all."""

    text: str
    evidence: tuple[Evidence, ...]
    tokens: int
    model: str

    def to_model(self) -> AnswerModel:
        return AnswerModel(
            text=self.text,
            evidence=[e.to_model() for e in self.evidence],
            tokens=self.tokens,
            model=self.model,
        )

    def to_json(self) -> dict:
        """The answer's JSON form (:class:`~ripplemem.records.wire.AnswerModel`)."""
        return self.to_model().model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict) -> Answer:
        model = AnswerModel.model_validate(data)
        return cls(
            model.text, tuple(Evidence.from_model(e) for e in model.evidence), model.tokens, model.model
        )

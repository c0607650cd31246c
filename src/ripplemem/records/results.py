"""What the write path and ``answer`` return."""

from __future__ import annotations

from dataclasses import dataclass, field

from ripplemem.records.evidence import Evidence
from ripplemem.records.extraction import ExtractionFallback
from ripplemem.records.unit import MemoryUnit
from ripplemem.records.wire import AddResultModel, AnswerModel

#: The stages after embedding: the units go into the store and the graph.
INSERT_STAGES: tuple[str, ...] = ("updates", "store", "near", "link", "dialogue", "supersede", "clues")


@dataclass(slots=True)
class AddResult:
    units: list[MemoryUnit] = field(default_factory=list)
    edges: int = 0
    windows: int = 0
    skipped: int = 0  # units already stored (re-adding the same messages is idempotent)
    tokens: int = 0  # LLM tokens spent on extraction, clues and update decisions (0 offline)
    clues: int = 0  # new clue nodes of the associative graph
    clue_links: int = 0  # utterance-utterance links added
    seconds: float = 0.0
    #: Wall time per stage in ms: ``segment``, ``extract``, ``prepare`` (skip stored units,
    #: ground time), ``embed``, ``clue_text`` (the clue texts of new sessions), ``parse`` (the new
    #: units' parse, which the store keeps for the searches that read their clauses), ``updates``
    #: (which earlier units the new ones supersede: a bounded dense search, then the parse or an
    #: LLM), then, inside the add's one write block, ``store`` (the units and their parses),
    #: ``near`` (the dense search the linker
    #: and the clue graph share), ``link``, ``dialogue``, ``supersede`` (storing the updates'
    #: edges), ``clues``. The graph insertion of :data:`INSERT_STAGES` is what a store's size can
    #: make slower; the rest is per message.
    timings_ms: dict[str, float] = field(default_factory=dict)
    #: turns the LLM extractor failed on and the deterministic one extracted instead
    fallbacks: list[ExtractionFallback] = field(default_factory=list)

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
            fallbacks=[f.to_model() for f in self.fallbacks],
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
            fallbacks=[ExtractionFallback.from_model(f) for f in model.fallbacks],
        )


@dataclass(frozen=True, slots=True)
class Answer:
    """The model's short answer, the evidence it was given and the tokens it cost in all.

    ``citations`` are the ``[n]`` numbers (1-based positions in ``evidence``) of the memories the
    answer says it used; :attr:`cited` gives those units. ``uncited`` flags an answer that cites
    none: it may rest on nothing recalled (or be "I don't know")."""

    text: str
    evidence: tuple[Evidence, ...]
    tokens: int
    model: str
    citations: tuple[int, ...] = ()

    @property
    def cited(self) -> tuple[Evidence, ...]:
        return tuple(self.evidence[n - 1] for n in self.citations if 0 < n <= len(self.evidence))

    @property
    def uncited(self) -> bool:
        return not self.cited

    def to_model(self) -> AnswerModel:
        return AnswerModel(
            text=self.text,
            evidence=[e.to_model() for e in self.evidence],
            tokens=self.tokens,
            model=self.model,
            citations=list(self.citations),
            uncited=self.uncited,
        )

    def to_json(self) -> dict:
        """The answer's JSON form (:class:`~ripplemem.records.wire.AnswerModel`)."""
        return self.to_model().model_dump(mode="json")

    @classmethod
    def from_json(cls, data: dict) -> Answer:
        model = AnswerModel.model_validate(data)
        return cls(
            model.text, tuple(Evidence.from_model(e) for e in model.evidence), model.tokens,
            model.model, tuple(model.citations),
        )

"""The result of ``bench speed`` and ``bench scale``: one store grown through sizes.

At each size (:class:`SizeRow`): the insert cost per unit over the window just before it
(:class:`Window`), the searches per recipe, memory and file size, and (part 4) the same
conversations written at that size (:class:`ProbeCost`). The window cost at 1k, 2k, 3k, 5k, ...
is the insert curve (:class:`CurvePoint`); the verdicts are :class:`Flatness`, ``targets`` and,
for ``bench scale``, :class:`ScaleTargets`.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ripplemem_bench.results.base import EmbedderRate, Facts, Record

__all__ = [
    "CurvePoint",
    "DenseIndex",
    "Flatness",
    "GrowthResult",
    "GrowthSettings",
    "LocomoIngest",
    "ProbeCost",
    "ScaleTargets",
    "SearchTiming",
    "Segment",
    "SizeRow",
    "StreamGrowth",
    "Target",
    "Window",
]


class Window(Record):
    """Per-unit insert cost over the batches just before a size (``Growth.window``)."""

    window_units: int = 0
    add_ms_per_unit: float = 0.0
    link_ms_per_unit: float = 0.0
    graph_ms_per_unit: float | None = None  # HNSW inserts, of add (newer runs)
    insert_ms_per_unit: float = 0.0  # add + link, wall clock
    insert_ms_per_unit_median_batch: float = 0.0
    insert_cpu_ms_per_unit: float = 0.0
    edges_per_unit: float = 0.0
    evictions_per_unit: float = 0.0
    candidates_per_unit: float | None = None  # what the linker looked at (newer runs)
    slowest_batch_ms: float = 0.0
    store_ms_per_unit: dict[str, float] = Field(default_factory=dict)
    store_calls_per_unit: dict[str, float] = Field(default_factory=dict)


class CurvePoint(Window):
    units: int


class Segment(Record):
    """Every batch since the previous size (one-off work such as building the HNSW graph too)."""

    start: int = Field(0, alias="from")
    units: int = 0
    seconds: float = 0.0
    add_ms_per_unit: float = 0.0
    link_ms_per_unit: float = 0.0
    slowest_batch_ms: float = 0.0


class DenseIndex(Record):
    """What the store's dense index reports (``index_stats``): exact or HNSW, its memory."""

    vectors: int | None = None
    tombstones: int | None = None
    search: str | None = None
    ann_origin: str | None = None
    graph_rows: int | None = None
    resident_mb: float | None = None
    graph_add_s: float | None = None


class SearchTiming(Record):
    p50_ms: float
    p95_ms: float
    mean_ms: float | None = None
    evidence_per_query: float | None = None
    stages_p50_ms: dict[str, float] = Field(default_factory=dict)
    #: each stage's ms per search, 0 in a search it did not run in (they add up to the mean total)
    stages_mean_ms: dict[str, float] = Field(default_factory=dict)


class ProbeCost(Record):
    """Part 4: the same conversations written into the store at one size, per unit."""

    source: str | None = None
    writes: int = 0
    units: int = 0
    add_ms_per_unit: float = 0.0
    insert_ms_per_unit: float = 0.0
    insert_stages: list[str] = Field(default_factory=list)
    stage_ms_per_unit: dict[str, float] = Field(default_factory=dict)
    edges_per_unit: float = 0.0
    per_write: list[dict[str, Any]] = Field(default_factory=list)


class SizeRow(Window):
    """Everything measured at one size of the store."""

    units: int
    segment: Segment | None = None
    stopped_early: bool = False
    file_mb: float | None = None
    rss_peak_mb: float = 0.0
    rss_mb: float | None = None
    dense_index: DenseIndex | None = None
    search: dict[str, SearchTiming] = Field(default_factory=dict)
    search_examples: list[str] = Field(default_factory=list)
    rss_peak_mb_after_search: float | None = None
    probe: ProbeCost | None = None
    loadavg: list[float] | None = None

    @model_validator(mode="before")
    @classmethod
    def _examples_apart(cls, data: Any) -> Any:
        """Older files keep the example questions among the recipes' timings."""
        if isinstance(data, dict) and "example_questions" in (data.get("search") or {}):
            search = dict(data["search"])
            data = {**data, "search": search, "search_examples": search.pop("example_questions")}
        return data

    def peak_rss_mb(self) -> float:
        """The peak RSS once the searches ran (older rows: before them)."""
        return self.rss_peak_mb_after_search if self.rss_peak_mb_after_search is not None else (
            self.rss_peak_mb
        )


class GrowthSettings(Record):
    sizes: list[int] = Field(default_factory=list)
    store: str = "?"
    queries: int | None = None
    seed: int | None = None
    batch: int | None = None
    window: int | None = None
    recipes: list[str] = Field(default_factory=list)
    semantic_threshold: float | None = None


class LocomoIngest(Record):
    """Part 3: real LoCoMo conversations through ``Memory.add``, seconds per conversation."""

    file: str | None = None
    conversations: int = 0
    extractor: str | None = None
    planner: str | None = None
    seconds_mean: float = 0.0
    seconds_max: float = 0.0
    seconds_min: float = 0.0
    units_mean: float = 0.0
    turns_mean: float = 0.0
    stage_share: dict[str, float] = Field(default_factory=dict)
    stages_note: str | None = None
    per_conversation: list[dict[str, Any]] = Field(default_factory=list)


class StreamGrowth(Record):
    """Part 1's stream: its last window at the largest size against the smallest."""

    worst_point: dict[str, float] | None = None  # {"units", "ratio"}
    insert_ratio: float = 0.0
    add_ratio: float = 0.0
    link_ratio: float = 0.0
    median_batch_ratio: float = 0.0
    cpu_ratio: float = 0.0
    candidates_ratio: float = 0.0


class Flatness(Record):
    """Is insert cost flat: the probe conversations at the largest size against the smallest."""

    from_units: int
    to_units: int
    tolerance: float
    stream: StreamGrowth | None = None
    probe: str | None = None
    insert_ratio: float | None = None
    add_ratio: float | None = None
    flat: bool | None = None


class Target(Record):
    """One goal and what was measured against it."""

    target: float
    measured: float | None = None
    measured_max: float | None = None  # the ingest target: the slowest conversation
    measured_mean: float | None = None
    met: bool
    probe: str | None = None
    from_units: int | None = None
    to_units: int | None = None

    def value(self) -> float:
        return self.measured if self.measured is not None else (self.measured_max or 0.0)


class SearchTarget(Record):
    target: float
    measured: dict[str, float]
    met: dict[str, bool]
    dense_index: str | None = None


class InsertRatioTarget(Record):
    target: float
    from_units: int
    measured: float
    cpu_measured: float
    wall_measured: float | None = None
    met: bool


class ScaleTargets(Record):
    """``bench scale``: the goals at the largest size measured."""

    at_units: int
    search_p50_ms: SearchTarget
    rss_peak_mb: Target
    insert_ratio: InsertRatioTarget


class GrowthResult(Facts):
    benchmark: Literal["speed", "scale"]
    embedder: EmbedderRate = Field(default_factory=EmbedderRate)
    settings: GrowthSettings = Field(default_factory=GrowthSettings)
    vectors: str | None = None
    pool: dict[str, float] | None = None
    probe: str | None = None  # where part 4's conversations come from
    sizes: list[SizeRow] = Field(default_factory=list)
    insert_curve: list[CurvePoint] = Field(default_factory=list)
    locomo_ingest: LocomoIngest | None = None
    insert_flatness: Flatness | None = None
    targets: dict[str, Target] = Field(default_factory=dict)
    scale_targets: ScaleTargets | None = None
    seconds_total: float | None = None
    partial: bool = False

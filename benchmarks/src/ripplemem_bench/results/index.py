"""The result of ``bench scale --index-only``: the dense index alone, grown to a size."""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import Field, model_validator

from ripplemem_bench.results.base import Facts, Record

__all__ = ["IndexScaleResult", "IndexSegment", "IndexSettings"]

_RECALL = re.compile(r"recall@\d+")


class IndexSettings(Record):
    size: int = 0
    dim: int | None = None
    batch: int | None = None
    queries: int | None = None
    k: int = 10
    seed: int | None = None
    ann_start: int | None = None
    ann_threshold: int | None = None
    index: str | None = None


class IndexSegment(Record):
    units: int
    start: int = Field(0, alias="from")
    add_ms_per_vector: float
    slowest_batch_ms_per_vector: float
    search: str
    resident_mb: float
    rss_peak_mb: float
    loadavg: list[float] | None = None


class IndexScaleResult(Facts):
    benchmark: Literal["scale_index"]
    settings: IndexSettings
    vectors: str | None = None
    segments: list[IndexSegment] = Field(default_factory=list)
    search_p50_ms: float = 0.0
    search_p95_ms: float = 0.0
    search_many_ms_per_query_p50: float = 0.0
    recall_at_k: float = 0.0  # against exact search, k = settings.k
    stats: dict[str, Any] = Field(default_factory=dict)
    rss_peak_mb: float = 0.0

    @model_validator(mode="before")
    @classmethod
    def _recall(cls, data: Any) -> Any:
        """Older files name the recall ``recall@<k>``."""
        if isinstance(data, dict) and "recall_at_k" not in data:
            for key in [k for k in data if _RECALL.fullmatch(k)]:
                data = {**data, "recall_at_k": data[key]}
                del data[key]
        return data

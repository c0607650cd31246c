"""The result of ``bench serve``: ``ripplemem serve`` under concurrent clients."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ripplemem_bench.results.base import Facts, Record

__all__ = ["Latency", "ServeResult", "ServeSettings", "ServeStore"]


class ServeStore(Record):
    backend: str
    namespace: str | None = None
    reused: bool = False
    build_s: float = 0.0
    units_before: int = 0
    units_after: int = 0


class ServeSettings(Record):
    clients: int
    seconds: float
    add_share: float
    limit: int | None = None
    server_args: list[str] = Field(default_factory=list)
    search_processes: int | None = None


class Latency(Record):
    """Milliseconds, rounded to 0.1; None when no request of the kind was made."""

    p50: float | None = None
    p95: float | None = None
    p99: float | None = None
    mean: float | None = None


class ServeResult(Facts):
    benchmark: Literal["serve"]
    loadavg: dict[str, list[float] | None] = Field(default_factory=dict)  # before and during the load
    store: ServeStore
    settings: ServeSettings
    searches: int = 0
    searches_per_s: float = 0.0
    search_ms: Latency
    adds_acknowledged: int = 0
    add_ms: Latency
    errors: int = 0
    error_samples: list[str] = Field(default_factory=list)
    acknowledged_adds_missing: int = 0
    cpu_s: dict[str, float] = Field(default_factory=dict)
    server_cpu_ms_per_search: float = 0.0
    server_exit_code: int | None = None
    server_log_tail: list[str] | None = None
    checks: dict[str, bool] = Field(default_factory=dict)

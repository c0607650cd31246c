"""What every result record shares: lenient loading, the run's facts, flat score rows.

Every record keeps the fields it does not declare (``extra="allow"``): a result file written by an
older or newer harness loads, and writing it back loses nothing. Fields the report reads are
declared, with the default an older file implies when it lacks them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_serializer, model_validator

__all__ = ["CpuInfo", "EmbedderRate", "Facts", "Machine", "Record", "Scores", "load_text"]


class Record(BaseModel):
    """A piece of a result: declared fields typed, any other field kept as it is."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this record: the fields it was given or loaded with (a field left
        at its default is not written), aliases such as ``from`` restored."""
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)


class CpuInfo(Record):
    model: str | None = None
    isa: list[str] = Field(default_factory=list)


class Machine(Record):
    """The machine a run measured on (``measure.machine_info``) and its load around the run."""

    cpus: int | None = None
    cpu: CpuInfo | None = None
    omp_num_threads: str | None = None
    python: str | None = None
    platform: str | None = None
    packages: dict[str, str | None] = Field(default_factory=dict)
    loadavg_start: list[float] | None = None
    loadavg_end: list[float] | None = None
    loadavg_now: list[float] | None = None  # a partial result: the load when it was saved

    def last_load(self) -> list[float] | None:
        return self.loadavg_end or self.loadavg_now or self.loadavg_start


def load_text(load: list[float] | None) -> str:
    """The 1-minute load average of ``load`` as the report prints it (``?`` when unknown)."""
    return f"{load[0]:.1f}" if load else "?"


class EmbedderRate(Record):
    """The embedder of a speed run and its own rate, measured apart from the store."""

    name: str = "?"
    dim: int | None = None
    sample: int | None = None
    seconds: float | None = None
    units_per_s: float = 0.0
    ms_per_unit: float = 0.0


class Facts(Record):
    """When, on what code and with which models a run measured (every result kind has these)."""

    date: str | None = None
    commit: str | None = None
    llm: str | None = None
    embedder: str | EmbedderRate | None = None
    load: list[float] | None = None  # 1, 5, 15-minute load average as the run ended
    machine: Machine | None = None
    cpu: CpuInfo | None = None  # retrieval runs record it here, the others in ``machine``

    def date_text(self) -> str:
        return (self.date or "?")[:10]

    def commit_text(self, length: int = 7) -> str:
        return (self.commit or "?")[:length]

    def llm_text(self) -> str:
        return self.llm or "none"

    def embedder_text(self) -> str:
        if isinstance(self.embedder, EmbedderRate):
            return self.embedder.name
        return self.embedder or "?"

    def load_text(self) -> str:
        load = self.load if self.load is not None else (
            self.machine.last_load() if self.machine is not None else None
        )
        return load_text(load)

    def cpu_model(self) -> str:
        cpu = self.cpu or (self.machine.cpu if self.machine is not None else None)
        return (cpu.model if cpu is not None else None) or "?"


class Scores(Record):
    """A flat score row: ``{"questions": n, "<metric>": value, ...}`` in the JSON.

    The metrics live in :attr:`metrics`; the JSON form stays flat, as every result file has it.
    """

    questions: int = 0
    metrics: dict[str, float | None] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _gather(cls, data: Any) -> Any:
        if isinstance(data, dict) and "metrics" not in data:
            metrics = {k: v for k, v in data.items() if k != "questions"}
            return {"questions": data.get("questions", 0), "metrics": metrics}
        return data

    @model_serializer(mode="plain")
    def _flatten(self) -> dict[str, Any]:
        return {"questions": self.questions, **self.metrics}

    def get(self, metric: str) -> float | None:
        return self.metrics.get(metric)

"""A benchmark store kept on disk, so read-path recipes can be re-run without ingesting again.

``ripplemem bench ... --keep PATH.db`` writes every conversation into the SQLite file ``PATH.db``
(the dataset profile's write settings, the run's embedder) and leaves it there; the ingest cost
of each conversation goes into ``PATH.db.ingest.json``. A later run with the same ``--keep``
searches the conversations already written as they are and reports the recorded cost, so two
runs of the read path compare on the very same memory. The file records the embedder it was
built with (the store refuses another); changing the write path means starting a new file.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Self

from ripplemem import Settings
from ripplemem.training.workspace import profiled

if TYPE_CHECKING:
    from ripplemem import Memory


@dataclass(frozen=True, slots=True)
class IngestCost:
    """What writing one conversation cost, as the benchmark header sums it."""

    seconds: float
    units: int
    edges: int
    windows: int
    tokens: int


class KeptIngest:
    """A kept SQLite benchmark store and the ingest cost of each namespace written into it."""

    def __init__(self, path: Path, memory: Memory) -> None:
        self.path = path
        self.memory = memory
        self.ledger_path = path.with_name(path.name + ".ingest.json")
        self.costs: dict[str, IngestCost] = {}
        if self.ledger_path.exists():
            raw = json.loads(self.ledger_path.read_text(encoding="utf-8"))
            self.costs = {namespace: IngestCost(**cost) for namespace, cost in raw.items()}

    @classmethod
    def open(cls, path: Path, dataset: str, *, settings: Settings, profile: bool) -> Self:
        from ripplemem import Memory

        path.parent.mkdir(parents=True, exist_ok=True)
        write = profiled(settings, dataset) if profile else settings
        return cls(path, Memory(write.model_copy(update={"store": str(path)})))

    def cost(self, namespace: str) -> IngestCost | None:
        """The recorded cost of ``namespace`` when it is in the store, else None."""
        cost = self.costs.get(namespace)
        if cost is None or not self.memory.store.count(namespace):
            return None
        return cost

    def record(self, namespace: str, cost: IngestCost) -> None:
        self.costs[namespace] = cost
        payload = {name: asdict(value) for name, value in sorted(self.costs.items())}
        self.ledger_path.write_text(json.dumps(payload, indent=1), encoding="utf-8")

    def close(self) -> None:
        self.memory.close()

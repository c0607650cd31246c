"""An empty memory held in memory standing in for a store that is not there yet: ``ripplemem
import`` checks a file against it first, so a new store is made only for a file it takes. (A
command that only reads fails on a missing store instead: :func:`~ripplemem.cli.common.open_memory`.)"""

from __future__ import annotations

from ripplemem.memory import Memory
from ripplemem.settings import Settings

__all__ = ["NoStore"]


class NoStore(Memory):
    """An empty memory standing in for the store at ``missing``, which is not there."""

    def __init__(self, settings: Settings, missing: str) -> None:
        super().__init__(settings.model_copy(update={"store": "memory://"}))
        self.missing = missing

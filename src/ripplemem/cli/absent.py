"""What a command that only reads works on where its ``--store`` names no store: an empty memory
held in memory (:func:`~ripplemem.cli.common.open_memory` with ``existing=True``), which says
where the store was looked for, so the command can tell "there is no store" apart from "the store
is empty" and writes no file for it."""

from __future__ import annotations

from ripplemem.memory import Memory
from ripplemem.settings import Settings

__all__ = ["NoStore"]


class NoStore(Memory):
    """An empty memory standing in for the store at ``missing``, which is not there."""

    def __init__(self, settings: Settings, missing: str) -> None:
        super().__init__(settings.model_copy(update={"store": "memory://"}))
        self.missing = missing

"""Background jobs of the service (``POST /v1/memories?wait=false``): what one job is and where
it stands. Kept in the store's job table where the backend has one, so every server over the
store answers for every job."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

__all__ = ["Job", "JobStatus"]

JobStatus = Literal["queued", "running", "done", "failed"]


@dataclass(frozen=True, slots=True)
class Job:
    """One background verb call.

    ``arguments`` is the verb's arguments as JSON, kept while the job is unfinished so another
    server can run it if ``owner`` (the server instance running it) stops; cleared when it ends.
    ``result`` is the verb's answer as JSON (``done``); ``error_type`` / ``error_message`` say why
    it ``failed``. ``attempts`` counts the servers that started it.
    """

    id: str
    namespace: str
    verb: str
    arguments: str
    owner: str
    created_at: datetime
    status: JobStatus = "queued"
    attempts: int = 1
    started_at: datetime | None = None
    finished_at: datetime | None = None
    result: str | None = None
    error_type: str | None = None
    error_message: str | None = None

    @property
    def finished(self) -> bool:
        return self.status in ("done", "failed")

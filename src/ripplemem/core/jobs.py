"""Where the service keeps its background jobs: in the store's own job store when the backend
has one (PostgreSQL: every server over the store sees every job), else in the server's memory."""

from __future__ import annotations

from ripplemem.stores.base import MemoryStore
from ripplemem.stores.jobs_base import InMemoryJobStore, JobStore

__all__ = ["JobStore", "job_store_of"]


def job_store_of(store: MemoryStore) -> tuple[JobStore, bool]:
    """The job store for a server over ``store``, and whether it is shared with the other
    servers over the store (False: this process's memory, forgotten on restart)."""
    jobs = getattr(store, "jobs", None)
    if isinstance(jobs, JobStore):
        return jobs, True
    return InMemoryJobStore(), False

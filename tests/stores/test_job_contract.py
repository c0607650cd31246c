"""The job contract (ripplemem.testing.contracts.jobs) against the in-memory and PostgreSQL job
stores."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from ripplemem.stores.jobs_base import InMemoryJobStore, JobStore
from ripplemem.stores.registry import open_store
from ripplemem.testing.contracts.jobs import JobStoreContract


class TestInMemoryJobStore(JobStoreContract):
    @pytest.fixture
    def jobs(self) -> JobStore:
        return InMemoryJobStore()


class TestPostgresJobStore(JobStoreContract):
    @pytest.fixture
    def jobs(self, postgres_store_url: Callable[[str], str]) -> Iterator[JobStore]:
        store = open_store(postgres_store_url("jobs"))
        try:
            yield store.jobs  # type: ignore[attr-defined]
        finally:
            store.close()

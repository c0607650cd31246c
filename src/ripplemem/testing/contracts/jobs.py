"""The job contract: what every :class:`~ripplemem.stores.jobs_base.JobStore` must do.

Subclass :class:`JobStoreContract` and give it the fixture ``jobs``: an empty job store (the
suite uses it from several threads at once)::

    class TestMyJobs(JobStoreContract):
        @pytest.fixture
        def jobs(self):
            return MyJobStore()

Leases are real time: the suite waits a few tenths of a second where a lease must pass.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem.records.jobs import Job
from ripplemem.stores.jobs_base import JobStore

__all__ = ["JobStoreContract"]

T0 = datetime(2026, 5, 1, 9, 0, 0)
LONG = 60.0  # a lease that does not pass during a test
SHORT = 0.3  # a lease that does, after a sleep of PAST
PAST = 0.6


def make_job(number: int, *, owner: str = "srv_a", namespace: str = "alex") -> Job:
    return Job(
        id=f"job_{number:03d}", namespace=namespace, verb="add",
        arguments=f'{{"text": "note {number}"}}', owner=owner,
        created_at=T0 + timedelta(seconds=number),
    )


class JobStoreContract:
    def test_a_job_is_found_by_its_id_as_it_was_added(self, jobs: JobStore) -> None:
        assert isinstance(jobs, JobStore)
        job = make_job(1)
        jobs.add_job(job, LONG)
        assert jobs.job("job_001") == job and jobs.job("job_404") is None
        with pytest.raises(InvalidInputError):
            jobs.add_job(make_job(1, owner="srv_b"), LONG)  # the same id
        with pytest.raises(InvalidInputError):
            jobs.add_job(Job("job_x", "", "add", "{}", "srv_a", T0), LONG)  # no namespace
        with pytest.raises(InvalidInputError):
            jobs.add_job(Job("job_y", "ns", "add", "{}", "srv_a", T0, status="done"), LONG)

    def test_only_its_owner_starts_and_finishes_a_job_once(self, jobs: JobStore) -> None:
        jobs.add_job(make_job(1), LONG)
        assert jobs.start_job("job_001", "srv_b", T0) is False
        assert jobs.start_job("job_001", "srv_a", T0 + timedelta(seconds=5)) is True
        running = jobs.job("job_001")
        assert running is not None and running.status == "running"
        assert running.started_at == T0 + timedelta(seconds=5)
        assert jobs.finish_job("job_001", "srv_b", "done", T0, result="{}") is False
        end = T0 + timedelta(seconds=9)
        assert jobs.finish_job("job_001", "srv_a", "done", end, result='{"units": []}') is True
        done = jobs.job("job_001")
        assert done is not None and done.status == "done" and done.finished
        assert done.result == '{"units": []}' and done.finished_at == end
        assert done.arguments == ""  # the input text is not kept after the job
        assert jobs.finish_job("job_001", "srv_a", "failed", end, error_type="X") is False
        assert jobs.start_job("job_001", "srv_a", end) is False
        with pytest.raises(InvalidInputError):
            jobs.finish_job("job_001", "srv_a", "queued", end)

    def test_a_failed_job_keeps_its_error(self, jobs: JobStore) -> None:
        jobs.add_job(make_job(2), LONG)
        assert jobs.finish_job(
            "job_002", "srv_a", "failed", T0, error_type="InvalidInputError", error_message="no text"
        )
        failed = jobs.job("job_002")
        assert failed is not None and failed.status == "failed" and failed.result is None
        assert (failed.error_type, failed.error_message) == ("InvalidInputError", "no text")

    def test_a_job_is_claimed_only_once_its_lease_has_passed(self, jobs: JobStore) -> None:
        jobs.add_job(make_job(1), SHORT)
        jobs.start_job("job_001", "srv_a", T0)
        assert jobs.claim_jobs("srv_b", LONG, 10) == []
        time.sleep(PAST)
        [claimed] = jobs.claim_jobs("srv_b", LONG, 10)
        assert (claimed.id, claimed.owner, claimed.status, claimed.attempts) == (
            "job_001", "srv_b", "queued", 2,
        )
        assert claimed.started_at is None and claimed.arguments == make_job(1).arguments
        assert jobs.job("job_001") == claimed
        # the server that lost it can no longer change it
        assert jobs.finish_job("job_001", "srv_a", "done", T0, result="{}") is False
        assert jobs.claim_jobs("srv_c", LONG, 10) == []  # srv_b's lease holds

    def test_renewing_keeps_an_owners_jobs(self, jobs: JobStore) -> None:
        jobs.add_job(make_job(1), SHORT)
        jobs.add_job(make_job(2, owner="srv_b"), SHORT)
        assert jobs.renew_jobs("srv_a", LONG) == 1
        time.sleep(PAST)
        assert [j.id for j in jobs.claim_jobs("srv_c", LONG, 10)] == ["job_002"]

    def test_finished_jobs_are_never_claimed_and_are_forgotten_by_age(self, jobs: JobStore) -> None:
        for number in (1, 2, 3):
            jobs.add_job(make_job(number), SHORT)
        jobs.finish_job("job_001", "srv_a", "done", T0, result="{}")
        jobs.finish_job("job_002", "srv_a", "done", T0 + timedelta(hours=2), result="{}")
        time.sleep(PAST)
        assert [j.id for j in jobs.claim_jobs("srv_b", LONG, 10)] == ["job_003"]
        assert jobs.forget_jobs(T0 + timedelta(hours=1)) == 1
        assert jobs.job("job_001") is None
        assert jobs.job("job_002") is not None and jobs.job("job_003") is not None

    def test_claims_take_the_oldest_first_up_to_the_limit(self, jobs: JobStore) -> None:
        for number in (5, 3, 4, 1, 2):
            jobs.add_job(make_job(number), SHORT)
        time.sleep(PAST)
        assert [j.id for j in jobs.claim_jobs("srv_b", LONG, 2)] == ["job_001", "job_002"]
        assert jobs.claim_jobs("srv_c", LONG, 0) == []
        assert [j.id for j in jobs.claim_jobs("srv_c", LONG, 10)] == ["job_003", "job_004", "job_005"]

    def test_servers_claiming_at_once_never_get_the_same_job(self, jobs: JobStore) -> None:
        for number in range(40):
            jobs.add_job(make_job(number), SHORT)
        time.sleep(PAST)
        claimed: dict[str, list[str]] = {}
        barrier = threading.Barrier(4)

        def claim(owner: str) -> None:
            barrier.wait()
            mine: list[str] = []
            while batch := jobs.claim_jobs(owner, LONG, 3):
                mine.extend(j.id for j in batch)
            claimed[owner] = mine

        threads = [threading.Thread(target=claim, args=(f"srv_{i}",)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        every = [job_id for ids in claimed.values() for job_id in ids]
        assert sorted(every) == [f"job_{n:03d}" for n in range(40)]  # each once
        for owner, ids in claimed.items():
            assert all((found := jobs.job(i)) is not None and found.owner == owner for i in ids)

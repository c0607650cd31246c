"""PostgresJobStore: the service's background jobs in the store's ``job`` table (migration 5),
shared by every server over the store. Leases are measured on the database's clock, so the
servers' own clocks need not agree."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from typing import Any

import psycopg

from ripplemem.errors import InvalidInputError
from ripplemem.records.jobs import Job, JobStatus
from ripplemem.stores.jobs_base import check_job, check_outcome

__all__ = ["PostgresJobStore"]

_COLUMNS = (
    "id, namespace, verb, arguments, owner, status, attempts, created_at, started_at, "
    "finished_at, result, error_type, error_message"
)
_LEASE = "clock_timestamp() + make_interval(secs => %s)"
_UNFINISHED = "status IN ('queued', 'running')"
Transaction = Callable[[Sequence[str]], AbstractContextManager[psycopg.Connection]]
Read = Callable[[Callable[[psycopg.Connection], Any]], Any]


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def _job(row: tuple) -> Job:
    (job_id, namespace, verb, arguments, owner, status, attempts, created, started, finished,
     result, error_type, error_message) = row
    return Job(
        id=job_id, namespace=namespace, verb=verb, arguments=arguments, owner=owner,
        created_at=datetime.fromisoformat(created), status=status, attempts=int(attempts),
        started_at=_time(started), finished_at=_time(finished), result=result,
        error_type=error_type, error_message=error_message,
    )


class PostgresJobStore:
    """A :class:`~ripplemem.stores.jobs_base.JobStore` over the store's connections."""

    def __init__(self, transaction: Transaction, read: Read) -> None:
        self._transaction, self._read = transaction, read

    def add_job(self, job: Job, lease_s: float) -> None:
        check_job(job)
        with self._transaction([]) as db:
            added = db.execute(
                f"INSERT INTO job ({_COLUMNS}, lease_until) VALUES "
                f"(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, {_LEASE}) "
                "ON CONFLICT DO NOTHING",
                (
                    job.id, job.namespace, job.verb, job.arguments, job.owner, job.status,
                    job.attempts, job.created_at.isoformat(),
                    job.started_at.isoformat() if job.started_at else None, None, None, None,
                    None, float(lease_s),
                ),
            ).rowcount
            if added != 1:
                raise InvalidInputError(f"a job with id {job.id!r} exists")

    def job(self, job_id: str) -> Job | None:
        sql = f"SELECT {_COLUMNS} FROM job WHERE id = %s"
        row = self._read(lambda db: db.execute(sql, (job_id,)).fetchone())
        return None if row is None else _job(row)

    def start_job(self, job_id: str, owner: str, at: datetime) -> bool:
        return self._change(job_id, owner, "status = 'running', started_at = %s", (at.isoformat(),))

    def finish_job(
        self, job_id: str, owner: str, status: JobStatus, at: datetime, *,
        result: str | None = None, error_type: str | None = None, error_message: str | None = None,
    ) -> bool:
        check_outcome(status)
        return self._change(
            job_id, owner,
            "status = %s, finished_at = %s, arguments = '', result = %s, error_type = %s, "
            "error_message = %s",
            (status, at.isoformat(), result, error_type, error_message),
        )

    def renew_jobs(self, owner: str, lease_s: float) -> int:
        with self._transaction([]) as db:
            return db.execute(
                f"UPDATE job SET lease_until = {_LEASE} WHERE owner = %s AND {_UNFINISHED}",
                (float(lease_s), owner),
            ).rowcount

    def claim_jobs(self, owner: str, lease_s: float, limit: int) -> list[Job]:
        with self._transaction([]) as db:
            rows = db.execute(
                f"UPDATE job SET owner = %s, status = 'queued', started_at = NULL, "
                f"attempts = attempts + 1, lease_until = {_LEASE} "
                f"WHERE id IN (SELECT id FROM job WHERE {_UNFINISHED} "
                "AND lease_until < clock_timestamp() ORDER BY created_at, id LIMIT %s "
                f"FOR UPDATE SKIP LOCKED) RETURNING {_COLUMNS}",
                (owner, float(lease_s), max(int(limit), 0)),
            ).fetchall()
        return sorted((_job(row) for row in rows), key=lambda j: (j.created_at, j.id))

    def forget_jobs(self, finished_before: datetime) -> int:
        with self._transaction([]) as db:
            return db.execute(
                "DELETE FROM job WHERE finished_at IS NOT NULL AND finished_at < %s",
                (finished_before.isoformat(),),
            ).rowcount

    def _change(self, job_id: str, owner: str, assignments: str, params: tuple) -> bool:
        with self._transaction([]) as db:
            changed = db.execute(
                f"UPDATE job SET {assignments} WHERE id = %s AND owner = %s AND {_UNFINISHED}",
                (*params, job_id, owner),
            ).rowcount
        return changed == 1

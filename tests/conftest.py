# the fixtures every folder shares, registered here once so that each test session (each xdist
# worker) starts one PostgreSQL: a real server (tests/stores/postgres.py) and per-test schemas
import os

from hypothesis import settings

from ripplemem.settings import VARIABLES
from stores.postgres import postgres_store_url, postgres_url

# hermetic: Memory.open and Memory() read the RIPPLEMEM_* settings variables, so a developer's own
# (an LLM endpoint, another embedder or recipe) must not reach the tests; a test that needs one
# passes it (Memory.open(..., env=...), Settings.from_env(env), CliRunner(env=...), a child's env)
for name in VARIABLES:
    os.environ.pop(name, None)

# make test-fast runs with --hypothesis-profile=fast: a property test that reads its count as
# min(its own, settings.default.max_examples) tries fewer cases there; make test tries them all
settings.register_profile("fast", max_examples=4)

__all__ = ["postgres_store_url", "postgres_url"]

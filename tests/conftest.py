# the fixtures every folder shares, registered here once so that each test session (each xdist
# worker) starts one PostgreSQL: a real server (tests/stores/postgres.py) and per-test schemas
from hypothesis import settings

from stores.postgres import postgres_store_url, postgres_url

# make test-fast runs with --hypothesis-profile=fast: a property test that reads its count as
# min(its own, settings.default.max_examples) tries fewer cases there; make test tries them all
settings.register_profile("fast", max_examples=4)

__all__ = ["postgres_store_url", "postgres_url"]

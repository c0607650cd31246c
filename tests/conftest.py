# the fixtures every folder shares, registered here once so that each test session (each xdist
# worker) starts one PostgreSQL: a real server (tests/stores/postgres.py) and per-test schemas
from stores.postgres import postgres_store_url, postgres_url

__all__ = ["postgres_store_url", "postgres_url"]

# a real local server (tests/server/live.py) and a real PostgreSQL (tests/stores/conftest.py)
from server.live import live, make_server
from stores.conftest import postgres_store_url, postgres_url

__all__ = ["live", "make_server", "postgres_store_url", "postgres_url"]

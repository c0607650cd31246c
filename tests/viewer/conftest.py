# the live-server fixtures of the service's tests (tests/server/live.py), a real PostgreSQL
# (tests/stores/conftest.py), and the browser
from server.live import live, make_server
from stores.conftest import postgres_store_url, postgres_url

from .browser import browser

__all__ = ["browser", "live", "make_server", "postgres_store_url", "postgres_url"]

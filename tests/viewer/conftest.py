# the live-server fixtures of the service's tests (tests/server/live.py) and the browser; the
# real PostgreSQL is tests/conftest.py's
from server.live import live, make_server

from .browser import browser

__all__ = ["browser", "live", "make_server"]

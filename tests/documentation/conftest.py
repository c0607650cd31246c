# a real local server (tests/server/live.py); the real PostgreSQL is tests/conftest.py's
from server.live import live, make_server

__all__ = ["live", "make_server"]

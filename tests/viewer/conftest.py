# the live-server fixtures of the service's tests (tests/server/live.py)
from server.live import live, make_server

__all__ = ["live", "make_server"]

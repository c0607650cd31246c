from .live import live, make_server

__all__ = ["live", "make_server"]

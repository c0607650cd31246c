"""Where a PostgreSQL store lives: the URL a user gives, turned into what libpq takes.

The URL is libpq's own (``postgresql://user:password@host:port/database?sslmode=...``) plus one
parameter of ours, ``schema``: the PostgreSQL schema holding the store's tables (created when
missing; default ``ripplemem``). Several stores can share a database, one schema each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ripplemem.errors import ConfigurationError
from ripplemem.stores.registry import redact

__all__ = ["APPLICATION_NAME", "DEFAULT_SCHEMA", "Location", "parse_location"]

APPLICATION_NAME = "ripplemem"
DEFAULT_SCHEMA = "ripplemem"
_SCHEMES = {"postgresql": "postgresql", "postgres": "postgresql", "postgresql+psycopg": "postgresql"}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")
#: seconds a connection attempt waits before the store reports the server unreachable
CONNECT_TIMEOUT_S = 10


@dataclass(frozen=True, slots=True)
class Location:
    conninfo: str  # for libpq: the URL without our own parameters
    url: str  # for messages and ``store.url``: the password left out
    schema: str


def parse_location(location: str) -> Location:
    """Split a ``postgresql://`` URL into libpq's part and ours; refuse what cannot work."""
    text = str(location).strip()
    if "://" not in text:
        raise ConfigurationError(
            f"{text!r} is not a PostgreSQL URL; write postgresql://user:password@host:5432/database"
        )
    scheme, rest = text.split("://", 1)
    if scheme.lower() not in _SCHEMES:
        raise ConfigurationError(
            f"{scheme!r} is not a PostgreSQL URL scheme; use postgresql://user@host/database"
        )
    parts = urlsplit(f"postgresql://{rest}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    schema = DEFAULT_SCHEMA
    kept: list[tuple[str, str]] = []
    for key, value in query:
        if key == "schema":
            schema = value
        else:
            kept.append((key, value))
    if not _IDENTIFIER.fullmatch(schema):
        raise ConfigurationError(
            f"schema={schema!r} in the store URL is not a plain SQL name; use letters, digits "
            "and underscores (at most 63, not starting with a digit)"
        )
    names = {key for key, _ in kept}
    if "application_name" not in names:
        kept.append(("application_name", APPLICATION_NAME))
    if "connect_timeout" not in names:
        kept.append(("connect_timeout", str(CONNECT_TIMEOUT_S)))
    conninfo = urlunsplit(parts._replace(query=urlencode(kept)))
    shown = urlunsplit(parts._replace(query=urlencode([(k, v) for k, v in query])))
    return Location(conninfo=conninfo, url=redact(shown), schema=schema)

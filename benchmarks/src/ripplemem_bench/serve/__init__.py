"""``ripplemem bench serve``: concurrent clients against ``ripplemem serve`` on loopback.

:mod:`.store` builds the store (SQLite, or PostgreSQL on a private server), :mod:`.server` runs
``ripplemem serve`` as a process, :mod:`.clients` are the clients, :mod:`.run` wires them and
writes the result.
"""

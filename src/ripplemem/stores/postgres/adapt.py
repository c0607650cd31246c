"""pgvector's ``vector`` type <-> numpy float32 arrays, in psycopg's binary format.

pgvector's own adapter (registered first, for the type's oids) reads vectors into its ``Vector``
class through a byte-swapping Python array; these read and write numpy arrays directly.
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.adapt import Dumper, Loader
from psycopg.pq import Format

__all__ = ["as_vector", "register"]

_BIG_ENDIAN = np.dtype(">f4")


class _BinaryDumper(Dumper):
    format = Format.BINARY

    def dump(self, obj: Any) -> bytes:
        array = np.asarray(obj, dtype=np.float32).reshape(-1)
        return struct.pack(">HH", array.shape[0], 0) + array.astype(_BIG_ENDIAN).tobytes()


class _BinaryLoader(Loader):
    format = Format.BINARY

    def load(self, data: Any) -> np.ndarray:
        (dim,) = struct.unpack_from(">H", data)
        return np.frombuffer(data, dtype=_BIG_ENDIAN, count=dim, offset=4).astype(np.float32)


def register(connection: psycopg.Connection) -> None:
    """pgvector's types on ``connection``, numpy arrays dumped and loaded in binary."""
    register_vector(connection)
    info = psycopg.types.TypeInfo.fetch(connection, "vector")
    assert info is not None
    dumper = type("VectorDumper", (_BinaryDumper,), {"oid": info.oid})
    connection.adapters.register_dumper(np.ndarray, dumper)
    connection.adapters.register_loader(info.oid, _BinaryLoader)


def as_vector(value: Any) -> np.ndarray:
    """A vector column's value (numpy, or pgvector's ``Vector`` from a text-format read)."""
    if isinstance(value, np.ndarray):
        return value.astype(np.float32, copy=False)
    return np.asarray(value.to_numpy(), dtype=np.float32)

"""Storage backends behind the :class:`MemoryStore` Protocol."""

from ripplemem.stores.base import MemoryStore

__all__ = ["MemoryStore"]

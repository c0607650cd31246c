"""Storage backends behind the :class:`MemoryStore` Protocol, opened by location."""

from ripplemem.stores.base import MemoryStore, StoreCapabilities
from ripplemem.stores.registry import open_store, register_store, scheme_of

__all__ = ["MemoryStore", "StoreCapabilities", "open_store", "register_store", "scheme_of"]

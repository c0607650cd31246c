"""Storage backends behind the :class:`MemoryStore` Protocol, opened by location."""

from ripplemem.stores.base import MemoryStore, StoreCapabilities
from ripplemem.stores.registry import open_store, register_store, scheme_of
from ripplemem.stores.unit_cache import UnitCache

__all__ = ["MemoryStore", "StoreCapabilities", "UnitCache", "open_store", "register_store", "scheme_of"]

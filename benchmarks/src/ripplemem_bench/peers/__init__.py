"""Peer memory systems run in the same benchmark as our recipes (``--recipes ripple,mem0``).

Peers are registered by name with a constructor taking ``(embedder, budget)``; each imports its
third-party package lazily, so ``ripplemem`` never needs them unless one is asked for.
"""

from __future__ import annotations

from collections.abc import Callable

from ripplemem.providers import Embedder
from ripplemem_bench.peers.base import PeerMemory

PeerConstructor = Callable[[Embedder, int], PeerMemory]


def _mem0(embedder: Embedder, budget: int) -> PeerMemory:
    from ripplemem_bench.peers.mem0 import Mem0Peer

    return Mem0Peer(embedder, budget=budget)


PEERS: dict[str, PeerConstructor] = {"mem0": _mem0}


def is_peer(name: str) -> bool:
    return name in PEERS


def make_peer(name: str, embedder: Embedder, budget: int) -> PeerMemory:
    return PEERS[name](embedder, budget)


__all__ = ["PEERS", "PeerMemory", "is_peer", "make_peer"]

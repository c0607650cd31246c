"""Peer memory systems run in the same benchmark as our recipes (``--recipes ripple,mem0``).

Peers are registered by name with a constructor taking ``(embedder, budget, token_budget)``;
each imports its third-party package lazily, so ``ripplemem`` never needs them unless one is asked
for. ``full-context`` is the no-memory baseline: the conversation itself, cut to the reader's
window (``token_budget``).
"""

from __future__ import annotations

from collections.abc import Callable

from ripplemem.providers import Embedder
from ripplemem_bench.peers.base import PeerMemory

PeerConstructor = Callable[[Embedder, int, int | None], PeerMemory]


def _mem0(embedder: Embedder, budget: int, token_budget: int | None) -> PeerMemory:
    from ripplemem_bench.peers.mem0 import Mem0Peer

    return Mem0Peer(embedder, budget=budget)


def _full_context(embedder: Embedder, budget: int, token_budget: int | None) -> PeerMemory:
    from ripplemem_bench.peers.full_context import FullContextPeer

    return FullContextPeer(window_tokens=token_budget)


PEERS: dict[str, PeerConstructor] = {"mem0": _mem0, "full-context": _full_context}


def is_peer(name: str) -> bool:
    return name in PEERS


def make_peer(
    name: str, embedder: Embedder, budget: int, token_budget: int | None = None
) -> PeerMemory:
    return PEERS[name](embedder, budget, token_budget)


__all__ = ["PEERS", "PeerMemory", "is_peer", "make_peer"]

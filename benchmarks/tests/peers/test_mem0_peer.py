"""mem0 OSS as a peer: same conversation, same embedder, turn ids back, nothing on the network.

Needs the ``[peers]`` extra (mem0ai); skipped without it. mem0 is never imported here directly:
the peer must import it itself, with telemetry switched off first.
"""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from ripplemem.datasets import load_locomo
from ripplemem.testing import ScriptedOpenAIServer
from ripplemem_bench.retrieval.runners import run_locomo_bench

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mem0") is None, reason="needs the [peers] extra (mem0ai)"
)

_WATCHING: list[bool] = [False]
_SOCKETS: list[tuple[str, object]] = []


def _audit(event: str, args: tuple) -> None:
    if _WATCHING[0] and event in ("socket.connect", "socket.getaddrinfo"):
        _SOCKETS.append((event, args[1] if event == "socket.connect" else args[0]))


sys.addaudithook(_audit)  # audit hooks cannot be removed: this one only records while watching


@pytest.fixture(scope="module")
def conversation(tmp_path_factory: pytest.TempPathFactory):
    from ..synthetic import locomo_sample

    path = tmp_path_factory.mktemp("mem0") / "locomo_tiny.json"
    path.write_text(json.dumps([locomo_sample()]), encoding="utf-8")
    return path, load_locomo(path)[0]


@pytest.mark.slow
def test_mem0_stores_turns_as_is_and_maps_hits_to_turn_ids(conversation) -> None:
    from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
    from ripplemem_bench.peers.mem0 import Mem0Peer

    _, sample = conversation
    with ScriptedOpenAIServer() as server:  # mem0's configured LLM and embedder point here
        _SOCKETS.clear()
        _WATCHING[0] = True
        try:
            peer = Mem0Peer(MiniLMFloatEmbedder(), budget=5, llm_base_url=server.base_url)
            stored = peer.ingest(sample.conversation, "bench/conv-x")
            hits = peer.search("Where did Ana adopt her cat?", "bench/conv-x", None)
            other = peer.search("Where did Ana adopt her cat?", "someone-else", None)
            peer.drop("bench/conv-x")
            after = peer.search("Where did Ana adopt her cat?", "bench/conv-x", None)
            described = peer.describe()
            peer.close()
        finally:
            _WATCHING[0] = False
        assert server.recorded == []  # infer=False: mem0 never called its LLM or its embedder
    assert _SOCKETS == []  # no connection and no DNS look-up at all
    assert stored == 7  # one memory per turn, stored as-is
    assert hits and len(hits) <= 5
    by_turn = {hit.unit.turn_ids: hit.unit for hit in hits}
    assert ("D1:3",) in by_turn  # the gold turn is among the top 5
    porto = by_turn[("D1:3",)]
    assert porto.restatement == "Ana: At the animal shelter in Porto."
    assert porto.session_time is not None and porto.episode_id and porto.participants == ("Ana",)
    assert [hit.hits[0].rank for hit in hits] == list(range(len(hits)))
    assert {turn for hit in hits for turn in hit.unit.turn_ids} <= {
        "D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2", "D2:3"
    }
    assert other == [] and after == []
    assert described["version"] == "2.2.1" and "infer=False" in described["mode"]


def test_telemetry_is_off_once_the_peer_has_imported_mem0(conversation) -> None:
    from ripplemem_bench.peers.mem0 import _import_mem0

    _import_mem0()
    assert sys.modules["mem0.memory.telemetry"].MEM0_TELEMETRY is False


@pytest.mark.slow
def test_mem0_is_scored_beside_our_recipes_in_one_result(conversation) -> None:
    path, _ = conversation
    result = run_locomo_bench(path, recipes=("bm25", "mem0"), store="memory", budget=10).to_json()
    assert list(result["recipes"]) == ["bm25", "mem0"]
    mem0 = result["recipes"]["mem0"]
    assert mem0["kind"] == "peer" and result["recipes"]["bm25"]["kind"] == "recipe"
    assert mem0["metrics"]["recall@10"] is not None and mem0["metrics"]["recall@10"] > 0
    assert mem0["search_ms_p50"] is not None
    assert set(mem0["metrics"]) == set(result["recipes"]["bm25"]["metrics"])
    peer = result["peers"]["mem0"]
    assert peer["package"] == "mem0ai" and peer["top_k"] == 10
    assert peer["ingest_seconds_per_conversation"] > 0

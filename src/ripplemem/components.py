"""Wiring: settings -> the concrete stages a :class:`~ripplemem.memory.Memory` delegates to.

Strings become objects only here (the edge). Heavy models load lazily on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ripplemem.errors import ConfigurationError
from ripplemem.providers.base import ChatModel, Embedder
from ripplemem.settings import Settings
from ripplemem.statements import StatementReader
from ripplemem.statements.kept import KeptParses
from ripplemem.stores.base import MemoryStore
from ripplemem.write.base import Extractor

if TYPE_CHECKING:
    from ripplemem.read.planner import Planner
    from ripplemem.write.clues import ClueWriter
    from ripplemem.write.entities import EntityRecognizer
    from ripplemem.write.supersede import UpdateJudge


@dataclass
class Components:
    settings: Settings
    store: MemoryStore
    embedder: Embedder
    chat: ChatModel | None
    recognizer: EntityRecognizer  # spaCy loads on first use
    extractor: Extractor
    planner: Planner
    clue_writer: ClueWriter
    #: what units state, read from the parse once per process (write and read paths share it)
    statements: StatementReader
    #: an LLM deciding which memories a new one updates; None: the parse decides
    update_judge: UpdateJudge | None = None


def _choose(setting: str, chat: ChatModel | None, what: str) -> str:
    if setting == "auto":
        return "llm" if chat is not None else "deterministic"
    if setting == "llm" and chat is None:
        raise ConfigurationError(
            f"{what}='llm' needs an LLM endpoint: set Settings.llm (or RIPPLEMEM_LLM_BASE_URL "
            "and RIPPLEMEM_LLM_MODEL), or use 'deterministic'"
        )
    if setting not in ("llm", "deterministic"):
        raise ConfigurationError(f"{what} must be 'auto', 'llm' or 'deterministic', not {setting!r}")
    return setting


def build_components(
    settings: Settings,
    *,
    store: MemoryStore | None = None,
    embedder: Embedder | None = None,
    chat: ChatModel | None = None,
) -> Components:
    from ripplemem.providers.factory import make_chat, make_embedder
    from ripplemem.read.planner import DeterministicPlanner
    from ripplemem.stores.registry import open_store
    from ripplemem.write.entities import EntityRecognizer
    from ripplemem.write.extract_rules import DeterministicExtractor

    embedder = embedder or make_embedder(settings.embedder)
    if chat is None and settings.llm is not None:
        chat = make_chat(settings.llm)
    store = store if store is not None else open_store(settings.store)
    store.check_embedder(embedder.name, embedder.dim)
    recognizer = EntityRecognizer()

    extractor: Extractor
    extraction = _choose(settings.extractor, chat, "extractor")
    if extraction == "llm":
        from ripplemem.write.extract_llm import LLMExtractor

        assert chat is not None  # _choose refuses "llm" without one
        # the turns the model fails on are extracted deterministically (AddResult.fallbacks)
        extractor = LLMExtractor(
            chat, max_repairs=settings.llm.max_repairs if settings.llm else 2,
            fallback=DeterministicExtractor(recognizer, day_first=settings.day_first),
        )
    else:
        extractor = DeterministicExtractor(recognizer, day_first=settings.day_first)

    planner: Planner = DeterministicPlanner()
    if _choose(settings.planner, chat, "planner") == "llm":
        from ripplemem.read.planner_llm import LLMPlanner

        assert chat is not None
        planner = LLMPlanner(chat, fallback=planner)
    from ripplemem.write.clues import KeyphraseClues, LLMClues

    clue_writer: ClueWriter = KeyphraseClues()
    # "auto" follows the extractor: the write path calls an LLM for both or for neither
    clues = extraction if settings.clue_writer == "auto" else _choose(settings.clue_writer, chat, "clue_writer")
    if clues == "llm":
        assert chat is not None
        clue_writer = LLMClues(chat)
    judge: UpdateJudge | None = None
    updates = extraction if settings.updates == "auto" else _choose(settings.updates, chat, "updates")
    if updates == "llm":
        from ripplemem.write.update_judge import LLMUpdateJudge

        assert chat is not None
        judge = LLMUpdateJudge(chat)
    # the parses the store keeps are read back by the same parser (statements/kept.py)
    statements = StatementReader(recognizer.parse, kept=KeptParses(store.get_parses, recognizer))
    return Components(
        settings, store, embedder, chat, recognizer, extractor, planner, clue_writer, statements, judge
    )

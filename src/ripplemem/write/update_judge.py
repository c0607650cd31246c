"""An LLM decides which earlier memories a new memory updates (the write path's update step).

:class:`LLMUpdateJudge` is the :class:`~ripplemem.write.supersede.UpdateJudge` used when an LLM
is configured (``Settings.updates``, "auto" follows the extractor): one structured call per new
unit that has candidates (:mod:`ripplemem.write.prompts.update`), and a ``supersedes`` edge to
each candidate the model says it updates or contradicts. A reply that fails validation after the
repairs decides nothing for that unit (counted in ``failed``): the memory is stored all the same,
without the link. A provider error (the endpoint down) fails the ``add`` before anything is
stored, as extraction does.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.base import ChatModel
from ripplemem.providers.structured import complete_structured
from ripplemem.records import MemoryUnit, said_at
from ripplemem.write.prompts.update import (
    MAX_CANDIDATES,
    MAX_TOKENS,
    UpdateResponse,
    update_messages,
)

log = logging.getLogger(__name__)

_REPLACING = ("updates", "contradicts")


class LLMUpdateJudge:
    """Which of a new unit's candidates it replaces, by one bounded structured call."""

    def __init__(
        self, chat: ChatModel, *, max_candidates: int = MAX_CANDIDATES, max_repairs: int = 1
    ) -> None:
        self.chat = chat
        self.name = f"llm:{chat.name}"
        self.max_candidates = min(max_candidates, MAX_CANDIDATES)
        self.max_repairs = max_repairs
        self.tokens_used = 0
        self.calls = 0
        self.failed = 0
        self._lock = threading.Lock()

    def replaced(self, unit: MemoryUnit, candidates: Sequence[MemoryUnit]) -> list[str]:
        shown = list(candidates)[: self.max_candidates]
        if not shown:
            return []
        messages = update_messages(
            unit.restatement, said_at(unit), [(c.restatement, said_at(c)) for c in shown]
        )
        try:
            reply = complete_structured(
                self.chat, messages, UpdateResponse, max_repairs=self.max_repairs, max_tokens=MAX_TOKENS
            )
        except InvalidModelOutputError as error:
            with self._lock:
                self.calls += 1
                self.failed += 1
            log.warning("update step: no decision for unit %s (%s)", unit.id, error)
            return []
        with self._lock:
            self.calls += 1
            self.tokens_used += reply.tokens
        chosen = {v.memory for v in reply.value.verdicts if v.relation in _REPLACING}
        return [c.id for number, c in enumerate(shown, start=1) if number in chosen]

"""The LLM recall planner: one schema-constrained call per round (reference §1, read step 3).

The model's answer is validated before use: anchors that are not ids of the current evidence are
dropped (and named in the plan's reason), at most ``recipe.expansion.max_anchors`` are kept, unparseable or
reversed times become null, a goal copying the prompt's placeholders counts as none. A reply cut off at
``max_tokens`` is asked once more over half the evidence. When the call fails (:class:`ProviderError`, including
:class:`InvalidModelOutputError` after the repair attempts) the fallback planner decides and the
plan says so (``planner="deterministic (llm failed: ...)"``); nothing is made up in the model's
name. Tokens spent — including on failed and repaired attempts — are in ``RecallPlan.tokens``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from ripplemem.errors import ProviderError, TruncatedOutputError
from ripplemem.providers.base import ChatModel
from ripplemem.providers.structured import MeteredChat, complete_structured
from ripplemem.read.planner import DeterministicPlanner, Planner, goal_sentence, pick_anchors
from ripplemem.read.prompts.planning import (
    MAX_SHOWN_EVIDENCE,
    PlanningResponse,
    is_placeholder,
    planning_messages,
)
from ripplemem.recipes import RecallRecipe
from ripplemem.records import Cues, Evidence, RecallPlan, TimeSpan

MAX_ERROR_CHARS = 160
log = logging.getLogger(__name__)


def parse_time(value: str | None, *, end: bool) -> datetime | None:
    """An ISO date or datetime, or None when absent or unparseable. A bare date used as the end
    of a span means the end of that day."""
    if not value or not isinstance(value, str):
        return None
    text = value.strip()
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    moment = moment.replace(tzinfo=None)
    if end and len(text) <= 10:
        moment += timedelta(days=1) - timedelta(seconds=1)
    return moment


def target_span(start: str | None, end: str | None) -> TimeSpan | None:
    """The target time span; one valid bound stands for both, reversed bounds -> None."""
    first, last = parse_time(start, end=False), parse_time(end, end=True)
    if first is None and last is None:
        return None
    if first is None:
        first = last.replace(hour=0, minute=0, second=0, microsecond=0)  # type: ignore[union-attr]
    if last is None:
        last = first.replace(hour=23, minute=59, second=59, microsecond=0)
    if last < first:
        return None
    return TimeSpan(first, last)


def _clean(values: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(v.strip() for v in values if isinstance(v, str) and v.strip()))


class LLMPlanner:
    """Plans with a chat model; falls back to ``fallback`` (deterministic) when the model fails."""

    def __init__(
        self, chat: ChatModel, *, fallback: Planner | None = None, max_repairs: int = 2
    ) -> None:
        self.chat = chat
        self.fallback: Planner = fallback if fallback is not None else DeterministicPlanner()
        self.max_repairs = max_repairs

    @property
    def name(self) -> str:
        return f"llm:{self.chat.name}"

    def plan(
        self, query: str, cues: Cues, evidence: Sequence[Evidence], *, recipe: RecallRecipe
    ) -> RecallPlan:
        if not evidence:  # nothing to anchor on: no call needed
            return self.fallback.plan(query, cues, evidence, recipe=recipe)

        metered = MeteredChat(self.chat)
        anchors = recipe.expansion.max_anchors
        try:
            try:
                answer = complete_structured(
                    metered, planning_messages(query, cues, evidence, max_anchors=anchors),
                    PlanningResponse, max_repairs=self.max_repairs,
                ).value
            except TruncatedOutputError:  # ask once more over half the evidence, not longer
                log.warning("the plan was cut off at max_tokens; asking over half the evidence")
                shown = evidence[: max(1, min(len(evidence), MAX_SHOWN_EVIDENCE) // 2)]
                answer = complete_structured(
                    metered, planning_messages(query, cues, shown, max_anchors=anchors),
                    PlanningResponse, max_repairs=self.max_repairs,
                ).value
        except ProviderError as error:
            plan = self.fallback.plan(query, cues, evidence, recipe=recipe)
            reason = " ".join(str(error).split())[:MAX_ERROR_CHARS]
            label = f"{plan.planner or 'fallback'} (llm failed: {type(error).__name__}: {reason})"
            return replace(plan, planner=label, tokens=plan.tokens + metered.tokens)
        return self._validated(answer, cues, evidence, recipe, metered.tokens)

    def _validated(
        self,
        answer: PlanningResponse,
        cues: Cues,
        evidence: Sequence[Evidence],
        recipe: RecallRecipe,
        tokens: int,
    ) -> RecallPlan:
        known = {e.unit.id for e in evidence}
        proposed = _clean(answer.anchors)
        anchors = tuple(a for a in proposed if a in known)[: recipe.expansion.max_anchors]
        notes = []
        dropped = [a for a in proposed if a not in known]
        if dropped:
            notes.append("dropped anchors not in evidence: " + ", ".join(dropped))
        label = self.name
        if answer.proceed and not anchors:
            anchors = pick_anchors(cues, evidence, recipe.expansion.max_anchors)
            label += " (anchors: deterministic; the model named no evidence id)"
        span = target_span(answer.target_time_start, answer.target_time_end)
        if span is None and (answer.target_time_start or answer.target_time_end):
            notes.append("target time unusable, set to null")
        participants = _clean(answer.target_participants)
        locations = _clean(answer.target_locations)
        text = " ".join(answer.target_restatement.split())
        if is_placeholder(text):
            text = ""  # the prompt's placeholder, copied: no goal of its own
        if answer.proceed and not text:
            text = goal_sentence(participants, locations, span, cues.keywords)
            notes.append("empty target restatement, built from the target cues")
        goal = (
            Cues(text=text, participants=participants, locations=locations, time_span=span)
            if answer.proceed
            else None
        )
        reason = " ".join(answer.stop_reason.split())
        if notes:
            reason = (reason + " " if reason else "") + "[" + "; ".join(notes) + "]"
        return RecallPlan(
            proceed=answer.proceed,
            anchors=anchors if answer.proceed else (),
            goal=goal,
            stop_reason=reason,
            planner=label,
            tokens=tokens,
        )

"""Reading an update suite file (``benchmarks/data/updates_dev.json``) into typed cases."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn
from ripplemem_bench.suites import format_problem, read_suite

QuestionKind = Literal["current", "history", "control"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TurnModel(_Model):
    turn_id: str
    speaker: str
    text: str


class SessionModel(_Model):
    session_id: str
    time: datetime
    turns: list[TurnModel]


class QuestionModel(_Model):
    id: str
    kind: QuestionKind
    question: str
    evidence: list[str] = Field(min_length=1, description="turn ids that answer the question")
    stale: list[str] = Field(
        default_factory=list, description="turn ids that must rank below the evidence"
    )


class CaseModel(_Model):
    id: str
    split: str = "dev"
    speakers: list[str]
    sessions: list[SessionModel]
    question_time: datetime
    questions: list[QuestionModel]


class SuiteModel(_Model):
    name: str = ""
    version: int = 1
    about: str = ""
    conversations: list[CaseModel]


@dataclass(frozen=True, slots=True)
class UpdateCase:
    """One conversation and its questions."""

    model: CaseModel

    @property
    def id(self) -> str:
        return self.model.id

    def conversation(self) -> Conversation:
        return Conversation(
            conversation_id=self.model.id,
            sessions=tuple(
                Session(s.session_id, s.time, tuple(Turn(t.turn_id, t.speaker, t.text) for t in s.turns))
                for s in self.model.sessions
            ),
            speakers=tuple(self.model.speakers),
        )


def load_cases(path: Path, *, split: str | None = None) -> list[UpdateCase]:
    """The cases of the suite at ``path`` (only ``split``'s when given), checked."""
    try:
        suite = SuiteModel.model_validate(read_suite(path, "updates"))
    except ValidationError as error:
        raise format_problem(path, "updates", error) from None
    cases = [UpdateCase(c) for c in suite.conversations if split in (None, "all", c.split)]
    for case in cases:
        turns = {t.turn_id for s in case.model.sessions for t in s.turns}
        for question in case.model.questions:
            unknown = [t for t in [*question.evidence, *question.stale] if t not in turns]
            if unknown:
                raise InvalidInputError(
                    f"{path}: question {question.id} names turns {unknown} that its "
                    "conversation does not hold; fix the turn ids"
                )
    if not cases:
        raise InvalidInputError(f"{path} holds no conversation of split {split!r}; try --split all")
    return cases

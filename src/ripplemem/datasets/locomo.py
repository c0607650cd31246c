"""LoCoMo (Maharana et al., ACL 2024) as records.

Schema and quirks follow ``data/README.md``:

* sessions are the ``session_<n>`` lists (date keys without a session are ignored), in numeric order;
  ``session_<n>_date_time`` is parsed with ``%I:%M %p on %d %B, %Y`` (None when absent);
* ``turn_id`` is the ``dia_id`` (``"D1:3"``); an image turn's ``blip_caption`` becomes
  :attr:`Turn.caption`;
* evidence ids are extracted with the regex ``D\\d+:\\d+`` (so ``"D8:6; D9:17"`` gives two ids and
  the malformed ``"D:11:26"`` gives none), and ids that point to no turn are dropped;
* ``answer`` is cast to ``str``; category-5 (adversarial) items have no ``answer``: theirs is ``""``
  and the trap answer is kept in :attr:`Question.adversarial_answer`.

LoCoMo gives no date for its questions: :attr:`Question.question_time` is the time of the
conversation's last session (the latest session time), the moment the questions are asked after.
The ``observation`` / ``session_summary`` / ``event_summary`` annotations are never read: they
would leak answers into memory.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ripplemem.datasets.encoding import read_utf8
from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn

CATEGORY_NAMES: dict[int, str] = {
    1: "multi-hop",
    2: "temporal",
    3: "open-domain",
    4: "single-hop",
    5: "adversarial",
}
#: The categories with a gold answer in the conversation (5, adversarial, has none): the ones
#: scored for retrieval and used to fit weights.
ANSWERABLE_CATEGORIES: tuple[int, ...] = (1, 2, 3, 4)
DATE_FORMAT = "%I:%M %p on %d %B, %Y"
EVIDENCE_ID = re.compile(r"D\d+:\d+")
_SESSION_KEY = re.compile(r"session_(\d+)")


@dataclass(frozen=True, slots=True)
class Question:
    id: str  # f"{sample_id}:q{index}", index = position in the file's ``qa`` list
    text: str
    answer: str
    category: int
    category_name: str
    evidence: tuple[str, ...]  # valid dia_ids only, file order, deduplicated
    question_time: datetime | None
    adversarial_answer: str | None = None


@dataclass(frozen=True, slots=True)
class LocomoSample:
    conversation: Conversation
    questions: list[Question]


def load_locomo(path: str | Path) -> list[LocomoSample]:
    """Read a LoCoMo JSON file (a list of conversations) into records."""
    path = Path(path)
    try:
        data = json.loads(read_utf8(path))
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidInputError(f"cannot read LoCoMo file {path}: {error}") from error
    except json.JSONDecodeError as error:
        raise InvalidInputError(
            f"{path} is not valid JSON ({error}); expected the LoCoMo list of conversations"
        ) from error
    if not isinstance(data, list):
        raise InvalidInputError(
            f"{path}: expected a JSON list of LoCoMo conversations, got {type(data).__name__}"
        )
    return [parse_sample(item, where=f"{path} item {index}") for index, item in enumerate(data)]


def parse_sample(item: dict, *, where: str = "LoCoMo item") -> LocomoSample:
    """One LoCoMo conversation with its QA items."""
    if not isinstance(item, dict) or "conversation" not in item or "sample_id" not in item:
        raise InvalidInputError(
            f"{where}: not a LoCoMo conversation (needs 'sample_id', 'conversation' and 'qa')"
        )
    sample_id = str(item["sample_id"])
    conversation = _parse_conversation(sample_id, item["conversation"], where=where)
    turn_ids = {turn.turn_id for session in conversation.sessions for turn in session.turns}
    times = [session.time for session in conversation.sessions if session.time is not None]
    question_time = max(times) if times else None
    questions = [
        _parse_question(sample_id, index, qa, turn_ids, question_time, where=where)
        for index, qa in enumerate(item.get("qa") or [])
    ]
    return LocomoSample(conversation=conversation, questions=questions)


def parse_session_time(value: str | None, *, where: str = "") -> datetime | None:
    if not value:
        return None
    try:
        return datetime.strptime(value.strip(), DATE_FORMAT)
    except ValueError as error:
        raise InvalidInputError(
            f"{where}: cannot parse session date {value!r}; expected e.g. '1:56 pm on 8 May, 2023'"
        ) from error


def evidence_ids(raw: object) -> list[str]:
    """All ``D<session>:<turn>`` ids in a raw evidence list (strings may hold several ids)."""
    found: list[str] = []
    for entry in raw if isinstance(raw, list) else [raw]:
        if isinstance(entry, str):
            found.extend(EVIDENCE_ID.findall(entry))
    return found


def _parse_conversation(sample_id: str, body: dict, *, where: str) -> Conversation:
    if not isinstance(body, dict):
        raise InvalidInputError(f"{where}: 'conversation' must be an object")
    numbers = sorted(
        int(match.group(1))
        for key in body
        if (match := _SESSION_KEY.fullmatch(key)) and isinstance(body[key], list)
    )
    if not numbers:
        raise InvalidInputError(f"{where} ({sample_id}): no 'session_<n>' lists of turns")
    sessions = []
    for number in numbers:
        session_where = f"{where} ({sample_id}) session_{number}"
        turns = tuple(
            _parse_turn(raw, where=f"{session_where} turn {index}")
            for index, raw in enumerate(body[f"session_{number}"])
        )
        time = parse_session_time(body.get(f"session_{number}_date_time"), where=session_where)
        sessions.append(Session(session_id=f"session_{number}", time=time, turns=turns))
    speakers = tuple(str(body[key]) for key in ("speaker_a", "speaker_b") if body.get(key))
    return Conversation(conversation_id=sample_id, sessions=tuple(sessions), speakers=speakers)


def _parse_turn(raw: dict, *, where: str) -> Turn:
    if not isinstance(raw, dict) or not raw.get("dia_id") or "speaker" not in raw:
        raise InvalidInputError(f"{where}: a turn needs 'dia_id', 'speaker' and 'text'")
    caption = raw.get("blip_caption")
    return Turn(
        turn_id=str(raw["dia_id"]),
        speaker=str(raw["speaker"]),
        text=str(raw.get("text") or ""),
        caption=str(caption) if caption else None,
    )


def _parse_question(
    sample_id: str,
    index: int,
    qa: dict,
    turn_ids: set[str],
    question_time: datetime | None,
    *,
    where: str,
) -> Question:
    if not isinstance(qa, dict) or "question" not in qa or "category" not in qa:
        raise InvalidInputError(f"{where} ({sample_id}) qa {index}: needs 'question' and 'category'")
    category = int(qa["category"])
    answer = qa.get("answer")
    adversarial = qa.get("adversarial_answer")
    valid = [dia_id for dia_id in evidence_ids(qa.get("evidence") or []) if dia_id in turn_ids]
    return Question(
        id=f"{sample_id}:q{index}",
        text=str(qa["question"]),
        answer="" if answer is None else str(answer),
        category=category,
        category_name=CATEGORY_NAMES.get(category, f"category-{category}"),
        evidence=tuple(dict.fromkeys(valid)),
        question_time=question_time,
        adversarial_answer=None if adversarial is None else str(adversarial),
    )

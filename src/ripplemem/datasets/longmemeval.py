"""LongMemEval (Wu et al., ICLR 2025) as records, with the official retrieval conventions.

Each file element is one question with its own haystack; :func:`load_longmemeval` yields one
:class:`LmeSample` per element, streaming the file (``.json`` or ``.json.xz``) one element at a
time, so the ~150 MB S split never sits in memory as a whole.

Conventions reproduced from the official code (xiaowu0162/LongMemEval,
``src/retrieval/run_retrieval.py::process_item_flat_index`` and ``src/retrieval/eval_utils.py``):

* the retrieval corpus holds **user turns only**; a turn's corpus id is
  ``f"{session_id}_{i + 1}"`` with ``i`` its 0-based position among **all** turns of the session
  (user and assistant), so user turns usually get odd numbers;
* in a session whose id contains ``"answer"``, a user turn without ``has_answer`` gets the id with
  every ``"answer"`` replaced by ``"noans"``; gold turns are the corpus ids containing ``"answer"``;
* session-level labels strip the last ``_<index>`` from turn ids, so the ``noans`` turns of an
  evidence session count as a *different* session (a quirk kept on purpose).

Records: speakers are the fixed role names ``User`` / ``Assistant`` (so they appear as
participants); ``Turn.turn_id`` is ``f"{session_id}_{i + 1}"`` for every turn. Sessions are sorted by
time (the files are not always in time order). A session id repeated in one haystack (the S file
repeats a few identical distractor sessions at different dates) is renamed ``"<id>~<n>"`` in the
records; :attr:`LmeQuestion.corpus_id_of` maps its turns back to the official ids. Turns with
empty content (a handful in S) are left out of the records (they cannot be stored) but keep their
place in the numbering and, for user turns, in :attr:`LmeQuestion.corpus_ids`.
"""

from __future__ import annotations

import json
import lzma
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO

from ripplemem.errors import InvalidInputError
from ripplemem.records import Conversation, Session, Turn

ROLE_NAMES: dict[str, str] = {"user": "User", "assistant": "Assistant"}
_DATE = re.compile(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})\s*")
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class LmeQuestion:
    id: str
    text: str
    answer: str
    question_type: str
    question_time: datetime | None
    abstention: bool  # question id ends with "_abs"
    answer_session_ids: tuple[str, ...]
    corpus_ids: tuple[str, ...]  # official corpus ids of the user turns, haystack order
    gold_turns: tuple[str, ...]  # official: the corpus ids containing "answer"
    corpus_id_of: dict[str, str] = field(default_factory=dict, compare=False)  # turn_id -> id

    @property
    def gold_sessions(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(session_of(turn) for turn in self.gold_turns))


@dataclass(frozen=True, slots=True)
class LmeSample:
    conversation: Conversation
    question: LmeQuestion


def session_of(corpus_id: str) -> str:
    """Official ``strip_turn_id``: drop the last ``_``-separated piece."""
    return "_".join(corpus_id.split("_")[:-1])


def parse_lme_time(value: str | None, *, where: str = "") -> datetime | None:
    """``"2023/05/20 (Sat) 07:47"`` -> datetime (the weekday is ignored)."""
    if not value:
        return None
    match = _DATE.fullmatch(value)
    if not match:
        raise InvalidInputError(
            f"{where}: cannot parse date {value!r}; expected 'YYYY/MM/DD (Ddd) HH:MM'"
        )
    year, month, day, hour, minute = (int(part) for part in match.groups())
    try:
        return datetime(year, month, day, hour, minute)
    except ValueError as error:
        raise InvalidInputError(f"{where}: invalid date {value!r}: {error}") from error


def load_longmemeval(path: str | Path) -> Iterator[LmeSample]:
    """Stream the samples of a LongMemEval ``.json`` / ``.json.xz`` file."""
    path = Path(path)
    opener = lzma.open if path.suffix == ".xz" else open
    try:
        handle = opener(path, "rt", encoding="utf-8-sig")
    except OSError as error:
        raise InvalidInputError(f"cannot read LongMemEval file {path}: {error}") from error
    with handle:
        try:
            for index, item in enumerate(iter_json_array(handle, where=str(path))):
                yield parse_sample(item, where=f"{path} item {index}")
        except (lzma.LZMAError, EOFError, UnicodeDecodeError) as error:
            raise InvalidInputError(f"{path}: corrupt or truncated file ({error})") from error


def iter_json_array(handle: IO[str], *, where: str = "input") -> Iterator[object]:
    """Yield the elements of a top-level JSON array one by one, reading in chunks."""
    decoder = json.JSONDecoder()
    buffer = handle.read(_CHUNK)
    position = _skip_space(buffer, 0)
    if position >= len(buffer) or buffer[position] != "[":
        raise InvalidInputError(f"{where}: expected a JSON list of LongMemEval questions")
    position += 1
    expect_value = True  # right after '[' or ','
    first = True
    eof = False
    while True:
        position = _skip_space(buffer, position)
        while position >= len(buffer) and not eof:
            buffer, position, eof = _refill(handle, buffer, position)
            position = _skip_space(buffer, position)
        if position >= len(buffer):
            raise InvalidInputError(f"{where}: the JSON list is not closed (truncated file?)")
        char = buffer[position]
        if char == "]" and (first or not expect_value):
            return
        if not expect_value:
            if char != ",":
                raise InvalidInputError(f"{where}: expected ',' between list elements")
            position += 1
            expect_value = True
            continue
        while True:
            try:
                value, end = decoder.raw_decode(buffer, position)
                if end < len(buffer) or eof:
                    break
            except json.JSONDecodeError as error:
                if eof:
                    raise InvalidInputError(f"{where}: invalid JSON ({error})") from error
            buffer, position, eof = _refill(handle, buffer, position, grow=True)
        yield value
        position, expect_value, first = end, False, False


def _skip_space(buffer: str, position: int) -> int:
    while position < len(buffer) and buffer[position] in " \t\r\n":
        position += 1
    return position


def _refill(
    handle: IO[str], buffer: str, position: int, *, grow: bool = False
) -> tuple[str, int, bool]:
    """Drop consumed text and append the next chunk (a bigger one when an element is large)."""
    rest = buffer[position:]
    chunk = handle.read(max(_CHUNK, len(rest)) if grow else _CHUNK)
    return rest + chunk, 0, not chunk


def parse_sample(item: object, *, where: str = "LongMemEval item") -> LmeSample:
    """One LongMemEval element -> a conversation (its haystack) and its question."""
    if not isinstance(item, dict) or "question_id" not in item or "haystack_sessions" not in item:
        raise InvalidInputError(
            f"{where}: not a LongMemEval question (needs 'question_id', 'question', "
            "'haystack_session_ids', 'haystack_dates', 'haystack_sessions')"
        )
    question_id = str(item["question_id"])
    where = f"{where} ({question_id})"
    session_ids = [str(sid) for sid in item.get("haystack_session_ids") or []]
    dates = list(item.get("haystack_dates") or [])
    raw_sessions = list(item["haystack_sessions"])
    if not (len(session_ids) == len(dates) == len(raw_sessions)):
        raise InvalidInputError(
            f"{where}: haystack_session_ids, haystack_dates and haystack_sessions differ in length"
        )
    seen: dict[str, int] = {}
    sessions: list[Session] = []
    corpus_ids: list[str] = []
    corpus_id_of: dict[str, str] = {}
    for official_id, date, raw_turns in zip(session_ids, dates, raw_sessions):
        seen[official_id] = seen.get(official_id, 0) + 1
        record_id = official_id if seen[official_id] == 1 else f"{official_id}~{seen[official_id]}"
        turns = []
        for index, raw in enumerate(raw_turns):
            turn_where = f"{where} session {official_id} turn {index}"
            if not isinstance(raw, dict) or raw.get("role") not in ROLE_NAMES:
                raise InvalidInputError(f"{turn_where}: a turn needs role 'user' or 'assistant'")
            turn_id = f"{record_id}_{index + 1}"
            text = str(raw.get("content") or "")
            if text.strip():  # empty turns cannot be stored; the ids of the others stay put
                turns.append(Turn(turn_id=turn_id, speaker=ROLE_NAMES[raw["role"]], text=text))
            if raw["role"] == "user":
                corpus_id = official_corpus_id(official_id, index, raw, where=turn_where)
                corpus_ids.append(corpus_id)
                corpus_id_of[turn_id] = corpus_id
        time = parse_lme_time(date, where=f"{where} session {official_id}")
        if turns:
            sessions.append(Session(session_id=record_id, time=time, turns=tuple(turns)))
    sessions.sort(key=lambda session: (session.time is None, session.time or datetime.min))
    conversation = Conversation(
        conversation_id=question_id,
        sessions=tuple(sessions),
        speakers=(ROLE_NAMES["user"], ROLE_NAMES["assistant"]),
    )
    answer = item.get("answer")
    question = LmeQuestion(
        id=question_id,
        text=str(item.get("question") or ""),
        answer="" if answer is None else str(answer),
        question_type=str(item.get("question_type") or "unknown"),
        question_time=parse_lme_time(item.get("question_date"), where=f"{where} question_date"),
        abstention=question_id.endswith("_abs"),
        answer_session_ids=tuple(str(sid) for sid in item.get("answer_session_ids") or []),
        corpus_ids=tuple(corpus_ids),
        gold_turns=tuple(dict.fromkeys(cid for cid in corpus_ids if "answer" in cid)),
        corpus_id_of=corpus_id_of,
    )
    return LmeSample(conversation=conversation, question=question)


def official_corpus_id(session_id: str, index: int, turn: dict, *, where: str = "") -> str:
    """The official corpus id of the user turn at 0-based ``index`` of its session."""
    corpus_id = f"{session_id}_{index + 1}"
    if "answer" not in session_id:
        return corpus_id
    flag = turn.get("has_answer", False)
    if flag not in (True, False):
        raise InvalidInputError(f"{where}: 'has_answer' must be true or false, got {flag!r}")
    return corpus_id if flag else corpus_id.replace("answer", "noans")

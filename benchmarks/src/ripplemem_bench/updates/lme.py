"""LongMemEval knowledge updates: does the later gold session rank above the earlier one?

A knowledge-update question of LongMemEval-S has two evidence sessions: one states the old value,
the later one the update. Its gold sessions are put in haystack-date order and one recall of the
question is read at ``k`` distinct sessions:

* ``latest_found``: the latest gold session is among the first ``k`` sessions;
* ``all_found``: every gold session is (both, for two);
* ``latest_first``: every gold session is found and the latest ranks above every earlier one;
* ``answer_first``: every gold session is found and the answer session ranks above every other
  one. Some questions ask for the earlier value ("Where do I initially keep my old sneakers?"),
  so the session to put first is the one that holds the answer: the one gold session whose
  ``has_answer`` turns contain the question's ``answer`` as whole words
  (:func:`answer_session`). When no gold session or more than one holds it, the latest counts
  as the answer session, and ``answer_first`` is ``latest_first``.

Session ranks are those of the official session metrics
(:func:`~ripplemem_bench.retrieval.sessions.session_ranks`): the order in which sessions first
appear among the returned user turns, where a gold session is found through its ``has_answer``
turns. Questions with fewer than two gold sessions (the ``_abs`` ones) or with gold sessions on
one date are counted apart, not scored. ``ripplemem bench lme-updates`` runs it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ripplemem import Settings
from ripplemem.datasets import LmeQuestion, LmeSample, load_longmemeval, session_of
from ripplemem.records import Conversation, Evidence
from ripplemem.training.workspace import StoreKind
from ripplemem_bench.measure import Progress
from ripplemem_bench.measure import report_progress as _report
from ripplemem_bench.results.updates import (
    GoldOrderRow,
    LmeUpdateRecipe,
    LmeUpdatesResult,
    OrderSummary,
)
from ripplemem_bench.retrieval.run import BenchRun
from ripplemem_bench.retrieval.sessions import session_ranks

KNOWLEDGE_UPDATE = "knowledge-update"
SESSION_DEPTH = 10


@dataclass(frozen=True, slots=True)
class DatedGold:
    """A question's gold sessions, earliest first, or why it cannot be scored."""

    sessions: tuple[str, ...]
    skip: str | None = None


def dated_gold(question: LmeQuestion, conversation: Conversation) -> DatedGold:
    """The gold sessions of ``question`` in the order of their haystack dates."""
    gold = question.gold_sessions
    if len(gold) < 2:
        return DatedGold(gold, "fewer than two gold sessions")
    times: dict[str, datetime] = {s.session_id: s.time for s in conversation.sessions if s.time}
    if any(session not in times for session in gold):
        return DatedGold(gold, "a gold session without a date")
    if len({times[session] for session in gold}) < len(gold):
        return DatedGold(gold, "gold sessions on one date")
    return DatedGold(tuple(sorted(gold, key=times.__getitem__)))


#: runs of characters other than letters, digits, "$", "." and ","
_NOT_WORD = re.compile(r"(?:[^\w$.,]|_)+")
#: a "." or "," that is not between two digits ("Paris." but not "$400,000" or "3.5")
_LOOSE_POINT = re.compile(r"(?<!\d)[.,]|[.,](?!\d)")


def normalise(text: str) -> str:
    """``text`` casefolded, with words set apart by single spaces and one space at either end:
    letters, digits, "$", and "." or "," between digits are kept, any other run becomes a space."""
    words = _LOOSE_POINT.sub(" ", _NOT_WORD.sub(" ", text.casefold())).split()
    return f" {' '.join(words)} " if words else " "


def answer_session(
    question: LmeQuestion, conversation: Conversation, sessions: Sequence[str]
) -> str | None:
    """The one session of ``sessions`` whose gold turns (``has_answer``) contain the question's
    answer as whole words after :func:`normalise`; None when none or more than one does."""
    answer = normalise(question.answer)
    if not answer.strip():
        return None
    corpus_of = question.corpus_id_of
    texts: dict[str, list[str]] = {}
    for session in conversation.sessions:
        for turn in session.turns:
            corpus_id = corpus_of.get(turn.turn_id)
            if corpus_id is not None and corpus_id in question.gold_turns:
                texts.setdefault(session_of(corpus_id), []).append(turn.text)
    holding = [s for s in sessions if answer in normalise(" ".join(texts.get(s, ())))]
    return holding[0] if len(holding) == 1 else None


@dataclass(frozen=True, slots=True)
class GoldOrder:
    """Where one recall ranked the dated gold sessions of one question."""

    question_id: str
    sessions: tuple[str, ...]  # earliest first
    ranks: tuple[int | None, ...]  # 1-based session rank of each, None when not returned
    k: int
    answer_session: str | None = None  # the session holding the answer; None: the latest

    def _found(self, rank: int | None) -> bool:
        return rank is not None and rank <= self.k

    @property
    def latest_found(self) -> bool:
        return self._found(self.ranks[-1])

    @property
    def all_found(self) -> bool:
        return all(self._found(rank) for rank in self.ranks)

    @property
    def latest_first(self) -> bool:
        found = [rank for rank in self.ranks if rank is not None and rank <= self.k]
        return len(found) == len(self.ranks) and found[-1] < min(found[:-1])

    @property
    def earlier_answer(self) -> bool:
        """The answer session is one of the earlier gold sessions, not the latest."""
        return self.answer_session is not None and self.answer_session != self.sessions[-1]

    @property
    def answer_first(self) -> bool:
        if not self.all_found:
            return False
        target = self.sessions.index(self.answer_session) if self.answer_session else -1
        ranks = list(self.ranks)
        first = ranks.pop(target)
        return first is not None and all(r is not None and first < r for r in ranks)

    def row(self) -> GoldOrderRow:
        return GoldOrderRow(
            id=self.question_id, sessions=list(self.sessions), ranks=list(self.ranks),
            latest_first=self.latest_first, all_found=self.all_found,
            latest_found=self.latest_found, answer_session=self.answer_session,
            answer_first=self.answer_first,
        )


def gold_order(
    question: LmeQuestion, sessions: Sequence[str], evidence: Sequence[Evidence], k: int,
    answer: str | None = None,
) -> GoldOrder:
    """Read one recall of ``question`` against its dated gold ``sessions``; ``answer`` is the
    session holding the answer (:func:`answer_session`), None for the latest."""
    ranks = session_ranks(evidence, question)
    return GoldOrder(question.id, tuple(sessions), tuple(ranks.get(s) for s in sessions), k,
                     answer)


def _share(count: int, total: int) -> float:
    return round(100.0 * count / total, 1) if total else 0.0


def summarise(rows: Sequence[GoldOrder]) -> OrderSummary:
    """Shares (in %) of the scored questions; ``latest_first_when_all_found`` of those with
    every gold session found."""
    count = len(rows)
    first = sum(r.latest_first for r in rows)
    answer_first = sum(r.answer_first for r in rows)
    every = sum(r.all_found for r in rows)
    latest = sum(r.latest_found for r in rows)
    return OrderSummary(
        questions=count,
        latest_first=_share(first, count),
        all_found=_share(every, count),
        latest_found=_share(latest, count),
        latest_first_when_all_found=_share(first, every),
        latest_first_count=first,
        all_found_count=every,
        latest_found_count=latest,
        answer_first=_share(answer_first, count),
        answer_first_count=answer_first,
        answer_sessions=sum(r.answer_session is not None for r in rows),
        earlier_answers=sum(r.earlier_answer for r in rows),
    )


def knowledge_updates(path: Path, limit: int | None = None, skip: int = 0) -> Iterator[LmeSample]:
    """The knowledge-update samples of a LongMemEval file, after the first ``skip`` of them."""
    taken = 0
    for index, sample in enumerate(
        s for s in load_longmemeval(path) if s.question.question_type == KNOWLEDGE_UPDATE
    ):
        if index < skip:
            continue
        if limit is not None and taken >= limit:
            return
        taken += 1
        yield sample


def run_lme_updates(
    path: str | Path,
    *,
    recipes: Sequence[str],
    k: int = SESSION_DEPTH,
    limit: int | None = None,
    skip: int = 0,
    settings: Settings | None = None,
    store: StoreKind = "sqlite",
    keep: Path | None = None,
    progress: Progress | None = None,
) -> LmeUpdatesResult:
    """Latest-first, answer-first, all-found and latest-found shares per recipe over the
    knowledge-update questions of ``path`` (``limit``/``skip`` count those questions); every
    recipe searches one ingested memory per question, kept in the SQLite file ``keep`` when given
    (it reuses the conversations a ``bench longmemeval --keep`` run wrote there, and the other way
    round)."""
    path = Path(path)
    skipped: Counter[str] = Counter()
    with BenchRun("longmemeval", path, recipes=recipes, settings=settings, store=store,
                  keep=keep) as run:
        rows: dict[str, list[GoldOrder]] = {name: [] for name in run.order}
        done = 0
        for sample in knowledge_updates(path, limit, skip):
            _report(progress, f"question {sample.question.id}", done, limit)
            done += 1
            dated = dated_gold(sample.question, sample.conversation)
            if dated.skip is not None:
                skipped[dated.skip] += 1
                continue
            _read_orders(run, sample, dated.sessions, k, rows)
        _report(progress, "done", done, done)
        scored = len(next(iter(rows.values()), []))
        result = run.header(
            LmeUpdatesResult, path.name, scored, dict(skipped),
            kind="lme-updates", question_type=KNOWLEDGE_UPDATE, k=k,
            recipes={name: _recipe(run, name, found) for name, found in rows.items()},
        )
        if skip:
            result.skip = skip  # the file's first knowledge-update questions were not read
        return result


def _read_orders(
    run: BenchRun, sample: LmeSample, sessions: Sequence[str], k: int,
    rows: dict[str, list[GoldOrder]],
) -> None:
    """One question's haystack ingested, recalled by every recipe, its gold order read."""
    question = sample.question
    answer = answer_session(question, sample.conversation, sessions)
    with run.sample(sample.conversation) as namespace:
        for name in run.order:
            evidence = run.search(name, question.text, namespace, question.question_time)
            rows[name].append(gold_order(question, sessions, evidence, k, answer))


def _recipe(run: BenchRun, name: str, found: Sequence[GoldOrder]) -> LmeUpdateRecipe:
    p50, p95 = run.timing_percentiles(name)
    return LmeUpdateRecipe(
        summary=summarise(found), search_ms_p50=p50, search_ms_p95=p95,
        questions=[row.row() for row in found],
    )

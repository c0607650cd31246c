"""The write pipeline: it only wires stages.

    validate -> segment -> extract -> ground time -> embed -> clue texts -> parse -> updates
    -> [one write block:] store (units, parses) -> near neighbours -> link -> dialogue edges
    -> supersedes edges -> clue graph

Model work (extraction, embedding, the clue texts of new sessions, the parse of the new units
that searches read their clauses from: :mod:`ripplemem.statements.kept`, which earlier memories
the new ones update: :mod:`ripplemem.write.supersede`) runs first and writes nothing.
Then one ``store.write`` block stores the units and every edge and clue they bring: an ``add`` is
all or nothing, and concurrent writers of a namespace take turns, each skipping the units another
stored meanwhile. The clue-graph stage (AssoMem, :mod:`ripplemem.write.clues`) runs when
``WriteSettings.clue_graph`` is on.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from ripplemem.background import in_background
from ripplemem.blas import single_threaded_blas
from ripplemem.grounding.ground_time import default_grounder, parse_budget, request_parse_budget
from ripplemem.language import language_of
from ripplemem.providers.base import Embedder
from ripplemem.records import AddResult, Conversation, Edge, MemoryUnit, UnitDraft, Window
from ripplemem.records.extraction import fallbacks_of
from ripplemem.settings import WriteSettings
from ripplemem.statements import StatementReader
from ripplemem.stopwatch import Stopwatch
from ripplemem.stores.base import MemoryStore
from ripplemem.write.base import Extractor
from ripplemem.write.clues import ClueGraphBuilder, ClueWriter, KeyphraseClues, PreparedClues
from ripplemem.write.dialogue import DialogueLinker
from ripplemem.write.input_checks import clean_conversation
from ripplemem.write.lexicon import Lexicons
from ripplemem.write.link import PAPER_SEMANTIC_THRESHOLD, Linker
from ripplemem.write.near import NearNeighbours, near_neighbours
from ripplemem.write.segment import segment, validate_conversation
from ripplemem.write.supersede import SupersessionLinker, UpdateJudge

Progress = Callable[[int, int], None]
#: a last step inside an add's write block (``ingest(..., then=...)``): it gets the units the add
#: stored and the ids of those it found stored already, and returns the edges it added
Then = Callable[[list[MemoryUnit], list[str]], int]
#: a first step inside an add's write block (``ingest(..., first=...)``), before anything is stored:
#: what it raises ends the add with nothing stored (an update whose time another writer moved)
First = Callable[[], None]


@dataclass(frozen=True, slots=True)
class _Batch:
    """One batch of windows, ready to insert: its new units, their sessions' clue texts, the
    earlier units they supersede, the ids of its units already stored, and the new units'
    parses (:mod:`ripplemem.statements.kept`)."""

    units: list[MemoryUnit]
    clues: PreparedClues
    supersedes: list[Edge]
    known: list[str]
    parses: dict[str, bytes]


def unit_id(namespace: str, episode_id: str, turn_ids: Sequence[str], restatement: str) -> str:
    key = "\x00".join((namespace, episode_id, "|".join(turn_ids), restatement))
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def ground(draft: UnitDraft, reference: datetime | None, *, day_first: bool = False) -> UnitDraft:
    """Time grounding stage: a draft with raw phrases but no span gets the first groundable one
    (``day_first``: ``Settings.date_order``), each read in the language of the draft's
    restatement ("letzte Woche" alone says too little of its language)."""
    if draft.time_span is not None or not draft.time_phrases:
        return draft
    fallback = draft.time_fallback
    language = language_of(draft.restatement)
    for phrase in draft.time_phrases:
        grounding = default_grounder().ground_text(
            phrase, reference, day_first=day_first, language=language
        )
        fallback = fallback or not grounding.complete
        for grounded in grounding.times:
            if (held := grounded.held()) is not None:
                return replace(draft, time_span=held, time_fallback=fallback)
    return replace(draft, time_fallback=fallback) if fallback else draft


def _characters(conversation: Conversation) -> int:
    return sum(
        len(turn.text) + len(turn.caption or "")
        for session in conversation.sessions
        for turn in session.turns
    )


def resolve_thresholds(settings: WriteSettings, embedder: Embedder) -> WriteSettings:
    """Fill the semantic edge threshold from the embedder when the settings leave it open."""
    if settings.semantic_threshold is not None:
        return settings
    threshold = embedder.semantic_edge_threshold
    if threshold is None:
        threshold = PAPER_SEMANTIC_THRESHOLD
    return settings.model_copy(update={"semantic_threshold": threshold})


def _extra(positions: dict[tuple[str, str], int], session_id: str, draft: UnitDraft) -> dict:
    """A unit's ``extra``: its turn's place in the session, for an extractor fallback its
    provenance, whether the rules alone grounded its time, and its times when it names several
    too far apart for one span."""
    found = [positions[(session_id, t)] for t in draft.turn_ids if (session_id, t) in positions]
    extra: dict = {"turn_index": min(found)} if found else {}
    if draft.provenance:
        extra["provenance"] = dict(draft.provenance)
    if draft.time_fallback:  # the time parser ran out of budget on this text
        extra["time_grounding"] = "rules"
    if draft.time_spans:  # times too far apart for one span: the unit is of each
        extra["time_spans"] = [[s.start.isoformat(), s.end.isoformat()] for s in draft.time_spans]
    return extra


def _said(window: Window, draft: UnitDraft) -> tuple[tuple[str, ...], dict]:
    """Who said the draft's turns, and their metadata merged in turn order (later keys win)."""
    wanted = set(draft.turn_ids)
    turns = [t for t in window.turns if t.turn_id in wanted]
    metadata: dict = {}
    for turn in turns:
        metadata.update(turn.metadata)
    return tuple(dict.fromkeys(t.speaker for t in turns)), metadata


class WritePipeline:
    def __init__(
        self,
        store: MemoryStore,
        embedder: Embedder,
        extractor: Extractor,
        settings: WriteSettings | None = None,
        clue_writer: ClueWriter | None = None,
        statements: StatementReader | None = None,
        judge: UpdateJudge | None = None,
        day_first: bool = False,
    ) -> None:
        self.store = store
        self.day_first = day_first  # Settings.date_order
        self.embedder = embedder
        self.extractor = extractor
        settings = settings or WriteSettings()
        self.settings = settings
        self.linker = Linker(store, resolve_thresholds(settings, embedder))
        # what each namespace's stored units teach the entity recogniser
        self.lexicons = Lexicons(
            store.count,
            lambda namespace, after, limit: store.lexicon_rows(namespace, after=after, limit=limit),
        )
        self.clue_writer = clue_writer or KeyphraseClues()
        self.clue_builder = clue_graph_builder(store, embedder, self.clue_writer, settings)
        self.supersession = (
            SupersessionLinker(store, statements=statements, judge=judge)
            if settings.supersession
            else None
        )
        self.statements = statements

    def check(self, conversation: Conversation) -> Conversation:
        """``conversation`` as :meth:`ingest` takes it (times cleaned), or the InvalidInputError
        it would raise, naming the first problem; nothing runs, nothing is stored."""
        conversation = clean_conversation(conversation)
        validate_conversation(conversation, max_message_chars=self.settings.max_message_chars)
        return conversation

    def ingest(
        self,
        conversation: Conversation,
        namespace: str,
        *,
        progress: Progress | None = None,
        then: Then | None = None,
        first: First | None = None,
    ) -> AddResult:
        """Add ``conversation`` to ``namespace``, all of it or nothing; ``first`` runs first in
        the write block, before anything is stored (an update's check that its time still holds),
        ``then`` last (an update's supersedes edges)."""
        with single_threaded_blas():
            return self._ingest(conversation, namespace, progress, then, first)

    def _ingest(
        self,
        conversation: Conversation,
        namespace: str,
        progress: Progress | None,
        then: Then | None = None,
        first: First | None = None,
    ) -> AddResult:
        started = time.perf_counter()
        conversation = self.check(conversation)
        result = AddResult()
        clock = Stopwatch(result.timings_ms)
        with clock("segment"):
            windows, positions = self._windows(conversation)
        result.windows = len(windows)
        tokens_before = self._tokens()
        # 1. what needs no lock: extraction, embedding, clue texts (model work, no writes); the
        # time parser gets a budget in proportion to the text (past it, the rules ground alone)
        with parse_budget(request_parse_budget(_characters(conversation))):
            batches = self._prepare(namespace, windows, positions, clock, result, progress)
        # 2. one atomic write: the units and every edge and clue they bring, or none of them
        dialogue = DialogueLinker(self.store, self.settings.dialogue_reach)
        with self.store.write([namespace]):
            if first is not None:
                first()
            before = self.store.count(namespace)
            known: list[str] = []
            for batch in batches:
                known.extend(self._insert(namespace, batch, dialogue, clock, result))
            if then is not None:
                result.edges += then(list(result.units), known)
        self.lexicons.stored(namespace, result.units, before)
        result.tokens = self._tokens() - tokens_before
        result.seconds = time.perf_counter() - started
        return result

    def _windows(
        self, conversation: Conversation
    ) -> tuple[list[Window], dict[tuple[str, str], int]]:
        """The turn windows and each turn's position in its session (its finest time)."""
        speakers = conversation.all_speakers()
        windows: list[Window] = []
        for session in conversation.sessions:
            windows.extend(
                segment(
                    session,
                    speakers=speakers,
                    window_turns=self.settings.window_turns,
                    overlap=self.settings.window_overlap,
                )
            )
        positions = {
            (session.session_id, turn.turn_id): index
            for session in conversation.sessions
            for index, turn in enumerate(session.turns)
        }
        return windows, positions

    def _prepare(
        self,
        namespace: str,
        windows: Sequence[Window],
        positions: dict[tuple[str, str], int],
        clock: Stopwatch,
        result: AddResult,
        progress: Progress | None,
    ) -> list[_Batch]:
        """Extract and embed the units not stored yet, batch by batch, and write their clues."""
        size = max(1, min(64, len(windows)))
        batches: list[_Batch] = []
        if progress:  # the total is known before the first batch's model work
            progress(0, len(windows))
        clue_sessions: set[tuple[str, str]] = set()
        earlier: list[MemoryUnit] = []
        speakers = tuple(dict.fromkeys(name for w in windows for name in w.speakers))
        with clock("extract"):
            lexicon = self.lexicons.working_copy(namespace)
        for start in range(0, len(windows), size):
            chunk = windows[start : start + size]
            with clock("extract"):
                drafts = self.extractor.extract(chunk, lexicon=lexicon)
            for window_drafts in drafts:
                result.fallbacks.extend(fallbacks_of(window_drafts))
            with clock("prepare"):
                todo, known = self._pending(namespace, chunk, drafts)
            fresh = self._new_units(namespace, todo, positions)
            # the new units' parse, kept for the searches that read their clauses, runs beside
            # their embedding (onnxruntime holds no GIL; a parse keeps one core busy)
            parsing = (
                in_background(partial(self.statements.parses, fresh), name="ripplemem-parse")
                if self.statements is not None and fresh else None
            )
            try:
                with clock("embed"):
                    fresh = self._embedded(fresh)
                clues: PreparedClues = {}
                if self.clue_builder is not None and fresh:
                    with clock("clue_text"):
                        clues = self.clue_builder.prepare(fresh, skip=clue_sessions)
                    clue_sessions.update(clues)
                parses: dict[str, bytes] = {}
                if parsing is not None:
                    with clock("parse"):  # what is left of it once the embedding is done
                        parses = parsing.result()
            except BaseException:
                # an interrupt (Ctrl-C) or a failure: the parse finishes first, as a thread left in
                # the parser's native code when the process exits aborts it ("libblis: Aborting")
                if parsing is not None and not parsing.done():
                    parsing.exception()
                raise
            supersedes: list[Edge] = []
            if self.supersession is not None and fresh:
                with clock("updates"):
                    supersedes, _ = self.supersession.prepare(namespace, fresh, earlier, speakers)
                earlier.extend(fresh)
            result.skipped += len(known)
            batches.append(_Batch(fresh, clues, supersedes, known, parses))
            if progress:
                progress(min(start + size, len(windows)), len(windows))
        return batches

    def _insert(
        self,
        namespace: str,
        batch: _Batch,
        dialogue: DialogueLinker,
        clock: Stopwatch,
        result: AddResult,
    ) -> list[str]:
        """Store one batch's units and link them (inside the add's write block); the ids of the
        batch's units that were stored already."""
        with clock("store"):
            # what another writer (or an earlier batch) stored meanwhile is skipped, not doubled
            ids = [u.id for u in batch.units]
            stored = {u.id for u in self.store.get_units(namespace, ids, with_vectors=False)}
            fresh = [u for u in batch.units if u.id not in stored]
            result.skipped += len(batch.units) - len(fresh)
            if fresh:
                self.store.add_units(fresh)
                parses = {u.id: batch.parses[u.id] for u in fresh if u.id in batch.parses}
                if parses:
                    self.store.add_parses(namespace, parses)
        with clock("near"):
            near = self._near(fresh)
        with clock("link"):
            result.edges += self.linker.link(fresh, near).added
        with clock("dialogue"):
            result.edges += dialogue.link(fresh)
        if self.supersession is not None:
            with clock("supersede"):
                result.edges += self.supersession.insert(namespace, batch.supersedes)
        if self.clue_builder is not None:
            with clock("clues"):
                report = self.clue_builder.build(fresh, near, batch.clues)
            result.clues += report.clues
            result.clue_links += report.links
        result.units.extend(fresh)
        return [*batch.known, *(uid for uid in ids if uid in stored)]

    def _near(self, units: Sequence[MemoryUnit]) -> NearNeighbours:
        """One dense search for the linker and the clue graph: the larger k, the lower score."""
        k, score = self.linker.near_query
        if self.clue_builder is not None:
            clue_k, clue_score = self.clue_builder.near_query
            k, score = max(k, clue_k), min(score, clue_score)
        return near_neighbours(self.store, units, k, score)

    def _tokens(self) -> int:
        judge = self.supersession.judge if self.supersession is not None else None
        spent = judge.tokens_used if judge is not None else 0
        return self.extractor.tokens_used + self.clue_writer.tokens_used + spent

    def _pending(
        self,
        namespace: str,
        windows: Sequence[Window],
        drafts: Sequence[Sequence[UnitDraft]],
    ) -> tuple[list[tuple[str, Window, UnitDraft]], list[str]]:
        """The drafts not stored yet (time grounded), and the ids of the drafts stored already."""
        pending: dict[str, tuple[Window, UnitDraft]] = {}
        for window, window_drafts in zip(windows, drafts):
            for draft in window_drafts:
                uid = unit_id(namespace, window.session_id, draft.turn_ids, draft.restatement)
                pending.setdefault(uid, (window, draft))
        if not pending:
            return [], []
        # units already stored are not embedded again: re-adding a conversation costs no model time
        known = {u.id for u in self.store.get_units(namespace, list(pending), with_vectors=False)}
        todo = [
            (uid, w, ground(d, w.local_time, day_first=self.day_first))
            for uid, (w, d) in pending.items()
            if uid not in known
        ]
        return todo, [uid for uid in pending if uid in known]

    def _embedded(self, units: Sequence[MemoryUnit]) -> list[MemoryUnit]:
        """``units`` with their vectors (and the time they were made: now)."""
        if not units:
            return []
        vectors = self.embedder.embed([u.restatement for u in units], input_type="document")
        now = datetime.now().replace(microsecond=0)
        return [replace(unit, vector=vector, created_at=now) for unit, vector in zip(units, vectors, strict=True)]

    def _new_units(
        self,
        namespace: str,
        todo: Sequence[tuple[str, Window, UnitDraft]],
        positions: dict[tuple[str, str], int],
    ) -> list[MemoryUnit]:
        """The new units of ``todo``, not embedded yet."""
        now = datetime.now().replace(microsecond=0)  # made once embedded: _embedded
        return [
            MemoryUnit(
                id=uid,
                namespace=namespace,
                restatement=draft.restatement,
                vector=None,
                participants=draft.participants,
                locations=draft.locations,
                time_span=draft.time_span,
                episode_id=window.session_id,
                turn_ids=draft.turn_ids,
                session_time=window.session_time,
                created_at=now,
                time_phrases=draft.time_phrases,
                keywords=draft.keywords,
                speakers=speakers,
                metadata=metadata,
                extra=_extra(positions, window.session_id, draft),
            )
            for uid, window, draft in todo
            for speakers, metadata in [_said(window, draft)]
        ]


def clue_graph_builder(
    store: MemoryStore, embedder: Embedder, writer: ClueWriter, settings: WriteSettings
) -> ClueGraphBuilder | None:
    """The clue-graph stage, or None when the settings turn it off."""
    if not settings.clue_graph:
        return None
    return ClueGraphBuilder(store, store.clues, embedder, writer, settings)

"""The read pipeline: it only wires the stages (reference §1, read path).

``ripple``: query vector (centred on the namespace centroid with ``recipe.views.centred_query``) and
query cues -> tri-view initial recall C0 (dense_k / lexical_k / cue_k) -> up to
``recipe.expansion.rounds`` rounds of plan -> diffuse -> C <- C ∪ S_r (when ``recipe.expansion.enabled``) -> rank
with rho (the speaker a question names first: ``recipe.rank.speaker_penalty``; in a
person–assistant chat, the person a first-person question asks about: ``recipe.rank.asker_penalty``,
:mod:`ripplemem.read.speaker`; for a question that names a time, the units of another time:
``recipe.rank.time_penalty``, :mod:`ripplemem.read.when`; the people's asks that report nothing below their reports:
``recipe.rank.ask_penalty``, :mod:`ripplemem.read.speech_acts`) -> the evidence budget K -> answers (``recipe.rank.answers_follow``:
the other person's answer in the place of a question of the head that only asks, the question after it, :mod:`ripplemem.read.adjacency`) -> focus (``recipe.rank.focus_sessions``:
the user's best-matching statement of each of the first sessions comes up to its session,
:mod:`ripplemem.read.focus`) -> coverage (``recipe.rank.coverage``: for a question that
gathers several memories, the head covers distinct episodes; ``recipe.rank.session_support``: for
one that asks for one thing, the units of the sessions that match it most come first,
:mod:`ripplemem.read.coverage`) ->
supersession (``recipe.rank.supersession``: the latest value
first for questions about the present, :mod:`ripplemem.read.supersession`). With ``recipe.rank.deep_candidates``, the deeper dense / lexical hits (to depth K) join C as candidates of
the final ranking, keeping their deep ranks as provenance (``Hit.rank >= dense_k`` /
``lexical_k``): every unit competes on rho for the K slots.
With ``recipe.expansion.goal=False`` no planner runs: the top-ranked evidence serves as anchors and
diffusion is blind (ranked by path strength), with the same budget.
Baseline kinds (bm25, dense, hybrid) are dispatched to :mod:`ripplemem.read.baselines`.

The query's vector is computed on a thread of its own (:mod:`ripplemem.background`) while
the query cues, the lexical view, the cue index and the supersession stage's reading of the
question (``question``: its tense, from the one parse of it) are read; the stages that need it
wait for it there (the ``embed`` timing is that wait). The same thread then centres it and reads
the dense view (its matrix product holds no GIL, so it runs beside the question's words on a
second core); the ``dense`` timing is what is left of that to wait for. For a question that names a time, the
ranking reads the time its own clause names (:func:`~ripplemem.read.when.asked_time`, from that
parse) only when the order depends on it (:meth:`_RippleRun._time_first`), or when the vector
is not there yet once the stages before it are done (the wait would be idle). Once it is there, a question the supersession
stage weighs the units' relevance to has its words without its people's names embedded on that
thread, beside the stages before it. The baselines do the same with their lexical view.

Every recall returns its :class:`RecallTrace`: cues, the initial list of each view, each plan,
each expansion path, per-stage timings in ms and notes. The goal restatement is embedded only
when diffusion reaches a new unit along a semantic edge (``embed_goal``, apart from ``diffuse``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import replace
from datetime import datetime
from typing import cast

import numpy as np

from ripplemem.background import in_background
from ripplemem.blas import single_threaded_blas
from ripplemem.language import question_language, searched_words
from ripplemem.providers.base import Embedder
from ripplemem.read.adjacency import answers_follow
from ripplemem.read.answer_kind import prefer_the_kind
from ripplemem.read.baselines import recall_baseline
from ripplemem.read.context import assemble as assemble_context
from ripplemem.read.context import context_candidates
from ripplemem.read.coverage import asks_for_coverage, cover_episodes, support_sessions
from ripplemem.read.diffuse import diffuse
from ripplemem.read.empty import empty_recall
from ripplemem.read.filtered import restrict
from ripplemem.read.focus import focus_sessions
from ripplemem.read.planner import DeterministicPlanner, Planner, asks_for_several
from ripplemem.read.query_cues import Recogniser, derive_cues, question_times
from ripplemem.read.rank import Candidate, rank
from ripplemem.read.rank_spread import spread_turns
from ripplemem.read.speaker import prefer_asker, prefer_speaker
from ripplemem.read.speech_acts import prefer_reports
from ripplemem.read.superseded import mark_superseded
from ripplemem.read.supersession import (
    QuestionReading,
    apply_supersession,
    asked_text,
    nameless_query,
    parse_once,
    read_question,
    weighs_relevance,
)
from ripplemem.read.unit_cache import RecallUnits
from ripplemem.read.views import (
    centre_query,
    closest_first,
    cue_matches,
    dense_view,
    lexical_view,
    view_depths,
)
from ripplemem.read.when import (
    AskedTime,
    asked_time,
    asks_more_in,
    asks_more_than_its_time,
    possible_asked_times,
    prefer_the_time,
    time_first_when_read,
)
from ripplemem.recipes import RecallRecipe
from ripplemem.records import (
    Cues,
    Evidence,
    ExpansionPath,
    Hit,
    MemoryUnit,
    Recall,
    RecallPlan,
    RecallTrace,
    TimeSpan,
)
from ripplemem.records.filters import SearchFilter
from ripplemem.statements import Parse, StatementReader
from ripplemem.stopwatch import Stopwatch
from ripplemem.stores.base import MemoryStore

#: the words of a clause read for its fit to the question (a long clause's first ones)
_CLAUSE_WORDS = 24


class _Pool:
    """The evidence state C: candidates by id, in the order they were found."""

    def __init__(self, store: MemoryStore, namespace: str) -> None:
        self.store, self.namespace = store, namespace
        self.items: dict[str, Candidate] = {}

    def add(
        self, found: dict[str, list[Hit]], paths: dict[str, list[ExpansionPath]] | None = None
    ) -> None:
        paths = paths or {}
        new = [i for i in found if i not in self.items]
        for unit in self.store.get_units(self.namespace, new) if new else []:
            self.items[unit.id] = Candidate(unit)
        for unit_id, hits in found.items():
            candidate = self.items.get(unit_id)
            if candidate is not None:
                candidate.hits.extend(hits)
                candidate.paths.extend(paths.get(unit_id, ()))


def _hits(view: str, found: list[tuple[str, float]], start: int = 0) -> dict[str, list[Hit]]:
    return {
        unit_id: [Hit(view, start + rank, float(score))]  # type: ignore[arg-type]
        for rank, (unit_id, score) in enumerate(found)
    }


def _merge_hits(*groups: dict[str, list[Hit]]) -> dict[str, list[Hit]]:
    merged: dict[str, list[Hit]] = {}
    for group in groups:
        for unit_id, hits in group.items():
            merged.setdefault(unit_id, []).extend(hits)
    return merged


def expansion_hits(
    found: list[tuple[str, ExpansionPath]],
) -> tuple[dict[str, list[Hit]], dict[str, list[ExpansionPath]]]:
    """One expansion hit per unit at its best within-channel rank; every path kept."""
    ranks: dict[str, int] = {}
    best: dict[str, Hit] = {}
    paths: dict[str, list[ExpansionPath]] = {}
    for unit_id, path in found:
        rank_in_channel = ranks.get(path.channel, 0)
        ranks[path.channel] = rank_in_channel + 1
        paths.setdefault(unit_id, []).append(path)
        if unit_id not in best or rank_in_channel < best[unit_id].rank:
            best[unit_id] = Hit("expansion", rank_in_channel, path.goal_score)
    return {i: [h] for i, h in best.items()}, paths


def blind_plan(ranked: list[Evidence], recipe: RecallRecipe) -> RecallPlan:
    """``recipe.expansion.goal=False``: no planner; the top-ranked evidence are the anchors."""
    return RecallPlan(
        proceed=bool(ranked),
        anchors=tuple(e.unit.id for e in ranked[: recipe.expansion.max_anchors]),
        goal=None,
        stop_reason="blind expansion (recipe.expansion.goal=False)" if ranked else "no evidence",
        planner="none (blind)",
    )


def recall(
    query: str,
    *,
    store: MemoryStore,
    namespace: str,
    embedder: Embedder,
    recipe: RecallRecipe,
    planner: Planner | None = None,
    recognizer: Recogniser | None = None,
    reference_time: datetime | None = None,
    where: SearchFilter | None = None,
    statements: StatementReader | None = None,
    day_first: bool = False,
) -> Recall:
    """Recall the evidence for ``query`` from ``namespace`` as ``recipe`` says (no evidence and
    the note :data:`~ripplemem.read.empty.EMPTY_NOTE` when the namespace holds no memory yet);
    with ``where``, from the units that filter matches only (:mod:`ripplemem.read.filtered`).
    ``statements`` reads what units state, for the supersession stage (None: it reads the chains
    alone); ``day_first``: how the question's slash dates read (``Settings.date_order``)."""
    with single_threaded_blas(), store.reading(namespace):
        if store.count(namespace) == 0:
            return empty_recall(query, namespace, recipe.name)
        if where is not None and not where.empty:
            started = time.perf_counter()
            filtered = restrict(store, namespace, where)
            took = (time.perf_counter() - started) * 1000
            found = _recall(
                query, cast(MemoryStore, filtered), namespace, embedder, recipe, planner,
                recognizer, reference_time, statements, day_first,
            )
            found.trace.timings_ms["filter"] = took
            found.trace.notes.insert(
                0, f"filters {where.to_json()}: {len(filtered.allowed)} units match"
            )
        else:
            found = _recall(
                query, store, namespace, embedder, recipe, planner, recognizer, reference_time,
                statements, day_first,
            )
        # the store's edges, not the filtered view's: a successor the filter leaves out marks too
        return replace(found, evidence=tuple(mark_superseded(found.evidence, store, namespace, where)))


def _recall(
    query: str,
    store: MemoryStore,
    namespace: str,
    embedder: Embedder,
    recipe: RecallRecipe,
    planner: Planner | None,
    recognizer: Recogniser | None,
    reference_time: datetime | None,
    statements: StatementReader | None,
    day_first: bool,
) -> Recall:
    if recipe.kind == "asso":
        from ripplemem.read.asso.pipeline import recall_asso

        return recall_asso(
            query, store=store, namespace=namespace, embedder=embedder, recipe=recipe,
            reference_time=reference_time, day_first=day_first,
        )
    if recipe.kind != "ripple":
        return recall_baseline(
            query, store=store, namespace=namespace, embedder=embedder, recipe=recipe
        )
    # the stages read overlapping units: each is read once per recall
    run = _RippleRun(query, cast(MemoryStore, RecallUnits(store)), namespace, embedder, recipe)
    run.reference_time = reference_time
    run.statements = statements
    run.day_first = day_first
    with run.clock("total"):
        evidence = run.recall(planner or DeterministicPlanner(), recognizer, reference_time)
    return Recall(tuple(evidence), run.trace)


class _RippleRun:
    """One ripple recall: the shared state the stages are wired through."""

    def __init__(
        self,
        query: str,
        store: MemoryStore,
        namespace: str,
        embedder: Embedder,
        recipe: RecallRecipe,
    ) -> None:
        self.query, self.store, self.namespace = query, store, namespace
        self.embedder, self.recipe = embedder, recipe
        self.trace = RecallTrace(query=query, namespace=namespace, recipe=recipe.name)
        self.clock = Stopwatch(self.trace.timings_ms)
        self.pool = _Pool(store, namespace)
        self.anchors: set[str] = set()
        self.reference_time: datetime | None = None
        self.lexical_scores: dict[str, float] = {}  # the lexical view's BM25 scores, for rho
        self.statements: StatementReader | None = None
        self._nameless: dict[str, np.ndarray] = {}  # the question without its people, embedded
        self._nameless_soon: dict[str, Future[np.ndarray]] = {}  # ... being embedded
        self._nameless_of: str | None = None  # the question without its people's names
        self.question: QuestionReading | None = None  # the supersession stage's reading of it
        self.raw_query_vector: np.ndarray | None = None  # the query's vector, not centred
        self.day_first = False  # how the question's slash dates read (Settings.date_order)
        self.parse: Parse | None = None  # the question's parse, each text once, for every stage
        self.times: list[tuple[str, TimeSpan]] = []  # the question's grounded times
        self._asked: list[AskedTime | None] = []  # the time its own clause names, read once
        # the question is in a language the embedder was not trained on: rho's alignment rests
        # on the lexical view (recipe.rank.lexical_alignment_other_language)
        self.language = language = question_language(query)
        languages = getattr(embedder, "languages", None)
        self.other_language = False
        if languages is not None:
            self.other_language = language not in languages
            if self.other_language and recipe.rank.lexical_alignment_other_language != recipe.rank.lexical_alignment:
                self.trace.notes.append(
                    f"language: the question is in {language}, which the embedder was not trained on "
                    f"({', '.join(sorted(languages))}); rho's alignment rests on the lexical view"
                )

    def _lexical_query(self, cues: Cues) -> str:
        """What the lexical view looks for: the question's words but its language's closed
        classes (:func:`searched_words`); in a language the embedder was not trained on, where
        the alignment rests on that view, not the people's names either (every memory a person
        said opens with their name: "Lena said: ...", so for "Bei welcher Firma arbeitet Lena?"
        the name alone put the shortest of Lena's memories first), unless nothing else is left."""
        text = searched_words(self.query, self.language)
        if not self.other_language or not cues.participants:
            return text
        rest = text
        for name in cues.participants:
            rest = re.sub(r"(?<!\w)" + re.escape(name) + r"(?!\w)", " ", rest, flags=re.IGNORECASE)
        return rest if re.search(r"\w", rest) else text

    def recall(
        self,
        planner: Planner,
        recognizer: Recogniser | None,
        reference_time: datetime | None,
    ) -> list[Evidence]:
        store, namespace, recipe, clock = self.store, self.namespace, self.recipe, self.clock
        depth = view_depths(recipe)
        # the query's words first, while its vector is computed (see ripplemem/background.py);
        # the same thread then runs the dense view, whose matrix product holds no GIL
        embedding: Future[np.ndarray] = Future()
        dense_soon = in_background(
            lambda: self._vector_and_dense(embedding, depth.dense), name="ripplemem-query-embedding"
        )
        if self.statements is not None:
            self.parse = parse_once(self.statements.parse)
        with clock("cues"):
            self.times, phrases = question_times(self.query, reference_time, day_first=self.day_first)
            cues = derive_cues(
                self.query,
                reference_time=reference_time,
                times=(self.times, phrases),
                people_vocabulary=store.cue_values(namespace, "P"),
                place_vocabulary=store.cue_values(namespace, "L"),
                recognizer=recognizer,
                day_first=self.day_first,
            )
        self.trace.cues = cues
        with clock("lexical"):
            # its words, not its language's closed classes (English ones are the index's stopwords)
            lexical = lexical_view(store, namespace, self._lexical_query(cues), depth.lexical)
        self.lexical_scores = dict(lexical)
        with clock("cue"):
            matches = cue_matches(store, namespace, cues, depth.cue)
        if recipe.rank.supersession:  # what that stage reads of the question alone
            with clock("question"):
                self.question = read_question(self.query, cues, reference_time, self.statements, self.parse)
        # the lexical hits' units, read while the wait would be idle: the pool's first, then the
        # deeper ranks the final ranking reads (each part only while the vector is not there)
        for part in (lexical[: recipe.views.lexical_k], lexical[recipe.views.lexical_k :]):
            if part and not embedding.done():
                with clock("fetch"):
                    store.get_units(namespace, [unit_id for unit_id, _ in part])
        # the question's own time, from its parse, while the wait would still be idle: the
        # ranking reads it when that time may order the units, and reading it after the vector
        # would add the whole parse to the search
        if (
            not embedding.done() and recipe.rank.time_penalty > 0 and recipe.rank.time_first
            and cues.time_span is not None and self._possible_asked_times()
        ):
            with clock("time"):
                self._asked_time()
        with clock("embed"):  # what is left of it to wait for
            self.raw_query_vector = embedding.result()
        # read by the supersession stage for an English question only (its relevance)
        if self.question is not None and self.language == "en" and weighs_relevance(self.query, self.question[1]):
            self._embed_nameless_soon(self._nameless_text())
        with clock("dense"):  # what is left of it to wait for
            query_vector, dense = dense_soon.result()
        with clock("cue"):
            cue = closest_first(matches, query_vector, depth.cue)
        if not cues.has_structure:
            self.trace.notes.append("cue view skipped: the query names no person, place or time")
        self.trace.initial = {"dense": dense, "lexical": lexical, "cue": cue}
        with clock("fetch"):
            found = _merge_hits(
                _hits("dense", dense[: recipe.views.dense_k]),
                _hits("lexical", lexical[: recipe.views.lexical_k]),
                _hits("cue", cue[: recipe.views.cue_k]),
            )
            if recipe.rank.deep_candidates:  # the final ranking reads the deeper ranks: one read
                deeper = [i for i, _ in (*dense[recipe.views.dense_k :], *lexical[recipe.views.lexical_k :])]
                store.get_units(namespace, [*found, *deeper])
            self.pool.add(found)
        if recipe.expansion.enabled:
            self.expand(planner, cues, query_vector)
        else:
            self.trace.notes.append("expansion off (recipe.expansion.enabled=False)")
        return self.assemble(query_vector, dense, lexical)

    def _vector_and_dense(
        self, embedding: Future[np.ndarray], depth: int
    ) -> tuple[np.ndarray, list[tuple[str, float]]]:
        """On the query's thread: its vector (set on ``embedding`` as soon as it is there),
        then, centred with ``recipe.views.centred_query``, its dense view ``depth`` deep (both
        reads in one block of the store's: a store that keeps a search's reads per thread
        reads the namespace's state once for them)."""
        try:
            vector = self.embedder.embed([self.query], input_type="query")[0]
        except BaseException as error:
            embedding.set_exception(error)
            raise
        embedding.set_result(vector)
        with self.store.reading(self.namespace):
            if self.recipe.views.centred_query:
                vector = centre_query(vector, self.store.centroid(self.namespace))
            return vector, dense_view(self.store, self.namespace, vector, depth)

    def expand(self, planner: Planner, cues: Cues, query_vector: np.ndarray) -> None:
        """Rounds of plan -> diffuse -> C <- C ∪ S_r; stop on the plan's word or no new support.

        A question that gathers several memories (``asks_for_several``, with
        ``recipe.expansion.gather``) walks the semantic edges to other episodes than its anchors'
        and gets one more round, taken only while the last round brought a new episode."""
        recipe, clock, trace = self.recipe, self.clock, self.trace
        gathering = recipe.expansion.gather and bool(asks_for_several(self.query, cues))
        rounds = recipe.expansion.rounds + (1 if gathering and recipe.expansion.rounds else 0)
        episodes = {c.unit.episode_id for c in self.pool.items.values()}
        for round_number in range(1, rounds + 1):
            if round_number > recipe.expansion.rounds and not self._new_episodes(episodes):
                trace.notes.append(f"round {round_number}: stop (the last round found no new episode)")
                return
            with clock("plan"):
                plan = self._plan(planner, cues, query_vector)
            trace.plans.append(plan)
            if not plan.proceed:
                trace.notes.append(f"round {round_number}: stop ({plan.stop_reason})")
                return
            self.anchors.update(plan.anchors)
            goal_text = plan.goal.text.strip() if recipe.expansion.goal and plan.goal is not None else ""
            template = plan.planner.startswith(DeterministicPlanner.name)  # incl. a model's fallback

            spent: list[float] = []

            def goal_vector(
                text: str = goal_text, spent: list[float] = spent, template: bool = template
            ) -> np.ndarray | None:
                """Embedded only if diffusion reaches a new unit along a semantic edge; with
                ``recipe.expansion.goal_vector="query"`` and a goal of the deterministic planner
                (the query's own words), the query's vector, not embedded."""
                if not text:
                    return None
                if recipe.expansion.goal_vector == "query" and template:
                    return self.raw_query_vector
                started = time.perf_counter()
                vector = self.embedder.embed([text], input_type="document")[0]
                spent.append((time.perf_counter() - started) * 1000)
                return vector

            with clock("diffuse"):
                found = diffuse(
                    self.store,
                    self.namespace,
                    plan,
                    evidence_ids=set(self.pool.items),
                    goal_vector=goal_vector,
                    recipe=recipe,
                    other_episodes=self._episodes_of(plan.anchors) if gathering else (),
                )
            if spent:  # report the goal embedding apart from the walk itself
                trace.timings_ms["diffuse"] -= spent[0]
                trace.timings_ms["embed_goal"] = trace.timings_ms.get("embed_goal", 0) + spent[0]
            trace.expansions.extend(path for _, path in found)
            if not found:
                trace.notes.append(f"round {round_number}: no new support near the anchors")
                return
            hits, paths = expansion_hits(found)
            with clock("fetch"):
                self.pool.add(hits, paths)
            trace.notes.append(f"round {round_number}: {len(hits)} units added by expansion")

    def _plan(self, planner: Planner, cues: Cues, query_vector: np.ndarray) -> RecallPlan:
        """The round's plan over the pool ranked by rho; the deterministic planner decides from
        the pool's units first, so a round that stops ranks nothing."""
        recipe = self.recipe
        deterministic = planner if type(planner) is DeterministicPlanner else None
        decision = None
        if recipe.expansion.goal and deterministic is not None:
            decision = deterministic.decide(self.query, cues, [c.unit for c in self.pool.items.values()])
            if decision.stop is not None:
                return decision.stop
        current = rank(
            self.pool.items.values(),
            query_vector=query_vector,
            anchors=self.anchors,
            recipe=recipe,
            lexical=self.lexical_scores,
            other_language=self.other_language,
        )
        if deterministic is not None and decision is not None:
            return deterministic.anchored(decision, cues, current, recipe=recipe)
        if recipe.expansion.goal:
            return planner.plan(self.query, cues, current, recipe=recipe)
        return blind_plan(current, recipe)

    def _episodes_of(self, unit_ids: Iterable[str]) -> set[str]:
        return {self.pool.items[i].unit.episode_id for i in unit_ids if i in self.pool.items}

    def _new_episodes(self, seen: set[str]) -> bool:
        """Whether the pool holds an episode not in ``seen``; ``seen`` is updated."""
        now = {c.unit.episode_id for c in self.pool.items.values()}
        new = bool(now - seen)
        seen |= now
        return new

    def _score(self, candidates: list[Candidate], query_vector: np.ndarray) -> tuple[list[Evidence], str]:
        """rho over ``candidates`` (with ``recipe.asso.terms`` plus the AssoMem terms), then
        spread over source turns with ``recipe.rank.spread_turns``."""
        recipe = self.recipe
        with self.clock("rank"):
            ranked = rank(
                candidates, query_vector=query_vector, anchors=self.anchors, recipe=recipe,
                lexical=self.lexical_scores, other_language=self.other_language,
            )
        note = ""
        if recipe.asso.terms:
            from ripplemem.read.asso.fusion import add_asso_terms

            with self.clock("asso"):
                ranked, note = add_asso_terms(
                    ranked, store=self.store, namespace=self.namespace, query=self.query,
                    query_vector=query_vector, reference_time=self.reference_time, recipe=recipe,
                    day_first=self.day_first,
                )
        if recipe.rank.speaker_penalty > 0:
            with self.clock("speaker"):
                ranked, speaker = prefer_speaker(
                    ranked, self.trace.cues or Cues(), recipe.rank.speaker_penalty
                )
            said = f"speaker: the units not said by {speaker} score lower" if speaker else ""
            if said and said not in self.trace.notes:
                self.trace.notes.append(said)
        if recipe.rank.time_penalty > 0:
            span = self.trace.cues.time_span if self.trace.cues else None
            with self.clock("time"):
                ranked, outside = prefer_the_time(
                    ranked, span, recipe.rank.time_penalty, recipe.rank.time_penalty_day
                )
            said = "time: the units of another time than the question's score lower" if outside else ""
            if said and said not in self.trace.notes:
                self.trace.notes.append(said)
            if recipe.rank.time_first and span is not None:
                with self.clock("time"):
                    ranked, moved = self._time_first(ranked)
                said = "time: the units of the question's own time that answer come first" if moved else ""
                if said and said not in self.trace.notes:
                    self.trace.notes.append(said)
        if recipe.rank.kind_penalty > 0:
            with self.clock("kind"):
                ranked, kind = prefer_the_kind(ranked, self.query, recipe.rank.kind_penalty)
            said = f"kind: the units that name no {kind} score lower (the question asks for one)" if kind else ""
            if said and said not in self.trace.notes:
                self.trace.notes.append(said)
        if recipe.rank.asker_penalty > 0:
            with self.clock("speaker"):
                ranked, asker = prefer_asker(ranked, self.query, recipe.rank.asker_penalty)
            said = "asker: the assistant's units score lower (the question asks about the person)" if asker else ""
            if said and said not in self.trace.notes:
                self.trace.notes.append(said)
        if recipe.rank.ask_penalty > 0:
            with self.clock("reports"):
                ranked, lowered = prefer_reports(ranked, recipe.rank.ask_penalty)
            said = "reports: the people's asks that report nothing score lower" if lowered else ""
            if said and said not in self.trace.notes:
                self.trace.notes.append(said)
        if recipe.rank.spread_turns:
            ranked = spread_turns(ranked)
        return ranked, note

    def _asks_more_than_its_time(self) -> bool:
        """Whether the question asks for more than what happened at its time; the cues' keywords
        are English words, a question in another language is read in its own closed classes."""
        cues = self.trace.cues or Cues()
        if self.language == "en":
            return asks_more_than_its_time(cues)
        return asks_more_in(self.query, self.language, cues.participants, [phrase for phrase, _ in self.times])

    def _time_first(self, ranked: list[Evidence]) -> tuple[list[Evidence], int]:
        """:func:`~ripplemem.read.when.time_first` with the time the question's own clause
        names, read from the question's parse only when the order depends on it
        (:func:`~ripplemem.read.when.time_first_when_read`; most questions: the units of their
        time are first already, and the parse, a few ms, is spared)."""
        return time_first_when_read(
            ranked, self._asked_time, self._possible_asked_times(),
            answers=self.recipe.rank.time_answers, content=self._asks_more_than_its_time(),
        )

    def _possible_asked_times(self) -> list[AskedTime] | None:
        """What :meth:`_asked_time` can read without its parse (None: not known, or read
        already: then it costs nothing)."""
        if self._asked or self.language != "en" or self.parse is None:
            return None
        return possible_asked_times(self.query, self.times)

    def _asked_time(self) -> AskedTime | None:
        """The time the question's own clause names (:func:`~ripplemem.read.when.asked_time`),
        read once per search."""
        if not self._asked:
            # the parse is English: a question in another language is read without one
            parse = self.parse if self.language == "en" else None
            self._asked.append(asked_time(self.query, self.times, parse))
        return self._asked[0]

    def _relevance(self, query_vector: np.ndarray) -> Callable[[Sequence[MemoryUnit]], list[float]]:
        """Each unit's relevance to the question without the names of the people it asks about
        (:func:`~ripplemem.read.supersession.nameless_query`): the cosine with that question's
        vector, centred like the query's; embedded on first use only."""
        found: list[np.ndarray] = []

        def relevance(units: Sequence[MemoryUnit]) -> list[float]:
            if not found:
                vector, text = query_vector, self._nameless_text()
                if text and text != self.query:
                    vector = self._nameless_vector(text)
                    if self.recipe.views.centred_query:
                        vector = centre_query(vector, self.store.centroid(self.namespace))
                found.append(vector)
            return [float(np.dot(found[0], u.vector)) if u.vector is not None else -1.0 for u in units]

        return relevance

    def _nameless_text(self) -> str:
        """The question without the names of the people it asks about, read once (only the
        stages that weigh it read it)."""
        if self._nameless_of is None:
            self._nameless_of = nameless_query(asked_text(self.query, self.question), self.trace.cues)
        return self._nameless_of

    def _embed_nameless_soon(self, text: str) -> None:
        """Start embedding the question without its people's names (``text``) on the query's
        thread, free once the query's vector is there, while the stages before the supersession
        stage, which reads it, run."""
        if text and text != self.query and text not in self._nameless_soon:
            self._nameless_soon[text] = in_background(
                lambda: self.embedder.embed([text], input_type="query")[0],
                name="ripplemem-query-embedding",
            )

    def _nameless_vector(self, text: str) -> np.ndarray:
        """The vector of the question without its people's names (``text``), embedded once."""
        if text not in self._nameless:
            soon = self._nameless_soon.get(text)
            self._nameless[text] = (
                soon.result() if soon is not None
                else self.embedder.embed([text], input_type="query")[0]
            )
        return self._nameless[text]

    def _embed_clauses(self, texts: list[str]) -> np.ndarray:
        """The vectors of clause texts, kept by the statement reader across searches: with an
        embedder whose vectors depend on the texts embedded beside them (``batch_dependent``),
        one text per call, so a kept vector, and the ranking that reads it, does not depend on
        which search embedded it first. Two such calls run at a time (every other text on a
        thread of its own: onnxruntime holds no GIL, and a lone short text keeps a core half
        idle); each text is still embedded alone."""
        embedder = self.embedder
        if not getattr(embedder, "batch_dependent", False):
            return embedder.embed(texts, input_type="document")
        if len(texts) < 2:
            return np.vstack([embedder.embed([text], input_type="document") for text in texts])
        odd = in_background(
            lambda: [embedder.embed([text], input_type="document") for text in texts[1::2]],
            name="ripplemem-clause-embedding",
        )
        vectors: list[np.ndarray] = [np.empty(0)] * len(texts)
        vectors[0::2] = [embedder.embed([text], input_type="document") for text in texts[0::2]]
        vectors[1::2] = odd.result()
        return np.vstack(vectors)

    def _fit(self, texts: Sequence[str]) -> list[float]:
        """The cosine of each of ``texts`` (a unit's clauses) with the question, both without
        the names of the people the question asks about (every clause of theirs names them);
        the clauses' vectors are kept by the statement reader."""
        if not texts or self.statements is None:
            return [0.0] * len(texts)
        cues = self.trace.cues
        text = self._nameless_text()
        if text == self.query and self.raw_query_vector is not None:
            question = self.raw_query_vector  # a question that names nobody: its own vector
        else:
            question = self._nameless_vector(text)
        vectors = np.asarray(self.statements.vectors(
            [" ".join(nameless_query(t, cues).split()[:_CLAUSE_WORDS]) for t in texts],
            self._embed_clauses,
        ))
        norms = np.maximum(np.linalg.norm(vectors, axis=1), 1e-12) * max(float(np.linalg.norm(question)), 1e-12)
        return [float(v) for v in (vectors @ question) / norms]

    def assemble(
        self,
        query_vector: np.ndarray,
        dense: list[tuple[str, float]],
        lexical: list[tuple[str, float]],
    ) -> list[Evidence]:
        """The final deterministic ranking: rho over every candidate, cut to the budget K.

        Candidates are the evidence state C (C0 plus what diffusion added) and, with
        ``recipe.rank.deep_candidates``, the deeper dense / lexical hits down to depth K, so an
        expanded unit has to earn its place against them instead of displacing them.
        """
        recipe, pool = self.recipe, self.pool
        deeper: dict[str, Candidate] = {}
        if recipe.rank.deep_candidates:
            with self.clock("fetch"):
                found = _merge_hits(
                    _hits("dense", dense[recipe.views.dense_k :], start=recipe.views.dense_k),
                    _hits("lexical", lexical[recipe.views.lexical_k :], start=recipe.views.lexical_k),
                )
                extra = _Pool(self.store, self.namespace)
                extra.add({i: h for i, h in found.items() if i not in pool.items})
                deeper = extra.items
        candidates = [*pool.items.values(), *deeper.values()]
        ranked, asso_note = self._score(candidates, query_vector)
        evidence = ranked[: recipe.budget]
        if recipe.context_slots > 0:
            with self.clock("context"):
                context = context_candidates(self.store, self.namespace, ranked, recipe)
            if context:
                ranked, asso_note = self._score([*candidates, *context], query_vector)
                ids = [c.unit.id for c in context]
                evidence = assemble_context(ranked, ids, recipe.budget, recipe.context_slots)
                self.trace.notes.append(
                    f"dialogue context: {len(ids)} units of the neighbouring turns of the top "
                    f"{recipe.context.anchors} units hold slots {recipe.budget - len(ids) + 1}-"
                    f"{recipe.budget} at most"
                )
        if asso_note:
            self.trace.notes.append(asso_note)
        if recipe.rank.answers_follow > 0:
            with self.clock("answers"):
                evidence, answered = answers_follow(
                    evidence, query=self.query, store=self.store, namespace=self.namespace,
                    depth=recipe.rank.answers_follow,
                )
            if answered:
                self.trace.notes.append(f"answers: {answered} answers brought to their questions' places")
        if recipe.rank.focus_sessions > 0:
            with self.clock("focus"):
                evidence, lifted = focus_sessions(
                    evidence, store=self.store, namespace=self.namespace, query=self.query,
                    query_vector=query_vector, sessions=recipe.rank.focus_sessions,
                    depth=recipe.rank.focus_depth,
                )
            if lifted:
                self.trace.notes.append(
                    f"focus: {lifted} statements of the user lifted to their sessions' first units"
                )
        if recipe.rank.coverage > 0 or recipe.rank.session_support > 0:
            reason = asks_for_coverage(self.query, self.trace.cues or Cues())
            if reason and recipe.rank.coverage > 0:
                with self.clock("coverage"):
                    evidence = cover_episodes(evidence, recipe.rank.coverage)
                self.trace.notes.append(f"coverage: the head covers distinct episodes ({reason})")
            elif not reason and recipe.rank.session_support > 0:
                with self.clock("coverage"):
                    evidence = support_sessions(evidence, recipe.rank.session_support)
                self.trace.notes.append(
                    "session support: the units of the sessions that match the question most come first"
                )
        if recipe.rank.supersession:
            # the units' statements and the question are read with English grammar, and their
            # relevance with the embedder: a question in another language is served by the
            # supersedes chains alone (language-free), not by readings of it
            english = self.language == "en"
            with self.clock("supersession"):
                evidence = apply_supersession(
                    evidence, store=self.store, namespace=self.namespace, query=self.query,
                    cues=self.trace.cues, reference_time=self.reference_time,
                    notes=self.trace.notes, relevance=self._relevance(query_vector) if english else None,
                    statements=self.statements if english else None, fit=self._fit if english else None,
                    question=self.question if english else None,
                    language=None if english else self.language,
                )
        kept = {e.unit.id for e in evidence}
        dropped = sum(1 for i in pool.items if i not in kept)
        from_deeper = sum(1 for i in deeper if i in kept)
        self.trace.notes.append(
            f"final ranking: {len(evidence)} of {len(pool.items) + len(deeper)} candidates kept; "
            f"{from_deeper} from deeper view ranks, {dropped} of the recalled and expanded candidates left out"
        )
        return evidence

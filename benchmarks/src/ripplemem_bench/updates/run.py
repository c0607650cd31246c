"""Running the update suite: each conversation into its own namespace, every question per recipe."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from ripplemem import Memory, Settings
from ripplemem.extensions import stages_of
from ripplemem_bench.results.updates import KindScore, UpdateRecipe, UpdatesResult
from ripplemem_bench.updates.cases import UpdateCase
from ripplemem_bench.updates.score import QuestionScore, score_question, summarise

Progress = Callable[[str, int, int | None], None]


def judged_by(base_url: str, model: str | None = None) -> Settings:
    """Settings whose write path asks the LLM at ``base_url`` which earlier memories a new one
    updates (``Settings.updates = "llm"``); extraction, planning and clues stay deterministic, so
    the suite measures the judge alone. The model defaults to ``RIPPLEMEM_LLM_MODEL``, the key to
    ``RIPPLEMEM_LLM_API_KEY`` / ``OPENAI_API_KEY``."""
    env = {**os.environ, "RIPPLEMEM_LLM_BASE_URL": base_url}
    if model:
        env["RIPPLEMEM_LLM_MODEL"] = model
    return Settings.from_env(env, extractor="deterministic", planner="deterministic",
                             clue_writer="deterministic", updates="llm")


def run_updates(
    cases: Sequence[UpdateCase],
    recipes: Sequence[str],
    *,
    settings: Settings | None = None,
    progress: Progress | None = None,
) -> UpdatesResult:
    """Scores per recipe (summary and per question) over ``cases``, in a temporary SQLite store."""
    scores: dict[str, list[QuestionScore]] = {r: [] for r in recipes}
    notes: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="ripplemem-updates-") as folder:
        base = settings or Settings()
        chosen = base.model_copy(update={"store": str(Path(folder) / "updates.db")})
        with Memory(chosen) as memory:
            for done, case in enumerate(cases):
                memory.add(case.conversation(), namespace=case.id)
                for question in case.model.questions:
                    for recipe in recipes:
                        found = memory.search(
                            question.question, namespace=case.id, recipe=recipe,
                            question_time=case.model.question_time,
                        )
                        scores[recipe].append(score_question(question, found.evidence))
                        if recipe == recipes[0]:
                            notes[question.id] = [
                                n for n in found.trace.notes if n.startswith("supersession")
                            ]
                if progress:
                    progress("update cases", done + 1, len(cases))
            stages = stages_of(memory)
    return UpdatesResult(
        kind="updates",
        conversations=len(cases),
        questions=sum(len(c.model.questions) for c in cases),
        extractor=stages.extractor,
        embedder=stages.embedder,
        llm=chosen.llm.model if chosen.llm is not None else None,
        recipes={
            r: UpdateRecipe(
                summary={kind: KindScore(**score) for kind, score in summarise(rows).items()},
                questions=[
                    {**s.to_json(), "notes": notes.get(s.id, [])} if r == recipes[0] else s.to_json()
                    for s in rows
                ],
            )
            for r, rows in scores.items()
        },
    )

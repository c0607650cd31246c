"""Denoising fine-tuning data in chat format (AssoMem's recipe, reference §2).

For each admitted question of a LoCoMo / LongMemEval file: the context pool is the question's gold
turns ∪ the top ``top`` (6) units retrieved by a recipe (``asso`` when it exists, else ``ripple``).
``copies`` (6) examples are written per question, each with all gold turns plus a random subset of
the retrieved units, in shuffled order, so the model learns to find the evidence among noise. The
assistant target is ``"[<question type>] <answer>"``: question-type prediction and answering are
learnt together. The type is the benchmark's own label mapped onto
:data:`~ripplemem.read.asso.qtype.QUESTION_TYPES` (the classifier's guess when there is none).

Lines are ``{"messages": [system, user, assistant]}``, the chat format that OpenAI fine-tuning and
Hugging Face TRL's ``SFTTrainer`` read. Randomness is seeded per question (``seed`` and question
id), so a file is identical across runs and does not depend on ``--limit``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ripplemem.errors import InvalidInputError
from ripplemem.recipes import RECIPES
from ripplemem.settings import Settings
from ripplemem.training.fit_weights import Half, half_of
from ripplemem.training.gold_questions import GoldQuestion, dataset_of, iter_gold
from ripplemem.training.workspace import Workspace, dataset_recipe

if TYPE_CHECKING:
    from ripplemem.records import Conversation, Evidence
    from ripplemem.training.workspace import Progress, StoreKind

SYSTEM_PROMPT = (
    "You answer questions about a user's past conversations using only the memories given. "
    "Some memories are irrelevant: find the ones that answer the question. Reply with the "
    "question type in square brackets, then a short answer."
)


@dataclass(frozen=True, slots=True)
class ContextItem:
    text: str
    gold: bool


@dataclass(frozen=True, slots=True)
class ExportSummary:
    path: Path
    questions: int
    examples: int
    recipe: str
    seed: int


def default_recipe() -> str:
    return "asso" if "asso" in RECIPES else "ripple"


def gold_items(conversation: Conversation, question: GoldQuestion) -> list[ContextItem]:
    """The gold turns as dated lines, in conversation order."""
    items = []
    for session in conversation.sessions:
        for turn in session.turns:
            if turn.turn_id in question.gold_turns:
                text = turn.text + (f" [shares {turn.caption}]" if turn.caption else "")
                items.append(ContextItem(f"{_day(session.time)}{turn.speaker}: {text}", gold=True))
    return items


def retrieved_items(evidence: Sequence[Evidence], top: int, skip: set[str]) -> list[ContextItem]:
    """The best ``top`` retrieved units as dated lines (texts already in ``skip`` left out)."""
    items: list[ContextItem] = []
    for item in evidence:
        if len(items) >= top:
            break
        text = f"{_day(item.unit.session_time)}{item.unit.restatement}"
        if text not in skip:
            skip.add(text)
            items.append(ContextItem(text, gold=False))
    return items


def examples_for(
    question: GoldQuestion,
    gold: list[ContextItem],
    retrieved: list[ContextItem],
    *,
    copies: int,
    seed: int,
) -> list[dict]:
    """``copies`` chat examples: all gold items plus a random subset of the retrieved ones."""
    rng = random.Random(f"{seed}:{question.id}")
    qtype = question.benchmark_type or question.qtype
    examples = []
    for _ in range(copies):
        noise = rng.sample(retrieved, rng.randint(0, len(retrieved))) if retrieved else []
        context = gold + noise
        rng.shuffle(context)
        examples.append({"messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": _user_message(question, context)},
            {"role": "assistant", "content": f"[{qtype}] {question.answer}"},
        ]})
    return examples


def export_finetune(
    path: str | Path,
    out: str | Path,
    *,
    dataset: str | None = None,
    limit: int | None = None,
    settings: Settings | None = None,
    store: StoreKind = "sqlite",
    seed: int = 13,
    copies: int = 6,
    top: int = 6,
    recipe: str | None = None,
    half: Half | None = None,
    progress: Progress | None = None,
) -> ExportSummary:
    """Write the denoising examples of ``path`` to ``out`` (JSONL); see the module docstring."""
    if copies < 1 or top < 0:
        raise InvalidInputError("copies must be at least 1 and top at least 0")
    name = dataset_of(path, dataset)
    recipe = recipe or default_recipe()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    questions = examples = 0
    chosen = dataset_recipe(recipe, dataset=name, settings=settings or Settings())
    with Workspace(name, settings=settings, store=store) as space, \
            out.open("w", encoding="utf-8") as handle:
        for done, (conversation, gold_questions) in enumerate(iter_gold(path, dataset=name, limit=limit)):
            wanted = [q for q in gold_questions if half is None or half_of(q.id) == half]
            if not wanted:
                continue
            if progress is not None:
                progress(f"export {conversation.conversation_id}", done, None)
            with space.sample(conversation) as ingested:
                for question in wanted:
                    gold = gold_items(conversation, question)
                    recall = space.recall(chosen, question.text, ingested.namespace,
                                          question.question_time)
                    evidence = recall.evidence if recall is not None else []
                    noise = retrieved_items(evidence, top, {item.text for item in gold})
                    for example in examples_for(question, gold, noise, copies=copies, seed=seed):
                        handle.write(json.dumps(example, ensure_ascii=False) + "\n")
                        examples += 1
                    questions += 1
    return ExportSummary(out, questions, examples, recipe, seed)


def _user_message(question: GoldQuestion, context: list[ContextItem]) -> str:
    lines = [f"{index}. {item.text}" for index, item in enumerate(context, 1)]
    asked = f" (asked on {question.question_time:%Y-%m-%d})" if question.question_time else ""
    return "Memories:\n" + "\n".join(lines) + f"\n\nQuestion{asked}: {question.text}"


def _day(when: datetime | None) -> str:
    return f"[{when:%Y-%m-%d}] " if when else ""

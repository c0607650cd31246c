"""Shared pieces of the AssoMem evaluation tests: a wider synthetic LoCoMo file and a stand-in
signal source (the RIT ranker's ``candidate_signals`` is wired in product code; tests must not
depend on it)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np

from ripplemem import RecallRecipe
from ripplemem.extensions import embedder_of
from ripplemem.training.gold_questions import GoldQuestion

from .synthetic import locomo_sample

QUESTIONS = [
    ("Where did Ana adopt her cat?", ["D1:3"], 4),
    ("What is the name of Ana's cat?", ["D1:1"], 4),
    ("What colour is Pixel?", ["D1:1", "D1:4"], 4),
    ("Which race did Ben sign up for?", ["D2:1"], 4),
    ("When is Ben's marathon?", ["D2:3"], 2),
    ("How often does Ben train?", ["D2:3"], 4),
    ("When did Ana adopt Pixel?", ["D1:1"], 2),
    ("What do Ana and Ben both care about?", ["D1:1", "D2:1"], 1),
    ("Would Ben likely enjoy running in Porto?", ["D2:1", "D1:3"], 3),
    ("Where is the shelter Ana went to?", ["D1:3"], 4),
]


def wide_locomo(path: Path, conversations: int = 2) -> Path:
    """``conversations`` copies of the synthetic sample, each with ten more questions."""
    samples = []
    for index in range(conversations):
        sample = copy.deepcopy(locomo_sample())
        sample["sample_id"] = f"conv-{index}"
        sample["qa"] += [
            {"question": text, "answer": "x", "evidence": evidence, "category": category}
            for text, evidence, category in QUESTIONS
        ]
        samples.append(sample)
    path.write_text(json.dumps(samples), encoding="utf-8")
    return path


def cosine_source(memory, namespace: str, question: GoldQuestion, recipe: RecallRecipe):
    """Every unit of the namespace with made-up but label-blind signals."""
    units = memory.store.list_units(namespace)
    if not units:
        return []
    query = embedder_of(memory).embed([question.text], input_type="query")[0]
    vectors = np.stack([unit.vector for unit in units])
    relevance = vectors @ query
    return [
        (unit.id, {"relevance": float(score), "importance": len(unit.restatement) / 100.0,
                   "temporal": 0.0})
        for unit, score in zip(units, relevance, strict=True)
    ]

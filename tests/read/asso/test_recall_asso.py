"""The asso recipes end to end through Memory, with the shipped embedder and both stores."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from functools import lru_cache
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.extensions import embedder_of
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.read.asso.rit import candidate_signals, recipe_weights
from ripplemem.read.asso.weights import SignalWeights, save_weights
from ripplemem.recipes import get_recipe
from ripplemem.stores.memory import InMemoryStore

SESSIONS = [
    ("2023-05-14T10:00", [("Maya", "I went hiking in the Alps with Priya, the views were great.")]),
    ("2023-07-20T10:00", [("Maya", "I went hiking in the Alps with Priya, the views were great.")]),
    ("2023-07-21T10:00", [("Sam", "My sister Lena just adopted a grey kitten named Pixel."),
                          ("Maya", "A kitten! Pixel is such a cute name for a cat.")]),
    ("2023-07-25T10:00", [("Sam", "I am training for the Berlin marathon in September."),
                          ("Maya", "Good luck with the marathon training, Sam.")]),
]
ASKED = "2023-08-10T12:00"


@lru_cache(maxsize=1)
def embedder() -> MiniLMFloatEmbedder:
    return MiniLMFloatEmbedder()


def _memory(kind: str, folder: Path) -> Memory:
    settings = Settings(store=folder / "m.db", extractor="deterministic", planner="deterministic")
    memory = Memory(settings, embedder=embedder(), store=InMemoryStore() if kind == "memory" else None)
    for index, (when, turns) in enumerate(SESSIONS):
        messages = [{"speaker": s, "text": t} for s, t in turns]
        memory.add(messages, user_id="maya", session_time=when, session_id=f"s{index}")
    return memory


@pytest.fixture(scope="module", params=["memory", "sqlite"])
def memory(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """The sessions, written once per store kind for the tests that only read them."""
    with _memory(request.param, tmp_path_factory.mktemp("asso")) as memory:
        yield memory


@pytest.fixture(params=["memory", "sqlite"])
def own_memory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Memory]:
    """The same sessions in a memory of the test's own (for a test that changes it)."""
    with _memory(request.param, tmp_path) as memory:
        yield memory


def hike_sessions(result) -> list[str]:
    return [e.unit.episode_id for e in result.evidence if "hiking" in e.unit.restatement]


def test_the_graph_is_built_on_add(memory: Memory) -> None:
    graph = memory.store.clues
    assert 2 <= graph.clue_count("maya") <= 4  # the two identical hikes share one clue
    assert graph.clue_for_session("maya", "s0") == graph.clue_for_session("maya", "s1")


def test_asso_returns_six_with_signals_and_a_trace(memory: Memory) -> None:
    result = memory.search("Who adopted a kitten?", user_id="maya", recipe="asso",
                           question_time=ASKED)
    assert 0 < len(result.evidence) <= 6
    top = result.evidence[0]
    assert "kitten" in top.unit.restatement.lower()
    assert top.terms is not None and set(top.terms.extra) >= {"relevance", "importance", "temporal"}
    assert top.score == pytest.approx(top.terms.total)
    assert all(0.0 <= top.terms.extra[k] <= 1.0 for k in ("relevance", "importance", "temporal"))
    assert result.trace.initial["clues"] and any("clues chosen" in n for n in result.trace.notes)
    assert top.hits[0].view == "clue"
    scores = [e.score for e in result.evidence]
    assert scores == sorted(scores, reverse=True)


def test_temporal_alignment_picks_the_hike_of_last_may(memory: Memory) -> None:
    question = "Where did Maya go hiking last May?"
    asso = memory.search(question, user_id="maya", recipe="asso", question_time=ASKED)
    assert hike_sessions(asso)[0] == "s0"
    blind = memory.search(question, user_id="maya", recipe="asso-no-temporal", question_time=ASKED)
    assert blind.evidence[0].terms.extra["w_temporal"] == 0.0
    recent = memory.search("Where did Maya go hiking?", user_id="maya", recipe="asso",
                           question_time=ASKED)
    assert hike_sessions(recent)[0] == "s1"  # no time named: recency


def test_ablations_change_what_they_say(memory: Memory) -> None:
    no_clues = memory.search("marathon", user_id="maya", recipe="asso-no-clues")
    assert "clues" not in no_clues.trace.initial or not no_clues.trace.initial["clues"]
    assert {h.view for e in no_clues.evidence for h in e.hits} == {"dense"}
    no_importance = memory.search("marathon", user_id="maya", recipe="asso-no-importance")
    assert all(e.terms.extra["importance"] == 1.0 for e in no_importance.evidence)  # not computed
    assert no_importance.evidence[0].terms.extra["w_importance"] == 0.0


@pytest.mark.parametrize("name", ["ripple+asso", "ripple+asso-no-importance"])
def test_ripple_plus_asso_adds_its_terms(memory: Memory, name: str) -> None:
    question = "Where did Maya go hiking last May?"
    fused = memory.search(question, user_id="maya", recipe=name, question_time=ASKED)
    recipe = get_recipe(name)
    # the -no-importance ablation adds temporal alignment only and does not run PPR at all
    with_importance = name == "ripple+asso"
    assert all(("importance" in e.terms.extra) == with_importance for e in fused.evidence)
    for item in fused.evidence:
        extra = item.terms.extra
        rho = item.terms.alignment * recipe.rank.lambda_q + item.terms.provenance * recipe.rank.lambda_p
        rho += item.terms.anchor * recipe.rank.lambda_a
        assert item.score == pytest.approx(
            rho + recipe.asso.lambda_importance * extra.get("importance", 0.0)
            + recipe.asso.lambda_temporal * extra["temporal"]
            + extra.get("time", 0.0)  # a unit of another time than "last May" scores lower
            + extra.get("kind", 0.0)  # and one that holds no value of the kind asked for
        )
    assert hike_sessions(fused)[0] == "s0"
    assert any(n.startswith("asso terms") for n in fused.trace.notes)


def test_candidate_signals_for_the_weight_fitter(memory: Memory) -> None:
    rows = candidate_signals(
        memory.store, memory.store.clues, embedder_of(memory), "maya",
        "Who adopted a kitten?", datetime(2023, 8, 10), get_recipe("asso"),
    )
    assert rows and len({unit_id for unit_id, _ in rows}) == len(rows)
    for _, signals in rows:
        assert set(signals) == {"relevance", "importance", "temporal"}
        assert all(0.0 <= v <= 1.0 for v in signals.values())


def test_fitted_weights_are_used_for_the_question_type(tmp_path: Path) -> None:
    from ripplemem.read.asso.qtype import classify_question

    question = "Where did Maya go hiking last May?"
    qtype = classify_question(question)
    only_time = {"relevance": 0.0, "importance": 0.0, "temporal": 1.0}
    path = save_weights(SignalWeights(by_type={qtype: only_time}), tmp_path / "w.json")
    recipe = get_recipe("asso", asso={"weights_path": str(path)})
    assert recipe_weights(question, recipe) == (qtype, only_time)
    assert recipe_weights(question, recipe.with_(asso={"equal_weights": True}))[1]["temporal"] == pytest.approx(1 / 3)
    both = recipe_weights(question, recipe.with_(asso={"use_temporal": False}))[1]
    assert both == {"relevance": 1.0, "importance": 0.0, "temporal": 0.0}  # nothing left: relevance


def test_deleting_the_namespace_drops_the_graph(own_memory: Memory) -> None:
    own_memory.delete_all(user_id="maya")
    assert own_memory.store.clues.clue_count("maya") == 0

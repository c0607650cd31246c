"""Extraction, planning, answering and judging on the demo conversation with a real model.

Asserts structure and grounding, never wording: every add completes (turns the model fails on
are extracted deterministically and reported), units cite real turns of their session, event
times lie near the session that resolved them, plans anchor on recalled units, answers cite
memories that were shown, verdicts are CORRECT or WRONG. The lane's counts and per-call timings
go to ``$RIPPLEMEM_LLM_REPORT`` when set (docs/llm.md quotes them).
"""

from __future__ import annotations

import json
import os
import time
from datetime import timedelta
from pathlib import Path

import pytest

from ripplemem import Memory, Settings
from ripplemem.demo import load_demo
from ripplemem.providers.openai_compat import OpenAICompatibleChat

REPORT: dict = {"sessions": [], "questions": []}


@pytest.fixture(scope="module")
def memory(local_server, tmp_path_factory) -> Memory:
    settings = Settings(
        store=tmp_path_factory.mktemp("lane") / "demo.db",
        llm=local_server.llm_settings(),
        extractor="llm", planner="llm", clue_writer="deterministic",
    )
    with Memory(settings) as opened:
        yield opened


def test_extraction_completes_on_every_session_and_is_grounded(memory, local_server) -> None:
    conversation, _ = load_demo()
    for session in conversation.sessions:
        started = time.perf_counter()
        result = memory.add([*_messages(session)], namespace="demo", session_time=session.time,
                            session_id=session.session_id)
        turn_ids = {t.turn_id for t in session.turns}
        REPORT["sessions"].append({
            "session": session.session_id, "turns": len(session.turns),
            "units": len(result.units), "fallbacks": [f.to_model().model_dump() for f in result.fallbacks],
            "tokens": result.tokens, "seconds": round(time.perf_counter() - started, 1),
        })
        assert result.units, f"{session.session_id}: nothing stored"
        for unit in result.units:
            assert set(unit.turn_ids) <= turn_ids, (unit.turn_ids, session.session_id)
            assert unit.restatement.strip()
            if unit.time_span is not None and session.time is not None:
                assert abs(unit.time_span.start - session.time) < timedelta(days=3 * 366)
        for fallback in result.fallbacks:
            assert set(fallback.turn_ids) <= turn_ids and fallback.reason
    by_model = [u for u in memory.list(namespace="demo") if "provenance" not in u.extra]
    assert by_model, "the model wrote no unit at all"
    assert any(u.time_span is not None for u in by_model), "no unit has a resolved time"
    _write_report(local_server)


def test_planning_answering_and_judging(memory, local_server) -> None:
    from ripplemem_bench.answers.judge import Judge

    _, questions = load_demo()
    golds = {0: "No: Maya is allergic to seafood and Harbor Grill is a seafood restaurant.",
             1: "The Name of the Wind, The Wise Man's Fear and Mistborn.",
             2: "Two weekends before 2 March 2026, with his sister Priya."}
    with OpenAICompatibleChat(local_server.llm_settings()) as chat:
        judge = Judge(chat)
        for index, item in enumerate(questions):
            started = time.perf_counter()
            recall = memory.search(item["question"], namespace="demo", question_time=item["time"],
                                   limit=10)
            shown = {e.unit.id for e in recall.evidence}
            for plan in recall.trace.plans:
                assert set(plan.anchors) <= shown | {a for p in recall.trace.plans for a in p.anchors}
            answer = memory.answer(item["question"], namespace="demo", question_time=item["time"])
            assert answer.text.strip()
            assert all(1 <= n <= len(answer.evidence) for n in answer.citations)
            verdict = judge.judge(item["question"], golds[index], answer.text)
            assert verdict.label in ("CORRECT", "WRONG"), verdict.error
            REPORT["questions"].append({
                "question": item["question"], "answer": answer.text,
                "citations": list(answer.citations), "uncited": answer.uncited,
                "cited": [e.unit.restatement for e in answer.cited],
                "planners": [p.planner for p in recall.trace.plans],
                "verdict": verdict.label, "seconds": round(time.perf_counter() - started, 1),
            })
    _write_report(local_server)


def _messages(session):
    for turn in session.turns:
        message = {"speaker": turn.speaker, "text": turn.text, "turn_id": turn.turn_id}
        if turn.caption:
            message["caption"] = turn.caption
        yield message


def _write_report(server) -> None:
    target = os.environ.get("RIPPLEMEM_LLM_REPORT")
    if not target:
        return
    REPORT["model"] = server.model
    REPORT["threads"] = server.threads
    REPORT["load_seconds"] = round(server.load_seconds, 1)
    REPORT["calls"] = [c.to_json() for c in server.calls]
    REPORT["loadavg"] = os.getloadavg()
    Path(target).parent.mkdir(parents=True, exist_ok=True)
    Path(target).write_text(json.dumps(REPORT, indent=2) + "\n", encoding="utf-8")

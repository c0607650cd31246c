"""The time parser's bounds: a sentence past its deadline is left to the rules (and the unit says
so), a request's parse budget is shared by its texts, and the parser's CPU counts against a
call's CPU budget. ``"yesterday " * 12`` is the issue's case: over 100 s of Duckling in one call.
"""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from datetime import datetime

from ripplemem import Memory, deadline
from ripplemem.grounding.duckling_process import ZONEINFO, DucklingProcess, cpu_seconds
from ripplemem.grounding.ground_time import PARSER_SHARE, TimeGrounder, parse_budget
from ripplemem.settings import Settings

REF = datetime(2024, 3, 1, 10, 0)
DENSE = "yesterday " * 12


def test_a_sentence_past_its_deadline_is_left_to_the_rules_and_the_parser_restarts() -> None:
    grounder = TimeGrounder(parse_timeout_s=0.3, text_budget_s=1.0)
    try:
        grounder.ground_text("warm up: I met Sam yesterday.", REF)  # the child starts (not timed)
        started = time.monotonic()
        grounding = grounder.ground_text("We camped last weekend, " + DENSE, REF)
        took = time.monotonic() - started
        assert not grounding.complete and grounder.restarts == 1
        assert took < 5, took  # the deadline (0.3 s), a kill and the rules; unbounded: minutes
        assert [t.phrase for t in grounding.times] == ["last weekend"]  # the rules' find stays
        after = grounder.ground_text("We flew to Lisbon on March 3rd, 2021.", REF)  # a new child
        assert after.complete and after.times and after.times[0].span is not None
        assert after.times[0].span.start == datetime(2021, 3, 3)
    finally:
        grounder.close()


def test_a_request_budget_is_shared_by_its_texts() -> None:
    grounder = TimeGrounder(parse_timeout_s=0.3, text_budget_s=1.0)
    try:
        with parse_budget(0.0) as budget:  # spent: no text is parsed, the rules ground alone
            grounding = grounder.ground_text("We flew to Lisbon on March 3rd, 2021.", REF)
        assert not grounding.complete and budget.exhausted and grounder.restarts == 0
        with parse_budget(0.5) as budget:  # one deadline of 0.3 s, then 0.2 s for the rest
            first = grounder.ground_text(DENSE, REF)
            second = grounder.ground_text(DENSE.replace("yesterday", "tonight"), REF)
        assert not first.complete and not second.complete and budget.left < 0.05
    finally:
        grounder.close()


def test_the_parsers_cpu_counts_against_a_cpu_budget() -> None:
    grounder = TimeGrounder(parse_timeout_s=0.4, text_budget_s=1.0)
    try:
        grounder.ground_text("warm up: I met Sam yesterday.", REF)
        with deadline.within(10.0, clock=time.thread_time):
            deadline.check("start")  # this thread's CPU clock starts here
            grounder.ground_text(DENSE, REF)
            left = deadline.remaining()
        # the child ran to its deadline (0.4 s of its CPU, counted); this thread spent ~1 ms
        assert left is not None and left <= 9.65, left
    finally:
        grounder.close()


def test_the_parser_takes_at_most_its_share_of_a_calls_budget(tmp_path, embedder) -> None:
    with deadline.within(2.0, clock=time.thread_time):
        deadline.check("start")
        with parse_budget(100.0) as budget:
            assert budget.left <= PARSER_SHARE * 2.0
    # an add of a time-dense text under a CPU budget: the parser spends its share, the rules
    # ground the rest, and the add completes instead of running out of its budget
    text = ("tomorrow at noon " * 1_200)[:20_000]
    with Memory(Settings(store=str(tmp_path / "memory.db")), embedder=embedder) as memory:
        memory.add([{"speaker": "Alex", "text": "warm up: I met Sam yesterday."}], namespace="warm")
        with deadline.within(2.5, clock=time.thread_time):  # the parser alone would take 3 s
            deadline.check("start")
            added = memory.add([{"speaker": "Alex", "text": text}], namespace="dense", session_time=REF)
        assert added.units and all(u.extra.get("time_grounding") == "rules" for u in added.units)


def test_a_unit_grounded_by_the_rules_alone_says_so(tmp_path, embedder) -> None:
    with Memory(Settings(store=str(tmp_path / "memory.db")), embedder=embedder) as memory:
        dense = memory.add([{"speaker": "Alex", "text": DENSE}], namespace="a", session_time=REF)
        plain = memory.add(
            [{"speaker": "Alex", "text": "I met Sam in Lisbon yesterday."}], namespace="b", session_time=REF
        )
        assert dense.units and plain.units
        stored = memory.get(dense.units[0].id, namespace="a")
        assert stored.extra.get("time_grounding") == "rules"
        assert "time_grounding" not in memory.get(plain.units[0].id, namespace="b").extra
        exported = tmp_path / "a.jsonl"
        memory.export_jsonl(exported, namespace="a")
        units = [json.loads(line) for line in exported.read_text().splitlines()]
        assert any(u.get("extra", {}).get("time_grounding") == "rules" for u in units)


def test_a_parse_that_waits_for_a_core_is_not_cut() -> None:
    """The deadline is the child's CPU, not the caller's clock: a child that cannot run for a
    while (a busy machine; here it is stopped for twice its deadline) still answers, so what a
    unit stores does not depend on the load."""
    process = DucklingProcess(ZONEINFO)
    try:
        stamp = int(REF.timestamp())
        assert process.parse("I met Sam yesterday.", stamp, 1.0).results  # the child is running
        pid = process.pid
        assert pid is not None and cpu_seconds(pid) is not None
        os.kill(pid, signal.SIGSTOP)
        threading.Timer(0.6, os.kill, (pid, signal.SIGCONT)).start()
        started = time.monotonic()
        parsed = process.parse("We flew to Lisbon on March 3rd, 2021.", stamp, 0.3)
        assert time.monotonic() - started >= 0.5  # it did wait past its deadline of wall time
        assert parsed.results and process.restarts == 0 and process.pid == pid
        # CPU spent without end is still cut, at its deadline of CPU
        cut = process.parse(DENSE, stamp, 0.3)
        assert cut.results is None and process.restarts == 1
    finally:
        process.close()


def test_waiting_for_the_parser_spends_no_budget() -> None:
    """A text's parse budget counts the parser's CPU, not the time spent waiting for it: a text
    grounded while another thread holds the parser (threads of one process share one child) is
    read whole, so what an add stores does not depend on what runs beside it."""
    grounder = TimeGrounder(parse_timeout_s=0.3, text_budget_s=0.2)
    try:
        grounder.ground_text("warm up: I met Sam yesterday.", REF)  # the child starts
        parser = grounder._parser()
        held = threading.Event()

        def hold() -> None:  # another thread's parse, as long as three of this text's budgets
            with parser._lock:
                held.set()
                time.sleep(0.6)

        other = threading.Thread(target=hold)
        other.start()
        held.wait()
        started = time.monotonic()
        grounding = grounder.ground_text("We moved on May 3rd, 2021. Then on June 4th, 2021 I started.", REF)
        waited = time.monotonic() - started
        other.join()
        assert waited > 0.4, waited
        assert grounding.complete
        assert [t.span.start for t in grounding.times if t.span] == [datetime(2021, 5, 3), datetime(2021, 6, 4)]
    finally:
        grounder.close()

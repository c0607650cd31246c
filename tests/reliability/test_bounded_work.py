"""Bounded work per request: no text makes an add or a search cost more than a bounded multiple
of what ordinary dialogue of the same length costs.

Hypothesis draws texts built to be expensive: time expressions side by side (Duckling's parse
grows exponentially with them: twelve times "yesterday" took over 100 s), one short pattern
repeated (quote marks, abbreviations, parentheses, CJK, punctuation), and long messages up to
the 20,000-character limit. Each is added as one message and searched with its first 4,000
characters. The bound is relative to a baseline measured in the same run on the same machine
(ordinary dialogue, seconds per 1,000 characters), so a loaded machine slows both sides: it is
``FIXED_S + SLOWER × baseline × characters / 1000`` — generous for load, but exponential growth
(minutes for a hundred characters) cannot pass it. docs/reliability.md has measured numbers.
"""

from __future__ import annotations

import statistics
import time
from itertools import count

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ripplemem import Memory
from ripplemem.settings import Settings

pytestmark = pytest.mark.slow

#: seconds any call may take beyond the proportional part (first use of a parser process, a
#: namespace's first index, a loaded machine's scheduling)
FIXED_S = 5.0
#: how many times slower than ordinary dialogue, per character, an adversarial text may be
SLOWER = 20.0
DIALOGUE = (
    "I went hiking with Priya near Lisbon last weekend and we had pastel de nata after. "
    "My sister Ana is visiting in June, she wants to see the old town and the river. "
    "Did you finish the book about the lighthouse keeper? I loved the ending. "
)
TIME_WORDS = [
    "yesterday", "tomorrow at noon", "tonight", "Dec 3", "3/4", "on Monday", "2 days ago",
    "last Wed", "in the 1990s", "summer", "morning", "10:30", "the 3rd", "next year", "May 2023",
    "from 2015 to 2017", "a week or two ago", "christmas", "at 5pm", "weekend",
]
SEPARATORS = [" ", " ", ", ", " and ", ". ", " - ", "\n"]
PIECES = ['"', '"a" ', "“a” ", "Dr. ", "(", ")", "'", "-a", "... ", "I ", "she told her his ",
          "我昨天", "ok ", "!!", "?", "\t", "a", "1 2 ", "http://x.io/a?b=c ", "Maya and Priya "]

time_dense = st.builds(
    lambda words, seps, size: _fill("".join(w + s for w, s in zip(words, seps)), size),
    st.lists(st.sampled_from(TIME_WORDS), min_size=3, max_size=30),
    st.lists(st.sampled_from(SEPARATORS), min_size=30, max_size=30),
    st.sampled_from([120, 400, 2_000, 20_000]),
)
repetitive = st.builds(
    lambda pieces, size: _fill("".join(pieces), size),
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=3),
    st.sampled_from([300, 4_000, 20_000]),
)
long_mixed = st.builds(
    lambda words, size: _fill(" ".join(words) + ". " + DIALOGUE, size),
    st.lists(st.sampled_from(TIME_WORDS + PIECES), min_size=5, max_size=40),
    st.just(20_000),
)


def _fill(pattern: str, size: int) -> str:
    pattern = pattern or "a"
    text = (pattern * (size // len(pattern) + 1))[:size]
    return text if text.strip() else "x" + text[1:]


@pytest.fixture(scope="module")
def bench(tmp_path_factory, embedder):
    """A store, and the baseline: seconds per 1,000 characters of ordinary dialogue."""
    folder = tmp_path_factory.mktemp("bounded")
    memory = Memory(Settings(store=str(folder / "memory.db")), embedder=embedder)
    memory.add([{"speaker": "Alex", "text": "warm up: I met Sam yesterday at noon."}], namespace="warm")
    samples = []
    for n in range(3):
        text = _fill(DIALOGUE.replace("Priya", f"Priya{n}"), 8_000)  # new units every time
        started = time.perf_counter()
        memory.add([{"speaker": "Alex", "text": text}], namespace=f"base{n}")
        memory.search(text[:4_000], namespace=f"base{n}")
        samples.append((time.perf_counter() - started) / 8)
    names = count()
    yield memory, statistics.median(samples), names
    memory.close()


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])
@given(text=st.one_of(time_dense, repetitive, long_mixed))
def test_no_text_costs_more_than_a_bounded_multiple_of_dialogue(bench, text: str) -> None:
    memory, per_1000, names = bench
    namespace = f"fuzz{next(names)}"
    started = time.perf_counter()
    memory.add([{"speaker": "Alex", "text": text}], namespace=namespace, session_time="2024-03-01T10:00")
    added = time.perf_counter() - started
    started = time.perf_counter()
    if memory.store.count(namespace):
        memory.search(text[:4_000], namespace=namespace, question_time="2024-03-02T10:00")
    searched = time.perf_counter() - started
    bound = FIXED_S + SLOWER * per_1000 * len(text) / 1000
    assert added + searched <= bound, (
        f"{len(text)} characters took {added:.1f} s to add and {searched:.1f} s to search; "
        f"bound {bound:.1f} s (dialogue: {per_1000:.3f} s per 1,000 characters): {text[:120]!r}"
    )

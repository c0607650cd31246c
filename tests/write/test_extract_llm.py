"""The LLM extractor against a real local OpenAI-protocol server with scripted replies."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

from ripplemem.errors import InvalidModelOutputError
from ripplemem.providers.openai_compat import OpenAICompatibleChat
from ripplemem.records import TimeSpan, Turn, Window
from ripplemem.testing import Reply, ScriptedOpenAIServer
from ripplemem.write.extract_llm import LLMExtractor, time_span
from ripplemem.write.prompts import ExtractionResponse, extraction_messages

WHEN = datetime(2023, 5, 8, 13, 56)
WINDOW = Window(
    session_id="S1",
    session_time=WHEN,
    turns=(
        Turn("D1:1", "Caroline", "Hey Mel!"),
        Turn("D1:2", "Melanie", "Hi! How was your weekend?"),
        Turn("D1:3", "Caroline", "I went to a LGBTQ support group yesterday in Boston."),
        Turn("D1:4", "Melanie", "That's so cool!", caption="a photo of a rainbow flag"),
    ),
    speakers=("Caroline", "Melanie"),
    focus_from=2,
)
GOOD_UNIT = {
    "restatement": "Caroline went to an LGBTQ support group in Boston on 7 May 2023.",
    "source_turn_ids": ["D1:3"],
    "participants": ["Caroline"],
    "locations": ["Boston"],
    "time_start": "2023-05-07T00:00:00",
    "time_end": "2023-05-07T23:59:59",
    "time_phrase": "yesterday",
    "keywords": ["LGBTQ support group"],
}
YESTERDAY = TimeSpan(datetime(2023, 5, 7), datetime(2023, 5, 7, 23, 59, 59))


@pytest.fixture
def server() -> Iterator[ScriptedOpenAIServer]:
    with ScriptedOpenAIServer() as running:
        yield running


@pytest.fixture
def extractor(server: ScriptedOpenAIServer) -> Iterator[LLMExtractor]:
    with OpenAICompatibleChat(server.llm_settings(), backoff_s=0.01) as chat:
        yield LLMExtractor(chat)


def test_valid_reply_becomes_grounded_drafts(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(Reply.json({"units": [GOOD_UNIT]}, usage=(900, 100)))
    (drafts,) = extractor.extract([WINDOW])
    (draft,) = drafts
    assert draft.restatement == GOOD_UNIT["restatement"]
    assert draft.turn_ids == ("D1:3",)
    assert draft.participants == ("Caroline",)
    assert draft.locations == ("Boston",)
    assert draft.time_span == YESTERDAY
    assert draft.time_phrases == ("yesterday",)
    assert draft.keywords == ("LGBTQ support group",)
    assert extractor.tokens_used == 1000 and extractor.calls == 1
    assert extractor.name == "llm:scripted-model"
    (request,) = server.requests
    user = request["messages"][-1]["content"]
    assert "2023-05-08 13:56 (Monday)" in user
    assert "[D1:3] Caroline: I went to a LGBTQ support group" in user
    assert "[D1:4] Melanie: That's so cool! [shares a photo of a rainbow flag]" in user
    assert user.index("Context turns") < user.index("[D1:1]") < user.index("Turns to extract")
    assert "response_format" in request


def test_malformed_then_valid_is_repaired(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(
        Reply.malformed(usage=(500, 20)), Reply.json({"units": [GOOD_UNIT]}, usage=(700, 80))
    )
    (drafts,) = extractor.extract([WINDOW])
    assert [d.turn_ids for d in drafts] == [("D1:3",)]
    assert len(server.requests) == 2
    assert extractor.tokens_used == 1300
    assert len(server.requests[1]["messages"]) > len(server.requests[0]["messages"])  # a re-ask


def test_ungrounded_fields_and_unknown_ids_are_dropped(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    invented = dict(
        GOOD_UNIT,
        source_turn_ids=["D1:3", "D9:99"],
        participants=["caroline", "Bob", "Melanie"],
        locations=["Boston", "Paris"],
    )
    unknown_only = dict(GOOD_UNIT, restatement="Someone did something.", source_turn_ids=["D7:1"])
    context_only = dict(GOOD_UNIT, restatement="Caroline greeted Mel.", source_turn_ids=["D1:1"])
    shown = dict(
        GOOD_UNIT,
        restatement="Melanie shared a photo of a rainbow flag.",
        source_turn_ids=["[D1:4]"],
        participants=["Melanie"],
        locations=[],
        time_start=None,
        time_end=None,
        time_phrase=None,
    )
    server.enqueue(Reply.json({"units": [invented, unknown_only, context_only, shown]}))
    (drafts,) = extractor.extract([WINDOW])
    assert [d.turn_ids for d in drafts] == [("D1:3",), ("D1:4",)]
    assert drafts[0].participants == ("Caroline", "Melanie")  # Bob is nowhere in the window
    assert drafts[0].locations == ("Boston",)
    assert drafts[1].time_span is None and drafts[1].time_phrases == ()
    assert extractor.dropped == 2


def test_rate_limit_then_success(server: ScriptedOpenAIServer, extractor: LLMExtractor) -> None:
    server.enqueue(Reply.status(429, retry_after=0), Reply.json({"units": [GOOD_UNIT]}))
    (drafts,) = extractor.extract([WINDOW])
    assert len(drafts) == 1 and len(server.requests) == 2


def test_bad_times_are_left_empty_but_the_phrase_stays(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    backwards = dict(GOOD_UNIT, time_start="2023-05-08", time_end="2023-05-01")
    garbage = dict(GOOD_UNIT, time_start="last Sunday", time_end=None)
    server.enqueue(Reply.json({"units": [backwards, garbage]}))
    (drafts,) = extractor.extract([WINDOW])
    assert [d.time_span for d in drafts] == [None, None]
    assert all(d.time_phrases == ("yesterday",) for d in drafts)


def test_chit_chat_window_and_empty_focus(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(Reply.json({"units": []}))
    empty_focus = Window("S2", WHEN, WINDOW.turns[:2], WINDOW.speakers, focus_from=2)
    assert extractor.extract([WINDOW, empty_focus]) == [[], []]
    assert extractor.calls == 1 and len(server.requests) == 1


def test_persistent_garbage_raises_with_the_window(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    server.enqueue(*[Reply.text("no JSON here")] * 3)
    with pytest.raises(InvalidModelOutputError, match="session 'S1', turns D1:3..D1:4"):
        extractor.extract([WINDOW])
    assert len(server.requests) == 3  # one call and two repairs


@pytest.mark.parametrize(
    "start, end, expected",
    [
        ("2023-05-07", "2023-05-07", YESTERDAY),
        ("2023-05-07", None, YESTERDAY),
        ("2023-05-07T00:00:00Z", "2023-05-07T23:59:59Z", YESTERDAY),
        ("2023-05-07T10:00:00", None, TimeSpan(datetime(2023, 5, 7, 10), datetime(2023, 5, 7, 10))),
        (None, "2023-05-07", None),
        ("2023-05-07", "soon", None),
        ("2023-05-09", "2023-05-07", None),
    ],
)
def test_time_span_parsing(start: str | None, end: str | None, expected: TimeSpan | None) -> None:
    assert time_span(start, end) == expected


def test_prompt_without_session_time_says_so() -> None:
    window = Window("S3", None, WINDOW.turns[2:3], WINDOW.speakers)
    system, *_, user = extraction_messages(window)
    assert "unknown (leave every time_start and time_end null)" in user.content
    assert "Context turns" not in user.content
    assert "pronoun" in system.content and "chit-chat" not in user.content
    assert ExtractionResponse.model_validate({"units": []}).units == []


def test_keywords_must_come_from_the_window(
    server: ScriptedOpenAIServer, extractor: LLMExtractor
) -> None:
    borrowed = dict(GOOD_UNIT, keywords=["LGBTQ support group", "pottery class", "Boston", "go"])
    server.enqueue(Reply.json({"units": [borrowed]}))
    (drafts,) = extractor.extract([WINDOW])
    assert drafts[0].keywords == ("LGBTQ support group", "Boston", "go")

"""A session time given with a UTC offset is one instant on every face, stored in UTC
(docs/reliability.md), and the days a message names are the speaker's: "yesterday", said at 2 am
in UTC+5, is the day before the speaker's date, not before the UTC date."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ripplemem import Memory
from ripplemem.cli.main import app

from .live import LiveServer

TEXT = "Yesterday I ran my first 10k."


@pytest.mark.parametrize(
    ("given", "stored", "yesterday"),
    [
        ("2024-05-10T02:00:00+05:00", datetime(2024, 5, 9, 21, 0), date(2024, 5, 9)),
        ("2024-05-10T23:30:00-07:00", datetime(2024, 5, 11, 6, 30), date(2024, 5, 9)),
        ("2024-05-10T12:00:00Z", datetime(2024, 5, 10, 12, 0), date(2024, 5, 9)),
        ("2024-05-10T12:00:00", datetime(2024, 5, 10, 12, 0), date(2024, 5, 9)),
    ],
)
def test_every_face_stores_the_instant_and_the_speakers_yesterday(
    live: LiveServer, tmp_path: Path, given: str, stored: datetime, yesterday: date
) -> None:
    with Memory.open("memory://") as memory:
        python = memory.add(TEXT, user_id="x", session_time=given).units[0].to_json()
    with live.client("alex") as client:
        added = client.post("/v1/memories", json={"messages": [{"role": "user", "content": TEXT}],
                                                 "session_time": given})
        assert added.status_code == 200, added.text
        rest = added.json()["units"][0]
    chat = tmp_path / "chat.jsonl"
    chat.write_text(json.dumps({"session_id": "s1", "time": given, "speaker": "A", "text": TEXT}) + "\n")
    store = str(tmp_path / "cli.db")
    runner = CliRunner()
    assert runner.invoke(app, ["ingest", str(chat), "--store", store, "-n", "t"]).exit_code == 0
    listed = runner.invoke(app, ["list", "--store", store, "-n", "t", "--json"])
    cli = json.loads(listed.stdout)["memories"][0]
    for face, unit in (("python", python), ("rest", rest), ("cli", cli)):
        assert datetime.fromisoformat(unit["session_time"]) == stored, (face, unit["session_time"])
        start, end = (datetime.fromisoformat(t) for t in unit["time_span"])
        assert start == datetime.combine(yesterday, datetime.min.time()), (face, unit["time_span"])
        assert end.date() == yesterday, (face, unit["time_span"])  # the whole day, to 23:59:59


def test_a_questions_yesterday_is_the_askers_and_finds_the_speakers(live: LiveServer) -> None:
    """The same clock on both sides: asked at 2 am in UTC+5 the next day, "yesterday" of the
    question is the speaker's day the memory names, over REST as in Python."""
    with live.client("alex") as client:
        client.post("/v1/memories", json={"messages": [{"role": "user", "content": TEXT}],
                                          "session_time": "2024-05-10T02:00:00+05:00"})
        client.post("/v1/memories", json={"messages": [{"role": "user", "content": "I baked bread today."}],
                                          "session_time": "2024-05-08T22:00:00+05:00"})
        found = client.post("/v1/search", json={"query": "What did I do the day before yesterday?",
                                                "question_time": "2024-05-11T02:00:00+05:00"}).json()
    span = found["trace"]["cues"]["time_span"]
    assert datetime.fromisoformat(span[0]) == datetime(2024, 5, 9), span
    assert "10k" in found["evidence"][0]["unit"]["restatement"], found["evidence"][0]

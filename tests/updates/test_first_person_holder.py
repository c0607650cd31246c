"""A question in the first person asks about the person of a chat, never the assistant: in a
user/assistant chat the assistant's replies about the person's things ("Yes, Miso!", "Cute
name!") do not make the assistant the holder, and the person's rename said later leads (QA round
7, Q7-03)."""

from __future__ import annotations

import pytest

from ripplemem import Memory


@pytest.fixture
def chat(memory: Memory) -> Memory:
    memory.set_person("Maya", user_id="maya")

    def said(day: str, *turns: str) -> None:
        memory.add(
            [{"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(turns)],
            user_id="maya", session_time=day,
        )

    said("2024-02-05", "I need a birthday gift for my sister.", "How about a nice scarf or a book?")
    said("2024-07-05", "My cat is called Miso.", "Cute name!")
    said("2024-08-05", "Do you remember my cat?", "Yes, Miso!", "Actually we renamed her Tofu, Miso didn't suit her.", "Tofu it is!")
    return memory


@pytest.mark.parametrize("question", ["What is my cat's name?", "What's my cat called?", "What's Maya's cat called?"])
def test_the_persons_rename_leads_not_the_assistants_reply(chat: Memory, question: str) -> None:
    first = chat.search(question, user_id="maya").evidence[0].unit.restatement
    assert "Tofu" in first, first


def test_the_assistant_is_left_out_only_when_asked_to_be() -> None:
    """The assistant says more about the cat than the person does: the holder of a question
    naming nobody is the assistant, of one in the first person (``besides``) the person."""
    from datetime import datetime

    from ripplemem.read.latest_first import holder_of
    from ripplemem.records import MemoryUnit
    from ripplemem.statements import StatementReader
    from ripplemem.write.entities import EntityRecognizer

    def unit(unit_id: str, speaker: str, text: str) -> MemoryUnit:
        return MemoryUnit(
            id=unit_id, namespace="maya", restatement=text, vector=None, participants=(speaker,),
            locations=(), time_span=None, episode_id="S1", turn_ids=(f"S1:{unit_id}",),
            session_time=datetime(2024, 8, 5), created_at=datetime(2024, 8, 5), speakers=(speaker,),
        )

    units = [
        unit("1", "Maya", "Maya said: My cat is called Miso."),
        unit("2", "Assistant", "Assistant said: I remember the cat. I looked up cat names. I love the name."),
    ]
    read = StatementReader(EntityRecognizer().parse).clauses(units)
    words = frozenset({"cat", "name"})
    assert holder_of(None, words, units, read).name == "assistant"
    assert holder_of(None, words, units, read, besides={"assistant"}).name == "maya"


@pytest.mark.parametrize("question", ["Where did Maya live before?", "Where did Maya first live?", "Where did Maya use to live?"])
def test_an_earlier_value_of_an_update_chain_is_the_holders_not_a_relatives(memory: Memory, question: str) -> None:
    """QA round 7, Q7-05: after two ``update()`` calls, another person's home ("My sister Priya
    lives in Bath") is no earlier value of Maya's (a relative's value is someone else's)."""
    first = memory.add([{"speaker": "Maya", "text": "I live in Leeds."}], user_id="maya", session_time="2024-01-01")
    memory.add([{"speaker": "Maya", "text": "I love jazz and play the sax."}], user_id="maya", session_time="2024-02-01")
    memory.add([{"speaker": "Maya", "text": "My sister Priya lives in Bath."}], user_id="maya", session_time="2024-02-02")
    memory.update(first.units[0].id, "I moved to Bristol.", user_id="maya")
    memory.update(first.units[0].id, "Now I live in Cardiff.", user_id="maya")
    found = memory.search(question, user_id="maya").evidence
    assert "Leeds" in found[0].unit.restatement, [e.unit.restatement for e in found[:3]]

"""Small talk said later never leads an answer it has nothing to do with: a statement answers the
same thing as the best answer only in words that fit the question at least half as well (at three
quarters, the pasta case below holds too, but held-out controls were lost), and a statement that fits the question no better than an unrelated
sentence does (:data:`~ripplemem.read.latest_first.CHANCE`) does not pass an earlier answer that no
reading reads. The first three are QA round 7's (Q7-01), the others conversations of their own;
each a few memories in a store of its own (where the bar of what answers is lowest)."""

from __future__ import annotations

from datetime import datetime

import pytest

from ripplemem import Memory


def _said(memory: Memory, person: str, items: list[tuple[str, str]]) -> None:
    for day, text in items:
        memory.add([{"speaker": person, "text": text}], user_id=person.casefold(), session_time=day)


def _first(memory: Memory, person: str, question: str) -> str:
    found = memory.search(question, user_id=person.casefold(), question_time=datetime(2024, 9, 1))
    return found.evidence[0].unit.restatement


@pytest.mark.xfail(strict=True, reason="'I had pasta for dinner' (fit 0.13) answers the same thing as 'I work at Deloitte' "
                   "(0.22) at OWN_WORDS 0.5; at 0.75 it does not, but the held-out update suites lost two controls")
def test_qa7_pasta_does_not_lead_the_job(memory: Memory) -> None:
    _said(memory, "Ben", [
        ("2024-01-05", "I work at Deloitte as an auditor."),
        ("2024-02-11", "I had pasta for dinner."),
        ("2024-06-02", "Google offered me a job but I turned it down, I'm staying put."),
    ])
    assert "Deloitte" in _first(memory, "Ben", "Where does Ben work?")


def test_qa7_a_film_does_not_lead_the_commute(memory: Memory) -> None:
    _said(memory, "Ivy", [
        ("2024-01-05", "I drive to work."),
        ("2024-02-10", "The garden is full of tomatoes this year."),
        ("2024-02-11", "We watched the new Dune film on Saturday."),
        ("2024-06-02", "Imagine if I cycled to work, haha, never going to happen."),
    ])
    assert "drives to work" in _first(memory, "Ivy", "How does Ivy get to work?")


def test_qa7_a_wedding_does_not_lead_the_phone_plan(memory: Memory) -> None:
    _said(memory, "Eve", [
        ("2024-01-05", "My phone plan is with Vodafone, 20GB for 15 pounds."),
        ("2024-02-10", "We watched the new Dune film on Saturday, the sound was incredible."),
        ("2024-02-11", "My sister is getting married in the autumn, I'm a bridesmaid."),
        ("2024-06-02", "Finally ditched Vodafone, I'm on Giffgaff these days, way cheaper."),
    ])
    assert "bridesmaid" not in _first(memory, "Eve", "Which mobile network is Eve on now?")


def test_a_later_meal_does_not_lead_the_job(memory: Memory) -> None:
    _said(memory, "Ola", [
        ("2024-01-08", "I work at the central library on Mill Road."),
        ("2024-03-02", "I had a curry with friends last night."),
        ("2024-05-20", "The university offered me a post but I said no, I'm happy where I am."),
    ])
    assert "library" in _first(memory, "Ola", "Where does Ola work?")


def test_a_later_film_does_not_lead_the_commute(memory: Memory) -> None:
    _said(memory, "Tom", [
        ("2024-01-08", "I walk to school with my brother."),
        ("2024-02-14", "The garden is full of snowdrops this year."),
        ("2024-02-15", "We went to the cinema on Friday."),
        ("2024-06-01", "If I had a bike I'd ride to school, but no chance."),
    ])
    assert "walk" in _first(memory, "Tom", "How does Tom get to school?")


def test_a_later_wedding_does_not_lead_the_provider(memory: Memory) -> None:
    _said(memory, "Rui", [
        ("2024-01-08", "My broadband is with BT, 150 megabits for 30 pounds."),
        ("2024-02-10", "We watched the darts final on Sunday, what a match."),
        ("2024-02-11", "My cousin is getting married in June, I'm the best man."),
    ])
    assert "BT" in _first(memory, "Rui", "Which broadband provider is Rui with now?")

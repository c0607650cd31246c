"""Slot claims: updates are claimed, hypotheticals, plans and other people's changes are not."""

from __future__ import annotations

import pytest

from ripplemem.write.slots import read_claims, restates_value


def _update(old: str, new: str, holder: str = "Maya") -> bool:
    olds, news = read_claims(old, holder), read_claims(new, holder)
    return any(restates_value(n, o) for n in news for o in olds)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maya lives in Leeds, near the station.", "Maya moved to Bristol last month."),
        ("Maya is a data analyst at Lloyds Bank.", "Maya started at Spotify as a data scientist."),
        ("Maya drives a red Mini Cooper.", "Maya sold the Mini and bought a Tesla."),
        ("Maya has been vegetarian for years.", "Maya went fully vegan in November."),
        ("Maya said: The wedding is set for May 20th.", "Maya said: We moved the wedding to September 9th."),
        ("Maya runs about 20 kilometres a week.", "Maya is up to 45 kilometres a week now."),
        ("Maya said: Maya's cat Tom sleeps all day.", "Maya said: Tom passed away. We adopted a puppy called Rex."),
    ],
)
def test_a_new_value_supersedes(old: str, new: str) -> None:
    assert _update(old, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Maya lives in Leeds.", "If Maya ever moved to Munich, she would want a garden."),
        ("Maya lives in Leeds.", "Maya said: Maya's cousin just relocated to Vancouver."),
        ("Maya drives a red Mini.", "Maya test drove a Volvo but decided to keep the Mini."),
        ("Maya works at Trattoria Rossa.", "Maya had an interview at the Ritz but turned the offer down."),
        ("Maya is on keto.", "If Maya quit keto she would eat a whole pizza."),
        ("Maya lives in Leeds.", "Maya lives in Leeds, near the station."),
        ("Maya has two goldfish.", "Maya would love to get a parrot someday."),
        ("Maya has a cat called Tom.", "Maya finally got a kitten named Smoke."),
        ("Maya lives in Leeds.", "Maya was offered a flat in York but said no."),
        ("Maya drives a Ford.", "Maya rented a Kia for the holiday."),
        ("Maya's husband Lars cooks.", "Maya's husband started at Globex."),
    ],
)
def test_no_false_update(old: str, new: str) -> None:
    assert not _update(old, new)


def test_someone_elses_change_is_no_claim_of_the_speaker() -> None:
    assert read_claims("Ivan said: Ivan's sister broke up with her husband last week.", "Ivan") == []
    assert read_claims("Where does Maya live now?", "Maya") == []

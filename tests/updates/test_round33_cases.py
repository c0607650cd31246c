"""Update situations of round 33, written before any rule of that round: an offer, an invitation
or a request put to the holder (told by the holder, "My firm offered me a transfer to Zurich", or
made by the other speaker, "You could take our spare room in Camden") and the holder's answer a
turn or two later, refusing ("I said no", "Politely declined") or taking it ("Signed the contract
this morning"); and a value the holder only thinks about or weighs ("I'm seriously considering
veganism"), against the value the holder has.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round33_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    # an offer told by the holder, answered by the holder after the other's reaction
    Exchange("zurich-transfer", "control", "Ines",
             ("2023-02-06", (("a", "I work in Lisbon as an architect, at a small studio in Alfama."),)),
             ("2023-09-18", (("a", "My firm offered me a transfer to the Zurich office."),
                             ("Tom", "Zurich! Are you going?"),
                             ("a", "I said no, Lisbon is home."))),
             "Does Ines work in Zurich?", "said no, Lisbon", "transfer to the Zurich"),
    Exchange("blue-notes", "control", "Kwame",
             ("2022-04-11", (("a", "I play bass in a jazz trio, we do Thursdays at the Crown."),)),
             ("2022-10-03", (("a", "The Blue Notes asked me to join them as their bassist."),
                             ("Sam", "That's a big step up."),
                             ("a", "Turned them down, I'm loyal to the trio."))),
             "Which band does Kwame play in?", "Turned them down", "The Blue Notes asked"),
    Exchange("mesa-head-chef", "current", "Rui",
             ("2021-05-03", (("a", "I'm a sous-chef at Taberna, on the early shift."),)),
             ("2021-11-15", (("a", "I got an offer to run the kitchen at Mesa, as head chef!"),
                             ("Ana", "Tell me you said yes."),
                             ("a", "Signed the contract this morning."))),
             "Where does Rui work?", "Signed the contract", "sous-chef at Taberna"),
    Exchange("night-rota", "control", "Ben",
             ("2023-01-09", (("a", "I work days at the bakery now, six till two."),)),
             ("2023-06-12", (("a", "My manager asked me to go back on the night rota."),
                             ("Lee", "Will you?"),
                             ("a", "Nope. Told her I'm done with nights."))),
             "Does Ben work nights?", "done with nights", "back on the night rota"),
    Exchange("uncle-volvo", "control", "Zainab",
             ("2022-03-14", (("a", "I drive a little red Fiat 500, it's perfect for the city."),)),
             ("2022-08-29", (("a", "My uncle offered me his old Volvo estate for nothing."),
                             ("Kate", "A free car, nice!"),
                             ("a", "Politely declined, it drinks petrol like mad."))),
             "Does Zainab drive a Volvo?", "Politely declined", "old Volvo estate"),
    Exchange("deloitte-offer", "control", "Yusuf",
             ("2023-03-06", (("a", "I'm an auditor at a mid-size firm in Leeds."),)),
             ("2023-07-24", (("a", "I got an offer from Deloitte last week."),
                             ("Mia", "Congrats! Are you taking it?"),
                             ("a", "I turned it down, the commute would kill me."))),
             "Did Yusuf take the Deloitte job?", "turned it down", "offer from Deloitte"),
    # an offer made by the other speaker, answered by the holder in the next turn
    Exchange("italian-lessons", "control", "Greta",
             ("2022-01-17", (("a", "I'm learning Spanish on Duolingo, day 200 of my streak."),)),
             ("2022-06-20", (("Luca", "My cousin teaches Italian, I could get you a few lessons cheap."),
                             ("a", "Kind of you, but I'll stick with Spanish for now."))),
             "Is Greta learning Italian?", "stick with Spanish", "teaches Italian"),
    Exchange("camden-room", "control", "Theo",
             ("2023-04-03", (("a", "I rent a room in a shared house in Brixton."),)),
             ("2023-10-09", (("Ruth", "You could take our spare room in Camden if you like, it's going cheap."),
                             ("a", "Thanks, but I'm happy in Brixton."))),
             "Does Theo live in Camden?", "happy in Brixton", "spare room in Camden"),
    Exchange("city-chorus", "current", "Hana",
             ("2021-09-06", (("a", "I sing alto in the church choir on Sundays."),)),
             ("2022-02-14", (("Ed", "The city chorus is looking for altos, you should audition."),
                             ("a", "I did! Got in, and my first rehearsal with them is on Tuesday."))),
             "Which choir does Hana sing in?", "Got in", "church choir"),
    Exchange("renew-two-years", "current", "Femi",
             ("2022-06-06", (("a", "Our rent is 1100 a month for the flat."),)),
             ("2023-05-22", (("a", "The landlord asked if we'd renew for two years at 1200."),
                             ("Jo", "Will you?"),
                             ("a", "We said yes, it's still cheaper than moving."))),
             "How much rent does Femi pay?", "We said yes", "1100 a month"),
    Exchange("kittens", "control", "Ada",
             ("2023-01-23", (("a", "I have one cat, a grumpy tabby called Biscuit."),)),
             ("2023-05-08", (("Nina", "Our cat had kittens, I could give you one of them."),
                             ("a", "Honestly no, Biscuit would never forgive me."))),
             "Does Ada have a kitten?", "Biscuit would never", "had kittens"),
    Exchange("brother-hong-kong", "control", "Owen",
             ("2022-11-07", (("a", "I work at a building society in Swansea."),)),
             ("2023-03-20", (("a", "HSBC offered my brother a job in Hong Kong, he leaves in May."),
                             ("Bea", "Wow, good for him."),
                             ("a", "Anyway, how was your weekend?"))),
             "Where does Owen work?", "building society", "Hong Kong"),
    # a value only thought about or weighed
    Exchange("considering-veganism", "control", "Lior",
             ("2022-02-28", (("a", "I'm pescatarian, fish twice a week and no meat."),)),
             ("2022-09-05", (("a", "I'm seriously considering veganism after that documentary."),)),
             "Is Lior vegan?", "pescatarian", "considering veganism"),
    Exchange("thinking-law", "control", "Priya",
             ("2023-01-16", (("a", "I'm a history major in my second year."),)),
             ("2023-04-24", (("a", "I'm thinking about law, honestly, history doesn't lead anywhere."),)),
             "Does Priya study law?", "history major", "thinking about law"),
    Exchange("weighing-bristol", "control", "Sol",
             ("2022-07-04", (("a", "I live in Exeter, ten minutes from the quay."),)),
             ("2023-01-30", (("a", "Been weighing up Bristol for a while, the jobs are better there."),)),
             "Does Sol live in Bristol?", "Exeter", "weighing up Bristol"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {
    "renew-two-years": "the landlord's request shares no word with 'How much rent does Femi pay?' (renew / rent), so "
                       "the answer is not brought to it, and 'We said yes' gives no value: the new rent is only in "
                       "the request",
    "considering-veganism": "the memory of the true value ('Lior is pescatarian') fits 'Is Lior vegan?' more than "
                            "0.25 less than the weighed one: it does not answer, so nothing goes above the weighing",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round33_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)

"""Update situations of round 30, written after the rule they test (read/adjacency.py: a
question of what to do is answered by what follows it, developed on the fresh update suite's
tune split) and before any change to it: the holder asks whether they should change something,
someone answers (an assistant's advice or a friend's word), and the holder's next turn says what
they did or will do, against the value the question weighs.
Two thirds of them (every case but each third one as written): the part the rule may be mended
against; the rest is test_round30_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("up-at-five", "control", "Nadia",
             ("2023-01-09", (("a", "I get up at 6:30 on weekdays, it's plenty early."),)),
             ("2023-05-15", (("a", "My sister swears by cold showers at 5am. Should I start getting up at 5?"),
                             ("Assistant", "Getting up at 5 means going to bed by 9, which many people find hard to sustain."),
                             ("a", "No way, 6:30 suits me fine."))),
             "Has Nadia started getting up at 5?", "6:30 suits", "start getting up at 5"),
    Exchange("vegan-flatmate", "control", "Kim",
             ("2022-02-07", (("a", "I eat meat but not much, mostly chicken."),)),
             ("2022-08-22", (("a", "Should I go vegan like my flatmate?"),
                             ("Sam", "Only if you really want to, it's a big change."),
                             ("a", "Yeah, not for me, I'll keep eating chicken."))),
             "Has Kim gone vegan?", "keep eating chicken", "go vegan like"),
    Exchange("cycle-in", "current", "Ana",
             ("2021-03-01", (("a", "I take the bus to work every morning."),)),
             ("2021-09-13", (("a", "Should I cycle to work instead?"),
                             ("Assistant", "Cycling is cheaper and keeps you fit; look for a route with a bike lane."),
                             ("a", "Good call, I bought a bike on Saturday and rode in all week."))),
             "How does Ana get to work?", "rode in all week", "bus to work"),
    Exchange("gym-stay", "control", "Joe",
             ("2023-02-02", (("a", "I'm a member of PureGym on Canal Street, I go most mornings."),)),
             ("2023-06-29", (("a", "Should I switch to the council leisure centre? It's cheaper."),
                             ("Sam", "The pool there is great, but it's always packed."),
                             ("a", "Decided to stay at PureGym, I can't face the crowds."))),
             "Which gym is Joe a member of?", "stay at PureGym", "council leisure centre"),
    Exchange("clinic-offer", "control", "Ola",
             ("2022-04-04", (("a", "I'm a nurse at St James's hospital, on the children's ward."),)),
             ("2022-10-10", (("a", "I've been offered a job at a private clinic. Should I take it?"),
                             ("Assistant", "Weigh the pay against the pension and the team you'd leave behind."),
                             ("a", "I turned it down in the end, I'd miss my ward too much."))),
             "Does Ola work at a private clinic?", "turned it down", "job at a private clinic"),
    Exchange("pixel-or-wait", "current", "Leo",
             ("2023-01-16", (("a", "I've had my iPhone 11 for four years now."),)),
             ("2023-11-20", (("a", "Should I get the Pixel 8 or wait for the next one?"),
                             ("Assistant", "The Pixel 8 is well priced now and will get updates for seven years."),
                             ("a", "Went for the Pixel 8 in the end, the camera is amazing."))),
             "What phone does Leo have?", "Pixel 8 in the end", "iPhone 11"),
    Exchange("leeds-parents", "control", "Tess",
             ("2022-05-09", (("a", "We rent a flat in Manchester, near the canal."),)),
             ("2022-12-05", (("a", "Should we move to Leeds to be nearer my parents?"),
                             ("Sam", "Leeds is lovely, but both your jobs are here."),
                             ("a", "You're right, we're staying put."))),
             "Does Tess live in Leeds?", "staying put", "move to Leeds"),
    Exchange("piano-quit", "control", "Ben",
             ("2021-01-11", (("a", "I have piano lessons every Tuesday evening."),)),
             ("2021-06-21", (("a", "Honestly, should I quit piano? I never practise."),
                             ("Assistant", "Try ten minutes a day for a month before you give up."),
                             ("a", "Fair enough, I'll keep going on Tuesdays."))),
             "Has Ben quit piano?", "keep going on Tuesdays", "quit piano"),
    Exchange("dog-at-last", "current", "Pia",
             ("2022-03-14", (("a", "We don't have any pets, the landlord won't allow it."),)),
             ("2022-09-26", (("a", "The landlord finally agreed. Should we get a dog?"),
                             ("Sam", "Yes! Get a rescue."),
                             ("a", "We did, a lurcher called Moss, we picked him up yesterday."))),
             "Does Pia have any pets?", "lurcher called Moss", "don't have any pets"),
]
#: the part the rule may be mended against (each third case as written is kept apart)
CASES = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass, and why
NOT_YET: dict[str, str] = {
    "clinic-offer": "'Ola has been offered a job at a private clinic' is a memory of its own that reports (an "
                    "offer), above the one that turned it down; the question of what to do ('Should Ola take it?') "
                    "shares no word with the query and does not rank: an offer declined is read by supersession's "
                    "grammar, not by this rule",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round30_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)

"""Update situations of round 34, written before any rule of that round: a yes-or-no question in
the present ("Is Tariq's dentist Dr Moss?", "Does Ana drive an electric car?") that names a value
a later memory speaks of without making it the holder's (someone else's, a wish, a look that came
to nothing), while the holder's own value was told in an earlier session; and, beside them, the
holder's real change to the named value, which must come first.
Two thirds of them (every case but each third one as written): the part the rules of that round
are developed against; the rest is test_round34_apart.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ripplemem import Memory

from .exchanges import Exchange, build, holds
from .round4 import with_reasons

ALL = [
    Exchange("octopus-friend", "control", "Maya",
             ("2023-02-13", (("a", "We're with EDF for gas and electricity, fixed until the spring."),)),
             ("2023-08-21", (("Sam", "We moved to Octopus in June and saved loads."),
                             ("a", "Good for you, honestly."))),
             "Is Maya's energy supplier Octopus?", "with EDF", "moved to Octopus"),
    Exchange("spotify-switch", "current", "Leo",
             ("2022-03-07", (("a", "I pay for Apple Music, the family plan with my parents."),)),
             ("2022-09-12", (("a", "Cancelled Apple Music and got Spotify instead, the playlists are better."),)),
             "Does Leo have a Spotify subscription?", "got Spotify", "the family plan"),
    Exchange("neighbour-kia", "control", "Ana",
             ("2023-01-09", (("a", "I drive a grey Skoda Octavia, a diesel, to the depot every morning."),)),
             ("2023-06-05", (("a", "My neighbour just got an electric Kia, she keeps showing it off."),)),
             "Does Ana drive an electric car?", "Skoda Octavia", "electric Kia"),
    Exchange("son-dentist", "control", "Tariq",
             ("2022-05-16", (("a", "My dentist is Dr Iqbal on King Street, I've been going for years."),)),
             ("2022-11-21", (("a", "My son's dentist is Dr Moss, she's lovely with kids."),)),
             "Is Tariq's dentist Dr Moss?", "Dr Iqbal", "Dr Moss"),
    Exchange("tennis-club", "current", "Bea",
             ("2021-10-04", (("a", "I play squash at the leisure centre on Tuesdays."),)),
             ("2022-04-25", (("a", "I joined the tennis club last month, finally! Gave up squash."),)),
             "Is Bea a member of the tennis club?", "joined the tennis club", "squash at the leisure"),
    Exchange("sister-home", "control", "Noor",
             ("2023-03-20", (("a", "I'm in the office every day, hot desk on the fourth floor."),)),
             ("2023-09-25", (("a", "My sister works from home now, lucky thing."),)),
             "Does Noor work from home?", "in the office every day", "sister works from home"),
    Exchange("violin-someday", "control", "Kai",
             ("2022-01-10", (("a", "I play cello in the university orchestra."),)),
             ("2022-07-18", (("a", "I'd love to learn the violin someday, it sounds so bright."),)),
             "Does Kai play the violin?", "cello in the university", "learn the violin"),
    Exchange("flatmate-veggie", "control", "Rosa",
             ("2023-04-03", (("a", "I eat everything, me. Steak is my weakness."),)),
             ("2023-10-02", (("a", "My flatmate went vegetarian and now the fridge is all tofu."),)),
             "Is Rosa vegetarian?", "Steak is", "went vegetarian"),
    Exchange("berlin-flats", "control", "Ivo",
             ("2022-06-13", (("a", "I live in Leipzig, near the zoo, in a flat with a balcony."),)),
             ("2022-12-12", (("a", "We looked at flats in Berlin in the autumn but stayed put."),)),
             "Does Ivo live in Berlin?", "Leipzig", "flats in Berlin"),
    # the holder's own wish or near miss for the named value, after their value in other words
    Exchange("pool-not-gym", "control", "Omar",
             ("2023-01-16", (("a", "I cancelled the gym and swim at the council pool three mornings a week."),)),
             ("2023-05-29", (("a", "Fitness First has a summer offer, maybe I should sign up... nah, the pool is enough."),)),
             "Does Omar have a membership at Fitness First?", "council pool", "Fitness First has"),
    Exchange("kindle-paper", "control", "Greta",
             ("2022-02-07", (("a", "I only read paper books now, I gave my e-reader to my nephew."),)),
             ("2022-08-15", (("a", "The new Kindle looks lovely, I was this close to ordering one, then didn't."),)),
             "Does Greta read on a Kindle?", "paper books", "new Kindle"),
    Exchange("lisbon-dream", "control", "Hugo",
             ("2023-03-13", (("a", "We rent a terraced house in Bristol, two streets from the harbour."),)),
             ("2023-09-18", (("a", "Honestly I'd move to Lisbon tomorrow if the jobs were there."),)),
             "Does Hugo live in Lisbon?", "terraced house in Bristol", "move to Lisbon"),
    # the same, with the holder's value and wish in one verb (written after reading a tune
    # question of blind4, aiko-streaming-q2, for the rule that reads it)
    Exchange("console-too", "control", "Bruno",
             ("2022-10-03", (("a", "I sold my old laptop and got a PlayStation 5 instead."),)),
             ("2023-02-20", (("Pedro", "Come round and play Forza, I've got an Xbox now."),
                             ("a", "Maybe I should get an Xbox too... no, one console is plenty."))),
             "Does Bruno have an Xbox?", "got a PlayStation", "get an Xbox too"),
    Exchange("garmin-too", "control", "Lina",
             ("2023-04-10", (("a", "I got a Fitbit for my birthday, it tracks all my runs."),)),
             ("2023-08-07", (("Jo", "My new Garmin is amazing on trail runs, I've got the Forerunner."),
                             ("a", "Maybe I should get a Garmin too... nah, the Fitbit does the job."))),
             "Does Lina have a Garmin?", "got a Fitbit", "get a Garmin too"),
]

CASES: list[Exchange] = [c for i, c in enumerate(ALL) if i % 3 != 2]

#: cases the read path does not pass yet, and why
NOT_YET: dict[str, str] = {
    "kindle-paper": "'Greta only reads paper books now' answers 'Does Greta read on a Kindle?' more than 0.25 below "
                    "her near miss with the new Kindle, and says it in other words than it (read / order): it is "
                    "not read beside it, so the near miss stays first",
    "flatmate-veggie": "Rosa's own words give no value: 'I eat everything' has a pronoun for its object, and 'Steak "
                       "is my weakness' is read as about Steak (a name at the start of a sentence), so nothing of "
                       "hers goes above her flatmate's going vegetarian",
}


@pytest.fixture(scope="module")
def asked(embedder) -> Iterator[Memory]:
    with build(CASES, embedder) as opened:
        yield opened


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round34_cases(asked: Memory, case: Exchange) -> None:
    assert holds(asked, case)

"""Synthetic memory units for speed and scale benchmarks: fixed seed, realistic shape, no data set.

:class:`SyntheticMemories` builds unit ``i`` from its own seeded random stream, so any unit can be
rebuilt by index and the first ``n`` units are the same whatever total is asked for. Units come in
sessions of :data:`SESSION_UNITS`; a session has a time (uniform over :data:`YEARS` years, not in
insertion order: the store fills like an import, so the density of memories per day grows with
the store) and a cast of 2-4 people drawn with a skew (some people come up far more often).

Each unit is a third-person restatement of 12-40 words built from templates over ~200 person
names, ~100 places (cities and venues), ~50 activities and ~50 objects, like the restatements the
extractor writes. Participants: 1-3 people of the session's cast. About 20 % of units carry a
location (named in the text), about 10 % a grounded time span (a day, week or month before the
session, with its phrase in the text). Keywords are the content words, as the extractor keeps;
a unit's ``extra`` holds its place in its session (``turn_index``), as the write path's do.

:meth:`SyntheticMemories.question` asks about a unit ("What did Maya do in Lisbon?",
"When did Omar go kayaking?", ...) so the cue, lexical and dense views all have something to find.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from ripplemem.records import MemoryUnit, TimeSpan

__all__ = [
    "ACTIVITIES",
    "OBJECTS",
    "PEOPLE",
    "PLACES",
    "SESSION_UNITS",
    "SyntheticMemories",
    "SyntheticMemory",
]

SESSION_UNITS = 16
YEARS = 3
START = datetime(2021, 1, 4, 8, 0)
CREATED_AT = datetime(2024, 1, 10, 12, 0)

PEOPLE: tuple[str, ...] = tuple(
    """
    Maya Omar Lena Jonas Priya Diego Aiko Samuel Chloe Mateo Fatima Lucas Ingrid Ravi Sofia Noah
    Amara Felix Yuki Daniel Leila Hugo Nadia Ethan Zara Tomas Mei Oliver Aisha Marco Hana Liam
    Elena Kwame Clara Arjun Ines Victor Freya Tariq Julia Kenji Rosa Adam Nora Emil Lucia Ahmed
    Greta Pablo Selin Oscar Anya Malik Iris Theo Mira Rafael Esme Idris Paula Caleb Sana Bruno
    Alma Jasper Dalia Mikael Rhea Sebastian Noor Anton Ivy Joaquin Layla Henrik Tara Luca Vera
    Kofi Elise Andre Yara Milan Naomi Farid Lotte Gabriel Asha Nils Carmen Isaac Dina Stefan
    Kira Leon Rania Otto Beatriz Caroline Melanie Jon Gina Tim Audrey Andrew Evan Sam Joanna
    Nate Deborah Jolene John Maria Calvin Dave James Tyler Grace Hannah Molly Zoe Ruby Ella
    Jack Harry Ben Max Leo Finn Arthur Alfie Ava Isla Freddie Poppy Rosie Lily Amelia Charlie
    Evie Archie Ivan Olga Dmitri Katya Pavel Sven Astrid Bjorn Sigrid Pierre Amelie Jules Manon
    Camille Matteo Giulia Lorenzo Chiara Alessia Javier Rocio Alvaro Marta Nuno Joana Tiago Rui
    Wei Jun Lin Hiro Sakura Ren Min Jae Soo Ji Arash Darius Shirin Kaveh Mina Tunde Ngozi Chidi
    Ada Zainab Musa Amina Kojo Efua Thabo Lerato Sipho Nomsa Mateus Camila Valentina Santiago
    """.split()  # noqa: SIM905
)
# fmt: off
PLACES: tuple[str, ...] = (
    "Lisbon", "Porto", "Madrid", "Barcelona", "Paris", "Lyon", "Berlin", "Munich", "Vienna",
    "Prague", "Budapest", "Warsaw", "Krakow", "Copenhagen", "Stockholm", "Oslo", "Helsinki",
    "Dublin", "Edinburgh", "London", "Manchester", "Amsterdam", "Rotterdam", "Brussels", "Zurich",
    "Geneva", "Milan", "Rome", "Naples", "Florence", "Athens", "Istanbul", "Cairo", "Marrakesh",
    "Cape Town", "Nairobi", "Lagos", "Accra", "Tokyo", "Kyoto", "Osaka", "Seoul", "Taipei",
    "Bangkok", "Hanoi", "Singapore", "Sydney", "Melbourne", "Auckland", "Vancouver", "Toronto",
    "Montreal", "Boston", "Chicago", "Denver", "Seattle", "Portland", "Austin", "Mexico City",
    "Lima", "Harbor Grill", "Riverside Park", "Lincoln High School", "Maple Street Library",
    "Sunset Beach", "Greenwood Gym", "Oak Hill Farm", "Blue Lake", "Pine Ridge Trail",
    "City Art Museum", "Central Station", "Old Town Square", "Rosewood Cafe", "Hillside Bakery",
    "Northgate Mall", "Westside Clinic", "Eastfield Stadium", "Willow Creek Camp",
    "Silver Screen Cinema", "Golden Dragon Restaurant", "Lakeside Community Center",
    "St Mary's Hospital", "Crescent Theatre", "Bayview Aquarium", "Cedar Valley Ranch",
    "Elm Street Studio", "Harmony Music Hall", "Summit Climbing Gym", "Meadow Garden",
    "Starlight Bar", "Union Market", "Brookside Pub", "Kingsley University", "Redwood Academy",
    "Fox Island", "Mount Rainier", "Clearwater River", "Seaside Hotel", "Parkview Zoo",
    "Corner Bistro",
)
# (base form, past tense, -ing form)
ACTIVITIES: tuple[tuple[str, str, str], ...] = (
    ("go hiking", "went hiking", "hiking"),
    ("go kayaking", "went kayaking", "kayaking"),
    ("go camping", "went camping", "camping"),
    ("go swimming", "went swimming", "swimming"),
    ("go running", "went running", "running"),
    ("go cycling", "went cycling", "cycling"),
    ("go climbing", "went climbing", "climbing"),
    ("go skiing", "went skiing", "skiing"),
    ("go surfing", "went surfing", "surfing"),
    ("go fishing", "went fishing", "fishing"),
    ("go dancing", "went dancing", "dancing"),
    ("go shopping for furniture", "went shopping for furniture", "shopping for furniture"),
    ("paint landscapes", "painted landscapes", "painting landscapes"),
    ("bake sourdough bread", "baked sourdough bread", "baking sourdough bread"),
    ("cook a Thai curry", "cooked a Thai curry", "cooking a Thai curry"),
    ("play the guitar", "played the guitar", "playing the guitar"),
    ("play chess", "played chess", "playing chess"),
    ("play basketball", "played basketball", "playing basketball"),
    ("play tennis", "played tennis", "playing tennis"),
    ("practise yoga", "practised yoga", "practising yoga"),
    ("learn Spanish", "learned Spanish", "learning Spanish"),
    ("learn pottery", "learned pottery", "learning pottery"),
    ("volunteer at the shelter", "volunteered at the shelter", "volunteering at the shelter"),
    ("visit a museum", "visited a museum", "visiting a museum"),
    ("watch a concert", "watched a concert", "watching a concert"),
    ("see a play", "saw a play", "seeing a play"),
    ("read a mystery novel", "read a mystery novel", "reading a mystery novel"),
    ("write poetry", "wrote poetry", "writing poetry"),
    ("take photos of birds", "took photos of birds", "taking photos of birds"),
    ("plant tomatoes", "planted tomatoes", "planting tomatoes"),
    ("adopt a puppy", "adopted a puppy", "adopting a puppy"),
    ("train for a marathon", "trained for a marathon", "training for a marathon"),
    ("attend a pride parade", "attended a pride parade", "attending a pride parade"),
    ("join a book club", "joined a book club", "joining a book club"),
    ("start a new job", "started a new job", "starting a new job"),
    ("move to a new apartment", "moved to a new apartment", "moving to a new apartment"),
    ("renovate the kitchen", "renovated the kitchen", "renovating the kitchen"),
    ("fix an old motorbike", "fixed an old motorbike", "fixing an old motorbike"),
    ("knit a scarf", "knitted a scarf", "knitting a scarf"),
    ("build a treehouse", "built a treehouse", "building a treehouse"),
    ("organise a charity run", "organised a charity run", "organising a charity run"),
    ("host a dinner party", "hosted a dinner party", "hosting a dinner party"),
    ("study for an exam", "studied for an exam", "studying for an exam"),
    ("apply for a scholarship", "applied for a scholarship", "applying for a scholarship"),
    ("go to a job interview", "went to a job interview", "going to a job interview"),
    ("see a doctor about a knee injury", "saw a doctor about a knee injury",
     "seeing a doctor about a knee injury"),
    ("record a podcast", "recorded a podcast", "recording a podcast"),
    ("sing in a choir", "sang in a choir", "singing in a choir"),
    ("go stargazing", "went stargazing", "stargazing"),
    ("go on a road trip", "went on a road trip", "going on a road trip"),
)
OBJECTS: tuple[str, ...] = (
    "vintage camera", "electric guitar", "mountain bike", "sketchbook", "telescope",
    "pottery wheel", "yoga mat", "sewing machine", "record player", "drone", "tent", "kayak",
    "hiking boots", "chess set", "cookbook", "coffee grinder", "watercolour set", "violin",
    "skateboard", "laptop", "smartwatch", "film projector", "bonsai tree", "aquarium",
    "bird feeder", "sourdough starter", "board game", "puzzle", "journal", "painting", "necklace",
    "quilt", "bookshelf", "surfboard", "fishing rod", "piano", "microphone", "garden bench",
    "ceramic vase", "photo album", "wool sweater", "running shoes", "snowboard", "canvas bag",
    "desk lamp", "family recipe", "letter from grandma", "concert ticket", "medal", "trophy",
)
ADJECTIVES: tuple[str, ...] = (
    "relaxing", "exhausting", "a lot of fun", "surprisingly hard", "really peaceful",
    "unforgettable", "a bit scary", "very rewarding", "chaotic but great", "inspiring",
)
REASONS: tuple[str, ...] = (
    "it helps with stress after work",
    "a friend recommended it last year",
    "it reminds them of their childhood",
    "they want to be healthier this year",
    "it is a good way to meet new people",
    "they have always wanted to try it",
    "the weather was perfect for it",
    "it brings the whole family together",
    "they need a break from studying",
    "it makes them feel more confident",
    "their therapist suggested a new hobby",
    "it was on their bucket list",
)
DETAILS: tuple[str, ...] = (
    "was a gift from their sister",
    "they found at a flea market",
    "took months of saving to afford",
    "they plan to use every weekend",
    "broke on the first day and had to be repaired",
    "has become their favourite thing in the house",
    "belonged to their grandfather",
    "they bought second hand online",
)
FEELINGS: tuple[str, ...] = (
    "proud", "nervous", "excited", "grateful", "tired but happy", "a little overwhelmed", "calm",
    "motivated",
)
MONTHS: tuple[str, ...] = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)
# fmt: on
_STOP = frozenset(
    "a an the to of for at in on and with about from their new old".split()  # noqa: SIM905
)


@dataclass(frozen=True, slots=True)
class SyntheticMemory:
    """One synthetic unit and what it was built from (for asking questions about it)."""

    unit: MemoryUnit
    topic: int  # index into ACTIVITIES: units of one topic talk about the same activity
    item: str  # the object it mentions


class SyntheticMemories:
    """A deterministic, random-access stream of synthetic :class:`MemoryUnit` (no vectors)."""

    def __init__(self, seed: int = 0, *, namespace: str = "bench") -> None:
        self.seed = seed
        self.namespace = namespace
        self._people_weights = [1.0 / (rank + 8) for rank in range(len(PEOPLE))]  # skewed

    @property
    def reference_time(self) -> datetime:
        """A moment after every session: when questions are asked."""
        return START + timedelta(days=365 * YEARS + 1)

    def take(self, start: int, stop: int) -> list[SyntheticMemory]:
        return [self.memory(i) for i in range(start, stop)]

    def memory(self, index: int) -> SyntheticMemory:
        if index < 0:
            raise ValueError(f"unit index must be >= 0, got {index}")
        session = index // SESSION_UNITS
        when, cast = self._session(session)
        rng = random.Random(f"{self.seed}:unit:{index}")
        count = rng.choices((1, 2, 3), weights=(50, 35, 15))[0]
        people = [cast[0]] + rng.sample(cast[1:], min(count, len(cast)) - 1)
        topic = rng.randrange(len(ACTIVITIES))
        item = rng.choice(OBJECTS)
        place = rng.choice(PLACES) if rng.random() < 0.20 else None
        span, phrase = self._time_span(rng, when) if rng.random() < 0.10 else (None, None)
        text = _restatement(rng, people, topic, item, place, phrase)
        keywords = _keywords(text, ACTIVITIES[topic][2], item, place)
        unit = MemoryUnit(
            id=f"s{self.seed}u{index:07d}",
            namespace=self.namespace,
            restatement=text,
            vector=None,
            participants=tuple(people),
            locations=(place,) if place else (),
            time_span=span,
            episode_id=f"session-{session}",
            turn_ids=(f"D{session}:{index % SESSION_UNITS + 1}",),
            session_time=when,
            created_at=CREATED_AT,
            time_phrases=(phrase,) if phrase else (),
            keywords=keywords,
            # its place in the session, as the write path records it: what the dialogue-context
            # stage reads to find a unit's neighbouring turns
            extra={"turn_index": index % SESSION_UNITS},
        )
        return SyntheticMemory(unit, topic, item)

    def question(self, rng: random.Random, memory: SyntheticMemory) -> str:
        """A question a user could ask about ``memory``, naming its people, place or time."""
        unit = memory.unit
        person = unit.participants[0]
        base, _, ing = ACTIVITIES[memory.topic]
        month = unit.session_time.strftime("%B %Y") if unit.session_time else "2022"
        forms = [
            f"When did {person} {base}?",
            f"What does {person} think about {ing}?",
            f"Why did {person} get a {memory.item}?",
            f"What did {person} talk about in {month}?",
        ]
        if unit.locations:
            forms += [
                f"What did {person} do in {unit.locations[0]}?",
                f"Who went to {unit.locations[0]} with {person}?",
            ]
        if len(unit.participants) > 1:
            other = unit.participants[1]
            forms += [
                f"What did {person} and {other} do together?",
                f"Did {person} ever {base} with {other}?",
            ]
        return rng.choice(forms)

    # --- internals -------------------------------------------------------------------------

    def _session(self, session: int) -> tuple[datetime, list[str]]:
        rng = random.Random(f"{self.seed}:session:{session}")
        minutes = rng.randrange(365 * YEARS * 24 * 60)
        when = START + timedelta(minutes=minutes)
        size = rng.randint(2, 4)
        cast: list[str] = []
        while len(cast) < size:
            name = rng.choices(PEOPLE, weights=self._people_weights)[0]
            if name not in cast:
                cast.append(name)
        return when, cast

    @staticmethod
    def _time_span(rng: random.Random, when: datetime) -> tuple[TimeSpan, str]:
        kind = rng.choices(("day", "week", "month"), weights=(60, 25, 15))[0]
        if kind == "day":
            days = rng.randint(1, 6)
            day = when - timedelta(days=days)
            phrase = (
                "yesterday"
                if days == 1
                else f"on {day.strftime('%A')} {day.day} {MONTHS[day.month - 1]}"
            )
            return TimeSpan.day(day), phrase
        if kind == "week":
            start = TimeSpan.day(when - timedelta(days=when.weekday() + 7)).start
            return TimeSpan(start, start + timedelta(days=7, seconds=-1)), "last week"
        first = (when.replace(day=1) - timedelta(days=1)).replace(day=1)
        last = when.replace(day=1) - timedelta(days=1)
        span = TimeSpan(TimeSpan.day(first).start, TimeSpan.day(last).end)
        return span, f"in {MONTHS[first.month - 1]} {first.year}"


TEMPLATES: tuple[str, ...] = (
    "{who} {past}{company}{where}{when} and said it was {adjective} because {reason}.",
    "{who} told {listener} about a {item} that {detail}, and mentioned {ing}{where}{when}.",
    (
        "{who} said: I have been {ing}{company} every weekend{where} and I feel {feeling} about "
        "it{when}."
    ),
    (
        "{who} shared a photo of a {item}{where}{when} and explained that they want to {base} "
        "more often because {reason}."
    ),
    (
        "{who} is thinking about {ing}{company}{where} next month, since {reason}, and asked "
        "for advice about a {item}{when}."
    ),
    "{who} felt {feeling} after {ing}{company}{where}{when}; the {item} they brought {detail}.",
)


def _restatement(
    rng: random.Random,
    people: list[str],
    topic: int,
    item: str,
    place: str | None,
    phrase: str | None,
) -> str:
    base, past, ing = ACTIVITIES[topic]
    others = people[1:]
    return rng.choice(TEMPLATES).format(
        who=people[0],
        listener=others[0] if others else "a friend",
        company=f" with {' and '.join(others)}" if others else "",
        where=f" at {place}" if place else "",
        when=f" {phrase}" if phrase else "",
        base=base,
        past=past,
        ing=ing,
        item=item,
        adjective=rng.choice(ADJECTIVES),
        reason=rng.choice(REASONS),
        detail=rng.choice(DETAILS),
        feeling=rng.choice(FEELINGS),
    )


def _keywords(text: str, activity: str, item: str, place: str | None) -> tuple[str, ...]:
    """Content words of the activity, object and place that the text actually says."""
    said = set(text.replace("'", "").casefold().replace(".", " ").replace(",", " ").split())
    words = f"{activity} {item} {place or ''}".replace("'", "").casefold().split()
    return tuple(dict.fromkeys(w for w in words if w not in _STOP and w in said))[:6]

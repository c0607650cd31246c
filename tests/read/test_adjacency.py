"""The answer takes its question's place (read/adjacency.py): a question one person asks another
that ranks near the top brings the other person's next turn to its place, the question right
after it; an assistant's
reply does not come up, and a question that ranks low moves nothing."""

from __future__ import annotations

import pytest

from ripplemem import Memory, Settings
from ripplemem.providers.local_embedder import MiniLMFloatEmbedder
from ripplemem.read.adjacency import only_asks
from ripplemem.recipes import get_recipe

FILLER = [
    ("Sam", "The rain has not stopped since Monday."),
    ("Leo", "My kitchen tap is dripping again, I need a plumber."),
    ("Sam", "Did you see the match on Saturday night?"),
    ("Leo", "Only the second half, the first was a mess."),
]
CHAT = [
    *FILLER,
    ("Sam", "Still doing jiu-jitsu then?"),
    ("Leo", "Three nights a week at Roots, still white with three stripes."),
    *FILLER,
    ("Sam", "Are you still doing jiu-jitsu on weekends too?"),
    ("Leo", "Saturday mornings at the Roots open mat, it's brutal."),
    *FILLER,
]
ASSISTANT_CHAT = [
    ("User", "Can you suggest a good jiu-jitsu gym near Canal Street?"),
    ("Assistant", "Sure. Most places run beginner sessions three nights a week, so look for a free trial first."),
    ("User", "My kitchen tap is dripping again, I need a plumber."),
    ("Assistant", "A plumber should be able to replace the washer quickly."),
    ("User", "The rain has not stopped since Monday."),
    ("Assistant", "Rainy weeks are a good time for indoor hobbies."),
    ("User", "I went to the jiu-jitsu open mat on Saturday and loved it."),
    ("Assistant", "That's great, open mats are a relaxed way to start."),
]


@pytest.fixture(scope="module")
def memory():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        opened.add([{"speaker": s, "text": t} for s, t in CHAT], user_id="leo", session_time="2024-03-01")
        opened.add(
            [{"speaker": s, "text": t} for s, t in ASSISTANT_CHAT], user_id="user", session_time="2024-03-01"
        )
        yield opened


def _ranks(memory: Memory, question: str, user: str, depth: int) -> list[str]:
    recipe = get_recipe("ripple").with_(rank={"answers_follow": depth})
    found = memory.search(question, user_id=user, recipe=recipe)
    scores = [e.score for e in found.evidence]
    assert scores == sorted(scores, reverse=True)  # the score of its place
    return [e.unit.restatement for e in found.evidence]


def test_the_answer_takes_its_questions_place(memory: Memory) -> None:
    question = "Does Leo do jiu-jitsu?"
    off = _ranks(memory, question, "leo", 0)
    asked = [n for n, text in enumerate(off[:5]) if "asked:" in text]
    # something to do: no answer is in its question's place yet (right above it)
    assert len(asked) == 2 and not any(n > 0 and "Roots" in off[n - 1] for n in asked)
    on = _ranks(memory, question, "leo", 5)
    first = [n for n, text in enumerate(on) if "asked:" in text][:2]
    assert first[0] > 0 and all("Roots" in on[n - 1] for n in first)  # each answer, then its question
    answers = [text for text in on if "Roots" in text]
    assert on.index(answers[0]) == asked[0]  # the first answer where its question ranked
    assert len(on) == len(off)  # the budget is kept


def test_an_assistants_reply_does_not_come_up(memory: Memory) -> None:
    """The person's request ranks first and the assistant's reply, worded unlike the query, third:
    the reply stays there (were it a person's answer it would take the request's place)."""
    question = "Which jiu-jitsu gym did I ask about?"
    off = _ranks(memory, question, "user", 0)
    assert off[0].startswith("User asked:") and off[1].startswith("User went")  # something it could do
    assert _ranks(memory, question, "user", 5) == off


def test_only_a_question_asked_of_someone_only_asks() -> None:
    from ripplemem.testing.builders import make_unit

    assert only_asks(make_unit("q", restatement="Sam asked: Still doing jiu-jitsu then?"))
    assert not only_asks(make_unit("a", restatement="Sam asked: Any news? Leo answered: Yes, a new job."))
    assert not only_asks(make_unit("s", restatement="Leo said: I wonder why?"))


MIXED_CHAT = [
    ("Mel", "The kids have been driving me up the wall all week."),
    ("Cara", "That sounds exhausting, hang in there!"),
    *[(("Mel" if i % 2 else "Cara"), text) for i, (_, text) in enumerate(FILLER)],
    ("Mel", "We're thinking about going camping next month. Any fun plans for the summer?"),
    ("Cara", "Researching adoption agencies, it has been a dream to give kids a loving home."),
    *[(("Cara" if i % 2 else "Mel"), text) for i, (_, text) in enumerate(FILLER)],
]


@pytest.fixture(scope="module")
def chatted():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        opened.add([{"speaker": s, "text": t} for s, t in MIXED_CHAT], user_id="cara", session_time="2023-05-08")
        yield opened


def test_a_question_after_other_words_of_the_turn_brings_its_answer(chatted: Memory) -> None:
    """"We're thinking about going camping next month. Any fun plans for the summer?" asks,
    though the unit also says something else: the other person's next turn takes its place."""
    question = "What are Cara's plans for the summer?"
    off = _ranks(chatted, question, "cara", 0)
    asked = next(n for n, text in enumerate(off) if "plans for the summer" in text)
    answer = next(n for n, text in enumerate(off) if "adoption agencies" in text)
    assert asked < 5 and answer > asked  # something to do
    on = _ranks(chatted, question, "cara", 5)
    assert "adoption agencies" in on[asked] and "plans for the summer" in on[asked + 1]


def test_what_asks_the_other_speaker() -> None:
    from ripplemem.read.adjacency import asks
    from ripplemem.testing.builders import make_unit

    assert asks(make_unit("q", restatement="Sam asked: Still doing jiu-jitsu then?"))
    mixed = "Caroline said: Cool that Melanie paints. Got any paintings to show? Caroline would love to see."
    assert asks(make_unit("m", restatement=mixed))
    assert not asks(make_unit("s", restatement="Leo said: Three nights a week at Roots."))
    pair = "Sam asked: Any news? Leo answered: Yes, a new job."
    assert not asks(make_unit("p", restatement=pair))  # kept with its answer


def test_a_question_that_shares_only_a_name_with_the_query_brings_nothing() -> None:
    from ripplemem.read.adjacency import asks_about
    from ripplemem.testing.builders import make_unit

    chit_chat = make_unit("q", restatement="Rhys asked: How's Pickle? Still terrorising the postman?")
    assert not asks_about("How has Pickle's food changed over time?", chit_chat)
    on_topic = make_unit("p", restatement="Rhys asked: Is Pickle still on the dry food?")
    assert asks_about("How has Pickle's food changed over time?", on_topic)



@pytest.mark.parametrize(
    ("query", "question", "expected"),
    [
        # a word the query capitalises in a title, the question writes as a common word
        ("Did Hamid run the London Marathon for Mind?", "Bea asked: Did Hamid hear back about the marathon?", True),
        ("Has Rosa finished the Great North Run yet?", "Tom asked: How's the training for the run going?", True),
        ("Which Book Club pick did Ines like best?", "Ana asked: What's the club reading this month?", True),
        # a name both write as one is still only a name
        ("How has Pickle's food changed over time?", "Rhys asked: How's Pickle? Still terrorising the postman?", False),
        ("Where does Hamid work now?", "Bea asked: How's Hamid doing?", False),
        ("Is Maya still at Google?", "Sam asked: Did Maya like the Google offices?", False),
    ],
)
def test_a_word_capitalised_only_in_the_query_is_a_word_the_question_may_share(
    query: str, question: str, expected: bool
) -> None:
    from ripplemem.read.adjacency import asks_about
    from ripplemem.testing.builders import make_unit

    assert asks_about(query, make_unit("q", restatement=question)) is expected


ADVICE_CHAT = [
    ("Omar", "I moved my alarm to 5:30 on weekdays so I can run before the train."),
    ("Assistant", "That leaves time for a short run and a shower."),
    ("Omar", "My kitchen tap is dripping again, I need a plumber."),
    ("Assistant", "A plumber should be able to replace the washer quickly."),
    ("Omar", "My colleague swears by the 5am club. Should I try getting up at 5 instead?"),
    ("Assistant", "Getting up at 5 means going to bed by 9:30 to get enough sleep; many people find the 5am club hard to keep."),
    ("Omar", "Nah, not doing that, half five is early enough."),
    ("Assistant", "Sensible. Keep the same wake time at weekends too."),
    ("Omar", "The rain has not stopped since Monday."),
    ("Assistant", "Rainy weeks are a good time for indoor training."),
]


@pytest.fixture(scope="module")
def advised():
    with Memory(Settings(store="memory://"), embedder=MiniLMFloatEmbedder()) as opened:
        opened.add([{"speaker": s, "text": t} for s, t in ADVICE_CHAT], user_id="omar", session_time="2024-02-05")
        yield opened


def test_what_the_asker_does_after_advice_takes_the_question_or_advice_place(advised: Memory) -> None:
    """A question of what to do asked of an assistant: the asker's own next turn (the third
    position) takes the place of the question or of the advice, whichever ranks first."""
    question = "Have I started getting up at 5am?"
    off = _ranks(advised, question, "omar", 0)
    sequence = [n for n, text in enumerate(off) if "5am club" in text or "Getting up at 5" in text]
    uptake = next(n for n, text in enumerate(off) if "half five" in text)
    assert sequence and min(sequence) < 5 and uptake > min(sequence)  # something to do
    on = _ranks(advised, question, "omar", 5)
    assert "half five" in on[min(sequence)]  # where the sequence ranked first
    assert len(on) == len(off)


def test_a_question_of_what_to_do_reports_nothing() -> None:
    from ripplemem.read.adjacency import deliberates
    from ripplemem.testing.builders import make_unit

    asks = "Omar said: My colleague swears by it. Should Omar try getting up at 5 instead?"
    assert deliberates(make_unit("d", restatement=asks, speakers=("Omar",)))
    assert deliberates(make_unit("p", restatement="Owen said: New venue. Should we rename the team?", speakers=("Owen",)))
    advice = "User asked: Are there any festivals this summer that User should check out?"
    assert not deliberates(make_unit("c", restatement=advice))  # what to recommend, not what to do
    reported = "Wendy said: Ron has just been diagnosed. What support should we be looking at?"
    assert not deliberates(make_unit("r", restatement=reported))  # a report holds its own value
    assert not deliberates(make_unit("s", restatement="Omar said: I should call Mum more."))  # no question
    assistant = make_unit("a", restatement="Assistant said: Should Omar try a run club?", speakers=("Assistant",))
    assert not deliberates(assistant)  # the assistant's words are not the person's


@pytest.mark.parametrize(
    "restatement, speaker, participants, kind",
    [
        ("Ines said: Ines's firm offered Ines a transfer to the Zurich office.", "Ines", (), "to speaker"),
        ("Yara got an offer from a fintech, 75,000.", "Yara", (), "to speaker"),
        ("Femi said: The landlord asked if we'd renew for two years at 1200.", "Femi", (), "to speaker"),
        ("Kwame said: The Blue Notes asked Kwame to join them as their bassist.", "Kwame", (), "to speaker"),
        ("Dana was invited to audition for the city chorus.", "Dana", (), "to speaker"),
        ("Ruth said: You could take our spare room in Camden if you like.", "Ruth", (), "to other"),
        ("Chidi's aunt teaches French, she said she could give Olu lessons for free.", "Chidi", ("Olu",), "to other"),
        ("Ed said: The city chorus is looking for altos, you should audition.", "Ed", (), "to other"),
        ("Ines works in Lisbon as an architect.", "Ines", (), None),
        ("HSBC offered Owen's brother a job in Hong Kong.", "Owen", (), None),  # an offer to someone else
        ("Sam asked: Could you give Leo a lift?", "Sam", ("Leo",), None),  # a question: an ask already
        ("Oh, Evan wishes Evan could bring Sam along.", "Evan", ("Sam",), None),  # a wish, not an offer
    ],
)
def test_an_offer_put_to_the_speaker_or_by_them_is_told_by_its_grammar(
    restatement: str, speaker: str, participants: tuple[str, ...], kind: str | None
) -> None:
    from ripplemem.read.adjacency import offered
    from ripplemem.testing.builders import make_unit

    unit = make_unit("o", restatement=restatement, speakers=(speaker,), participants=(speaker, *participants))
    assert offered(unit) == kind

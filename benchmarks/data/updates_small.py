"""Writes updates_small.json: small memories of unrelated statements, one said a day.

A new user's memory holds a few statements about different things. Each memory here is 3, 4, 5,
6 or 8 statements of one speaker drawn from a set of 14 (one session a day, in May 2024; the
question asked on 1 June 2024), and every question asks about one of them: that statement must
come first (kind ``control``: every other statement is ``stale``). Set ``c`` adds to each memory
one change told in words of its own ("I'm with Giffgaff for my phone" ... "Moved my number over
to Smarty last week"), the old value said first; its question (kind ``current``) wants the new
value first. Sets ``a`` and ``b`` were written in the sessions of 2026-12-05 and 2026-12-06 while
rules were tried on them (split ``tune``); set ``c`` was written on 2026-12-06 before any rule
tried on it (split ``holdout``): rules were then tried on it too and a few of its failures read,
and none of those rules was kept, so it is held out from what the code does, not from the eyes
of the session that wrote it. Each set is drawn with the seeds 0-3, six memories a seed.

Run: python benchmarks/data/updates_small.py (writes the file next to this one)."""

from __future__ import annotations

from pathlib import Path

from ripplemem_bench.updates.small import small_memories, write_suite

SET_A = [
    ("My dentist appointment is on the 14th at 9:30.", "When is my dentist appointment?"),
    ("I ran 5k yesterday in 27 minutes.", "How fast did I run 5k?"),
    ("We got married on 12 June 2019 in Bath.", "Where did I get married?"),
    ("My sister Priya lives in Porto and works at a bakery.", "Where does Priya work?"),
    ("I drive a blue Toyota Yaris.", "What car do I drive?"),
    ("My landlord put the rent up to 1,050 pounds a month.", "How much is my rent?"),
    ("I'm allergic to penicillin.", "What am I allergic to?"),
    ("Our cat Miso only eats the salmon pouches.", "What does Miso eat?"),
    ("I switched my phone contract to Giffgaff last month.", "Which phone network am I on?"),
    ("My boss is called Dana and she's very fair.", "Who is my boss?"),
    ("I play five-a-side football on Thursday evenings.", "When do I play football?"),
    ("I moved to Leeds in March 2021.", "When did I move to Leeds?"),
    ("My daughter Ada started at Greenfield Primary in September.", "Which school does Ada go to?"),
    ("I take 50mg of sertraline every morning.", "What dose of sertraline am I on?"),
]
SET_B = [
    ("I work as a nurse at St Thomas' hospital.", "Where do I work?"),
    ("My flight to Lisbon leaves on Friday at 6am.", "When is my flight?"),
    ("I bank with Nationwide.", "Which bank am I with?"),
    ("My brother Tom just bought a flat in Hove.", "Where does Tom live?"),
    ("I've been learning Spanish on Duolingo for a year.", "Which language am I learning?"),
    ("Our wifi is with Virgin Media and it keeps dropping.", "Who is our broadband provider?"),
    ("I cycle to work along the canal most days.", "How do I get to work?"),
    ("My favourite band is Radiohead.", "What is my favourite band?"),
    ("The kids' swimming lessons are on Saturday mornings at the leisure centre.", "When are the kids' swimming lessons?"),
    ("I'm reading The Overstory by Richard Powers.", "What book am I reading?"),
    ("My GP is Dr Okafor at the Elm Street practice.", "Who is my GP?"),
    ("We pay 80 pounds a month for the gym membership.", "How much is my gym membership?"),
    ("My partner Jess is a primary school teacher.", "What does Jess do?"),
    ("I'm vegetarian since January.", "What do I eat?"),
]
SET_C = [
    ("I'm training for the Manchester marathon in April.", "Which marathon am I training for?"),
    ("My mum's birthday is on the 9th of August.", "When is my mum's birthday?"),
    ("My car insurance is with Admiral.", "Who is my car insurance with?"),
    ("I volunteer at the food bank on Tuesdays.", "Where do I volunteer?"),
    ("Our neighbour Colin has a Labrador called Biscuit.", "What is Colin's dog called?"),
    ("I'm saving about 400 pounds a month for a house deposit.", "How much am I saving each month?"),
    ("My favourite restaurant is Dishoom in Covent Garden.", "What is my favourite restaurant?"),
    ("I wear contact lenses, minus 2.5 in both eyes.", "What is my contact lens prescription?"),
    ("My son Leo plays the trumpet in the school band.", "What instrument does Leo play?"),
    ("I'm on the night shift this month.", "Which shift am I on?"),
    ("I read everything on a Kindle Paperwhite.", "What do I read on?"),
    ("My grandad lives in a bungalow in Whitby.", "Where does my grandad live?"),
    ("I get my hair cut at Bobby's on the high street.", "Where do I get my hair cut?"),
    ("We grow tomatoes and courgettes on our allotment.", "What do we grow on the allotment?"),
]
#: (old value, the change told in words of its own, the question)
CHANGES_C = [
    ("I'm with Giffgaff for my phone, 10 pounds a month.", "Moved my number over to Smarty last week, the 5G deal was too good.", "Which phone network am I on?"),
    ("Our rent is 900 a month.", "The landlord's put it up to 975 from this month.", "How much is our rent?"),
    ("I go to PureGym near the station.", "Cancelled PureGym, I've joined the leisure centre instead.", "Which gym do I go to?"),
    ("My manager is Priya.", "Priya left, so now I report to Marcus.", "Who is my manager?"),
    ("I take 20mg of citalopram.", "The doctor upped my citalopram to 30mg.", "What dose of citalopram am I on?"),
    ("We drive a Ford Focus.", "We finally sold the Focus and bought a second-hand Kia Niro.", "What car do we drive?"),
    ("I'm learning the guitar.", "Gave up the guitar, I'm doing piano lessons now.", "Which instrument am I learning?"),
    ("My sister lives in Leeds.", "My sister has moved down to Bristol for her new job.", "Where does my sister live?"),
    ("I bank with Barclays.", "Switched all my accounts to Monzo in the summer.", "Which bank am I with?"),
    ("Our cleaner comes on Mondays.", "The cleaner's switched to Thursdays now.", "When does our cleaner come?"),
    ("I have oat milk in my coffee.", "I've gone back to normal milk, the oat stuff upset my stomach.", "What milk do I have in my coffee?"),
    ("My commute is 40 minutes by bus.", "Since I got the e-bike it takes me 25 minutes.", "How long is my commute?"),
]
SIZES = [3, 4, 5, 6, 8]
SEEDS = range(4)
MEMORIES = 6


def main(target: Path | None = None) -> None:
    about = (__doc__ or "").split("\n\nRun:")[0]
    shape = {"seeds": SEEDS, "sizes": SIZES, "per_seed": MEMORIES}
    conversations = (
        small_memories("small-a", SET_A, "tune", **shape) + small_memories("small-b", SET_B, "tune", **shape)
        + small_memories("small-c", SET_C, "holdout", changes=CHANGES_C, **shape)
    )
    write_suite(target or Path(__file__).with_suffix(".json"), "ripplemem update cases (small memories)", about, conversations)


if __name__ == "__main__":
    main()

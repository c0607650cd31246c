"""Writes updates_hobbies.json: small memories of one person's pastimes and routines, one said a day.

A user's memory often holds several statements of one kind: where they swim, where they
volunteer, how they get to work, who they coach. Such statements are near each other for an
embedder and told with the same few verbs, many of which may also be read as plural nouns once
a restatement names the speaker ("Sam cycles", "Sam volunteers", "Sam boxes"). None of them is
a later value of another. Each memory here is 4, 5 or 6 statements of one speaker drawn from a
set of 20 (one session a day, in May 2024; the question asked on 1 June 2024), and every
question asks about one of them: that statement must come first (kind ``control``: every other
statement is ``stale``). The share a recipe passes, beside ``ripple-no-supersession``, says how
often the supersession stage puts another statement above the one asked about.

Set ``t`` was written in the session of 2026-12-07 while rules were tried on memories drawn from
it (split ``tune``); set ``h`` was written in the same session, before any rule was tried on it
and before its memories were searched (split ``holdout``), and its totals were read as committed
and once more with a rule tried and not kept. Each set is drawn with the seeds 0-4, six memories
a seed.

Run: python benchmarks/data/updates_hobbies.py (writes the file next to this one)."""

from __future__ import annotations

from pathlib import Path

from ripplemem_bench.updates.small import small_memories, write_suite

#: set t: statements and the question that asks for each
SET_T = [
    ("I volunteer at the food bank on Saturdays.", "Where do I volunteer?"),
    ("I bank with Monzo.", "Which bank am I with?"),
    ("I cycle to work along the river.", "How do I get to work?"),
    ("I commute by train from Reading.", "How do I commute?"),
    ("I study law at Leeds.", "What do I study?"),
    ("I hike in the Peak District most weekends.", "Where do I hike?"),
    ("I coach the under-tens at football.", "Who do I coach?"),
    ("I work as a pharmacist in Hove.", "Where do I work?"),
    ("My GP is Dr Adeyemi at the Grove surgery.", "Who is my GP?"),
    ("I drive a red Fiat Panda.", "What car do I drive?"),
    ("I'm allergic to peanuts.", "What am I allergic to?"),
    ("My sister lives in Cardiff.", "Where does my sister live?"),
    ("I swim at the lido on Fridays.", "Where do I swim?"),
    ("I pay 40 pounds a month for my phone.", "How much is my phone bill?"),
    ("I shop at Lidl on Sundays.", "Where do I do my shopping?"),
    ("I dance salsa on Tuesday nights.", "What dance do I do?"),
    ("I skate at the rink in Streatham.", "Where do I skate?"),
    ("I box at a gym in Bethnal Green.", "Where do I box?"),
    ("I sing in a choir at St Mary's.", "Where do I sing?"),
    ("I paint watercolours of the coast.", "What do I paint?"),
]
#: set h: statements and the question that asks for each
SET_H = [
    ("I run with a club in Victoria Park on Thursdays.", "Where do I run?"),
    ("I climb at the bouldering wall in Hackney.", "Where do I climb?"),
    ("I garden at an allotment by the railway.", "Where do I garden?"),
    ("I bowl in a league on Wednesday nights.", "When do I bowl?"),
    ("I fish at the reservoir near Tring.", "Where do I go fishing?"),
    ("I knit jumpers for my nephews.", "Who do I knit for?"),
    ("I tutor maths to two GCSE students.", "What do I tutor?"),
    ("I row with a crew on the Thames.", "Where do I row?"),
    ("I walk the dog on Hampstead Heath.", "Where do I walk the dog?"),
    ("I fence at a club in Bloomsbury.", "Where do I fence?"),
    ("I cook for my gran on Sundays.", "Who do I cook for on Sundays?"),
    ("I train for triathlons with a coach called Ben.", "Who coaches my triathlon training?"),
    ("I help out at an animal shelter in Croydon.", "Where do I help out?"),
    ("I teach yoga at a studio in Brixton.", "Where do I teach yoga?"),
    ("I play the cello in an amateur orchestra.", "Which instrument do I play?"),
    ("I read to children at the library on Saturdays.", "Where do I read to children?"),
    ("I sail a dinghy at Queen Mary reservoir.", "What do I sail?"),
    ("I surf at Croyde in the summer.", "Where do I surf?"),
    ("I brew my own beer in the garage.", "What do I brew?"),
    ("I shoot film photography on an old Pentax.", "What camera do I use?"),
]
SEEDS = range(5)
SIZES = (4, 5, 6)
MEMORIES = 6


def main(target: Path | None = None) -> None:
    about = (__doc__ or "").split("\n\nRun:")[0]
    shape = {"seeds": SEEDS, "sizes": SIZES, "per_seed": MEMORIES}
    conversations = small_memories("hobbies-t", SET_T, "tune", **shape) + small_memories("hobbies-h", SET_H, "holdout", **shape)
    write_suite(target or Path(__file__).with_suffix(".json"), "ripplemem update cases (pastimes and routines)", about, conversations)


if __name__ == "__main__":
    main()

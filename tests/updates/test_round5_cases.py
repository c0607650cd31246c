"""Update situations of round 5, written before any rule of that round, in the way people tell an
assistant things: the value said in passing inside a longer turn — in a relative clause ("Karim,
an old teammate, who's now at KPMG"), in the reason of a question ("since I'm on night shifts
now, could you ..."), after a particle ("moved back to Lisbon"), after a verb that entails its
complement ("managed to run 5k in 27 minutes") — and the controls that look the same but state
nothing of the holder's value (an attempt, a wish, a hypothetical reason, someone else's move).
Two thirds of them (every case but each third one as first written): the part the rules of that
round are developed against; the rest is test_round5_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    Case("sister-back", "current", "Leah",
         ("2023-01-20", "My sister Ines lives in Porto, she teaches at the university there."),
         ("2023-07-02", "Oh, and my sister Ines moved back to Lisbon in the spring, so I'll see her more."),
         "Where does Ines live?", "Lisbon", "Porto"),
    Case("teammate-who", "current", "Ben",
         ("2022-03-03", "I had lunch with Karim, my old teammate, who works at Deloitte."),
         ("2022-11-11", "I ran into Karim, an old teammate from my first job, who's now at KPMG, at the station."),
         "Where does Karim work?", "KPMG", "Deloitte"),
    Case("night-shift", "current", "Amaka",
         ("2022-05-05", "I work the day shift on the children's ward."),
         ("2022-10-10", "Since I'm on night shifts now, could you suggest a sleep routine that works?"),
         "Which shift does Amaka work?", "night shifts", "day shift"),
    Case("books-which", "current", "Ravi",
         ("2023-04-01", "I've read 12 books so far this year."),
         ("2023-06-30", "I just finished Middlemarch, which brings my total for the year to 15 books."),
         "How many books has Ravi read this year?", "15 books", "12 books"),
    Case("manager-team", "current", "Owen",
         ("2022-09-01", "My manager Helen leads the design team."),
         ("2023-03-09", "My manager, Helen, who now leads the data team, asked me to present on Friday."),
         "Which team does Helen lead?", "data team", "design team"),
    Case("vegan", "current", "Tom",
         ("2021-06-06", "I eat a lot of chicken and fish, I cook them most nights."),
         ("2022-01-09", "What should I cook tonight, considering I'm fully vegan now?"),
         "What does Tom eat?", "vegan", "chicken and fish"),
    Case("brixton", "current", "Sol",
         ("2021-03-03", "I share a flat in Peckham with three friends."),
         ("2021-12-12", "I finally got to move into my own place in Brixton last month."),
         "Where does Sol live?", "Brixton", "Peckham"),
    Case("climbing-gym", "current", "Jess",
         ("2023-01-05", "I climb at the Castle climbing centre twice a week."),
         ("2023-05-25", "Do you have tips for bouldering? I go to the Arch gym in Bermondsey these days, since the Castle closed."),
         "Which climbing gym does Jess go to?", "Arch gym", "Castle climbing centre"),
    # a change that did not happen to the holder's value
    Case("tried-hotel", "control", "Ana",
         ("2023-02-02", "I work at a bakery in the old town, mostly early shifts."),
         ("2023-03-20", "I tried to get a job at the Hilton last week, the pay is better there."),
         "Where does Ana work?", "bakery", "Hilton"),
    Case("wanted-bristol", "control", "Cal",
         ("2022-06-06", "I live in Bath, near the river."),
         ("2022-09-09", "I wanted to move to Bristol after the summer, the rents are mad though."),
         "Where does Cal live?", "Bath", "Bristol"),
    Case("neighbour-son", "control", "Abi",
         ("2023-01-01", "I live in Sheffield, in a terraced house near the park."),
         ("2023-04-04", "I met my neighbour's son, who just moved to Leeds for his degree."),
         "Where does Abi live?", "Sheffield", "Leeds"),
    Case("flatmate-back", "control", "Rory",
         ("2022-02-02", "I live in Galway, in a flat by the docks."),
         ("2022-07-07", "My flatmate moved back to Dublin, so I have the place to myself."),
         "Where does Rory live?", "Galway", "Dublin"),
    Case("vodafone-if", "control", "Meg",
         ("2023-01-01", "My phone contract is with O2, 20 pounds a month."),
         ("2023-05-05", "Would it be cheaper for me if I moved over to Vodafone, do you think?"),
         "Which network is Meg's phone contract with?", "O2", "Vodafone"),
    Case("cousin-house", "control", "Nils",
         ("2022-03-03", "I live in Malmo with my partner and two cats."),
         ("2022-09-09", "I visited my cousin, who moved into a new house in Uppsala last month."),
         "Where does Nils live?", "Malmo", "Uppsala"),
    Case("asked-friend-gym", "control", "Jo",
         ("2023-02-02", "I swim at the leisure centre pool on Mondays."),
         ("2023-06-06", "Do you think my friend, who joined the rowing club, would like kayaking too?"),
         "Where does Jo swim?", "leisure centre", "rowing club"),
    # the question asks for the earlier value
    Case("ines-before", "earlier", "Leah",
         ("2023-01-20", "My sister Ines lives in Porto, she teaches at the university there."),
         ("2023-07-02", "Oh, and my sister Ines moved back to Lisbon in the spring, so I'll see her more."),
         "Where did Ines live before she moved?", "Porto", "Lisbon"),
]


#: cases the read path does not pass yet, and why
NOT_YET = {
    "books-which": "'which brings my total to 15 books': a 'which' standing for a whole sentence, the total is nobody's named thing",
    "vegan": "'considering I'm fully vegan now' inside a question: the parse reads 'considering' as a verb and 'cook' as a subject",
    "neighbour-son": "Abi's statement 'met my neighbour's son' fits 'Where does live?' as well as the son's move, so the memory reads as Abi's",
    "flatmate-back": "'Rory lives in Galway' is parsed with 'lives' as a noun, so the old value is unread; 'my flatmate' is Rory's thing, not an aside",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round5(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

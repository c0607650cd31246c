"""Update situations of round 4, written before any rule of that round, in areas and wordings of
their own: money, health, routines, other people's jobs, subscriptions, places visited versus
lived in, preferences that flip, offers declined without "but", other people's plans,
conditionals, reported speech, and questions that ask for the earlier value. Two thirds of them
(every case but each third one as first written): the part the rules of that round were developed
against; the rest is test_round4_apart.py."""

from __future__ import annotations

import pytest

from ripplemem import Memory

from .round4 import Case, holds, with_reasons

CASES = [
    # the later value leads
    Case("rent", "current", "Jonas",
         ("2023-01-12", "My rent is 950 pounds a month for the flat."),
         ("2023-08-02", "The landlord put the rent up, I pay 1,100 a month now."),
         "How much rent does Jonas pay?", "1,100", "950"),
    Case("knee", "current", "Hana",
         ("2022-03-04", "I take ibuprofen for my knee when it flares up."),
         ("2022-09-19", "My physio got me onto naproxen for the knee, it works better."),
         "What does Hana take for her knee?", "naproxen", "ibuprofen"),
    Case("brother-job", "current", "Marta",
         ("2022-05-10", "My brother Luca works as a mechanic at a garage in Turin."),
         ("2022-11-03", "My brother Luca retrained and drives trains for the regional line now."),
         "What does Luca do for work?", "drives trains", "mechanic"),
    Case("music", "current", "Dana",
         ("2023-01-30", "I pay for Spotify every month, I listen to it on the bus."),
         ("2023-06-14", "I cancelled Spotify and moved over to Tidal."),
         "Which music service does Dana use?", "Tidal", "on the bus"),
    Case("chess", "current", "Igor",
         ("2023-03-01", "I play chess at the club in the library on Tuesdays."),
         ("2023-05-25", "The chess club meets on Wednesdays at the community hall now."),
         "When does Igor's chess club meet?", "Wednesdays", "Tuesdays"),
    Case("partner", "current", "Tariq",
         ("2022-02-14", "My girlfriend Sofia and I have been together for two years now."),
         ("2022-10-08", "Sofia and I broke up in the summer, and I've started dating Nadia."),
         "Who is Tariq dating?", "Nadia", "together for two years"),
    Case("phone", "current", "Ken",
         ("2023-02-11", "I use an old iPhone 8 with a cracked screen."),
         ("2023-09-03", "I got a Pixel 8 last week and my old phone went in a drawer."),
         "What phone does Ken use?", "Pixel", "cracked"),
    Case("sleep", "current", "Zoe",
         ("2022-01-09", "I only sleep about five hours a night with the baby."),
         ("2022-07-17", "I'm getting seven hours of sleep a night now that the baby sleeps through."),
         "How many hours does Zoe sleep a night?", "seven hours", "five hours"),
    Case("village", "current", "Ciara",
         ("2021-09-09", "I live in a small village outside Cork with my parents."),
         ("2022-03-18", "We bought a house in Limerick and we've been living there since March."),
         "Where does Ciara live?", "Limerick", "outside Cork"),
    Case("insurance", "current", "Pete",
         ("2022-08-08", "My car insurance is with Admiral, about 600 pounds a year."),
         ("2023-08-09", "I switched my car insurance to Aviva, it came to 480 pounds."),
         "Who is Pete's car insurance with?", "Aviva", "Admiral"),
    # a change that did not happen to the holder's value
    Case("rejected-house", "control", "Nora",
         ("2022-04-04", "We live in a two-bed flat in Croydon."),
         ("2022-09-09", "We rejected the house in Sutton that the agent showed us."),
         "Where does Nora live?", "Croydon", "Sutton"),
    Case("weekend", "control", "Aoife",
         ("2023-03-03", "I live in Dublin with my partner and our cat."),
         ("2023-08-08", "I spent a lovely weekend in Galway with old school friends."),
         "Where does Aoife live?", "Dublin", "Galway"),
    Case("husband-wants", "control", "Ruth",
         ("2023-01-01", "I teach at a primary school in Leeds."),
         ("2023-06-06", "My husband wants me to apply for a job at a school in Manchester."),
         "Where does Ruth teach?", "primary school in Leeds", "Manchester"),
    Case("mum-thinks", "control", "Fiona",
         ("2022-02-02", "I rent a flat in Glasgow city centre."),
         ("2022-07-07", "My mum thinks I should move to Edinburgh to be near her."),
         "Where does Fiona live?", "Glasgow", "Edinburgh"),
    Case("gym-if", "control", "Leo",
         ("2022-06-16", "I pay 40 dollars a month for my gym membership."),
         ("2022-12-01", "If they raise the membership to 60 dollars I'm quitting."),
         "How much does Leo pay for the gym?", "40 dollars", "60 dollars"),
    Case("colleague", "control", "Amy",
         ("2023-02-20", "I work at a law firm downtown as a paralegal."),
         ("2023-07-30", "My colleague Dev left for a firm in Boston last week."),
         "Where does Amy work?", "law firm downtown", "Boston"),
    Case("insulin", "control", "Raj",
         ("2023-01-11", "I take metformin twice a day for my diabetes."),
         ("2023-06-21", "The doctor didn't put me on insulin after all."),
         "What medication does Raj take?", "metformin", "insulin"),
    Case("tea-if", "control", "Ola",
         ("2022-02-22", "I drink a black coffee every morning."),
         ("2022-08-28", "I'd switch to green tea if it had more caffeine."),
         "What does Ola drink in the morning?", "black coffee", "green tea"),
    Case("refused-car", "control", "Edda",
         ("2022-07-07", "I cycle to the office on my old road bike."),
         ("2022-12-12", "I refused the company car they offered me."),
         "How does Edda get to the office?", "road bike", "company car"),
    # a question about the earlier value
    Case("oslo", "earlier", "Erik",
         ("2021-05-05", "I live in Oslo, in a flat by the harbour."),
         ("2022-03-03", "I moved to Bergen in March for a new job."),
         "Where did Erik live originally?", "Oslo", "Bergen"),
    Case("yoga", "earlier", "Tess",
         ("2023-02-02", "I do yoga on Monday evenings at the studio."),
         ("2023-05-05", "I moved my yoga class to Saturday mornings."),
         "When did Tess use to do yoga?", "Monday", "Saturday"),
    Case("pressure", "earlier", "Omar",
         ("2022-04-04", "My blood pressure was 150 over 95 at the check-up."),
         ("2022-10-10", "My blood pressure is down to 125 over 80 now."),
         "What was Omar's blood pressure at first?", "150", "125"),
]


#: cases the read path does not pass yet, and why
NOT_YET = {
    "mum-thinks": "later small talk of the holder ('Fiona was busy with the garden') leads a 'where' question",
}


@pytest.mark.parametrize("case", with_reasons(CASES, NOT_YET))
def test_round4(round_memory: Memory, case: Case) -> None:
    assert holds(round_memory, case)

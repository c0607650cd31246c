"""Small synthetic files shaped like LoCoMo and LongMemEval (invented text, never benchmark data)."""

from __future__ import annotations


def locomo_sample() -> dict:
    """Two sessions between Ana and Ben, with every quirk the real file has."""
    return {
        "sample_id": "conv-x",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a grey cat named Pixel."},
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Lovely! Where did you find her?"},
                {"speaker": "Ana", "dia_id": "D1:3", "text": "At the animal shelter in Porto."},
                {
                    "speaker": "Ana",
                    "dia_id": "D1:4",
                    "text": "Here she is.",
                    "blip_caption": "a photo of a grey cat on a sofa",
                    "img_url": ["http://example.invalid/cat.jpg"],
                    "query": "grey cat",
                },
            ],
            "session_2_date_time": "10:05 am on 20 June, 2023",
            "session_2": [
                {"speaker": "Ben", "dia_id": "D2:1", "text": "I signed up for the Lisbon marathon."},
                {"speaker": "Ana", "dia_id": "D2:2", "text": "When is it?"},
                {"speaker": "Ben", "dia_id": "D2:3", "text": "In October, I train every morning."},
            ],
            # a date key without a session (as in the real file)
            "session_3_date_time": "9:00 am on 1 July, 2023",
        },
        "qa": [
            {"question": "Where did Ana adopt her cat?", "answer": "Porto", "evidence": ["D1:3"],
             "category": 4},
            {"question": "How many cats does Ana have?", "answer": 1, "evidence": ["D1:1"],
             "category": 1},
            {"question": "What do Ana's cat and Ben's race have in common?", "answer": "x",
             "evidence": ["D1:1; D2:3", "D9:9", "D:1:4"], "category": 3},
            {"question": "What did Ana say about the weather?", "answer": "nothing",
             "evidence": [], "category": 2},
            {"question": "Which race did Ana sign up for?", "adversarial_answer": "Lisbon marathon",
             "evidence": ["D2:1"], "category": 5},
        ],
        "observation": {"session_1_observation": "must never be read"},
        "session_summary": {"session_1_summary": "must never be read"},
        "event_summary": {},
    }


def lme_item(question_id: str = "q1", *, answer_flags: tuple[bool, ...] = (True, False)) -> dict:
    """A haystack of three sessions; the evidence session is ``answer_s2``."""
    evidence_turns = []
    for index, flag in enumerate(answer_flags):
        evidence_turns.append({"role": "user", "has_answer": flag,
                               "content": f"My sister Clara moved to Berlin in {2019 + index}."})
        evidence_turns.append({"role": "assistant", "content": f"Berlin is a great city, noted {index}."})
    return {
        "question_id": question_id,
        "question_type": "single-session-user",
        "question": "When did my sister Clara move to Berlin?",
        "answer": 42,
        "question_date": "2023/06/01 (Thu) 09:30",
        "haystack_session_ids": ["noise_1", "answer_s2", "noise_3"],
        "haystack_dates": ["2023/05/20 (Sat) 07:47", "2023/05/10 (Wed) 21:44", "2023/05/25 (Thu) 10:00"],
        "haystack_sessions": [
            [{"role": "user", "content": "I bought a red bicycle in Madrid."},
             {"role": "assistant", "content": "Nice bike!"},
             {"role": "user", "content": "I cook pasta every Sunday with my neighbour Tom."},
             {"role": "assistant", "content": ""}],
            evidence_turns,
            [{"role": "assistant", "content": "How was your trip to Kyoto?"},
             {"role": "user", "content": "Kyoto was wonderful, I visited twelve temples."}],
        ],
        "answer_session_ids": ["answer_s2"],
    }

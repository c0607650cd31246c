"""A tiny invented LoCoMo-shaped conversation (never benchmark text)."""

from __future__ import annotations


def tiny_locomo() -> dict:
    return {
        "sample_id": "conv-tiny",
        "conversation": {
            "speaker_a": "Rui",
            "speaker_b": "Iva",
            "session_1_date_time": "3:10 pm on 2 March, 2023",
            "session_1": [
                {"speaker": "Rui", "dia_id": "D1:1", "text": "I started learning the cello in Vienna."},
                {"speaker": "Iva", "dia_id": "D1:2", "text": "Wow, who is your teacher?"},
                {"speaker": "Rui", "dia_id": "D1:3", "text": "My teacher is Mrs Kovacs, she is strict."},
            ],
            "session_2_date_time": "11:00 am on 9 April, 2023",
            "session_2": [
                {"speaker": "Iva", "dia_id": "D2:1", "text": "I planted tomatoes in my garden in Graz."},
                {"speaker": "Rui", "dia_id": "D2:2", "text": "Send me photos of the tomatoes!"},
            ],
        },
        "qa": [
            {"question": "Who teaches Rui the cello?", "answer": "Mrs Kovacs",
             "evidence": ["D1:1", "D1:3"], "category": 1},
            {"question": "What did Iva plant?", "answer": "tomatoes", "evidence": ["D2:1"], "category": 4},
            {"question": "Where does Iva live?", "answer": "Graz", "evidence": ["D7:7"], "category": 3},
        ],
    }

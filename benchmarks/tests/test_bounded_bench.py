"""``bench bounded``'s agreement part: bounded grounding against one whole-text parse."""

from __future__ import annotations

import json
from pathlib import Path

from ripplemem_bench.speed.bounded import _agreement

from .cli.synthetic_locomo import tiny_locomo


def test_agreement_counts_texts_with_the_same_times(tmp_path: Path) -> None:
    sample = tiny_locomo()
    sample["conversation"]["session_2"].append(
        {"speaker": "Rui", "dia_id": "D2:3", "text": "We flew to Lisbon yesterday, and back on March 3rd."}
    )
    path = tmp_path / "locomo.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    result = _agreement(path)
    assert result == {"file": "locomo.json", "conversations": 1, "texts": 6, "identical": 6, "rule_only": 0}

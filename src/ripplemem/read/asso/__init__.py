"""AssoMem ranking: clue candidates, importance (PPR), temporal alignment, fused per question type."""

"""Retrieval benchmarks: every recipe and peer on one ingested memory, scored per question."""

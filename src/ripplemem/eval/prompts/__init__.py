"""Prompts used only by the evaluation harness (the judge)."""

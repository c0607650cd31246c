"""Prompts of the read path; each module holds a prompt and its pydantic response model."""

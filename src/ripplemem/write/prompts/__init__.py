"""Prompts of the write path; each module holds a prompt and its pydantic response model."""

from ripplemem.write.prompts.extraction import (
    ExtractedUnit,
    ExtractionResponse,
    extraction_messages,
)

__all__ = ["ExtractedUnit", "ExtractionResponse", "extraction_messages"]

"""Answers from recalled evidence: generation, the LLM judge, token F1 and BLEU-1."""

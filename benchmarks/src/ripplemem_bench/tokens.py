"""Token counts for context sizes.

Every context size ripplemem reports (``context_tokens@K`` in benchmarks) is counted with the
WordPiece tokenizer shipped in the package (``providers/assets/minilm-tokenizer.json``, the
all-MiniLM-L6-v2 vocabulary), without special tokens, truncation or padding. It is loaded once, on
first use. Counts are comparable across ripplemem runs, not with GPT tokenizer counts in papers
(WordPiece gives somewhat more tokens per English word than tiktoken's cl100k).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokenizers import Tokenizer

    from ripplemem.records import Evidence

TOKENIZER_ASSET = "minilm-tokenizer.json"


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    from tokenizers import Tokenizer

    asset = resources.files("ripplemem.providers").joinpath("assets", TOKENIZER_ASSET)
    tokenizer = Tokenizer.from_str(asset.read_text(encoding="utf-8"))
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


def count_tokens(text: str) -> int:
    """WordPiece tokens in ``text`` (no special tokens)."""
    if not text:
        return 0
    return len(_tokenizer().encode(text, add_special_tokens=False).ids)


def count_tokens_batch(texts: Sequence[str]) -> list[int]:
    """``count_tokens`` for many texts at once."""
    if not texts:
        return []
    encodings = _tokenizer().encode_batch(list(texts), add_special_tokens=False)
    return [len(encoding.ids) for encoding in encodings]


def truncate_to_budget(evidence: Sequence[Evidence], max_tokens: int) -> list[Evidence]:
    """The longest prefix of ranked ``evidence`` whose restatements fit in ``max_tokens``.

    Tokens are counted as for ``context_tokens@K`` (WordPiece, restatements only), so recipes
    and peers can be compared at an equal context size (``ripplemem bench --token-budget``).
    """
    kept: list[Evidence] = []
    used = 0
    for item, tokens in zip(evidence, count_tokens_batch([e.unit.restatement for e in evidence])):
        if used + tokens > max_tokens:
            break
        kept.append(item)
        used += tokens
    return kept

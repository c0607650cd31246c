"""Typed settings, validated once. Nothing is read from the environment at import time:
call :meth:`Settings.from_env` at the edge (CLI, server) to read ``RIPPLEMEM_*`` variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, SecretStr, model_validator


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LLMSettings(_Frozen):
    """Any OpenAI-compatible chat-completions endpoint."""

    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://localhost:8000/v1")
    model: str
    api_key: SecretStr | None = None
    timeout_s: float = 60.0
    max_retries: int = 3  # on timeouts, 429 and 5xx, with backoff
    max_repairs: int = 2  # re-asks when the output fails schema validation
    json_mode: str = "json_schema"  # "json_schema" | "json_object" | "none" (vendor quirk as data)


class WriteSettings(_Frozen):
    """Write path: windows, linking (reference §1 defaults)."""

    window_turns: int = 40
    window_overlap: int = 2
    semantic_candidates: int = 20
    cue_candidates: int = 20
    # None: the embedder's calibrated value (``Embedder.semantic_edge_threshold``), else 0.85 —
    # the paper's value, set for Qwen3-Embedding, whose cosines run higher than MiniLM's
    semantic_threshold: float | None = None
    structural_threshold: float = 0.60
    max_semantic_edges: int = 6
    max_structural_edges: int = 6
    beta_participants: float = 0.50
    beta_locations: float = 0.20
    beta_time: float = 0.30
    tau_days: float = 7.0
    #: dialogue edges between units at most this many turns apart in one episode (None: none)
    dialogue_reach: int | None = 1
    max_message_chars: int = 20_000
    # the AssoMem clue-utterance graph (reference §2), built after linking
    clue_graph: bool = True
    clue_merge_threshold: float = 0.65  # delta
    utterance_link_threshold: float = 0.75  # gamma
    utterance_link_neighbours: int = 10  # bounded kNN per new unit

    @model_validator(mode="after")
    def _check(self) -> WriteSettings:
        if self.window_turns < 1:
            raise ValueError("window_turns must be at least 1")
        if not 0 <= self.window_overlap < self.window_turns:
            raise ValueError("window_overlap must be >= 0 and smaller than window_turns")
        if self.dialogue_reach is not None and self.dialogue_reach < 0:
            raise ValueError("dialogue_reach must be >= 0, or None for no dialogue edges")
        return self


class Settings(_Frozen):
    store_path: Path = Path(".ripplemem/memory.db")
    embedder: str = "minilm-q8"  # see ripplemem.providers.factory
    llm: LLMSettings | None = None
    write: WriteSettings = WriteSettings()
    recipe: str = "ripple"
    extractor: str = "auto"  # "auto" (llm when configured), "deterministic", "llm"
    planner: str = "auto"  # "auto" (llm when configured), "deterministic", "llm"
    # per-question-type fusion weights of the asso recipes (``ripplemem fit-weights --out``);
    # None: equal thirds. Load with ``ripplemem.read.asso.weights.weights_from_settings``.
    asso_weights: Path | None = None
    clue_writer: str = "auto"  # AssoMem clues: "auto" (as the extractor), "deterministic", "llm"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides) -> Settings:
        env = os.environ if env is None else env
        values: dict = {}
        if env.get("RIPPLEMEM_STORE"):
            values["store_path"] = Path(env["RIPPLEMEM_STORE"])
        if env.get("RIPPLEMEM_EMBEDDER"):
            values["embedder"] = env["RIPPLEMEM_EMBEDDER"]
        if env.get("RIPPLEMEM_RECIPE"):
            values["recipe"] = env["RIPPLEMEM_RECIPE"]
        if env.get("RIPPLEMEM_ASSO_WEIGHTS"):
            values["asso_weights"] = Path(env["RIPPLEMEM_ASSO_WEIGHTS"])
        base_url = env.get("RIPPLEMEM_LLM_BASE_URL")
        if base_url:
            values["llm"] = LLMSettings(
                base_url=base_url,
                model=env.get("RIPPLEMEM_LLM_MODEL", "gpt-4.1-mini"),
                api_key=env.get("RIPPLEMEM_LLM_API_KEY") or env.get("OPENAI_API_KEY"),
            )
        values.update(overrides)
        return cls(**values)

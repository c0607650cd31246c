"""Typed settings, validated once. Nothing is read from the environment at import time:
:meth:`Settings.from_env` reads the ``RIPPLEMEM_*`` variables at the edge (the command line, the
service, ``Memory.open`` and ``Memory()``), for the settings the caller does not give."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)

from ripplemem.errors import ConfigurationError

#: the environment variables :meth:`Settings.from_env` reads
VARIABLES = (
    "RIPPLEMEM_STORE",
    "RIPPLEMEM_EMBEDDER",
    "RIPPLEMEM_RECIPE",
    "RIPPLEMEM_DATE_ORDER",
    "RIPPLEMEM_ASSO_WEIGHTS",
    "RIPPLEMEM_LLM_BASE_URL",
    "RIPPLEMEM_LLM_MODEL",
    "RIPPLEMEM_LLM_API_KEY",
    "RIPPLEMEM_LLM_TIMEOUT_S",
    "OPENAI_API_KEY",
)

#: ``auto``: the LLM path when an LLM is configured, else the deterministic one.
PathChoice = Literal["auto", "deterministic", "llm"]


class _Frozen(BaseModel):
    """Frozen, no unknown fields; a value that cannot work is a ConfigurationError naming it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, **data: Any) -> None:
        try:
            super().__init__(**data)
        except ValidationError as error:
            raise ConfigurationError(describe(error, type(self).__name__)) from error


def describe(error: ValidationError, what: str) -> str:
    """A one-line account of every problem pydantic found, each with the field it is about."""
    problems = []
    for item in error.errors():
        where = ".".join(str(part) for part in item["loc"]) or "(settings)"
        problems.append(f"{where}: {item['msg']}" + _got(item))
    return f"invalid {what}: " + "; ".join(problems)


def _got(item: Any) -> str:
    value = item.get("input")
    if item["type"] in ("missing",) or isinstance(value, dict):
        return ""
    return f" (got {value!r})"[:120]


#: seconds a chat call may take when ``LLMSettings.timeout_s`` is not set: a hosted endpoint
#: answers in seconds; a model on this machine's CPU can take minutes for one long prompt
REMOTE_TIMEOUT_S = 60.0
LOCAL_TIMEOUT_S = 1800.0
_LOOPBACK_HOSTS = ("localhost", "127.", "[::1]", "0.0.0.0")


class LLMSettings(_Frozen):
    """Any OpenAI-compatible chat-completions endpoint."""

    base_url: str = Field(description="e.g. https://api.openai.com/v1 or http://localhost:8000/v1")
    model: str
    api_key: SecretStr | None = None
    #: seconds one HTTP call may take (``RIPPLEMEM_LLM_TIMEOUT_S``, ``--llm-timeout``); None:
    #: 60 s, or 1800 s when the endpoint is on this machine (a local CPU model is slow)
    timeout_s: float | None = Field(default=None, gt=0)
    max_retries: int = 3  # on timeouts, 429 and 5xx, with backoff
    max_repairs: int = 2  # re-asks when the output fails schema validation
    #: how structured output is asked for (a vendor quirk, as data): a JSON schema, a JSON object,
    #: or nothing (the prompt alone)
    json_mode: Literal["json_schema", "json_object", "none"] = "json_schema"

    @property
    def local(self) -> bool:
        """True when the endpoint is on this machine (a loopback host)."""
        host = self.base_url.split("://", 1)[-1].split("/", 1)[0].split("@")[-1]
        return host.startswith(_LOOPBACK_HOSTS)

    def resolved_timeout_s(self) -> float:
        """The timeout in force: the one set, else 1800 s for a local endpoint and 60 s otherwise."""
        if self.timeout_s is not None:
            return self.timeout_s
        return LOCAL_TIMEOUT_S if self.local else REMOTE_TIMEOUT_S


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
    # supersedes edges: a new unit that restates an earlier unit's value (write/supersede.py)
    supersession: bool = True
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
    """Everything a :class:`~ripplemem.memory.Memory` is built from, validated once."""

    #: where the memory lives: a SQLite file path (or ``sqlite:///relative/path``,
    #: ``sqlite:////absolute/path``), ``memory://`` or a
    #: ``postgresql://`` URL (:func:`ripplemem.stores.registry.open_store`)
    store: str = ".ripplemem/memory.db"
    embedder: str = "minilm-q7"  # see ripplemem.providers.factory
    llm: LLMSettings | None = None
    write: WriteSettings = WriteSettings()
    recipe: str = "ripple"
    #: the longest search query, in characters (longer ones are refused: search time grows with
    #: the query's length); messages have ``write.max_message_chars``
    max_query_chars: int = Field(default=4_000, ge=1)
    extractor: PathChoice = "auto"
    planner: PathChoice = "auto"
    #: AssoMem clue texts: "auto" follows the extractor (an LLM for both or for neither)
    clue_writer: PathChoice = "auto"
    #: which earlier memories a new one updates (write/supersede.py): "llm" asks the model (one
    #: bounded call per new memory with candidates), "deterministic" reads the dependency parse;
    #: "auto" follows the extractor
    updates: PathChoice = "auto"
    #: how a date in numbers that either order makes a day ("03/04/2023") is read, in memories
    #: and questions, when its text shows no order of its own (another date of the text that
    #: only one order makes a day, "25/06/2019", sets it): "month-first" as in US English, or
    #: "day-first" as in most other places. ``RIPPLEMEM_DATE_ORDER``
    date_order: Literal["month-first", "day-first"] = "month-first"
    # per-question-type fusion weights of the asso recipes (``ripplemem fit-weights --out``);
    # None: equal thirds. Load with ``ripplemem.read.asso.weights.weights_from_settings``.
    asso_weights: Path | None = None

    @property
    def day_first(self) -> bool:
        """Whether :attr:`date_order` reads an ambiguous date day first."""
        return self.date_order == "day-first"

    @model_validator(mode="before")
    @classmethod
    def _store_path(cls, data: Any) -> Any:
        """``store_path=`` (a path) is accepted as the older name of ``store``."""
        if isinstance(data, dict) and "store_path" in data:
            data = dict(data)
            path = data.pop("store_path")
            if "store" in data:
                raise ValueError("give store (a path or URL) or store_path, not both")
            data["store"] = str(path)
        return data

    @field_validator("store", mode="before")
    @classmethod
    def _location(cls, value: Any) -> Any:
        if isinstance(value, Path):
            return str(value)
        if not isinstance(value, str):
            # a ValueError: pydantic reports it as this field's error (a TypeError escapes it)
            raise ValueError(f"store must be a path or URL string, got {type(value).__name__}")  # noqa: TRY004
        if not value.strip():
            raise ValueError("the store location is empty: give a file path or a URL")
        return value

    @field_validator("recipe")
    @classmethod
    def _recipe(cls, value: str) -> str:
        from ripplemem.recipes import RECIPES

        if value not in RECIPES:
            raise ValueError(f"no recipe named {value!r}; choose one of: {', '.join(sorted(RECIPES))}")
        return value

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the :data:`VARIABLES` of ``env`` (default: this process's environment);
        ``overrides`` (Settings fields, ``llm_timeout_s``) win over them."""
        env = os.environ if env is None else env
        if not isinstance(env, Mapping):
            raise ConfigurationError(
                "env must be a mapping of environment variables (such as os.environ or {} for "
                f"none), got {type(env).__name__}"
            )
        # a setting the call gives is not read from env: its variable, even an invalid one, is unused
        read = {
            field: variable for field, variable in _VARIABLE_OF.items()
            if env.get(variable) and field not in overrides
            and not (field == "store" and "store_path" in overrides)
        }
        values: dict[str, Any] = {field: env[variable] for field, variable in read.items()}
        if "asso_weights" in values:
            values["asso_weights"] = Path(values["asso_weights"])
        base_url = env.get("RIPPLEMEM_LLM_BASE_URL")
        if base_url and "llm" not in overrides:
            key = env.get("RIPPLEMEM_LLM_API_KEY") or env.get("OPENAI_API_KEY")
            timeout = None if overrides.get("llm_timeout_s") is not None else env.get("RIPPLEMEM_LLM_TIMEOUT_S")
            model = env.get("RIPPLEMEM_LLM_MODEL", "gpt-4.1-mini")
            values["llm"] = _named(
                lambda: LLMSettings(
                    base_url=base_url, model=model, api_key=SecretStr(key) if key else None,
                    timeout_s=_seconds(timeout, "RIPPLEMEM_LLM_TIMEOUT_S"),
                ),
                {"base_url": ("RIPPLEMEM_LLM_BASE_URL", base_url), "model": ("RIPPLEMEM_LLM_MODEL", model)},
            )
        llm_timeout = overrides.pop("llm_timeout_s", None)
        if llm_timeout is not None:
            llm = overrides.get("llm", values.get("llm"))
            if llm is None:
                raise ConfigurationError(
                    "--llm-timeout needs an LLM endpoint: set RIPPLEMEM_LLM_BASE_URL and "
                    "RIPPLEMEM_LLM_MODEL"
                )
            values["llm"] = llm.model_copy(update={"timeout_s": float(llm_timeout)})
            overrides.pop("llm", None)
        sources = {field: (variable, values[field]) for field, variable in read.items()}
        return _named(lambda: cls(**{**values, **overrides}), sources)


T = TypeVar("T")

#: the Settings field each plain RIPPLEMEM_* variable sets
_VARIABLE_OF = {
    "store": "RIPPLEMEM_STORE",
    "embedder": "RIPPLEMEM_EMBEDDER",
    "recipe": "RIPPLEMEM_RECIPE",
    "date_order": "RIPPLEMEM_DATE_ORDER",
    "asso_weights": "RIPPLEMEM_ASSO_WEIGHTS",
}


def _named(build: Callable[[], T], sources: Mapping[str, tuple[str, object]]) -> T:
    """``build()``; its invalid fields that came from environment variables (``sources``: field
    -> variable and value) are reported by the variable's name."""
    try:
        return build()
    except ConfigurationError as error:
        cause = error.__cause__
        if not isinstance(cause, ValidationError):
            raise
        named = [
            (sources[str(item["loc"][0])], str(item["msg"]).removeprefix("Value error, "))
            for item in cause.errors()
            if item["loc"] and str(item["loc"][0]) in sources
        ]
        if not named:
            raise
        said = "; ".join(f"{variable}={str(value)!r}: {message}" for (variable, value), message in named)
        raise ConfigurationError(
            f"{said}: fix the environment variable or unset it (a setting given to the call is "
            "not read from the environment)"
        ) from cause


def _seconds(value: str | None, name: str) -> float | None:
    """A positive number of seconds from an environment variable, None when unset."""
    if value is None or not value.strip():
        return None
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not seconds > 0:
        raise ConfigurationError(f"{name} must be a positive number of seconds, got {value!r}")
    return seconds

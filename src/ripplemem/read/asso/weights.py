"""Fusion weights of the AssoMem ranker, one set per question type (reference §2).

``S(u) = w_R·R(u) + w_I·I(u) + w_T·T(u)``: the weights are fitted per question type as
``softmax(CMI / T)`` (see :mod:`ripplemem.training.fit_weights`) and stored as JSON with what they were
fitted on, so that a benchmark can refuse to score the questions the weights were fitted on.
Unfitted, every type gets equal thirds (:data:`EQUAL_WEIGHTS`), as in the released code.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ripplemem.errors import FittedQuestionsError, InvalidInputError

if TYPE_CHECKING:
    from ripplemem.recipes import RecallRecipe
    from ripplemem.settings import Settings

SIGNALS: tuple[str, ...] = ("relevance", "importance", "temporal")
EQUAL_WEIGHTS: dict[str, float] = {signal: 1.0 / len(SIGNALS) for signal in SIGNALS}


def question_ids_hash(question_ids: Iterable[str]) -> str:
    """A stable digest of a set of question ids (order and duplicates do not matter)."""
    digest = hashlib.sha256("\n".join(sorted(set(question_ids))).encode("utf-8"))
    return digest.hexdigest()[:16]


def _check_weights(weights: dict[str, float], *, where: str) -> dict[str, float]:
    if set(weights) != set(SIGNALS):
        raise ValueError(f"{where}: weights must name exactly {list(SIGNALS)}, got {sorted(weights)}")
    if any(value < 0 for value in weights.values()):
        raise ValueError(f"{where}: weights must be non-negative")
    total = sum(weights.values())
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"{where}: weights must sum to 1, got {total:.6f}")
    return {signal: float(weights[signal]) for signal in SIGNALS}


class FittedOn(BaseModel):
    """What the weights were fitted on: never score these questions without saying so."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    dataset: str = ""
    question_ids: tuple[str, ...] = ()
    question_ids_hash: str = ""
    rows: int = 0  # (question, unit) pairs
    rows_by_type: dict[str, int] = Field(default_factory=dict)
    half: str | None = None  # "A" | "B" when fitted on one half of a dev set


class SignalWeights(BaseModel):
    """Per-question-type fusion weights plus what they were fitted on."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    by_type: dict[str, dict[str, float]] = Field(default_factory=dict)
    default: dict[str, float] = Field(default_factory=lambda: dict(EQUAL_WEIGHTS))
    fitted_on: FittedOn | None = None  # None: not fitted (equal thirds)
    bins: int = 3
    temperature: float = 1.0
    created: str = Field(default_factory=lambda: date.today().isoformat())
    cmi: dict[str, dict[str, float]] = Field(default_factory=dict)  # per type, for reports

    @field_validator("by_type")
    @classmethod
    def _check_by_type(cls, value: dict[str, dict[str, float]]) -> dict[str, dict[str, float]]:
        return {qtype: _check_weights(w, where=f"type {qtype!r}") for qtype, w in value.items()}

    @field_validator("default")
    @classmethod
    def _check_default(cls, value: dict[str, float]) -> dict[str, float]:
        return _check_weights(value, where="default")

    def for_type(self, qtype: str) -> dict[str, float]:
        """The weights of ``qtype``, or :attr:`default` when that type was not fitted."""
        return dict(self.by_type.get(qtype, self.default))

    def fitted_question_ids(self) -> frozenset[str]:
        return frozenset(self.fitted_on.question_ids) if self.fitted_on else frozenset()


def equal_weights() -> SignalWeights:
    """Unfitted weights: equal thirds for every question type."""
    return SignalWeights()


def save_weights(weights: SignalWeights, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(weights.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return path


def load_weights(path: str | Path) -> SignalWeights:
    """Read weights written by :func:`save_weights` (``ripplemem fit-weights --out``)."""
    path = Path(path)
    if not path.is_file():
        raise InvalidInputError(
            f"no weights file at {path}; fit one with: ripplemem fit-weights DATA --out {path}"
        )
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise InvalidInputError(f"{path} is not a JSON weights file: {error}") from error
    if not isinstance(raw, dict):
        raise InvalidInputError(f"{path}: a weights file holds a JSON object, got {type(raw).__name__}")
    try:
        return SignalWeights.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise InvalidInputError(
            f"{path}: malformed weights at {where}: {first['msg']}; "
            "re-create it with: ripplemem fit-weights DATA --out FILE"
        ) from error


def weights_from_settings(settings: Settings) -> SignalWeights:
    """The weights named by ``settings.asso_weights`` (``RIPPLEMEM_ASSO_WEIGHTS``), else equal thirds."""
    if settings.asso_weights is None:
        return equal_weights()
    return load_weights(settings.asso_weights)


def with_settings_weights(recipe: RecallRecipe, settings: Settings) -> RecallRecipe:
    """An asso recipe reading ``settings.asso_weights`` unless it names weights of its own."""
    if settings.asso_weights is None or recipe.kind != "asso" or recipe.asso.weights_path:
        return recipe
    return recipe.with_(asso={"weights_path": str(settings.asso_weights)})


def check_not_fitted_on(
    weights: SignalWeights, question_ids: Sequence[str], *, force: bool = False
) -> bool:
    """True when ``weights`` were fitted on some of ``question_ids``; raises unless ``force``."""
    overlap = weights.fitted_question_ids() & set(question_ids)
    if overlap and not force:
        raise FittedQuestionsError(
            f"the weights were fitted on {len(overlap)} question(s) this run evaluates "
            f"(e.g. {min(overlap)!r}): the numbers would be optimistic. Fit on the other half "
            "(ripplemem fit-weights DATA --half A|B), use --cross-fit, or pass --force-fitted to "
            "score them anyway (the result is then marked evaluated_on_fitted)"
        )
    return bool(overlap)

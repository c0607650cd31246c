"""Fit the AssoMem fusion weights per question type: ``w = softmax(CMI / T)`` (reference §2).

Input rows are ``(question type, signals, label, question id)``: one per candidate unit of a
question, labelled useful when the unit's source turns meet the question's gold evidence. Within
each question type ``q``, each signal is cut into ``bins`` equal-frequency bins (tertiles, edges
computed from that type's rows only), and

    CMI_d(q) = I(bin_d; y | q) = Σ_b Σ_y p(b, y | q) · log[ p(b, y | q) / (p(b | q) · p(y | q)) ]

in nats, with the probabilities estimated by counting the rows of type ``q``. The weights of
``q`` are ``softmax(CMI_d(q) / T)`` over the signals. A type with fewer than ``min_rows`` rows, or
without both a useful and a useless row, gets the pooled fit (all rows, one set of tertiles),
which is also the :attr:`SignalWeights.default` for types never seen.

Binning: a value ``v`` goes to bin ``#{edges e : v > e}``, so ties always share a bin and a
constant signal lands in one bin (CMI 0).
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ripplemem.errors import InvalidInputError
from ripplemem.read.asso.weights import (
    SIGNALS,
    FittedOn,
    SignalWeights,
    question_ids_hash,
    save_weights,
)

__all__ = [
    "POOLED",
    "SIGNALS",
    "Half",
    "SignalRow",
    "as_rows",
    "bin_values",
    "fit_signal_weights",
    "half_of",
    "mutual_information",
    "other_half",
    "save_weights",
    "signal_cmi",
    "softmax_weights",
    "tertile_edges",
    "with_temperature",
]

POOLED = "*pooled*"
Half = Literal["A", "B"]


@dataclass(frozen=True, slots=True)
class SignalRow:
    """One candidate unit of one question: its signal values and whether it is useful."""

    qtype: str
    signals: Mapping[str, float]
    label: bool
    question_id: str


def as_rows(rows: Iterable[SignalRow | tuple]) -> list[SignalRow]:
    """Accept :class:`SignalRow` or plain ``(qtype, signals, label, question_id)`` tuples."""
    return [row if isinstance(row, SignalRow) else SignalRow(*row) for row in rows]


def tertile_edges(values: Sequence[float], bins: int = 3) -> np.ndarray:
    """The ``bins - 1`` inner quantile edges of ``values``."""
    if bins < 2:
        raise InvalidInputError(f"bins must be at least 2, got {bins}")
    array = np.asarray(values, dtype=float)
    return np.quantile(array, [i / bins for i in range(1, bins)])


def bin_values(values: Sequence[float], edges: np.ndarray) -> np.ndarray:
    """Bin index of each value: the number of edges it exceeds (ties share a bin)."""
    return np.searchsorted(edges, np.asarray(values, dtype=float), side="left")


def mutual_information(bins: Sequence[int], labels: Sequence[bool]) -> float:
    """``I(bin; label)`` in nats from paired observations (plug-in estimate)."""
    if len(bins) != len(labels):
        raise InvalidInputError("bins and labels must have the same length")
    n = len(bins)
    if n == 0:
        return 0.0
    joint = Counter(zip((int(b) for b in bins), (bool(y) for y in labels), strict=True))
    by_bin = Counter(int(b) for b in bins)
    by_label = Counter(bool(y) for y in labels)
    total = 0.0
    for (b, y), count in joint.items():
        p_joint = count / n
        total += p_joint * math.log(p_joint / ((by_bin[b] / n) * (by_label[y] / n)))
    return max(total, 0.0)


def signal_cmi(rows: Sequence[SignalRow], signal: str, bins: int = 3) -> float:
    """``I(binned signal; label)`` over ``rows`` (all of one type: the conditional given the type)."""
    values = [float(row.signals.get(signal, 0.0)) for row in rows]
    binned = bin_values(values, tertile_edges(values, bins))
    return mutual_information(binned.tolist(), [row.label for row in rows])


def softmax_weights(cmi: Mapping[str, float], temperature: float = 1.0) -> dict[str, float]:
    if temperature <= 0:
        raise InvalidInputError(f"temperature must be positive, got {temperature}")
    scaled = np.array([cmi[signal] / temperature for signal in SIGNALS], dtype=float)
    exp = np.exp(scaled - scaled.max())
    weights = exp / exp.sum()
    return {signal: float(w) for signal, w in zip(SIGNALS, weights, strict=True)}


def fit_signal_weights(
    rows: Iterable[SignalRow | tuple],
    *,
    dataset: str = "",
    bins: int = 3,
    temperature: float = 1.0,
    min_rows: int = 30,
    half: Half | None = None,
) -> SignalWeights:
    """Per-type ``softmax(CMI / T)`` weights from labelled rows (see the module docstring)."""
    rows = as_rows(rows)
    if not rows:
        raise InvalidInputError("no rows to fit weights on: collect candidate signals first")
    by_type: dict[str, list[SignalRow]] = {}
    for row in rows:
        by_type.setdefault(row.qtype, []).append(row)
    cmi: dict[str, dict[str, float]] = {
        POOLED: {signal: signal_cmi(rows, signal, bins) for signal in SIGNALS}
    }
    pooled = softmax_weights(cmi[POOLED], temperature)
    weights: dict[str, dict[str, float]] = {}
    for qtype, members in sorted(by_type.items()):
        labels = {row.label for row in members}
        if len(members) < min_rows or labels != {True, False}:
            weights[qtype] = dict(pooled)
            continue
        cmi[qtype] = {signal: signal_cmi(members, signal, bins) for signal in SIGNALS}
        weights[qtype] = softmax_weights(cmi[qtype], temperature)
    question_ids = sorted({row.question_id for row in rows})
    return SignalWeights(
        by_type=weights,
        default=pooled,
        fitted_on=FittedOn(
            dataset=dataset,
            question_ids=tuple(question_ids),
            question_ids_hash=question_ids_hash(question_ids),
            rows=len(rows),
            rows_by_type={qtype: len(members) for qtype, members in sorted(by_type.items())},
            half=half,
        ),
        bins=bins,
        temperature=temperature,
        cmi=cmi,
    )


def half_of(question_id: str) -> Half:
    """The cross-fitting half of a question: a stable hash of its id (same on every machine)."""
    return "A" if hashlib.sha256(question_id.encode("utf-8")).digest()[0] % 2 == 0 else "B"


def other_half(half: Half) -> Half:
    return "B" if half == "A" else "A"


def with_temperature(weights: SignalWeights, temperature: float) -> SignalWeights:
    """The same fit re-softmaxed at another temperature (the CMI values do not depend on T)."""
    if POOLED not in weights.cmi:
        raise InvalidInputError("these weights carry no CMI values: refit them with fit-weights")
    pooled = softmax_weights(weights.cmi[POOLED], temperature)
    by_type = {
        qtype: softmax_weights(weights.cmi[qtype], temperature) if qtype in weights.cmi else pooled
        for qtype in weights.by_type
    }
    return weights.model_copy(update={"by_type": by_type, "default": pooled, "temperature": temperature})

"""Structural (who / where / when) compatibility between two cue sets — reference §1.

``s_str(i, j) = sum_x beta_x * I_x * u_x / sum_x beta_x * I_x`` over x in {P, L, T}; ``I_x = 1`` only
when both sides carry cue x. ``u_P``, ``u_L`` are Jaccard overlaps of normalised sets; ``u_T`` is 1
when the intervals overlap, else ``exp(-gap_days / tau)``. No comparable cue -> ``None``.
Used by the linker (write), the cue view and the structural diffusion channel (read).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

from ripplemem.records import MemoryUnit, TimeSpan, named_times, normalise_cue


@dataclass(frozen=True, slots=True)
class StructuralWeights:
    participants: float = 0.50
    locations: float = 0.20
    time: float = 0.30
    tau_days: float = 7.0


DEFAULT_WEIGHTS = StructuralWeights()


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def time_compatibility(a: TimeSpan, b: TimeSpan, tau_days: float) -> float:
    return 1.0 if a.overlaps(b) else math.exp(-a.gap_days(b) / tau_days)


def cue_set(values: Iterable[str]) -> frozenset[str]:
    """The normalised, non-empty values (a unit's participants or locations: a tuple, read once
    per distinct tuple; a store repeats the same few)."""
    if isinstance(values, tuple):
        return _cue_set_of(values)
    return _normalised(values)


@lru_cache(maxsize=8192)
def _cue_set_of(values: tuple[str, ...]) -> frozenset[str]:
    return _normalised(values)


def _normalised(values: Iterable[str]) -> frozenset[str]:
    return frozenset(v for v in (normalise_cue(x) for x in values) if v)


def structural_score(
    participants_a: frozenset[str],
    locations_a: frozenset[str],
    time_a: TimeSpan | None,
    participants_b: frozenset[str],
    locations_b: frozenset[str],
    time_b: TimeSpan | None,
    weights: StructuralWeights = DEFAULT_WEIGHTS,
) -> float | None:
    """Score in [0, 1], or None when the two sides share no comparable cue type.

    Pass normalised sets (see :func:`cue_set`)."""
    num = den = 0.0
    if participants_a and participants_b:
        num += weights.participants * jaccard(participants_a, participants_b)
        den += weights.participants
    if locations_a and locations_b:
        num += weights.locations * jaccard(locations_a, locations_b)
        den += weights.locations
    if time_a is not None and time_b is not None:
        num += weights.time * time_compatibility(time_a, time_b, weights.tau_days)
        den += weights.time
    return num / den if den else None


#: a turn distance meaning "not in the same session"
FAR = 1 << 30


def structural_time(unit: MemoryUnit) -> TimeSpan | None:
    """The time a unit is compared by: its grounded span, else the day it was said."""
    if unit.time_span is not None:
        return unit.time_span
    return said_day(unit)


def said_day(unit: MemoryUnit) -> TimeSpan | None:
    """The day a unit was said (None without its session's time), whatever time it names."""
    said = unit.session_time
    if not said:
        return None
    return _naive_day(said) if said.tzinfo is None else TimeSpan.day(said)


def times_of(unit: MemoryUnit) -> tuple[TimeSpan, ...]:
    """Every time a unit is of: the times it names when they lie too far apart for one span
    (``extra["time_spans"]``, written by the extractor), else its :func:`structural_time`."""
    kept = named_times(unit.extra)
    if kept:
        return kept
    span = structural_time(unit)
    return (span,) if span is not None else ()


@lru_cache(maxsize=4096)
def _naive_day(moment: datetime) -> TimeSpan:
    """The day of a naive time (read once per distinct time: a store's units share a few).
    Only naive times are cached: two aware times of one instant in different zones compare
    equal, so a cache would hand one the other's day."""
    return TimeSpan.day(moment)


def turn_distance(a: MemoryUnit, b: MemoryUnit) -> int:
    """How many turns apart two units of the same session were said (FAR otherwise)."""
    if a.episode_id != b.episode_id:
        return FAR
    pa, pb = a.extra.get("turn_index"), b.extra.get("turn_index")
    return abs(pa - pb) if pa is not None and pb is not None else FAR

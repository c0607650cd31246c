"""Time grounding: map time expressions in a text to intervals, against a reference time.

Our own rules (:mod:`ripplemem.grounding.time_rules`) run first and mask what they cover; Duckling
(``pyduckling-native-phihos``) does the rest. Its results are cleaned: generic plurals ("on
Fridays", "weekends"), bare ordinals and words it reads as times but are not ("boy") are dropped;
bare clock times ("at 7") stay ungrounded; a yearless date or bare weekday ("in March", "on
Friday") goes to the past or future occurrence by the tense of its sentence, else the nearest.
With ``reference=None`` only absolute expressions ground: a parse is trusted only when two
far-apart reference times give the same interval. Numbers that are not times ("2 kids", "3 times",
"25 years old") give nothing, and texts with no time-ish word skip Duckling entirely.
"""

from __future__ import annotations

import calendar
import logging
import re
import threading
from datetime import datetime
from pathlib import Path
from typing import Any

from ripplemem.errors import MissingExtraError
from ripplemem.grounding.time_patterns import (
    BARE_DEFINITE,
    DAY_ANCHOR,
    GENERIC_PLURAL,
    ORDINAL_ONLY,
    TIMEISH,
    WEEKDAYS,
    clause_of,
    expand_weekdays,
    original_offset,
    tense_of,
)
from ripplemem.grounding.time_rules import Found, GroundedTime, rule_times
from ripplemem.grounding.time_spans import (
    SECOND,
    day_span,
    month_span,
    shift_months,
    week_span,
    year_span,
)
from ripplemem.records import TimeSpan

__all__ = ["GroundedTime", "TimeGrounder", "ground_times"]

log = logging.getLogger(__name__)
ZONEINFO = "/usr/share/zoneinfo"
_BARE_SEASON = re.compile(  # "the autumn colors", "excited about summer": not a date
    r"^(?:(?:about|in|during|for|over|at|by|through) )?(?:the )?"
    r"(?:summer|winter|spring|fall|autumn)$",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_HABITUAL = re.compile(r"\b(?:every|each)\s+$", re.IGNORECASE)
# "my Sunday group rides", "the Friday night dinner": a weekday that names a kind of event (it
# stands between a determiner and the noun it modifies) is not a date
_BARE_WEEKDAY = re.compile(
    r"^(?:" + WEEKDAYS + r")(?: (?:morning|afternoon|evening|night))?$", re.IGNORECASE
)
_DETERMINER_BEFORE = re.compile(
    r"\b(?:my|your|his|her|our|their|its|the|a|an|usual|regular|weekly)\s+$", re.IGNORECASE
)
_NOUN_AFTER = re.compile(
    r"^\s+(?!(?:before|after|of|when|that|and|or|i|we|you|he|she|they)\b)[a-z]", re.IGNORECASE
)
_ABSOLUTE_PROBES = (datetime(2001, 6, 13, 12, 0), datetime(2012, 2, 21, 12, 0))


class TimeGrounder:
    """Holds the Duckling context (time zones loaded once, lazily, thread-safe)."""

    def __init__(self, zoneinfo: str | Path = ZONEINFO) -> None:
        self.zoneinfo = str(zoneinfo)
        self._lock = threading.Lock()
        self._duckling: Any = None
        self._tz: Any = None
        self._locale: Any = None
        self._dims: Any = None

    def _load(self) -> None:
        if self._duckling is not None:
            return
        try:
            import duckling
        except ImportError as error:
            raise MissingExtraError(
                "duckling is not installed. Install it with: pip install pyduckling-native-phihos==0.3.0"
            ) from error
        self._tz = duckling.load_time_zones(self.zoneinfo)
        self._locale = duckling.default_locale_lang(duckling.parse_lang("EN"))
        self._dims = duckling.parse_dimensions(["time"])
        self._duckling = duckling

    def _parse(self, text: str, reference: datetime) -> list[dict]:
        with self._lock:
            self._load()
            d = self._duckling
            stamp = calendar.timegm(reference.replace(microsecond=0).timetuple())
            context = d.Context(d.parse_ref_time(self._tz, "UTC", stamp), self._locale)
            return d.parse(text, context, self._dims, False)

    def ground(self, text: str, reference: datetime | None) -> list[GroundedTime]:
        """All time expressions in ``text``, in order, grounded against ``reference``.

        Never fails on text: a phrase whose date falls outside what Python can hold, or a panic
        of the native parser (``pyo3_runtime.PanicException``, a ``BaseException``), leaves the
        text without times (logged) rather than failing the ``add`` or ``search`` around it."""
        try:
            return self._ground(text, reference)
        except (OverflowError, ValueError) as error:
            log.warning("time grounding skipped a text it could not date: %s", error)
            return []
        except BaseException as error:
            if not is_native_parser_panic(error):
                raise
            log.warning("the time parser panicked on a text; it keeps no time: %s", error)
            return []

    def _ground(self, text: str, reference: datetime | None) -> list[GroundedTime]:
        if not text or not TIMEISH.search(text):
            return []
        found: list[Found] = rule_times(text, reference)
        taken = [(s, e) for s, e, _ in found]
        for start, end, item in self._from_duckling(text, reference):
            if not any(start < e and s < end for s, e in taken):
                found.append(Found(start, end, item))
        found.sort(key=lambda x: x[0])
        out: list[GroundedTime] = []
        seen: set[tuple[str, TimeSpan | None]] = set()
        for _, _, item in found:
            if item is None:  # a masked span: not a time
                continue
            key = (item.phrase.lower(), item.span)
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out

    # -- duckling -------------------------------------------------------------------------------

    def _from_duckling(self, original: str, ref: datetime | None) -> list[Found]:
        """Duckling's finds, on the text with abbreviated weekdays spelled out, mapped back."""
        text, moves = expand_weekdays(original)
        if not moves:
            return self._duckling_finds(text, ref)
        mapped = []
        for start, end, item in self._duckling_finds(text, ref):
            start, end = original_offset(start, moves), original_offset(end, moves)
            if item is not None:
                phrase = original[start:end].strip().rstrip(",;:.!?")
                item = GroundedTime(phrase, item.span, item.grain)
            mapped.append(Found(start, end, item))
        return mapped

    def _duckling_finds(self, text: str, ref: datetime | None) -> list[Found]:
        if ref is not None:
            return [
                Found(r["start"], r["end"], item)
                for r in self._parse(text, ref)
                if (item := self._convert(r, text, ref)) is not None
            ]
        # no reference: trust only parses that two far-apart references agree on
        first, second = (self._parse(text, probe) for probe in _ABSOLUTE_PROBES)
        results = []
        for r in first:
            item = self._convert(r, text, _ABSOLUTE_PROBES[0])
            if item is None:
                continue
            twin = next(
                (o for o in second if (o["start"], o["end"]) == (r["start"], r["end"])), None
            )
            other = self._convert(twin, text, _ABSOLUTE_PROBES[1]) if twin else None
            if other is None or other.span != item.span:
                item = GroundedTime(item.phrase, None, item.grain)
            results.append(Found(r["start"], r["end"], item))
        return results

    def _convert(self, result: dict, text: str, ref: datetime) -> GroundedTime | None:
        try:
            return self._convert_unchecked(result, text, ref)
        except (ValueError, OverflowError):
            # Duckling can produce dates Python cannot hold ("-2477-05-01", year 10000) from
            # numbers that only look like years: such a phrase is not a groundable time.
            return None

    def _convert_unchecked(self, result: dict, text: str, ref: datetime) -> GroundedTime | None:
        phrase = result["body"].strip().rstrip(",;:.!?")
        value = result["value"]
        if (
            not TIMEISH.search(phrase)  # Duckling reads "boy" as a time; we do not
            or BARE_DEFINITE.match(phrase)
            or _BARE_SEASON.match(phrase)
            or GENERIC_PLURAL.search(phrase)
            or ORDINAL_ONLY.match(phrase)
            or "weekend" in phrase.lower()
        ):
            return None
        start, end = result["start"], result["end"]
        if (start > 0 and (text[start - 1].isalnum() or text[start - 1] in "-/")) or (
            end < len(text) and text[end].isalnum()
        ):
            return None  # part of a longer token: "K-200A" is a model name, not 2 AM
        if _HABITUAL.search(text, 0, result["start"]):
            return None  # "every Saturday": a habit, not a date
        if (
            _BARE_WEEKDAY.match(phrase)
            and _DETERMINER_BEFORE.search(text, 0, result["start"])
            and _NOUN_AFTER.match(text[result["end"] :])
        ):
            return None  # "my Sunday group rides": a kind of event, not a date
        if value.get("type") == "interval":
            return self._interval(phrase, value, ref)
        values = value.get("values") or [value]
        points = [
            (datetime.fromisoformat(v["value"][:19]), v["grain"]) for v in values if "value" in v
        ]
        if not points:
            return None
        moment, grain = points[0]
        if grain == "quarter" and not _YEAR.search(phrase):
            return None  # "the 4th quarter" of a game, far more often than of a year
        if grain in ("second", "minute", "hour"):
            if not DAY_ANCHOR.search(phrase):
                return GroundedTime(phrase, None, "hour")  # a bare clock time: which day?
            return GroundedTime(phrase, day_span(moment.date()), "day")
        if len(points) > 1:
            tense = tense_of(clause_of(text, result["start"], result["end"]))
            moment = self._pick([p for p, _ in points], grain, ref, tense)
        return GroundedTime(phrase, self._grain_span(moment, grain), grain)

    @staticmethod
    def _pick(candidates: list[datetime], grain: str, ref: datetime, tense: str) -> datetime:
        """Choose among the repeating occurrences Duckling lists (plus the one before them)."""
        if len(candidates) >= 2:
            step = candidates[1] - candidates[0]
            if step.days >= 360:
                before = candidates[0].replace(year=candidates[0].year - 1)
            else:
                before = candidates[0] - step
            candidates = [before, *candidates]
        if tense == "past":
            past = [c for c in candidates if c <= ref]
            if past:
                return max(past)
        if tense == "future":
            day_start = datetime(ref.year, ref.month, ref.day)
            future = [c for c in candidates if c >= day_start]
            if future:
                return min(future)
        return min(candidates, key=lambda c: abs(c - ref))

    @staticmethod
    def _grain_span(moment: datetime, grain: str) -> TimeSpan:
        if grain == "week":
            return week_span(moment.date())
        if grain == "month":
            return month_span(moment.year, moment.month)
        if grain == "quarter":
            end_year, end_month = shift_months(moment.date(), 2)
            return TimeSpan(
                month_span(moment.year, moment.month).start, month_span(end_year, end_month).end
            )
        if grain == "year":
            return year_span(moment.year)
        return day_span(moment.date())

    @staticmethod
    def _interval(phrase: str, value: dict, ref: datetime) -> GroundedTime | None:
        start = value.get("from")
        end = value.get("to")
        if start is None:
            return GroundedTime(phrase, None, "range")  # "before May": open towards the past
        begin = datetime.fromisoformat(start["value"][:19])
        if end is None:  # "since 2016": up to the reference
            if begin > ref:
                return GroundedTime(phrase, None, "range")
            return GroundedTime(phrase, TimeSpan(begin, ref), "range")
        finish = datetime.fromisoformat(end["value"][:19]) - SECOND
        if finish < begin:
            return None
        if re.search(r"summer|winter|spring|fall|autumn", phrase, re.IGNORECASE):
            grain = "season"
            if phrase.lower().startswith("this ") and begin.year > ref.year:
                # "this summer" said in October: the summer just gone, not next year's
                begin, finish = begin.replace(year=ref.year), finish.replace(year=ref.year)
        elif begin.date() == finish.date():
            grain = "day"
        else:
            grain = "range"
        return GroundedTime(phrase, TimeSpan(begin, finish), grain)


_default = TimeGrounder()


def is_native_parser_panic(error: BaseException) -> bool:
    """True for a Rust panic surfaced by pyo3 (its ``PanicException`` is not importable)."""
    return type(error).__name__ == "PanicException"


def ground_times(text: str, reference: datetime | None) -> list[GroundedTime]:
    """Time expressions of ``text`` grounded against ``reference`` (the session time), in order.

    With ``reference=None`` only absolute expressions ("May 2023", "in 2022") get a span.
    """
    return _default.ground(text, reference)

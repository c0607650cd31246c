"""Which block each kind of result gets on the benchmarks pages, and its overview row.

:func:`section` is a run's full block (on its topic page), :func:`headline_section` its short
form (the overview page shows the current table of the main runs), :func:`describe` what the
overview table says about it.
"""

from __future__ import annotations

from ripplemem_bench.reports.asso import asso_speed_section
from ripplemem_bench.reports.growth import growth_headline, growth_section, index_section
from ripplemem_bench.reports.retrieval import (
    retrieval_headline,
    retrieval_section,
    variants_section,
)
from ripplemem_bench.reports.serve import serve_section
from ripplemem_bench.reports.tables import markdown_table, short_units
from ripplemem_bench.reports.times import times_section
from ripplemem_bench.reports.updates import lme_updates_section, updates_section
from ripplemem_bench.reports.writers import writers_section
from ripplemem_bench.results import (
    AssoSpeedResult,
    Facts,
    GrowthResult,
    IndexScaleResult,
    LmeUpdatesResult,
    Result,
    RetrievalResult,
    RetrievalVariants,
    ServeResult,
    TimesResult,
    UpdatesResult,
    WritersResult,
)

__all__ = ["describe", "facts_of", "headline_section", "section"]


def _other(result: Facts) -> str:
    rows = [
        [key, str(value)]
        for key, value in result.to_json().items()
        if isinstance(value, str | int | float | bool) or value is None
    ]
    return "\n".join(markdown_table(["field", "value"], rows)) + "\n"


def section(result: Result) -> str:
    """The full block of one result."""
    match result:
        case RetrievalResult():
            return retrieval_section(result)
        case RetrievalVariants():
            return variants_section(result)
        case GrowthResult():
            return growth_section(result)
        case IndexScaleResult():
            return index_section(result)
        case AssoSpeedResult():
            return asso_speed_section(result)
        case ServeResult():
            return serve_section(result)
        case WritersResult():
            return writers_section(result)
        case UpdatesResult():
            return updates_section(result)
        case LmeUpdatesResult():
            return lme_updates_section(result)
        case TimesResult():
            return times_section(result)
    return _other(result)


def headline_section(result: Result) -> str:
    """The short block of one result: its main table without the detail."""
    match result:
        case RetrievalResult():
            return retrieval_headline(result)
        case GrowthResult():
            return growth_headline(result)
    return section(result)


def facts_of(result: Result) -> Facts:
    """The record whose date, commit and models stand for the result (a variant file: its first)."""
    return result.first() if isinstance(result, RetrievalVariants) else result


def _growth(result: GrowthResult) -> tuple[str, str]:
    sizes = ", ".join(short_units(row.units) for row in result.sizes) or "no size"
    return f"{result.benchmark}: {sizes} units", f"synthetic (seed {result.settings.seed})"


def describe(result: Result) -> tuple[str, str]:
    """(what ran, on which data) for the overview table."""
    match result:
        case RetrievalResult():
            return f"{result.dataset} retrieval, {len(result.recipes)} recipes", result.split or "?"
        case RetrievalVariants():
            first, names = result.first(), ", ".join(result.root)
            what = f"{first.dataset} retrieval, {len(result.root)} variants ({names})"
            return what, first.split or "?"
        case GrowthResult():
            return _growth(result)
        case IndexScaleResult():
            return f"dense index alone: {short_units(result.settings.size)} vectors", "synthetic vectors"
        case AssoSpeedResult():
            return f"AssoMem PPR on {result.ppr.nodes:,} nodes, clue-graph updates", "synthetic"
        case ServeResult():
            what = f"service under load: {result.settings.clients} clients, {result.store.backend}"
            return what, "synthetic"
        case WritersResult():
            what = f"ingest throughput, {result.settings.writers} writers: {', '.join(result.backends)}"
            return what, result.settings.file
        case UpdatesResult():
            what = f"knowledge updates: {result.conversations} conversations, {result.questions} questions"
            return what, f"{result.file or '?'} ({result.split or '?'})"
        case LmeUpdatesResult():
            what = f"{result.question_type} ordering, {result.questions} questions, k = {result.k}"
            return what, result.split or "?"
        case TimesResult():
            what = f"time expressions: {result.cases} messages in {len(result.by_language) - 1} languages"
            return what, f"{result.file or '?'} ({result.split or '?'})"
    extra = result.model_extra or {}
    return str(extra.get("benchmark") or extra.get("dataset") or "?"), "?"

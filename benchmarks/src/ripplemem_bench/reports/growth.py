"""Page blocks of ``bench speed`` and ``bench scale``: sizes, the insert curve, part 4, verdicts;
and of ``bench scale --index-only``."""

from __future__ import annotations

from collections.abc import Callable

from ripplemem_bench.reports.tables import markdown_table, short_units, verdict_word
from ripplemem_bench.results.growth import CurvePoint, GrowthResult, SizeRow
from ripplemem_bench.results.index import IndexScaleResult

__all__ = ["growth_headline", "growth_section", "index_section", "search_stages"]

#: the recipe whose read stages the page times
STAGES_RECIPE = "ripple"


def _caption(result: GrowthResult) -> str:
    settings, embedder = result.settings, result.embedder
    cpus = result.machine.cpus if result.machine is not None else None
    return (
        f"_{result.benchmark} · synthetic units (seed {settings.seed}), {settings.store} store, "
        f"batches of {settings.batch} · embedder {embedder.name} ({embedder.units_per_s:.0f} "
        f"units/s, apart from the insert columns) · LLM {result.llm_text()} · "
        f"{settings.queries} searches per recipe and size · {result.date_text()} · commit "
        f"`{result.commit_text()}` · load {result.load_text()} on {cpus or '?'} CPUs._"
    )


def _size_cells(row: SizeRow, recipes: list[str]) -> list[str]:
    dense = row.dense_index
    return [
        f"{row.units:,}",
        f"{row.insert_ms_per_unit:.2f}",
        f"{row.insert_cpu_ms_per_unit:.2f}",
        f"{row.insert_ms_per_unit_median_batch:.2f}",
        *(
            f"{row.search[n].p50_ms:.1f} / {row.search[n].p95_ms:.1f}" if n in row.search else "–"
            for n in recipes
        ),
        (dense.search if dense is not None else None) or "–",
        "–" if dense is None or dense.resident_mb is None else f"{dense.resident_mb:.0f}",
        f"{row.peak_rss_mb():.0f}",
        "–" if row.file_mb is None else f"{row.file_mb:.1f}",
        "?" if not row.loadavg else f"{row.loadavg[0]:.1f}",
    ]


def size_table(result: GrowthResult) -> list[str]:
    recipes = result.settings.recipes
    header = ["units", "insert ms/unit", "CPU ms/unit", "median batch ms/unit"]
    header += [f"{name} p50 / p95 ms" for name in recipes]
    header += ["dense index", "index MB", "peak RSS MB", "file MB", "load"]
    return markdown_table(header, [_size_cells(row, recipes) for row in result.sizes])


def _curve(curve: list[CurvePoint], value: Callable[[CurvePoint], float | None]) -> str:
    return " · ".join(f"{short_units(p.units)} {value(p) or 0.0:.2f}" for p in curve)


def _curve_lines(curve: list[CurvePoint]) -> list[str]:
    if not curve:
        return []
    lines = ["", f"Insert ms/unit as the store grows (wall): {_curve(curve, lambda p: p.insert_ms_per_unit)}.",
             "", f"The same in CPU ms/unit of the process: {_curve(curve, lambda p: p.insert_cpu_ms_per_unit)}."]
    if all(p.graph_ms_per_unit is not None for p in curve):
        graph = _curve(curve, lambda p: p.graph_ms_per_unit)
        lines += ["", f"Of which inserting into the HNSW graph (from 1k vectors on): {graph}."]
    if all(p.candidates_per_unit is not None for p in curve):
        work = " · ".join(
            f"{short_units(p.units)} {p.candidates_per_unit:.0f} / "
            f"{p.edges_per_unit + p.evictions_per_unit:.1f}"
            for p in curve
        )
        lines += ["", ("The linker's work per unit (candidates looked at / edges added + evicted), "
                  f"as its bounded pools and the degree caps fill: {work}.")]
    return lines


def search_stages(
    result: GrowthResult, recipe: str = STAGES_RECIPE
) -> list[tuple[str, list[tuple[float, float | None] | None]]]:
    """``recipe``'s read stages with (p50 ms, mean ms per search) at each size (None: no search
    of it there; the mean is None in a result that kept p50s only), the costliest at the
    largest size first, ``total`` last; empty without stage timings."""
    timings = [row.search.get(recipe) for row in result.sizes]
    names = {stage for t in timings if t is not None for stage in t.stages_p50_ms if stage != "total"}
    if not names:
        return []
    last = next(t for t in reversed(timings) if t is not None and t.stages_p50_ms)
    cost = last.stages_mean_ms or last.stages_p50_ms
    ordered = sorted(names, key=lambda stage: (-cost.get(stage, 0.0), stage))
    return [
        (stage, [
            None if t is None else (
                t.stages_p50_ms.get(stage, 0.0),
                t.stages_mean_ms.get(stage, 0.0) if t.stages_mean_ms else None,
            )
            for t in timings
        ])
        for stage in [*ordered, "total"]
    ]


def stage_cell(value: tuple[float, float | None] | None) -> str:
    """A stage's "p50 / mean" ms (the p50 alone without a mean)."""
    if value is None:
        return "–"
    p50, mean = value
    return f"{p50:.2f}" if mean is None else f"{p50:.2f} / {mean:.2f}"


def _stage_lines(result: GrowthResult) -> list[str]:
    """Where the ``ripple`` search time goes at each size: ms per read stage."""
    stages = search_stages(result)
    if not stages:
        return []
    means = any(value is not None and value[1] is not None for _, values in stages for value in values)
    unit = "p50 / mean ms" if means else "p50 ms"
    header = ["stage", *(f"{row.units:,} {unit}" for row in result.sizes)]
    table = [[stage, *(stage_cell(value) for value in values)] for stage, values in stages]
    # a run whose search centred the query on its own thread (a `centre` stage) read the dense
    # view there too; since, both are read on the query's thread
    waits = (
        "`embed` is what is left to wait for" if any(stage == "centre" for stage, _ in stages)
        else "its dense view is read on the same thread; `embed` and `dense` are what is left to wait for"
    )
    return ["", (f"`{STAGES_RECIPE}` search by read stage at each size: the p50 of a stage's ms "
            "over the searches it ran in, and its mean ms per search (0 where it did not run: "
            "the means add up to the mean total, the p50s do not). The query is embedded "
            f"beside the first stages; {waits}:"), "",
            *markdown_table(header, table)]


def _probe_lines(result: GrowthResult) -> list[str]:
    """Part 4: the same conversations written into the store at each size (newer results)."""
    probed = [(row.units, row.probe) for row in result.sizes if row.probe is not None]
    if not probed or not probed[0][1].units:
        return []
    first = probed[0][1]
    header = ["store units", "add ms/unit", "insert ms/unit", *first.insert_stages, "edges/unit"]
    table = [
        [f"{units:,}", f"{probe.add_ms_per_unit:.2f}", f"{probe.insert_ms_per_unit:.2f}",
         *(f"{probe.stage_ms_per_unit.get(stage, 0.0):.2f}" for stage in first.insert_stages),
         f"{probe.edges_per_unit:.1f}"]
        for units, probe in probed
    ]
    lines = ["", (f"The same conversations ({first.source}, {first.units:,} units) written into "
             "the store at each size and deleted again: the whole `add` per unit, and its insert "
             "stages (after embedding):"), "", *markdown_table(header, table)]
    flat = result.insert_flatness
    if flat is not None and flat.stream is not None:
        lines += ["", (f"The stream's own windows (insert above) grow ×{flat.stream.insert_ratio:.2f} "
                  "from the first to the last size while its linker looks at "
                  f"×{flat.stream.candidates_ratio:.2f} the candidates per unit: different work, "
                  "so the flatness verdict reads the conversations above.")]
    return lines


def _ingest_lines(result: GrowthResult) -> list[str]:
    ingest = result.locomo_ingest
    if ingest is None:
        return []
    return ["", (f"LoCoMo ingest ({ingest.file}, {ingest.conversations} conversations, extractor "
            f"{ingest.extractor}, no LLM): {ingest.seconds_mean:.2f} s mean, "
            f"{ingest.seconds_max:.2f} s max per conversation.")]


def verdict_rows(result: GrowthResult) -> list[list[str]]:
    """(target, measured, verdict) of ``bench speed``'s targets and ``bench scale``'s."""
    out = [[f"{name} ≤ {target.target:g}", f"{target.value():.2f}", verdict_word(target.met)]
           for name, target in result.targets.items()]
    scale = result.scale_targets
    if scale is None:
        return out
    at, search = short_units(scale.at_units), scale.search_p50_ms
    for name, value in search.measured.items():
        out.append([(f"search p50 at {at} ≤ {search.target:g} ms ({name}, dense index "
                    f"{search.dense_index})"), f"{value:.1f}", verdict_word(search.met[name])])
    rss, ratio = scale.rss_peak_mb, scale.insert_ratio
    out.append([f"peak RSS at {at} ≤ {rss.target:g} MB", f"{rss.value():.0f}", verdict_word(rss.met)])
    wall = "" if ratio.wall_measured is None else f" (wall ×{ratio.wall_measured:.2f})"
    out.append([(f"insert cost per unit at {at} ≤ {ratio.target:g}× that at "
                f"{short_units(ratio.from_units)} (CPU time)"), f"×{ratio.cpu_measured:.2f}{wall}",
                verdict_word(ratio.met)])
    return out


def growth_section(result: GrowthResult) -> str:
    """The page block: the facts, a row per size, the curve, part 4, ingest and the verdicts."""
    lines = [_caption(result), "", *size_table(result), *_stage_lines(result),
             *_curve_lines(result.insert_curve)]
    if result.vectors:
        lines += ["", f"Vectors: {result.vectors}."]
    lines += _probe_lines(result) + _ingest_lines(result)
    verdicts = verdict_rows(result)
    if verdicts:
        lines += ["", *markdown_table(["target", "measured", "verdict"], verdicts)]
    return "\n".join(lines) + "\n"


def growth_headline(result: GrowthResult) -> str:
    """The overview page's block: the facts, a row per size and the verdicts."""
    lines = [_caption(result), "", *size_table(result)]
    verdicts = verdict_rows(result)
    if verdicts:
        lines += ["", *markdown_table(["target", "measured", "verdict"], verdicts)]
    return "\n".join(lines) + "\n"


def index_section(result: IndexScaleResult) -> str:
    settings = result.settings
    header = ["vectors", "add ms/vector", "slowest batch ms/vector", "search", "index MB",
              "peak RSS MB", "load"]
    rows = [
        [f"{s.units:,}", f"{s.add_ms_per_vector:.3f}", f"{s.slowest_batch_ms_per_vector:.3f}",
         s.search, f"{s.resident_mb:.0f}", f"{s.rss_peak_mb:.0f}",
         "?" if not s.loadavg else f"{s.loadavg[0]:.1f}"]
        for s in result.segments
    ]
    k = settings.k
    lines = [
        (f"_dense index alone ({settings.index}), {settings.size:,} vectors of {settings.dim} "
        f"dimensions added in batches of {settings.batch} · embedder {result.embedder_text()} "
        f"for the pool · LLM {result.llm_text()} · {result.date_text()} · commit "
        f"`{result.commit_text()}` · load {result.load_text()}._"),
        "", *markdown_table(header, rows), "",
        (f"At {settings.size:,} vectors: search p50 {result.search_p50_ms:.2f} ms, p95 "
        f"{result.search_p95_ms:.2f} ms (one query, k = {k}); "
        f"{result.search_many_ms_per_query_p50:.2f} ms per query in batches of 50; recall@{k} "
        f"against exact search {100 * result.recall_at_k:.1f} % ({settings.queries} queries); "
        f"peak RSS {result.rss_peak_mb:.0f} MB."),
    ]
    if result.vectors:
        lines += ["", f"Vectors: {result.vectors}."]
    return "\n".join(lines) + "\n"

"""Report sections of ``bench speed`` and ``bench scale``: growth tables, index runs, verdicts."""

from __future__ import annotations

from ripplemem_bench.reports.tables import (
    markdown_table,
    result_date,
    result_embedder,
    result_load,
    short_units,
    verdict_word,
)


def growth_section(result: dict) -> str:
    rows = result.get("sizes") or []
    recipes = (result.get("settings") or {}).get("recipes") or []
    header = ["units", "insert ms/unit", "CPU ms/unit", "median batch ms/unit"]
    header += [f"{name} p50 / p95 ms" for name in recipes]
    header += ["dense index", "index MB", "peak RSS MB", "file MB", "load"]
    table = []
    for row in rows:
        search = row.get("search") or {}
        dense = row.get("dense_index") or {}
        table.append(
            [
                f"{row['units']:,}",
                f"{row.get('insert_ms_per_unit', 0.0):.2f}",
                f"{row.get('insert_cpu_ms_per_unit', 0.0):.2f}",
                f"{row.get('insert_ms_per_unit_median_batch', 0.0):.2f}",
                *(
                    f"{search[n]['p50_ms']:.1f} / {search[n]['p95_ms']:.1f}" if n in search else "–"
                    for n in recipes
                ),
                str(dense.get("search", "–")),
                "–" if dense.get("resident_mb") is None else f"{dense['resident_mb']:.0f}",
                f"{row.get('rss_peak_mb_after_search', row.get('rss_peak_mb', 0.0)):.0f}",
                "–" if row.get("file_mb") is None else f"{row['file_mb']:.1f}",
                "?" if not row.get("loadavg") else f"{row['loadavg'][0]:.1f}",
            ]
        )
    settings = result.get("settings") or {}
    embedder = result.get("embedder") or {}
    lines = [
        (
            f"_{result.get('benchmark')} · synthetic units (seed {settings.get('seed', '?')}), "
            f"{settings.get('store', '?')} store, batches of {settings.get('batch', '?')} · embedder "
            f"{result_embedder(result)} ({embedder.get('units_per_s', 0.0):.0f} units/s, apart from the "
            f"insert columns) · LLM none · {settings.get('queries', '?')} searches per recipe and "
            f"size · {result_date(result)} · commit `{(result.get('commit') or '?')[:7]}` · load "
            f"{result_load(result)} on {(result.get('machine') or {}).get('cpus', '?')} CPUs._"
        ),
        "",
        *markdown_table(header, table),
    ]
    curve = result.get("insert_curve") or []
    if curve:
        points = " · ".join(
            f"{short_units(p['units'])} {p['insert_ms_per_unit']:.2f}" for p in curve
        )
        cpu = " · ".join(
            f"{short_units(p['units'])} {p['insert_cpu_ms_per_unit']:.2f}" for p in curve
        )
        lines += ["", f"Insert ms/unit as the store grows (wall): {points}.", ""]
        lines += [f"The same in CPU ms/unit of the process: {cpu}."]
        if all("graph_ms_per_unit" in p for p in curve):
            graph = " · ".join(
                f"{short_units(p['units'])} {p['graph_ms_per_unit']:.2f}" for p in curve
            )
            lines += ["", f"Of which inserting into the HNSW graph (from 1k vectors on): {graph}."]
        if all("candidates_per_unit" in p for p in curve):
            work = " · ".join(
                f"{short_units(p['units'])} {p['candidates_per_unit']:.0f} / "
                f"{p['edges_per_unit'] + p['evictions_per_unit']:.1f}"
                for p in curve
            )
            lines += [
                "",
                (
                    "The linker's work per unit (candidates looked at / edges added + evicted), "
                    f"as its bounded pools and the degree caps fill: {work}."
                ),
            ]
    if result.get("vectors"):
        lines += ["", f"Vectors: {result['vectors']}."]
    lines += _probe_lines(result)
    ingest = result.get("locomo_ingest")
    if ingest:
        lines += [
            "",
            (
                f"LoCoMo ingest ({ingest.get('file')}, {ingest.get('conversations')} conversations, "
                f"extractor {ingest.get('extractor')}, no LLM): {ingest['seconds_mean']:.2f} s mean, "
                f"{ingest['seconds_max']:.2f} s max per conversation."
            ),
        ]
    verdicts = _verdicts(result)
    if verdicts:
        lines += ["", *markdown_table(["target", "measured", "verdict"], verdicts)]
    return "\n".join(lines) + "\n"


def _probe_lines(result: dict) -> list[str]:
    """Part 4: the same conversations written into the store at each size (newer results)."""
    probed = [(row["units"], row["probe"]) for row in result.get("sizes") or [] if row.get("probe")]
    if not probed or not probed[0][1].get("units"):
        return []
    stages = probed[0][1]["insert_stages"]
    header = ["store units", "add ms/unit", "insert ms/unit", *stages, "edges/unit"]
    table = [
        [
            f"{units:,}",
            f"{probe['add_ms_per_unit']:.2f}",
            f"{probe['insert_ms_per_unit']:.2f}",
            *(f"{probe['stage_ms_per_unit'].get(stage, 0.0):.2f}" for stage in stages),
            f"{probe['edges_per_unit']:.1f}",
        ]
        for units, probe in probed
    ]
    first = probed[0][1]
    lines = [
        "",
        (
            f"The same conversations ({first['source']}, {first['units']:,} units) written into "
            "the store at each size and deleted again: the whole `add` per unit, and its insert "
            "stages (after embedding):"
        ),
        "",
        *markdown_table(header, table),
    ]
    stream = (result.get("insert_flatness") or {}).get("stream")
    if stream:
        lines += [
            "",
            (
                f"The stream's own windows (insert above) grow ×{stream['insert_ratio']:.2f} from "
                f"the first to the last size while its linker looks at "
                f"×{stream['candidates_ratio']:.2f} the candidates per unit: different work, so "
                "the flatness verdict reads the conversations above."
            ),
        ]
    return lines


def index_section(result: dict) -> str:
    settings = result.get("settings") or {}
    header = ["vectors", "add ms/vector", "slowest batch ms/vector", "search", "index MB"]
    header += ["peak RSS MB", "load"]
    rows = [
        [
            f"{s['units']:,}",
            f"{s['add_ms_per_vector']:.3f}",
            f"{s['slowest_batch_ms_per_vector']:.3f}",
            str(s["search"]),
            f"{s['resident_mb']:.0f}",
            f"{s['rss_peak_mb']:.0f}",
            "?" if not s.get("loadavg") else f"{s['loadavg'][0]:.1f}",
        ]
        for s in result.get("segments") or []
    ]
    k = settings.get("k", 10)
    lines = [
        (
            f"_dense index alone ({settings.get('index', '?')}), {settings.get('size', 0):,} vectors "
            f"of {settings.get('dim', '?')} dimensions added in batches of {settings.get('batch')} · "
            f"embedder {result_embedder(result)} for the pool · LLM none · {result_date(result)} · commit "
            f"`{(result.get('commit') or '?')[:7]}` · load {result_load(result)}._"
        ),
        "",
        *markdown_table(header, rows),
        "",
        (
            f"At {settings.get('size', 0):,} vectors: search p50 {result.get('search_p50_ms', 0):.2f} "
            f"ms, p95 {result.get('search_p95_ms', 0):.2f} ms (one query, k = {k}); "
            f"{result.get('search_many_ms_per_query_p50', 0):.2f} ms per query in batches of 50; "
            f"recall@{k} against exact search {100 * result.get(f'recall@{k}', 0):.1f} % "
            f"({settings.get('queries')} queries); peak RSS {result.get('rss_peak_mb', 0):.0f} MB."
        ),
    ]
    if result.get("vectors"):
        lines += ["", f"Vectors: {result['vectors']}."]
    return "\n".join(lines) + "\n"


def _verdicts(result: dict) -> list[list[str]]:
    out = []
    for name, target in (result.get("targets") or {}).items():
        measured = target.get("measured", target.get("measured_max"))
        out.append(
            [f"{name} ≤ {target['target']:g}", f"{measured:.2f}", verdict_word(target["met"])]
        )
    scale = result.get("scale_targets") or {}
    if scale:
        at = short_units(scale["at_units"])
        search = scale["search_p50_ms"]
        for name, value in search["measured"].items():
            out.append(
                [
                    (
                        f"search p50 at {at} ≤ {search['target']:g} ms ({name}, dense index "
                        f"{search.get('dense_index')})"
                    ),
                    f"{value:.1f}",
                    verdict_word(search["met"][name]),
                ]
            )
        rss = scale["rss_peak_mb"]
        out.append(
            [
                f"peak RSS at {at} ≤ {rss['target']:g} MB",
                f"{rss['measured']:.0f}",
                verdict_word(rss["met"]),
            ]
        )
        ratio = scale["insert_ratio"]
        out.append(
            [
                (
                    f"insert cost per unit at {at} ≤ {ratio['target']:g}× that at "
                    f"{short_units(ratio['from_units'])} (CPU time)"
                ),
                f"×{ratio['cpu_measured']:.2f}"
                + (f" (wall ×{ratio['wall_measured']:.2f})" if "wall_measured" in ratio else ""),
                verdict_word(ratio["met"]),
            ]
        )
    return out

"""``ripplemem bench knn``: namespace-filtered kNN on PostgreSQL against exact search."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ripplemem.cli.common import console, friendly
from ripplemem_bench.cli.output import save_result


@friendly
def knn(
    url: Annotated[str, typer.Argument(help="PostgreSQL server URL (pgvector >= 0.8).")],
    locomo: Annotated[
        Path,
        typer.Option(
            "--locomo", exists=True, dir_okay=False, help="LoCoMo file: its utterances' vectors."
        ),
    ],
    units: Annotated[int, typer.Option("--units", min=1, help="Units in all.")] = 100_000,
    namespaces: Annotated[
        int, typer.Option("--namespaces", min=1, help="Namespaces they spread over.")
    ] = 100,
    queries: Annotated[int, typer.Option("--queries", min=1, help="Timed searches.")] = 300,
    k: Annotated[int, typer.Option("--k", min=1, help="Nearest units per search.")] = 10,
    noise: Annotated[float, typer.Option("--noise", min=0, help="Noise norm per vector.")] = 0.4,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the vectors and queries.")] = 0,
    skip_global: Annotated[
        bool, typer.Option("--skip-global", help="Only the store's design.")
    ] = False,
    json_file: Annotated[
        Path | None, typer.Option("--json", dir_okay=False, help="Write the result dict here.")
    ] = None,
) -> None:
    """Filtered kNN recall@k: a partial HNSW index per namespace against one filtered index."""
    from ripplemem.errors import ConfigurationError

    try:
        from ripplemem_bench.speed.knn import run_knn_bench
    except ImportError as error:
        raise ConfigurationError(
            f"bench knn needs the PostgreSQL extra ({error}): pip install 'ripplemem[postgres]'"
        ) from error
    out = console()
    with out.status("loading, indexing and searching"):
        result = run_knn_bench(
            url,
            locomo,
            units=units,
            namespaces=namespaces,
            queries=queries,
            k=k,
            noise=noise,
            seed=seed,
            global_index=not skip_global,
        )
    designs = {"store_partial_indexes": result.store_partial_indexes,
               "global_index_iterative_scan": result.global_index_iterative_scan}
    for design, row in designs.items():
        if row is not None:
            out.print(
                f"{design}: recall@{k} {row.recall_mean:.3f} (worst {row.recall_min:.1f}, "
                f"{row.queries_below_90} of {queries} below 0.9), p50 {row.p50_ms:.1f} ms, "
                f"p95 {row.p95_ms:.1f} ms, load and build {row.load_and_build_s:.0f} s"
            )
    if json_file is not None:
        save_result(json_file, result, out)

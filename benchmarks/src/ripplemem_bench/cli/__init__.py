"""``ripplemem bench ...`` (also ``ripplemem-bench ...``): the benchmark commands.

The ``ripplemem`` command finds :data:`bench_app` through the ``ripplemem.cli`` entry-point group
(``bench = "ripplemem_bench.cli:bench_app"``); heavy modules are imported inside the commands.
"""

from __future__ import annotations

import typer

from ripplemem_bench.cli.asso_speed import asso_speed
from ripplemem_bench.cli.bounded import bounded
from ripplemem_bench.cli.knn import knn
from ripplemem_bench.cli.merge import merge
from ripplemem_bench.cli.rejudge import rejudge_command
from ripplemem_bench.cli.report import report
from ripplemem_bench.cli.retrieval import locomo, longmemeval
from ripplemem_bench.cli.serve import serve
from ripplemem_bench.cli.sessions import lme_sessions
from ripplemem_bench.cli.speed import scale, speed
from ripplemem_bench.cli.times import times
from ripplemem_bench.cli.updates import lme_updates, updates
from ripplemem_bench.cli.writers import writers

bench_app = typer.Typer(
    name="bench",
    help="Benchmarks: every recipe (and peer, e.g. mem0) on one ingested memory; retrieval needs "
    "no LLM, --answer adds answers, F1, BLEU-1 and an LLM judge.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
bench_app.command(name="locomo")(locomo)
bench_app.command(name="longmemeval")(longmemeval)
bench_app.command(name="lme-sessions")(lme_sessions)
bench_app.command(name="speed")(speed)
bench_app.command(name="asso-speed")(asso_speed)
bench_app.command(name="scale")(scale)
bench_app.command(name="serve")(serve)
bench_app.command(name="writers")(writers)
bench_app.command(name="knn")(knn)
bench_app.command(name="report")(report)
bench_app.command(name="updates")(updates)
bench_app.command(name="lme-updates")(lme_updates)
bench_app.command(name="times")(times)
bench_app.command(name="merge")(merge)
bench_app.command(name="bounded")(bounded)
bench_app.command(name="rejudge")(rejudge_command)


def main() -> None:
    bench_app()

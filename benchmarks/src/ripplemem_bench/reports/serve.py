"""The page block of a ``bench serve`` result: one row for the run, then its checks."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.service import ServeResult

__all__ = ["serve_section"]


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"


def _caption(result: ServeResult) -> str:
    settings, store = result.settings, result.store
    server = " ".join(settings.server_args) or "defaults"
    if settings.search_processes is not None:
        server += f", {settings.search_processes} search processes"
    cpus = result.machine.cpus if result.machine is not None else None
    return (
        f"_`ripplemem serve` ({server}) on 127.0.0.1 over {store.backend} with "
        f"{store.units_before:,} units; {settings.clients} clients for {settings.seconds:.0f} s, "
        f"{100 * settings.add_share:.0f} % of operations adds; {cpus or '?'} cores "
        f"({result.cpu_model()}), load {result.load_text()}, {result.date_text()}, commit "
        f"`{result.commit_text()}`._"
    )


def serve_section(result: ServeResult) -> str:
    header = ["searches/s", "p50 ms", "p95 ms", "p99 ms", "adds (p50 ms)", "errors",
              "acknowledged adds present", "server CPU ms/search"]
    search, acknowledged = result.search_ms, result.adds_acknowledged
    row = [
        f"{result.searches_per_s:.1f}", _ms(search.p50), _ms(search.p95), _ms(search.p99),
        f"{acknowledged} ({_ms(result.add_ms.p50)})", str(result.errors),
        f"{acknowledged - result.acknowledged_adds_missing} / {acknowledged}",
        f"{result.server_cpu_ms_per_search:.1f}",
    ]
    checks = ", ".join(
        f"{check}: {'yes' if passed else '**no**'}" for check, passed in result.checks.items()
    )
    table = markdown_table(header, [row])
    return "\n".join([_caption(result), "", *table, "", f"Checks: {checks}."]) + "\n"

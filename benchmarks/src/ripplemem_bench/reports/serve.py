"""The Markdown of a ``bench serve`` result: one row for the run, then its checks."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table, result_date, result_load

__all__ = ["serve_section"]


def serve_section(result: dict) -> str:
    settings, store, search = result["settings"], result["store"], result["search_ms"]
    server = " ".join(settings.get("server_args") or []) or "defaults"
    if "search_processes" in settings:
        server += f", {settings['search_processes']} search processes"
    cpu = ((result.get("machine") or {}).get("cpu") or {}).get("model") or "?"
    intro = (
        f"_`ripplemem serve` ({server}) on 127.0.0.1 over {store['backend']} with "
        f"{store['units_before']:,} units; {settings['clients']} clients for "
        f"{settings['seconds']:.0f} s, {100 * settings['add_share']:.0f} % of operations adds; "
        f"{result.get('machine', {}).get('cpus', '?')} cores ({cpu}), load "
        f"{result_load(result)}, {result_date(result)}, commit "
        f"`{(result.get('commit') or '?')[:7]}`._"
    )
    header = ["searches/s", "p50 ms", "p95 ms", "p99 ms", "adds (p50 ms)", "errors",
              "acknowledged adds present", "server CPU ms/search"]
    acknowledged = result["adds_acknowledged"]
    row = [
        f"{result['searches_per_s']:.1f}", _ms(search.get("p50")), _ms(search.get("p95")),
        _ms(search.get("p99")), f"{acknowledged} ({_ms(result['add_ms'].get('p50'))})",
        str(result["errors"]),
        f"{acknowledged - result['acknowledged_adds_missing']} / {acknowledged}",
        f"{result['server_cpu_ms_per_search']:.1f}",
    ]
    checks = ", ".join(
        f"{check}: {'yes' if passed else '**no**'}" for check, passed in result["checks"].items()
    )
    return "\n".join([intro, "", *markdown_table(header, [row]), "", f"Checks: {checks}."]) + "\n"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"

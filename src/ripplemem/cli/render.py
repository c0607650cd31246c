"""Readable renderings of recalls and traces for the terminal (rich)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from ripplemem.records import Cues, Recall


def describe_cues(cues: Cues | None) -> str:
    if cues is None:
        return "-"
    parts = []
    if cues.text:
        parts.append(f'"{cues.text}"')
    if cues.participants:
        parts.append("who: " + ", ".join(cues.participants))
    if cues.locations:
        parts.append("where: " + ", ".join(cues.locations))
    if cues.time_span:
        parts.append(f"when: {cues.time_span.start:%Y-%m-%d}..{cues.time_span.end:%Y-%m-%d}")
    if cues.keywords:
        parts.append("keywords: " + ", ".join(cues.keywords))
    return "; ".join(parts) or "-"


def render_recall(console: Console, recall: Recall, *, show_trace: bool = False) -> None:
    table = Table(show_lines=False, expand=True)
    table.add_column("#", justify="right", width=3)
    table.add_column("score", justify="right", width=6)
    table.add_column("found by", width=18)
    table.add_column("memory")
    table.add_column("source", width=14)
    for i, item in enumerate(recall.evidence, 1):
        unit = item.unit
        meta = []
        if unit.time_span:
            meta.append(f"when {unit.time_span.start:%Y-%m-%d}..{unit.time_span.end:%Y-%m-%d}")
        if unit.locations:
            meta.append("at " + ", ".join(unit.locations))
        text = unit.restatement + (f"  [dim]({'; '.join(meta)})[/]" if meta else "")
        views = ", ".join(item.views)
        if item.terms and item.terms.anchor:
            views += " ⚓"
        table.add_row(str(i), f"{item.score:.3f}", views, text, ",".join(unit.turn_ids))
    console.print(table)
    if show_trace:
        render_trace(console, recall)


def render_trace(console: Console, recall: Recall) -> None:
    trace = recall.trace
    console.print(f"[bold]recipe[/] {trace.recipe}   [bold]query cues[/] {describe_cues(trace.cues)}")
    for view, hits in trace.initial.items():
        console.print(f"  [bold]{view}[/] view: {len(hits)} hits")
    for n, plan in enumerate(trace.plans, 1):
        console.print(
            f"[bold]plan {n}[/] ({plan.planner}) continue={plan.proceed} "
            f"anchors={list(plan.anchors)} stop={plan.stop_reason or '-'}"
        )
        console.print(f"  [bold]missing-support goal[/]: {describe_cues(plan.goal)}")
    units = {e.unit.id: e.unit for e in recall.evidence}
    for path in trace.expansions:
        reached = units.get(path.nodes[-1])
        label = reached.restatement[:70] if reached else path.nodes[-1]
        console.print(
            f"  [green]ripple[/] {path.channel:10} {' -> '.join(path.nodes)} "
            f"(path {path.path_weight:.2f}, goal {path.goal_score:.2f}): {label}"
        )
    for item in recall.evidence:
        if item.terms:
            t = item.terms
            extra = "".join(f" {k}={v:.3f}" for k, v in t.extra.items())
            console.print(
                f"  [dim]{item.unit.id}: a={t.alignment:.3f} pi={t.provenance:.3f} "
                f"anchor={t.anchor:.0f}{extra} -> {t.total:.3f}[/]"
            )
    if trace.timings_ms:
        console.print(
            "[dim]timings: " + ", ".join(f"{k} {v:.1f} ms" for k, v in trace.timings_ms.items()) + "[/]"
        )
    for note in trace.notes:
        console.print(f"[dim]note: {note}[/]")

"""Readable renderings of recalls and traces for the terminal (rich).

Stored text is untrusted: a conversation may hold terminal escape sequences, bidi overrides or
rich markup. Everything printed from the store goes through :func:`for_terminal` first, which
shows such characters visibly (C0 controls as their Unicode pictures, ``\\x1b`` as ``␛``; C1 and
bidi controls as ``\\x9b`` / ``\\u202e``) and escapes markup. ``--json`` prints the exact text.
"""

from __future__ import annotations

import re

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ripplemem.records import Cues, Recall

#: characters a terminal acts on instead of showing: C0 and C1 controls, DEL, the line and
#: paragraph separators, and the bidi marks, embeddings, overrides and isolates
_ACTIVE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: object) -> str:
    """``text`` safe to print through rich: active characters shown visibly, markup escaped."""
    return escape(_ACTIVE.sub(_visible, str(text)))


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟: ESC is ␛, a newline ␊
    if code == 0x7F:
        return "\u2421"  # ␡
    if code <= 0x9F:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def describe_cues(cues: Cues | None) -> str:
    """The cues as markup-safe text."""
    if cues is None:
        return "-"
    parts = []
    if cues.text:
        parts.append(f'"{for_terminal(cues.text)}"')
    if cues.participants:
        parts.append("who: " + ", ".join(map(for_terminal, cues.participants)))
    if cues.locations:
        parts.append("where: " + ", ".join(map(for_terminal, cues.locations)))
    if cues.time_span:
        parts.append(f"when: {cues.time_span.start:%Y-%m-%d}..{cues.time_span.end:%Y-%m-%d}")
    if cues.keywords:
        parts.append("keywords: " + ", ".join(map(for_terminal, cues.keywords)))
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
            meta.append(f"when {unit.time_span.as_days('..')}")
        if unit.locations:
            meta.append("at " + ", ".join(map(for_terminal, unit.locations)))
        text = for_terminal(unit.restatement) + (f"  [dim]({'; '.join(meta)})[/]" if meta else "")
        views = ", ".join(item.views)
        if item.terms and item.terms.anchor:
            views += " ⚓"
        table.add_row(str(i), f"{item.score:.3f}", views, text, for_terminal(",".join(unit.turn_ids)))
    console.print(table)
    if show_trace:
        render_trace(console, recall)


def render_trace(console: Console, recall: Recall) -> None:
    trace = recall.trace
    console.print(f"[bold]recipe[/] {for_terminal(trace.recipe)}   [bold]query cues[/] {describe_cues(trace.cues)}")
    for view, hits in trace.initial.items():
        console.print(f"  [bold]{for_terminal(view)}[/] view: {len(hits)} hits")
    for n, plan in enumerate(trace.plans, 1):
        console.print(
            f"[bold]plan {n}[/] ({for_terminal(plan.planner)}) continue={plan.proceed} "
            f"anchors={for_terminal(list(plan.anchors))} stop={for_terminal(plan.stop_reason or '-')}"
        )
        console.print(f"  [bold]missing-support goal[/]: {describe_cues(plan.goal)}")
    units = {e.unit.id: e.unit for e in recall.evidence}
    for path in trace.expansions:
        reached = units.get(path.nodes[-1])
        label = reached.restatement[:70] if reached else path.nodes[-1]
        console.print(
            f"  [green]ripple[/] {path.channel:10} {for_terminal(' -> '.join(path.nodes))} "
            f"(path {path.path_weight:.2f}, goal {path.goal_score:.2f}): {for_terminal(label)}"
        )
    for item in recall.evidence:
        if item.terms:
            t = item.terms
            extra = "".join(f" {k}={v:.3f}" for k, v in t.extra.items())
            console.print(
                f"  [dim]{for_terminal(item.unit.id)}: a={t.alignment:.3f} pi={t.provenance:.3f} "
                f"anchor={t.anchor:.0f}{for_terminal(extra)} -> {t.total:.3f}[/]"
            )
    if trace.timings_ms:
        console.print(
            "[dim]timings: " + ", ".join(f"{k} {v:.1f} ms" for k, v in trace.timings_ms.items()) + "[/]"
        )
    for note in trace.notes:
        console.print(f"[dim]note: {for_terminal(note)}[/]")

"""The benchmarks pages from the current results: ``ripplemem bench report``.

The overview page (``--out``, ``docs/benchmarks.md``) holds the table of current runs and the
prose around it; every run of the manifest (:mod:`.manifest`) has its full block on a topic page
(``docs/benchmarks/*.md``, named by the run's ``page``), and may have a short block
(``ripplemem:headline``) on any page. Each page keeps its prose: only the blocks between markers
are replaced (:mod:`.pages`). A current run whose full block is on no page yet gets a section
appended to its page; a page that does not exist is created. Plots of the runs marked ``plots``
are drawn beside the page that shows them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from ripplemem_bench.reports.manifest import Manifest, load_manifest
from ripplemem_bench.reports.overview import overview
from ripplemem_bench.reports.pages import PageText, full_names, new_page
from ripplemem_bench.reports.sections import headline_section, section
from ripplemem_bench.results import GrowthResult, Result

__all__ = ["ReportResult", "render_block", "write_report"]

PLOT_KINDS = ("insert", "search", "memory")


@dataclass(slots=True)
class ReportResult:
    out: Path
    rendered: list[str] = field(default_factory=list)  # result names
    added: list[str] = field(default_factory=list)  # sections appended to their page
    missing: list[str] = field(default_factory=list)  # blocks whose run is no longer current
    plots: list[Path] = field(default_factory=list)
    pages: list[Path] = field(default_factory=list)  # every page written


def render_block(name: str, result: Result, plots: list[str] | None = None,
                 source: str | None = None) -> str:
    """The Markdown of one result's full block: its tables, the source, then plot links."""
    body = section(result) + "\n" + _source_line(name, result, source)
    for plot in plots or []:
        body += f"\n![{Path(plot).stem.replace('_', ' ')}]({plot})\n"
    return body


def _source_line(name: str, result: Result, link: str | None) -> str:
    text = f"[`results/{name}`]({link})" if link else f"`docs/results/{name}`"
    partial = isinstance(result, GrowthResult) and result.partial
    note = " (partial: the run stopped or is still going after the last size shown)" if partial else ""
    return f"_Source: {text}{note}._\n"


def _link(target: Path, page: Path) -> str:
    return Path(os.path.relpath(target, page.parent)).as_posix()


class _Report:
    """One regeneration: the pages, where each run's block lives, the plots drawn."""

    def __init__(self, current: Manifest, out: Path, draw: bool) -> None:
        self.current, self.out, self.draw = current, out, draw
        self.results = current.results()
        self.texts: dict[Path, str] = {}
        for page in [out, *(out.parent / p for p in current.pages().values() if p)]:
            if page not in self.texts:
                text = page.read_text(encoding="utf-8") if page.exists() else None
                self.texts[page] = text if text is not None else new_page(
                    _title(page, out), overview=page == out
                )
        found = {name: page for page, text in self.texts.items() for name in full_names(text)}
        self.homes = {
            name: found.get(name) or (out.parent / page if page else out)
            for name, page in current.pages().items()
        }
        self.appended = {name for name in self.results if name not in found}
        self.pictures: dict[str, list[Path]] = {}

    def plots(self, name: str, report: ReportResult) -> list[Path]:
        result, folder = self.results[name], self.homes[name].parent
        if not isinstance(result, GrowthResult) or name not in self.current.plotted():
            return []
        stem = Path(name).stem
        if self.draw:
            from ripplemem_bench.reports.plots import plot_growth

            drawn = plot_growth(result, folder, stem)
            report.plots += drawn
            return drawn
        kept = [folder / f"{stem}_{kind}.png" for kind in PLOT_KINDS]
        return [path for path in kept if path.exists()]  # not redrawn: link the ones there

    def full(self, name: str, page: Path) -> str | None:
        if name not in self.results:
            return None
        pictures = [_link(path, page) for path in self.pictures.get(name, [])]
        source = _link(self.current.folder / name, page)
        return render_block(name, self.results[name], pictures, source)

    def headline(self, name: str, page: Path) -> str | None:
        if name not in self.results:
            return None
        home = self.homes[name]
        title = _title(home, self.out, self.texts.get(home))
        more = "" if home == page else f" Details: [{title}]({_link(home, page)})."
        source = _link(self.current.folder / name, page)
        return headline_section(self.results[name]) + f"\n_Source: [`results/{name}`]({source}).{more}_\n"

    def links(self, page: Path) -> dict[str, tuple[str, str | None]]:
        return {
            name: (_link(self.current.folder / name, page),
                   None if self.homes[name] == page else _link(self.homes[name], page))
            for name in self.results
        }

    def page(self, page: Path, report: ReportResult) -> str:
        edit = PageText(self.texts[page])
        edit.replace("results", lambda name: self.full(name, page))
        edit.replace("headline", lambda name: self.headline(name, page))
        edit.overview(overview(self.results, self.links(page)))
        new = [n for n in self.results if n in self.appended and self.homes[n] == page]
        edit.append({n: self.full(n, page) or "" for n in new}, _section_title)
        report.added += new
        report.missing += edit.stale
        return edit.final()


def _title(page: Path, out: Path, text: str | None = None) -> str:
    """The page's own title (its first ``# `` line), else one made from its name."""
    for line in (text or "").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return "Benchmarks" if page == out else f"Benchmarks: {page.stem.replace('_', ' ')}"


def _section_title(name: str) -> str:
    return Path(name).stem.replace("_", " ")


def write_report(manifest: Path, out: Path, *, plots: bool = True) -> ReportResult:
    """Render the current runs of ``manifest`` into ``out`` and the topic pages (keeping the
    prose); plots beside the pages that show them."""
    job = _Report(load_manifest(manifest), out, plots)
    report = ReportResult(out=out, rendered=list(job.results))
    for name in job.results:
        job.pictures[name] = job.plots(name, report)
    for page in job.texts:
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(job.page(page, report), encoding="utf-8")
        report.pages.append(page)
    order = list(job.results)
    report.added.sort(key=order.index)  # the manifest's order
    return report

"""The page blocks of the knowledge-update benchmarks: the update suite (per recipe, the share of
each question kind) and LongMemEval's knowledge-update ordering (per recipe, latest first and
answer first)."""

from __future__ import annotations

from ripplemem_bench.reports.tables import markdown_table
from ripplemem_bench.results.updates import LmeUpdatesResult, StageEffect, UpdatesResult

__all__ = ["effect_sentence", "lme_updates_section", "updates_section"]

#: the question kinds of the update suite, as its table heads them
KINDS = {"current": "current", "history": "history", "control": "controls"}


def updates_section(result: UpdatesResult) -> str:
    header = ["recipe", *KINDS.values()]
    rows = []
    for name, block in result.recipes.items():
        cells = []
        for kind in KINDS:
            score = block.summary.get(kind)
            # a kind the suite (or its split) has no question of has no share
            cells.append("—" if score is None or score.questions == 0 else
                         f"{score.share:.1f} % ({score.passed}/{score.questions})")
        rows.append([name, *cells])
    facts = (
        f"{result.conversations} conversations, {result.questions} questions, split "
        f"`{result.split or '?'}`, extractor {result.extractor or '?'}, embedder "
        f"{result.embedder_text()}, {result.date_text()}, commit `{result.commit_text()}`, "
        f"load {result.load_text()}."
    )
    lines = [facts, "", *markdown_table(header, rows)]
    effect = result.stage_effect()
    if effect is not None:
        lines += ["", effect_sentence(effect)]
    return "\n".join(lines) + "\n"


def effect_sentence(effect: StageEffect) -> str:
    """One line: what the supersession stage changes, per question kind."""

    def counts(found: dict[str, int]) -> str:
        parts = [f"{found[k]} {KINDS[k] if found[k] > 1 else k}" for k in KINDS if found.get(k)]
        return f" ({', '.join(parts)})" if parts else ""

    helped = sum(effect.helped.values())
    return (
        f"The supersession stage (`{effect.recipe}` beside `{effect.without}`): "
        f"{helped} question{'' if helped == 1 else 's'} passed only with it{counts(effect.helped)}, "
        f"{sum(effect.harmed.values())} only without it{counts(effect.harmed)}."
    )


#: the shares of an ordering run, as its table heads them
ORDER_COLUMNS = {
    "latest_first": "latest first",
    "answer_first": "answer first",
    "all_found": "all found",
    "latest_found": "latest found",
}


def lme_updates_section(result: LmeUpdatesResult) -> str:
    """Per recipe: the share of questions whose latest gold session ranks above the earlier ones
    within the first k sessions, whose answer session does, every gold session found, the latest
    found; search latency. A run written before answer first was read shows "–" for it."""
    header = ["recipe", *ORDER_COLUMNS.values(), "latest first when all found", "p50 ms", "p95 ms"]
    rows = []
    for name, block in result.recipes.items():
        s = block.summary
        counts = {"latest_first": s.latest_first_count, "answer_first": s.answer_first_count,
                  "all_found": s.all_found_count, "latest_found": s.latest_found_count}
        cells = [_share(getattr(s, key), counts[key], s.questions) for key in ORDER_COLUMNS]
        rows.append([name, *cells, f"{s.latest_first_when_all_found:.1f} %",
                     _ms(block.search_ms_p50), _ms(block.search_ms_p95)])
    left_out = ", ".join(f"{n} {why}" for why, n in result.excluded.items()) or "none"
    first = next(iter(result.recipes.values())).summary if result.recipes else None
    answers = (
        "" if first is None or first.answer_sessions is None else
        f", {first.answer_sessions} with an answer session ({first.earlier_answers} of them "
        "not the latest)"
    )
    facts = (
        f"{result.question_type} questions of `{result.split or '?'}`: {result.questions} scored "
        f"(left out: {left_out}){answers}, k = {result.k} sessions, embedder "
        f"{result.embedder_text()}, "
        f"extractor {result.extractor or '?'}, {result.date_text()}, commit "
        f"`{result.commit_text()}`, load {result.load_text()}."
    )
    return "\n".join([facts, "", *markdown_table(header, rows)]) + "\n"


def _share(share: float | None, count: int | None, questions: int) -> str:
    return "–" if share is None else f"{share:.1f} % ({count}/{questions})"


def _ms(value: float | None) -> str:
    return "–" if value is None else f"{value:.1f}"

"""``bench report``: the runs of the manifest rendered, prose outside the markers kept."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from ripplemem.errors import InvalidInputError
from ripplemem_bench.reports.docs import render_block, write_report
from ripplemem_bench.reports.manifest import load_manifest
from ripplemem_bench.reports.pages import BEGIN, END
from ripplemem_bench.results import GrowthResult, Result, load_result, parse_result
from ripplemem_bench.results.growth import CurvePoint, Flatness, StreamGrowth

FIXTURES = Path(__file__).parent.parent / "fixtures" / "results"


def write_manifest(folder: Path, plotted: tuple[str, ...] = ("speed.json", "scale.json"),
                   drop: tuple[str, ...] = ()) -> Path:
    runs = [{"file": p.name, **({"plots": True} if p.name in plotted else {})}
            for p in sorted(folder.glob("*.json")) if p.name != "manifest.json" and p.name not in drop]
    path = folder / "manifest.json"
    path.write_text(json.dumps({"runs": runs}), encoding="utf-8")
    return path


def load_results(folder: Path) -> dict[str, Result]:
    return {p.name: load_result(p) for p in sorted(folder.glob("*.json")) if p.name != "manifest.json"}


@pytest.fixture
def results(tmp_path: Path) -> Path:
    folder = tmp_path / "results"
    shutil.copytree(FIXTURES, folder)
    write_manifest(folder)
    return folder


def test_a_fresh_document_has_an_overview_and_a_block_per_result(results: Path) -> None:
    out = results.parent / "benchmarks.md"
    done = write_report(results / "manifest.json", out, plots=False)
    text = out.read_text()
    assert sorted(done.rendered) == sorted(p.name for p in FIXTURES.glob("*.json"))
    for name in done.rendered:
        assert BEGIN.format(name=name) in text
    assert text.count(END) == len(done.rendered)
    overview = text.split("<!-- /ripplemem:overview -->")[0]
    assert (
        "| [`locomo_tiny.json`](results/locomo_tiny.json) | locomo retrieval, 2 recipes" in overview
    )
    assert "qwen2.5-0.5b" in overview and "2026-02-02" in overview


def test_retrieval_rows_state_split_recipe_embedder_llm_and_date(results: Path) -> None:
    loaded = load_results(results)
    block = render_block("locomo_tiny.json", loaded["locomo_tiny.json"])
    assert "| ripple | 50.0 | 75.0 | 50.0 | 812 | 12.3 | 20.0 |" in block
    facts = block.splitlines()[0]
    for fact in ("split locomo_tiny.json", "embedder minilm-int8", "LLM none", "2026-01-01",
                 "commit `abcdef1`", "load 1.5"):
        assert fact in facts
    assert "recall@30 (%) by category" in block and "| multi-hop | 1 | 50.0 | 50.0 |" in block
    generic = render_block("newbench_dev.json", loaded["newbench_dev.json"])
    # an unknown dataset: every recorded metric, rates in %, other numbers as they are
    assert "| recipe | answer_tokens | exact_match | f1 | p50 ms | p95 ms |" in generic
    assert "| ripple | 42.00 | 40.0 | 55.0 | 3.0 | – |" in generic
    assert "| dense | – | 30.0 | 50.0 | – | – |" in generic
    assert "embedder e5-small · LLM qwen2.5-0.5b" in generic


def test_speed_and_scale_blocks(results: Path) -> None:
    loaded = load_results(results)
    speed = render_block("speed.json", loaded["speed.json"], ["speed_insert.png"])
    assert (
        "| 10,000 | 1.20 | 0.96 | 1.20 | 8.0 / 9.5 | 20.0 / 30.0 | exact | 20 | 420 | 30.0 | 2.0 |"
        in speed
    )
    assert "Insert ms/unit as the store grows (wall): 1k 1.00 · 5k 1.10 · 10k 1.20." in speed
    assert "no candidates" not in speed and "candidates looked at" not in speed  # not recorded
    speed_result = loaded["speed.json"]
    assert isinstance(speed_result, GrowthResult)
    speed_result.insert_curve = [
        point.model_copy(update={"candidates_per_unit": looked_at, "edges_per_unit": 2.0,
                                 "evictions_per_unit": 0.5})
        for point, looked_at in zip(speed_result.insert_curve, (4, 15, 22), strict=True)
    ]
    assert all(isinstance(point, CurvePoint) for point in speed_result.insert_curve)
    counted = render_block("speed.json", speed_result)
    assert "(candidates looked at / edges added + evicted)" in counted
    assert "fill: 1k 4 / 2.5 · 5k 15 / 2.5 · 10k 22 / 2.5." in counted
    assert "| insert_flat_ratio ≤ 1.5 | 1.20 | met |" in speed
    assert "The same conversations" not in speed  # results before part 4 hold no probe
    from ripplemem_bench.speed.probe import summarise

    for row, insert in zip(speed_result.sizes, (0.5, 0.6), strict=False):
        write = {"conversation": "c", "units": 200, "edges": 1000, "ms": 700.0}
        stages = {"embed": 400.0, "store": 40 * insert, "link": 60 * insert}
        row.probe = summarise([{**write, "insert_ms": 100 * insert, "stages_ms": stages}], "p.json")
    speed_result.insert_flatness = Flatness(
        from_units=1_000, to_units=10_000, tolerance=1.5,
        stream=StreamGrowth(insert_ratio=2.5, candidates_ratio=4.0),
    )
    probed = render_block("speed.json", speed_result)
    assert "The same conversations (p.json, 200 units) written into the store" in probed
    assert "| store units | add ms/unit | insert ms/unit | updates | store | near | link |" in probed
    assert "| 1,000 | 3.50 | 0.25 | 0.00 | 0.10 | 0.00 | 0.15 | 0.00 | 0.00 | 0.00 | 5.0 |" in probed
    assert "grow ×2.50 from the first to the last size" in probed
    assert "×4.00 the candidates per unit" in probed
    assert "![speed insert](speed_insert.png)" in speed
    scale = render_block("scale.json", loaded["scale.json"])
    assert "partial" in scale
    assert "| search p50 at 10k ≤ 50 ms (ripple, dense index exact) | 60.0 | **missed** |" in scale
    assert "| peak RSS at 10k ≤ 3072 MB | 420 | met |" in scale
    other = render_block("notes.json", loaded["notes.json"])
    assert "| benchmark | something |" in other


def test_prose_outside_the_markers_survives_regeneration(results: Path) -> None:
    out = results.parent / "benchmarks.md"
    manifest = results / "manifest.json"
    write_report(manifest, out, plots=False)
    text = out.read_text()
    begin = BEGIN.format(name="speed.json")
    edited = text.replace(begin, "Hand-written words before the speed table.\n\n" + begin)
    edited = edited.replace(
        BEGIN.format(name="locomo_tiny.json") + "\n",
        BEGIN.format(name="locomo_tiny.json") + "\nstale generated text\n",
    )
    edited += "\n## Discussion\n\nThis stays.\n"
    out.write_text(edited)
    (results / "later.json").write_text('{"benchmark": "later", "x": 1}')
    write_manifest(results, drop=("notes.json",))  # notes.json stays in the folder, not current
    done = write_report(manifest, out, plots=False)
    again = out.read_text()
    assert "Hand-written words before the speed table." in again
    assert "## Discussion\n\nThis stays." in again and "stale generated text" not in again
    assert done.added == ["later.json"] and done.missing == ["notes.json"]
    assert again.rstrip().endswith(END)  # the new section is appended at the end
    assert "`notes.json` is no longer a current run" in again
    write_report(manifest, out, plots=False)
    assert out.read_text() == again  # stable: regenerating changes nothing


@pytest.mark.slow
def test_plots_are_drawn_beside_the_document(results: Path) -> None:
    out = results.parent / "docs" / "benchmarks.md"
    done = write_report(results / "manifest.json", out)
    names = sorted(p.name for p in done.plots)
    assert names == sorted(
        f"{stem}_{kind}.png"
        for stem in ("scale", "speed")
        for kind in ("insert", "memory", "search")
    )
    assert all(p.parent == out.parent and p.stat().st_size > 1000 for p in done.plots)
    assert "![scale insert](scale_insert.png)" in out.read_text()
    write_report(results / "manifest.json", out, plots=False)  # not redrawn, still linked
    assert "![scale insert](scale_insert.png)" in out.read_text()
    write_manifest(results, plotted=("speed.json",))
    write_report(results / "manifest.json", out, plots=False)
    text = out.read_text()
    assert "![speed insert](speed_insert.png)" in text and "scale_insert.png" not in text


def test_the_manifest_is_checked(results: Path) -> None:
    manifest = results / "manifest.json"
    assert [run.file for run in load_manifest(manifest).runs][:2] == ["locomo_tiny.json", "newbench_dev.json"]
    for bad, message in (
        ({"runs": [{"file": "speed.json", "plots": True}] * 2}, "twice"),
        ({"runs": [{"file": f"s{i}.json", "plots": True} for i in range(3)]}, "at most 8"),
        ({"runs": [{"file": "speed.json", "colour": "red"}]}, "unknown keys"),
        ({"files": []}, '"runs"'),
    ):
        manifest.write_text(json.dumps(bad), encoding="utf-8")
        with pytest.raises(InvalidInputError, match=message):
            load_manifest(manifest)
    for page in ("/etc/x.md", "../outside.md", "benchmarks/x.txt"):
        manifest.write_text(json.dumps({"runs": [{"file": "speed.json", "page": page}]}))
        with pytest.raises(InvalidInputError, match="page must be a relative .md path"):
            load_manifest(manifest)
    manifest.write_text(json.dumps({"runs": [{"file": "gone.json"}]}), encoding="utf-8")
    with pytest.raises(InvalidInputError, match="cannot read .*gone.json"):
        load_manifest(manifest).results()


def test_a_writers_block_compares_each_layout_with_its_one_writer_run() -> None:
    def row(processes: int, namespaces: int, units_per_s: float) -> dict:
        return {
            "layout": f"{processes} writers, {namespaces} namespaces",
            "processes": processes,
            "namespaces": namespaces,
            "units": 1000,
            "wall_s": 1000 / units_per_s,
            "units_per_s": units_per_s,
        }

    result = {
        "benchmark": "writers",
        "commit": "abcdef1234",
        "machine": {"loadavg_end": [2.0, 1.0, 1.0]},
        "settings": {"writers": 4, "file": "locomo_dev.json"},
        "input": {"conversations": 4, "adds": 80, "turns": 2000},
        "backends": {
            "sqlite": [row(1, 4, 50.0), row(4, 4, 80.0), row(1, 1, 40.0), row(4, 1, 60.0)],
        },
    }
    block = render_block("writers.json", parse_result(result))
    assert "| sqlite | 4 writers, 4 namespaces | 4 | 4 | 1,000 | 12.5 | 80.0 | 1.60 |" in block
    assert "| sqlite | 4 writers, 1 namespaces | 4 | 1 | 1,000 | 16.7 | 60.0 | 1.50 |" in block
    assert "80 adds (one per session)" in block and "load 2.0" in block


def test_an_update_suite_block_shows_each_kind_per_recipe() -> None:
    score = {"questions": 4, "passed": 3, "share": 75.0}
    result = {
        "kind": "updates", "conversations": 2, "questions": 8, "extractor": "deterministic",
        "file": "updates_dev.json", "split": "holdout", "date": "2026-01-02T03:04:05",
        "recipes": {
            "ripple": {"summary": {"current": score, "history": score, "control": score}},
            "hybrid": {"summary": {"current": {"questions": 4, "passed": 1, "share": 25.0}}},
            "dense": {"summary": {"current": score, "history": {"questions": 0, "passed": 0, "share": 0.0}}},
        },
    }
    block = render_block("updates_dev.json", parse_result(result))
    assert "| recipe | current | history | controls |" in block
    assert "| ripple | 75.0 % (3/4) | 75.0 % (3/4) | 75.0 % (3/4) |" in block
    assert "| hybrid | 25.0 % (1/4) | — | — |" in block
    assert "| dense | 75.0 % (3/4) | — | — |" in block  # no question of a kind: no share
    assert "split `holdout`" in block and "2026-01-02" in block


def test_a_longmemeval_block_breaks_all_at_5_all_at_10_and_ndcg_at_5_down_by_type() -> None:
    def block(all5: float, all10: float, ndcg5: float) -> dict:
        values = {"session_recall_all@5": all5, "session_recall_all@10": all10,
                  "session_ndcg@5": ndcg5}
        return {"metrics": values, "per_question_type": {"multi-session": {"questions": 4, **values}}}

    result = {"dataset": "longmemeval", "split": "s.json", "questions": 4, "embedder": "e",
              "recipes": {"ripple": block(0.75, 1.0, 0.5), "hybrid": block(0.5, 0.75, 0.25)}}
    text = render_block("lme.json", parse_result(result))
    for metric, row in (("S all@5", "| multi-session | 4 | 75.0 | 50.0 |"),
                        ("S all@10", "| multi-session | 4 | 100.0 | 75.0 |"),
                        ("S ndcg@5", "| multi-session | 4 | 50.0 | 25.0 |")):
        section = text.split(f"{metric} (%) by question type:")[1].split("by question type")[0]
        assert row in section


def test_runs_go_to_their_topic_pages_and_headlines_stay_on_the_overview(results: Path) -> None:
    """A run's full block goes to the page the manifest names; the overview links to it, and a
    headline marker shows its main table on the overview page."""
    manifest = results / "manifest.json"
    runs = [{"file": "locomo_tiny.json", "page": "benchmarks/retrieval.md"},
            {"file": "speed.json", "page": "benchmarks/speed.md"},
            {"file": "notes.json"}]
    manifest.write_text(json.dumps({"runs": runs}), encoding="utf-8")
    out = results.parent / "benchmarks.md"
    out.write_text("# Benchmarks\n\n<!-- ripplemem:overview -->\n<!-- /ripplemem:overview -->\n\n"
                   "LoCoMo in one table:\n\n<!-- ripplemem:headline locomo_tiny.json -->\n"
                   "<!-- /ripplemem:headline -->\n", encoding="utf-8")
    done = write_report(manifest, out, plots=False)
    topic = results.parent / "benchmarks" / "retrieval.md"
    assert sorted(done.pages) == sorted([out, topic, results.parent / "benchmarks" / "speed.md"])
    assert done.added == ["locomo_tiny.json", "speed.json", "notes.json"]
    index, detail = out.read_text(), topic.read_text()
    assert detail.startswith("# Benchmarks: retrieval")
    assert "recall@30 (%) by category" in detail  # the full block, with its groups
    assert "_Source: [`results/locomo_tiny.json`](../results/locomo_tiny.json)._" in detail
    headline = index.split("<!-- ripplemem:headline locomo_tiny.json -->")[1]
    assert "| ripple | 50.0 | 75.0 | 50.0 | 812 | 12.3 | 20.0 |" in headline
    assert "by category" not in headline.split("<!-- /ripplemem:headline -->")[0]
    assert "Details: [Benchmarks: retrieval](benchmarks/retrieval.md)." in headline
    assert "[locomo retrieval, 2 recipes](benchmarks/retrieval.md)" in index
    assert "| benchmark | something |" in index  # no page: the overview page itself
    assert BEGIN.format(name="speed.json") not in index
    write_report(manifest, out, plots=False)  # stable: the blocks are found where they are
    assert out.read_text() == index and topic.read_text() == detail


def test_a_result_that_does_not_read_as_its_kind_names_the_file_and_field(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"benchmark": "serve", "store": {"backend": "sqlite"}}))
    with pytest.raises(InvalidInputError, match=r"broken.json does not read as a ServeResult"):
        load_result(path)
    path.write_text("[1, 2]")
    with pytest.raises(InvalidInputError, match="a JSON object was expected"):
        load_result(path)


def test_a_knowledge_update_ordering_block_shows_the_shares_with_their_counts() -> None:
    def recipe(first: int, every: int, p50: float | None, answer: int | None = None) -> dict:
        summary = {"questions": 4, "latest_first": 25.0 * first, "all_found": 25.0 * every,
                   "latest_found": 100.0, "latest_first_when_all_found": 100.0 * first / every,
                   "latest_first_count": first, "all_found_count": every,
                   "latest_found_count": 4}
        if answer is not None:  # a run written before answer first was read has none of these
            summary |= {"answer_first": 25.0 * answer, "answer_first_count": answer,
                        "answer_sessions": 3, "earlier_answers": 1}
        return {
            "summary": summary,
            "search_ms_p50": p50,
            "questions": [{"id": "q1", "sessions": ["a", "b"], "ranks": [2, 1],
                           "latest_first": True, "all_found": True, "latest_found": True}],
        }

    result = parse_result({
        "kind": "lme-updates", "dataset": "longmemeval", "split": "s.json", "questions": 4,
        "excluded": {"fewer than two gold sessions": 1}, "k": 10, "embedder": "e",
        "commit": "abcdef1234", "load": [3.0, 2.0, 1.0],
        "recipes": {"ripple": recipe(3, 4, 12.5, answer=4), "hybrid": recipe(1, 2, None, answer=2)},
    })
    block = render_block("lme_ku.json", result)
    assert ("| ripple | 75.0 % (3/4) | 100.0 % (4/4) | 100.0 % (4/4) | 100.0 % (4/4) | 75.0 % "
            "| 12.5 | – |") in block
    assert ("| hybrid | 25.0 % (1/4) | 50.0 % (2/4) | 50.0 % (2/4) | 100.0 % (4/4) | 50.0 % "
            "| – | – |") in block
    assert "| recipe | latest first | answer first | all found |" in block
    assert ("4 scored (left out: 1 fewer than two gold sessions), 3 with an answer session "
            "(1 of them not the latest), k = 10") in block
    assert "commit `abcdef1`" in block and "load 3.0" in block
    old = parse_result({
        "kind": "lme-updates", "dataset": "longmemeval", "split": "s.json", "questions": 4,
        "k": 10, "recipes": {"ripple": recipe(3, 4, 12.5)},
    })
    old_block = render_block("lme_ku.json", old)
    assert "| ripple | 75.0 % (3/4) | – | 100.0 % (4/4) | 100.0 % (4/4) | 75.0 % |" in old_block
    assert "answer session" not in old_block

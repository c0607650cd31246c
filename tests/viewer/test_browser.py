"""The viewer in a real browser (Debian's chromium, Playwright) against `ripplemem serve` over
the demo conversation: key entry, search, graph, details, deep links, keyboard, delete, timeline,
phone width. Screenshots go to build/test-artifacts/viewer/."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import expect

from ripplemem.core.keys import create_key
from ripplemem.stores.registry import open_store
from ripplemem.testing.builders import day_span, make_unit

from .browser import artifact
from .serve import Served
from .stores import demo_store

# a real chromium and `ripplemem serve` processes: make test runs these, make test-fast leaves
# them out (tests/viewer/test_viewer_api.py keeps the viewer's API in it)
pytestmark = pytest.mark.slow

QUESTION = "Which books did Sam recommend to Alex?"
KEY_STORAGE = "ripplemem.viewer.key"


class Demo:
    def __init__(self, served: Served, keys: dict[str, str], path: Path) -> None:
        self.served, self.keys, self.url, self.path = served, keys, served.url, path

    def api(self, key: str = "writer") -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {self.keys[key]}"}, timeout=60)


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> Iterator[Demo]:
    path = tmp_path_factory.mktemp("viewer") / "demo.db"
    demo_store(path)
    with open_store(str(path)) as store:
        add_updated_unit(store)
        add_bidi_unit(store)
        keys = {
            "bidi": create_key(store.keys, [BIDI_NAMESPACE])[1],
            "updates": create_key(store.keys, ["updates"])[1],
            "writer": create_key(store.keys, ["demo"])[1],
            "reader": create_key(store.keys, ["demo"], read_only=True)[1],
            "other": create_key(store.keys, ["someone-else"])[1],
        }
    served = Served(path)
    try:
        found = Demo(served, keys, path)
        with found.api() as client:  # the first search loads the models: not the page's time
            client.post("/v1/search", json={"query": QUESTION}).raise_for_status()
        yield found
    finally:
        served.stop()


UPDATED, NEWER = "update-1", "update-2"


def add_updated_unit(store) -> None:
    """A unit that a later one superseded, as knowledge updates record it (``extra``); their words
    are none of the searched questions', so no other test's search touches them."""
    newer = make_unit(NEWER, namespace="demo", restatement="The bakery on Rua Augusta reopened as a cafe.",
                      time_span=day_span(40))
    older = make_unit(UPDATED, namespace="demo", restatement="The bakery on Rua Augusta is open.",
                      time_span=day_span(0))
    older = replace(older, extra={"superseded_by": NEWER, "valid_until": "2026-03-01T00:00:00"})
    with store.write(["demo"]):
        store.add_units([older, newer])


BIDI_NAMESPACE, BIDI_ID = "spoof", "d0eccc8822dc6ced"
#: a right-to-left override left open: in the page's own text it would mirror what follows it
BIDI_TEXT = "User paid the invoice \u202eKCATTA to account 12345"


def add_bidi_unit(store) -> None:
    unit = make_unit(BIDI_ID, namespace=BIDI_NAMESPACE, restatement=BIDI_TEXT, time_span=day_span(3))
    with store.write([BIDI_NAMESPACE]):
        store.add_units([unit])


def open_page(browser, demo: Demo, path: str = "/ui", *, key: str | None = "writer", width=1280, height=800):
    context = browser.new_context(viewport={"width": width, "height": height})
    if key:
        context.add_init_script(f"window.localStorage.setItem({KEY_STORAGE!r}, {demo.keys[key]!r})")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(demo.url + path)
    return page, errors


def search_link(query: str = QUESTION, namespace: str = "demo") -> str:
    return f"/ui?namespace={quote(namespace)}&q={quote(query)}"


def wait_for_search(page) -> None:
    page.wait_for_selector("#graph[data-render-ms]", timeout=30_000)


def test_a_deep_link_runs_the_search_and_draws_the_ripple(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, search_link())
    wait_for_search(page)
    with demo.api() as client:
        expected = client.post("/v1/search", json={"query": QUESTION, "limit": 10}).json()
    rows = page.locator("[data-testid=evidence]")
    assert rows.count() == len(expected["evidence"]) == 10
    assert [rows.nth(i).get_attribute("data-id") for i in range(rows.count())] == [
        e["unit"]["id"] for e in expected["evidence"]
    ]
    first = rows.first
    assert first.locator("[data-testid=score]").inner_text() == f"{expected['evidence'][0]['score']:.3f}"
    views = first.locator("[data-testid=views]").inner_text()
    assert all(view in views for view in expected["evidence"][0]["views"])
    assert "alignment" in first.locator("[data-testid=terms]").inner_text()

    nodes, edges = page.locator("[data-testid=node]"), page.locator("[data-testid=edge]")
    graph = page.locator("#graph")
    assert nodes.count() >= 10 and edges.count() > 0
    assert int(graph.get_attribute("data-node-count")) == nodes.count() <= 300
    assert int(graph.get_attribute("data-edge-count")) == edges.count()
    anchors = set(expected["trace"]["plans"][0]["anchors"])
    drawn_anchors = {a.get_attribute("data-id") for a in page.locator("[data-testid=node][data-kind=anchor]").all()}
    assert anchors and drawn_anchors == anchors
    paths = expected["trace"]["expansions"]
    assert paths, "the demo question expands"
    on_path = page.locator("[data-testid=edge][data-path=true]")
    assert on_path.count() >= len(paths)
    assert {e.get_attribute("data-kind") for e in on_path.all()} == {p["channel"] for p in paths}
    added = {p["nodes"][-1] for p in paths}
    assert {n.get_attribute("data-id") for n in page.locator("[data-testid=node][data-round='1']").all()} >= added
    goal = expected["trace"]["plans"][0]["goal"]["text"]
    assert page.locator("[data-testid=goal]").count() == 1
    assert goal in page.locator("[data-testid=goal-text]").inner_text()
    assert f"{len(added)} units added" in page.locator("[data-testid=round]").first.inner_text()
    page.screenshot(path=artifact("search-1280x800.png"))
    assert errors == []


def test_clicking_a_node_shows_the_unit_and_its_edges(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, search_link())
    wait_for_search(page)
    node = page.locator("[data-testid=node][data-kind=anchor]").first
    unit_id = node.get_attribute("data-id")
    node.click()
    page.wait_for_selector("[data-testid=detail-restatement]")
    with demo.api() as client:
        unit = client.get(f"/v1/memories/{unit_id}").json()
        edges = client.get(f"/v1/memories/{unit_id}/edges").json()["edges"]
    assert page.locator("[data-testid=detail-restatement]").inner_text() == unit["restatement"]
    fields = page.locator("[data-testid=detail-fields]").inner_text()
    for part in (*unit["participants"], *unit["locations"], *unit["turn_ids"], unit["episode_id"]):
        assert part in fields
    assert "time span" in fields
    listed = page.locator("[data-testid=detail-edges] li")
    assert listed.count() == len(edges) > 0
    assert sorted(li.get_attribute("data-kind") for li in listed.all()) == sorted(e["kind"] for e in edges)
    assert "selected" in node.get_attribute("class")
    shown = page.locator("#details").inner_text()
    assert "null" not in shown and "undefined" not in shown
    page.screenshot(path=artifact("details-1280x800.png"))  # docs/viewer.png
    # an edge leads on to its other end
    listed.first.locator("button").click()
    expect(page.locator("[data-testid=detail-restatement]")).not_to_have_text(unit["restatement"])
    assert errors == []


def test_the_key_is_entered_once_and_kept(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, search_link(), key=None)
    form = page.locator("#key-form")
    form.wait_for(state="visible")
    page.fill("#key", "rmk_not-a-key")
    page.click("#key-form button")
    expect(page.locator("#status")).to_contain_text("unknown or revoked")
    page.fill("#key", demo.keys["writer"])
    page.press("#key", "Enter")
    wait_for_search(page)  # the deep link's search runs once a key is there
    assert page.locator("[data-testid=evidence]").count() == 10
    assert "demo (read and write)" in page.locator("[data-testid=whoami]").inner_text()
    assert page.evaluate(f"localStorage.getItem({KEY_STORAGE!r})") == demo.keys["writer"]
    page.reload()
    wait_for_search(page)
    assert page.locator("#key-form").is_hidden()
    page.click("#forget-key")
    assert page.evaluate(f"localStorage.getItem({KEY_STORAGE!r})") is None
    assert page.locator("#key-form").is_visible()
    assert [e for e in errors if "401" not in e] == []  # the wrong key's 401 is expected


def test_a_namespace_the_key_does_not_hold_is_refused(browser, demo: Demo) -> None:
    page, _ = open_page(browser, demo, search_link(namespace="someone-else"))
    page.wait_for_selector("#status.error")
    assert "may not use that namespace" in page.locator("#status").inner_text()
    assert page.locator("[data-testid=evidence]").count() == 0
    other, _ = open_page(browser, demo, search_link(), key="other")
    other.wait_for_selector("#status.error")
    assert other.locator("[data-testid=node]").count() == 0


def test_keyboard_alone_searches_and_opens_a_unit(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo)
    expect(page.locator("#query")).to_be_focused()
    page.keyboard.type("When was Alex in Lisbon, and with whom?")
    page.keyboard.press("Enter")
    wait_for_search(page)
    page.locator("[data-testid=evidence]").first.focus()
    page.keyboard.press("ArrowDown")
    second = page.locator("[data-testid=evidence]").nth(1)
    assert page.evaluate("document.activeElement.dataset.id") == second.get_attribute("data-id")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=detail-restatement]")
    assert page.locator("[data-testid=detail-restatement]").inner_text() == second.locator(".restatement").inner_text()
    # graph nodes are reachable with Tab and open with Enter
    node = page.locator("[data-testid=node]").last
    node.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"[data-testid=node][data-id='{node.get_attribute('data-id')}'].selected")
    page.keyboard.press("Escape")
    page.locator("body").focus()
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "query"
    assert errors == []


def test_delete_asks_first_and_a_read_only_key_cannot(browser, demo: Demo) -> None:
    reader, _ = open_page(browser, demo, search_link(), key="reader")
    wait_for_search(reader)
    reader.locator("[data-testid=evidence]").first.click()
    reader.wait_for_selector("[data-testid=detail-restatement]")
    assert reader.locator("#delete-button").count() == 0
    assert "read-only" in reader.locator("[data-testid=whoami]").inner_text()

    page, errors = open_page(browser, demo, search_link())
    wait_for_search(page)
    row = page.locator("[data-testid=evidence]").last
    unit_id = row.get_attribute("data-id")
    row.click()
    page.wait_for_selector("#delete-button")
    page.click("#delete-button")
    assert page.locator("#confirm-delete").is_visible()
    page.click("#confirm-cancel")
    assert page.locator("#confirm-delete").is_hidden()
    with demo.api() as client:
        assert client.get(f"/v1/memories/{unit_id}").status_code == 200
    page.click("#delete-button")
    page.click("#confirm-ok")
    expect(page.locator("#status")).to_contain_text("Deleted memory")
    with demo.api() as client:
        assert client.get(f"/v1/memories/{unit_id}").status_code == 404
    assert page.locator(f"[data-testid=evidence][data-id='{unit_id}']").count() == 0
    assert page.locator(f"[data-testid=node][data-id='{unit_id}']").count() == 0
    assert errors == []


def test_the_timeline_bins_the_namespace_and_opens_a_period(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo)
    page.wait_for_selector("[data-testid=whoami]:not(:empty)")
    page.click("#tab-timeline")
    page.wait_for_selector("[data-testid=timeline-bin]")
    with demo.api() as client:
        line = client.get("/v1/viewer/timeline").json()
    bins = page.locator("[data-testid=timeline-bin]")
    assert bins.count() == len(line["bins"]) == 40
    assert sum(int(b.get_attribute("data-count")) for b in bins.all()) == line["in_window"]
    assert page.locator("[data-testid=timeline-unit]").count() == min(200, line["in_window"])
    fullest = max(bins.all(), key=lambda b: int(b.get_attribute("data-count")))
    count = int(fullest.get_attribute("data-count"))
    fullest.click()
    expect(page.locator("[data-testid=timeline-unit]")).to_have_count(count)
    page.locator("[data-testid=timeline-unit]").first.click()
    page.wait_for_selector("[data-testid=detail-restatement]")
    page.screenshot(path=artifact("timeline-1280x800.png"))
    assert errors == []


def test_a_phone_width_window_stacks_the_panels_without_sideways_scrolling(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, search_link(), width=390, height=844)
    wait_for_search(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    graph = page.locator("#graph").bounding_box()
    evidence = page.locator("#evidence-panel").bounding_box()
    assert graph and evidence and graph["width"] > 300 and evidence["width"] > 300
    assert evidence["y"] > graph["y"]  # one column: the graph first, then the evidence
    page.screenshot(path=artifact("search-390x844.png"), full_page=True)
    assert errors == []


def test_the_command_make_demo_prints_opens_the_demo_without_a_key(browser, demo: Demo) -> None:
    from ripplemem.cli.demo import viewer_command

    command = viewer_command(demo.path)
    assert command.endswith(f"serve --store {demo.path} --no-auth")
    open_server = Served(demo.path, "--no-auth")
    try:
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(f"{open_server.url}/ui?namespace=demo&q={quote(QUESTION)}")
        page.wait_for_selector("#graph[data-render-ms]", timeout=30_000)
        assert page.locator("#key-form").is_hidden()
        assert "no keys" in page.locator("[data-testid=whoami]").inner_text()
        assert page.locator("[data-testid=evidence]").count() == 10
        page.goto(f"{open_server.url}/ui")
        expect(page.locator("#namespace")).to_have_value("demo")  # not the empty "default"
    finally:
        open_server.stop()


def test_a_unit_link_opens_it_with_what_superseded_it(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, f"/ui?namespace=demo&unit={UPDATED}")
    page.wait_for_selector("[data-testid=detail-restatement]")
    assert page.locator("[data-testid=detail-restatement]").inner_text() == "The bakery on Rua Augusta is open."
    assert "2026-03-01" in page.locator("[data-field='valid until'] dd").inner_text()
    with demo.api() as client:
        newer = client.get(f"/v1/memories/{NEWER}").json()
    link = page.locator("[data-field='superseded by'] button")
    assert link.get_attribute("data-unit") == NEWER
    link.click()
    expect(page.locator("[data-testid=detail-restatement]")).to_have_text(newer["restatement"])
    assert errors == []


#: the left edge of each character of ``needle`` as drawn inside ``selector`` (in text order)
DRAWN_LEFT_EDGES = """([selector, needle]) => {
  const root = document.querySelector(selector);
  const nodes = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) nodes.push(walker.currentNode);
  const text = nodes.map((n) => n.data).join("");
  const start = text.indexOf(needle);
  if (start < 0) return null;
  const edges = [];
  for (let i = start; i < start + needle.length; i++) {
    let offset = i;
    const node = nodes.find((n) => (offset < n.data.length ? true : ((offset -= n.data.length), false)));
    const range = document.createRange();
    range.setStart(node, offset);
    range.setEnd(node, offset + 1);
    edges.push(range.getBoundingClientRect().left);
  }
  return edges;
}"""


def _reads_left_to_right(page, selector: str, needle: str) -> bool:
    edges = page.evaluate(DRAWN_LEFT_EDGES, [selector, needle])
    assert edges is not None, (selector, needle, page.locator(selector).inner_text())
    return all(a < b for a, b in pairwise(edges))


def test_a_bidi_override_in_a_memory_cannot_mirror_the_delete_dialogs_id_or_namespace(browser, demo: Demo) -> None:
    page, errors = open_page(browser, demo, f"/ui?namespace={BIDI_NAMESPACE}&unit={BIDI_ID}", key="bidi")
    page.wait_for_selector("#delete-button")
    assert "\\u202eKCATTA" in page.locator("[data-testid=detail-restatement]").inner_text()
    assert _reads_left_to_right(page, "[data-testid=detail-restatement]", "KCATTA")
    assert _reads_left_to_right(page, "#details .meta.id", BIDI_ID)
    assert _reads_left_to_right(page, "#details .meta.id", BIDI_NAMESPACE)
    page.click("#delete-button")
    assert page.locator("#confirm-delete").is_visible()
    for needle in (BIDI_ID, BIDI_NAMESPACE, "KCATTA"):  # the stored text reads as stored too
        assert _reads_left_to_right(page, "#confirm-text", needle), needle
    page.screenshot(path=str(artifact("bidi_dialog.png")))
    page.click("#confirm-cancel")
    assert errors == []


def test_an_updated_memory_shows_what_replaced_it_and_until_when_it_held(browser, demo: Demo) -> None:
    with demo.api("updates") as client:
        old = client.post("/v1/memories", json={"text": "I work at Acme.", "session_time": "2024-05-01"})
        old_id = old.json()["units"][0]["id"]
        new = client.post(f"/v1/memories/{old_id}/update", json={"text": "I work at Beta.", "session_time": "2024-09-01"})
        new_id = new.json()["units"][0]["id"]
        versions = client.get(f"/v1/memories/{old_id}/history").json()["versions"]
    held = next(v for v in versions if v["unit"]["id"] == old_id)
    assert held["superseded_by"] == new_id and held["valid_until"]
    page, errors = open_page(browser, demo, f"/ui?namespace=updates&unit={old_id}", key="updates")
    page.wait_for_selector("[data-field='valid until']")
    assert held["valid_until"][:10] in page.locator("[data-field='valid until'] dd").inner_text()
    assert page.locator("[data-field='superseded by'] button").get_attribute("data-unit") == new_id
    assert errors == []

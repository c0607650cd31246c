// The ripplemem memory viewer: plain JavaScript, no build step, no dependency.
// Everything it shows comes from this server's JSON API (/v1, /v1/viewer) with the key the user
// entered; text from the store is only ever set as text (never parsed as HTML), with its bidi
// controls shown as escapes (\u202e, as the CLI shows them) so none can reorder what the page
// draws after it, and user-supplied strings set beside other text are isolated (<bdi>).
"use strict";

const KEY_STORAGE = "ripplemem.viewer.key";
const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_NODES = 300;
const WIDTH = 1000;
const HEIGHT = 720;

const state = {
  key: null,
  auth: true,
  who: null,
  namespace: "",
  recall: null,
  graph: null,
  rounds: [],
  selected: null,
  timeline: null,
  timelineWindow: null,
};

// -- small DOM helpers -----------------------------------------------------------------------
const $ = (id) => document.getElementById(id);

// the characters that change the direction of the text after them (the CLI escapes the same)
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ESCAPED_ATTRIBUTES = new Set(["title", "aria-label", "placeholder", "alt"]);

/** ``text`` with its bidi controls written out (``\u202e``): what the page draws as text. */
function visible(text) {
  return String(text).replace(BIDI_CONTROLS, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

/** A user-supplied string set among other words: its own direction, isolated from theirs. */
const iso = (text) => el("bdi", {}, text);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : visible(child));
  }
  return node;
}

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : visible(child));
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.setAttribute("class", value);
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (ESCAPED_ATTRIBUTES.has(name)) node.setAttribute(name, visible(value));
    else node.setAttribute(name, value === true ? "" : String(value));
  }
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

function status(text, kind) {
  const node = $("status");
  node.textContent = visible(text);
  node.className = "status" + (kind ? " " + kind : "");
}

const fmt = (x, digits = 3) => (typeof x === "number" ? x.toFixed(digits) : "–");
const short = (text, n) => (text.length > n ? text.slice(0, n - 1) + "…" : text);

function when(iso) {
  if (!iso) return "";
  const [date, time] = iso.split("T");
  return time && !time.startsWith("00:00:00") ? `${date} ${time.slice(0, 5)}` : date;
}

function span(pair) {
  if (!pair) return "";
  const [start, end] = pair;
  const a = when(start);
  const b = when(end && end.endsWith("23:59:59") ? end.slice(0, 10) : end);
  return a === b ? a : `${a} – ${b}`;
}

// -- the API ---------------------------------------------------------------------------------
class ApiError extends Error {
  constructor(status, type, message) {
    super(message);
    this.status = status;
    this.type = type;
  }
}

async function api(path, { method = "GET", body, params } = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params || {})) {
    if (value !== null && value !== undefined && value !== "") url.searchParams.set(name, value);
  }
  const headers = {};
  if (state.key) headers.Authorization = `Bearer ${state.key}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.type || "HTTPError", error.message || response.statusText);
  }
  return data;
}

// -- the key and what it may do --------------------------------------------------------------
async function start() {
  wire();
  const params = new URLSearchParams(window.location.search);
  try {
    const health = await api("/healthz");
    state.auth = health.auth;
  } catch (error) {
    status(`The server does not answer: ${error.message}`, "error");
    return;
  }
  state.key = state.auth ? window.localStorage.getItem(KEY_STORAGE) : null;
  if (state.auth && !state.key) {
    askKey("Enter an API key (ripplemem keys create …) to look at its memories.");
    return;
  }
  if (await loadWho()) {
    const namespace = params.get("namespace");
    if (namespace) $("namespace").value = namespace;
    const query = params.get("q");
    if (query) {
      $("query").value = query;
      await runSearch();
    } else {
      $("query").focus();
    }
    const unit = params.get("unit");
    if (unit) {
      state.namespace = $("namespace").value.trim();
      await select(unit);
    }
  }
}

function askKey(message) {
  $("key-form").hidden = false;
  $("who").hidden = true;
  status(message, "info");
  $("key").focus();
}

async function loadWho() {
  try {
    state.who = await api("/v1/viewer/whoami");
  } catch (error) {
    if (error.status === 401) {
      window.localStorage.removeItem(KEY_STORAGE);
      state.key = null;
      askKey(`${error.message}. Enter another key.`);
      return false;
    }
    status(error.message, "error");
    return false;
  }
  const who = state.who;
  $("key-form").hidden = true;
  $("who").hidden = false;
  $("forget-key").hidden = !state.auth;
  const rights = who.read_only ? "read-only" : "read and write";
  const scope = who.any_namespace ? "any namespace" : who.namespaces.join(", ");
  $("who-text").textContent = visible(state.auth
    ? `key ${who.key_id}: ${scope} (${rights})`
    : `no keys (--no-auth): ${scope}`);
  const list = clear($("namespaces"));
  for (const name of who.namespaces) list.append(el("option", { value: name }));
  const input = $("namespace");
  if (!input.value) {
    const fallback = who.default_namespace;
    // an open server (--no-auth) falls back to "default": prefer a namespace that holds memories
    input.value = who.namespaces.includes(fallback) || !who.namespaces.length ? fallback || "" : who.namespaces[0];
  }
  input.readOnly = !who.any_namespace && who.namespaces.length === 1;
  return true;
}

// -- search ----------------------------------------------------------------------------------
async function runSearch() {
  const query = $("query").value.trim();
  if (!query) return;
  const namespace = $("namespace").value.trim();
  const limit = Math.max(1, Math.min(200, Number($("limit").value) || 10));
  const hops = Number($("hops").value);
  const started = performance.now();
  status("Searching…", "busy");
  $("search-button").disabled = true;
  try {
    const recall = await api("/v1/search", {
      method: "POST",
      body: { query, limit, namespace: namespace || undefined },
    });
    const seeds = seedIds(recall);
    const graph = seeds.length
      ? await api("/v1/viewer/graph", {
          method: "POST",
          body: { ids: seeds.slice(0, MAX_NODES), hops, max_nodes: MAX_NODES, namespace: namespace || undefined },
        })
      : { nodes: [], edges: [], truncated: false };
    state.namespace = recall.trace.namespace;
    state.recall = recall;
    state.graph = graph;
    state.rounds = splitRounds(recall.trace);
    renderEvidence();
    renderGraph();
    renderRounds();
    const url = new URL(window.location.href);
    url.searchParams.set("namespace", state.namespace);
    url.searchParams.set("q", query);
    window.history.replaceState(null, "", url);
    const ms = performance.now() - started;
    $("graph").dataset.renderMs = ms.toFixed(0);
    const notes = recall.evidence.length ? "" : ` ${recall.trace.notes.join("; ")}`;
    status(
      `${recall.evidence.length} evidence units, ${graph.nodes.length} units in the graph` +
        `${graph.truncated ? ` (capped at ${MAX_NODES})` : ""}; ` +
        `search ${fmt(recall.trace.timings_ms.total || 0, 0)} ms, shown in ${ms.toFixed(0)} ms.${notes}`,
      "ok",
    );
  } catch (error) {
    status(error.message, "error");
  } finally {
    $("search-button").disabled = false;
  }
}

function seedIds(recall) {
  const ids = recall.evidence.map((e) => e.unit.id);
  for (const plan of recall.trace.plans) ids.push(...plan.anchors);
  for (const path of recall.trace.expansions) ids.push(...path.nodes);
  return [...new Set(ids)];
}

// The rounds of plan -> diffuse: each plan's anchors and goal, and the paths (and units) it added.
// The trace lists every round's paths one after the other; the notes say how many units each
// round added, which splits them.
function splitRounds(trace) {
  const added = {};
  for (const note of trace.notes) {
    const match = /^round (\d+): (\d+) units added by expansion/.exec(note);
    if (match) added[Number(match[1])] = Number(match[2]);
  }
  const rounds = trace.plans.map((plan, i) => ({ number: i + 1, plan, paths: [], units: [] }));
  let next = 0;
  for (const round of rounds) {
    const wanted = added[round.number];
    const reached = new Set();
    while (next < trace.expansions.length) {
      const path = trace.expansions[next];
      const last = path.nodes[path.nodes.length - 1];
      const fits =
        wanted !== undefined
          ? reached.size < wanted || reached.has(last)
          : round.plan.anchors.includes(path.anchor);
      if (!fits) break;
      round.paths.push(path);
      reached.add(last);
      next += 1;
    }
    round.units = [...reached];
  }
  if (next < trace.expansions.length && rounds.length) {
    const last = rounds[rounds.length - 1];
    for (const path of trace.expansions.slice(next)) {
      last.paths.push(path);
      const end = path.nodes[path.nodes.length - 1];
      if (!last.units.includes(end)) last.units.push(end);
    }
  }
  return rounds;
}

// -- the evidence list -----------------------------------------------------------------------
function renderEvidence() {
  const list = clear($("evidence"));
  const evidence = state.recall.evidence;
  if (!evidence.length) {
    list.append(el("li", { class: "empty" }, "No evidence."));
    return;
  }
  evidence.forEach((item, i) => {
    const unit = item.unit;
    const views = item.hits.map((hit) =>
      el("span", { class: `chip view-${hit.view}`, title: `${hit.view} view: rank ${hit.rank + 1}, score ${fmt(hit.score)}` },
        `${hit.view} #${hit.rank + 1}`),
    );
    const terms = item.terms ? termsTable(item.terms) : null;
    const row = el(
      "li",
      {
        class: "evidence-row",
        "data-testid": "evidence",
        "data-id": unit.id,
        tabindex: 0,
        role: "button",
        "aria-label": `Evidence ${i + 1}, score ${fmt(item.score)}: ${unit.restatement}`,
        onclick: () => select(unit.id),
        onkeydown: (event) => rowKeys(event, unit.id),
      },
      el("div", { class: "row-head" },
        el("span", { class: "rank" }, `${i + 1}`),
        el("span", { class: "score", "data-testid": "score" }, fmt(item.score)),
        el("span", { class: "views", "data-testid": "views" }, views),
      ),
      el("p", { class: "restatement" }, unit.restatement),
      unit.time_span ? el("p", { class: "meta" }, `when: ${span(unit.time_span)}`) : null,
      terms,
    );
    list.append(row);
  });
}

function termsTable(terms) {
  const cells = [
    ["alignment", terms.alignment],
    ["provenance", terms.provenance],
    ["anchor", terms.anchor],
    ...Object.entries(terms.extra || {}),
    ["total", terms.total],
  ];
  return el("dl", { class: "terms", "data-testid": "terms" },
    cells.map(([name, value]) => el("div", {}, el("dt", {}, name), el("dd", {}, fmt(value)))));
}

function rowKeys(event, id) {
  const row = event.currentTarget;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    select(id);
  } else if (event.key === "ArrowDown" && row.nextElementSibling) {
    event.preventDefault();
    row.nextElementSibling.focus();
  } else if (event.key === "ArrowUp" && row.previousElementSibling) {
    event.preventDefault();
    row.previousElementSibling.focus();
  }
}

// -- the graph: anchors at the centre, each ring one step of the ripple further out ----------
function classify() {
  const evidence = new Map(state.recall.evidence.map((e, i) => [e.unit.id, { rank: i + 1, item: e }]));
  const anchors = new Set(state.rounds.flatMap((r) => r.plan.anchors));
  const hopOf = new Map(state.graph.nodes.map((n) => [n.unit.id, n.hop]));
  const roundOf = new Map();
  for (const round of state.rounds) {
    for (const path of round.paths) {
      for (const id of path.nodes.slice(1)) if (!roundOf.has(id) && !anchors.has(id)) roundOf.set(id, round.number);
    }
  }
  const levelOf = (id) => {
    if (anchors.has(id)) return 0;
    if (roundOf.has(id)) return 1 + roundOf.get(id);
    if (evidence.has(id)) return 1;
    return 100 + (hopOf.get(id) || 1); // a neighbour shown for context, one ring per hop
  };
  return { evidence, anchors, roundOf, levelOf };
}

function layout(nodes, edges, levelOf) {
  const byLevel = new Map();
  for (const node of nodes) {
    const level = levelOf(node.unit.id);
    if (!byLevel.has(level)) byLevel.set(level, []);
    byLevel.get(level).push(node.unit.id);
  }
  const levels = [...byLevel.keys()].sort((a, b) => a - b);
  const adjacent = new Map(nodes.map((n) => [n.unit.id, []]));
  for (const edge of edges) {
    if (adjacent.has(edge.src) && adjacent.has(edge.dst)) {
      adjacent.get(edge.src).push(edge.dst);
      adjacent.get(edge.dst).push(edge.src);
    }
  }
  const cx = WIDTH / 2;
  const cy = HEIGHT / 2;
  const outer = Math.min(cx, cy) - 36;
  const angle = new Map();
  const position = new Map();
  const centred = levels.length > 1 && levels[0] === 0 && byLevel.get(0).length === 1;
  const rings = centred ? levels.slice(1) : levels;
  levels.forEach((level) => {
    const ids = byLevel.get(level);
    const centreOnly = centred && level === 0;
    const radius = centreOnly ? 0 : (outer * (rings.indexOf(level) + 1)) / rings.length;
    // preferred angle: the mean direction of the neighbours placed on inner rings
    const preferred = ids.map((id, i) => {
      let x = 0;
      let y = 0;
      for (const other of adjacent.get(id)) {
        if (angle.has(other)) {
          x += Math.cos(angle.get(other));
          y += Math.sin(angle.get(other));
        }
      }
      const free = (2 * Math.PI * i) / ids.length;
      return { id, a: x || y ? Math.atan2(y, x) : free };
    });
    preferred.sort((p, q) => p.a - q.a || (p.id < q.id ? -1 : 1));
    const step = (2 * Math.PI) / ids.length;
    let shift = 0;
    preferred.forEach((p, i) => (shift += Math.atan2(Math.sin(p.a - i * step), Math.cos(p.a - i * step))));
    shift /= preferred.length || 1;
    preferred.forEach((p, i) => {
      const a = shift + i * step;
      angle.set(p.id, a);
      position.set(p.id, [cx + 1.35 * radius * Math.cos(a), cy + radius * Math.sin(a)]);  // an ellipse fills the wide box
    });
  });
  return { position, levels, cx, cy };
}

function renderGraph() {
  const root = clear($("graph"));
  const { nodes, edges } = state.graph;
  const { evidence, anchors, roundOf, levelOf } = classify();
  const { position } = layout(nodes, edges, levelOf);
  const onPath = new Map(); // "a|b" -> channel
  for (const path of state.recall.trace.expansions) {
    for (let i = 1; i < path.nodes.length; i += 1) {
      onPath.set(pairKey(path.nodes[i - 1], path.nodes[i]), path.channel);
    }
  }
  const edgeLayer = svg("g", { class: "edges" });
  const pathLayer = svg("g", { class: "paths" });
  const goalLayer = svg("g", { class: "goals" });
  const nodeLayer = svg("g", { class: "nodes" });
  let edgeCount = 0;
  const drawn = new Set();
  for (const edge of edges) {
    const a = position.get(edge.src);
    const b = position.get(edge.dst);
    if (!a || !b) continue;
    const channel = onPath.get(pairKey(edge.src, edge.dst));
    const onThisPath = channel === edge.kind;
    if (onThisPath) drawn.add(pairKey(edge.src, edge.dst));
    (onThisPath ? pathLayer : edgeLayer).append(
      svg("line", {
        "data-testid": "edge",
        "data-kind": edge.kind,
        "data-src": edge.src,
        "data-dst": edge.dst,
        "data-path": onThisPath ? "true" : null,
        class: `edge ${edge.kind}${onThisPath ? " on-path" : ""}`,
        x1: a[0].toFixed(1), y1: a[1].toFixed(1), x2: b[0].toFixed(1), y2: b[1].toFixed(1),
      }, svg("title", {}, `${edge.kind} edge, weight ${fmt(edge.weight)}${onThisPath ? " (expansion path)" : ""}`)),
    );
    edgeCount += 1;
  }
  for (const [key, channel] of onPath) {
    if (drawn.has(key)) continue;
    const [src, dst] = key.split("|");
    const a = position.get(src);
    const b = position.get(dst);
    if (!a || !b) continue;
    pathLayer.append(svg("line", {
      "data-testid": "edge", "data-kind": channel, "data-src": src, "data-dst": dst, "data-path": "true",
      class: `edge ${channel} on-path`,
      x1: a[0].toFixed(1), y1: a[1].toFixed(1), x2: b[0].toFixed(1), y2: b[1].toFixed(1),
    }, svg("title", {}, `${channel} expansion step`)));
    edgeCount += 1;
  }
  // the missing-support goal of each round, joined to the units that round added
  state.rounds.forEach((round, i) => {
    const goal = round.plan.goal;
    if (!goal || !goal.text) return;
    const x = 28;
    const y = 28 + i * 56;
    for (const path of round.paths) {
      const end = path.nodes[path.nodes.length - 1];
      const b = position.get(end);
      if (!b) continue;
      goalLayer.append(svg("line", {
        class: "goal-link", x1: x + 14, y1: y + 14, x2: b[0].toFixed(1), y2: b[1].toFixed(1),
      }, svg("title", {}, `goal score ${fmt(path.goal_score)}`)));
    }
    goalLayer.append(svg("g", {
      class: "goal", "data-testid": "goal", "data-round": round.number, transform: `translate(${x},${y})`,
    },
    svg("rect", { width: 28, height: 28, rx: 4, transform: "rotate(45 14 14)" }),
    svg("text", { x: 14, y: 19, "text-anchor": "middle" }, `G${round.number}`),
    svg("title", {}, `Round ${round.number} goal (missing support): ${goal.text}`)));
  });
  for (const node of nodes) {
    const id = node.unit.id;
    const point = position.get(id);
    const ev = evidence.get(id);
    const kind = anchors.has(id) ? "anchor" : roundOf.has(id) ? "expanded" : ev ? "evidence" : "context";
    const radius = ev ? 13 + Math.min(9, Math.max(0, ev.item.score) * 3) : kind === "context" ? 8 : 13;
    const label = anchors.has(id) ? "A" : ev ? String(ev.rank) : "";
    const round = roundOf.get(id);
    const title = [
      node.unit.restatement,
      ev ? `evidence #${ev.rank}, score ${fmt(ev.item.score)}` : "",
      anchors.has(id) ? "anchor" : "",
      round ? `added by round ${round}` : "",
    ].filter(Boolean).join("\n");
    nodeLayer.append(svg("g", {
      class: `node ${kind}${state.selected === id ? " selected" : ""}`,
      "data-testid": "node",
      "data-id": id,
      "data-kind": kind,
      "data-round": round || null,
      tabindex: 0,
      role: "button",
      "aria-label": `${kind}${ev ? ` #${ev.rank}` : ""}: ${short(node.unit.restatement, 120)}`,
      transform: `translate(${point[0].toFixed(1)},${point[1].toFixed(1)})`,
      onclick: () => select(id),
      onkeydown: (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          select(id);
        }
      },
    },
    svg("circle", { r: radius.toFixed(1) }),
    label ? svg("text", { y: 5, "text-anchor": "middle" }, label) : null,
    svg("title", {}, title)));
  }
  root.append(edgeLayer, goalLayer, pathLayer, nodeLayer);
  if (!nodes.length) {
    root.append(svg("text", { x: WIDTH / 2, y: HEIGHT / 2, "text-anchor": "middle", class: "placeholder" }, "nothing to draw"));
  }
  root.classList.toggle("crowded", edgeCount > 150);
  root.dataset.nodeCount = String(nodes.length);
  root.dataset.edgeCount = String(edgeCount);
}

const pairKey = (a, b) => (a < b ? `${a}|${b}` : `${b}|${a}`);

function renderRounds() {
  const box = clear($("rounds"));
  const trace = state.recall.trace;
  if (!state.rounds.length) {
    box.append(el("p", { class: "hint" }, trace.notes.find((n) => n.startsWith("expansion")) || "No expansion round."));
  }
  for (const round of state.rounds) {
    const plan = round.plan;
    box.append(el("div", { class: "round", "data-testid": "round", "data-round": round.number },
      el("h3", {}, `Round ${round.number}: `,
        plan.proceed ? `${round.units.length} unit${round.units.length === 1 ? "" : "s"} added` : "stopped"),
      plan.proceed
        ? el("p", {}, `anchors: ${plan.anchors.map((id) => label(id)).join("; ") || "none"}`)
        : el("p", {}, plan.stop_reason),
      plan.goal && plan.goal.text ? el("p", { class: "goal-text", "data-testid": "goal-text" }, `goal: ${plan.goal.text}`) : null,
      round.paths.length
        ? el("ul", { class: "paths" }, round.paths.map((path) =>
            el("li", { class: `path ${path.channel}` },
              el("span", { class: `chip ${path.channel}` }, path.channel),
              ` ${path.nodes.map((id) => label(id)).join(" → ")} `,
              el("span", { class: "meta" }, `weight ${fmt(path.path_weight)}, goal ${fmt(path.goal_score)}`))))
        : null));
  }
  const timings = Object.entries(trace.timings_ms).map(([k, v]) => `${k} ${fmt(v, 0)}`).join(" · ");
  box.append(el("p", { class: "meta" }, `recipe ${trace.recipe}; ms: ${timings}`));
}

function label(id) {
  const node = state.graph && state.graph.nodes.find((n) => n.unit.id === id);
  return node ? short(node.unit.restatement, 48) : id;
}

// -- one unit --------------------------------------------------------------------------------
const UPDATE_FIELDS = ["supersedes", "superseded_by", "valid_from", "valid_until"];

async function select(id) {
  state.selected = id;
  for (const node of document.querySelectorAll("[data-testid=node]")) {
    node.classList.toggle("selected", node.dataset.id === id);
  }
  for (const row of document.querySelectorAll("[data-testid=evidence]")) {
    row.classList.toggle("selected", row.dataset.id === id);
  }
  const panel = $("details");
  clear(panel).append(el("h2", { id: "details-title" }, "Memory"), el("p", { class: "hint" }, "Loading…"));
  let found;
  try {
    found = await api("/v1/viewer/graph", {
      method: "POST",
      body: { ids: [id], hops: 1, max_nodes: 80, namespace: state.namespace || undefined },
    });
  } catch (error) {
    clear(panel).append(el("h2", { id: "details-title" }, "Memory"), el("p", { class: "error" }, error.message));
    return;
  }
  if (state.selected !== id) return;
  const node = found.nodes.find((n) => n.unit.id === id);
  if (!node) {
    clear(panel).append(el("h2", { id: "details-title" }, "Memory"), el("p", { class: "error" }, `no memory ${id} in this namespace`));
    return;
  }
  const version = await versionOf(id, found.namespace);
  if (state.selected !== id) return;
  renderDetails(node.unit, found, version);
}

async function versionOf(id, namespace) {
  // what replaced the unit and until when it held: its entry in its update chain (if any)
  try {
    const history = await api(`/v1/memories/${encodeURIComponent(id)}/history`, { params: { namespace } });
    return history.versions.find((v) => v.unit.id === id) || null;
  } catch (error) {
    return null; // the details stand without it
  }
}

function renderDetails(unit, found, version = null) {
  const panel = clear($("details"));
  const others = new Map(found.nodes.map((n) => [n.unit.id, n.unit]));
  const edges = found.edges
    .filter((e) => e.src === unit.id || e.dst === unit.id)
    .map((e) => ({ ...e, other: e.src === unit.id ? e.dst : e.src }))
    .sort((a, b) => b.weight - a.weight);
  const evidence = state.recall && state.recall.evidence.find((e) => e.unit.id === unit.id);
  const rows = [
    ["time span", unit.time_span ? span(unit.time_span) : "none"],
    ["participants", unit.participants.join(", ") || "none"],
    ["places", unit.locations.join(", ") || "none"],
    ["said", unit.session_time ? when(unit.session_time) : "unknown"],
    ["session", unit.episode_id || "–"],
    ["source turns", unit.turn_ids.join(", ") || "–"],
    ["time phrases", unit.time_phrases.join(", ")],
    ["keywords", unit.keywords.join(", ")],
  ];
  for (const field of UPDATE_FIELDS) {
    const value = version && version[field] ? version[field]
      : unit[field] !== undefined ? unit[field] : (unit.extra || {})[field];
    if (value !== undefined && value !== null && value !== "") {
      const shown = Array.isArray(value) ? value.join(", ") : field.startsWith("valid_") ? when(String(value)) : String(value);
      rows.push([field.replace("_", " "), shown]);
    }
  }
  panel.append(...[
    el("h2", { id: "details-title" }, "Memory"),
    el("p", { class: "restatement big", "data-testid": "detail-restatement" }, unit.restatement),
    el("dl", { class: "fields", "data-testid": "detail-fields" },
      rows.filter(([, v]) => v).map(([k, v]) =>
        el("div", { "data-field": k }, el("dt", {}, k), el("dd", {}, linkIds(k, v, others))))),
    evidence ? el("p", { class: "meta" }, `evidence score ${fmt(evidence.score)} via ${evidence.views.join(", ")}`) : null,
    el("h3", {}, `Edges (${edges.length})`),
    edges.length
      ? el("ul", { class: "edges-list", "data-testid": "detail-edges" }, edges.map((e) =>
          el("li", { "data-kind": e.kind },
            // a supersedes edge runs new -> old: from the old unit it reads "superseded by"
            el("span", { class: `chip ${e.kind}` }, e.kind === "supersedes" && e.dst === unit.id ? "superseded by" : e.kind),
            el("span", { class: "meta" }, ` ${fmt(e.weight, 2)} `),
            el("button", { type: "button", class: "link", onclick: () => select(e.other) },
              short((others.get(e.other) || { restatement: e.other }).restatement, 90)))))
      : el("p", { class: "hint" }, "No edges."),
    el("p", { class: "meta id" }, "id ", iso(unit.id), " · namespace ", iso(unit.namespace), ` · stored ${when(unit.created_at)}`),
  ].filter(Boolean));
  if (state.who && !state.who.read_only) {
    panel.append(el("button", { type: "button", class: "danger", id: "delete-button", onclick: () => confirmDelete(unit) }, "Delete this memory…"));
  }
  panel.focus({ preventScroll: true });
}

const UNIT_FIELDS = new Set(["supersedes", "superseded by"]);

function linkIds(name, value, others) {
  // a knowledge-update field names other units: each is a link to it
  if (!UNIT_FIELDS.has(name)) return value;
  return value.split(", ").map((id) =>
    el("button", { type: "button", class: "link", "data-unit": id, onclick: () => select(id) },
      others.has(id) ? short(others.get(id).restatement, 80) : id));
}

function confirmDelete(unit) {
  const dialog = $("confirm-delete");
  clear($("confirm-text")).append(
    "“", iso(short(unit.restatement, 200)), "” (id ", iso(unit.id), ", namespace ", iso(unit.namespace), ")");
  dialog.returnValue = "";
  dialog.onclose = async () => {
    if (dialog.returnValue !== "delete") {
      $("delete-button")?.focus();
      return;
    }
    try {
      await api(`/v1/memories/${encodeURIComponent(unit.id)}`, { method: "DELETE", params: { namespace: unit.namespace } });
    } catch (error) {
      status(error.message, "error");
      return;
    }
    forget(unit.id);
    status(`Deleted memory ${unit.id}.`, "ok");
  };
  dialog.showModal();
}

function forget(id) {
  state.selected = null;
  if (state.recall) {
    state.recall.evidence = state.recall.evidence.filter((e) => e.unit.id !== id);
    state.graph.nodes = state.graph.nodes.filter((n) => n.unit.id !== id);
    state.graph.edges = state.graph.edges.filter((e) => e.src !== id && e.dst !== id);
    for (const round of state.rounds) round.plan.anchors = round.plan.anchors.filter((a) => a !== id);
    state.recall.trace.expansions = state.recall.trace.expansions.filter((p) => !p.nodes.includes(id));
    for (const round of state.rounds) round.paths = round.paths.filter((p) => !p.nodes.includes(id));
    renderEvidence();
    renderGraph();
    renderRounds();
  }
  clear($("details")).append(el("h2", { id: "details-title" }, "Memory"), el("p", { class: "hint" }, "Deleted."));
  if (!$("timeline-view").hidden) loadTimeline(state.timelineWindow);
}

// -- the timeline ----------------------------------------------------------------------------
async function loadTimeline(window_, offset = 0) {
  const namespace = $("namespace").value.trim() || state.namespace;
  state.timelineWindow = window_ || null;
  try {
    const found = await api("/v1/viewer/timeline", {
      params: {
        namespace,
        start: window_ ? window_.start : null,
        end: window_ ? window_.end : null,
        bins: 40,
        limit: 200,
        offset,
      },
    });
    state.namespace = found.namespace;
    renderTimeline(found, offset > 0);
  } catch (error) {
    status(error.message, "error");
  }
}

function renderTimeline(found, append) {
  $("timeline-summary").textContent = visible(
    `${found.total} units in ${found.namespace}` +
    (found.first ? `, from ${when(found.first)} to ${when(found.last)}` : "") +
    (found.undated ? `; ${found.undated} without a time` : "") +
    `; ${found.in_window} in this window.`);
  const chart = clear($("timeline"));
  const most = Math.max(1, ...found.bins.map((b) => b.count));
  const width = 1000 / Math.max(1, found.bins.length);
  found.bins.forEach((bin, i) => {
    const h = (160 * bin.count) / most;
    chart.append(svg("g", {
      class: `bin${bin.count ? "" : " zero"}`,
      "data-testid": "timeline-bin",
      "data-count": bin.count,
      tabindex: bin.count ? 0 : null,
      role: "button",
      "aria-label": `${span([bin.start, bin.end])}: ${bin.count} units`,
      onclick: () => bin.count && loadTimeline({ start: bin.start, end: bin.end }),
      onkeydown: (event) => {
        if ((event.key === "Enter" || event.key === " ") && bin.count) {
          event.preventDefault();
          loadTimeline({ start: bin.start, end: bin.end });
        }
      },
    },
    svg("rect", { x: (i * width + 1).toFixed(1), y: (170 - h).toFixed(1), width: Math.max(1, width - 2).toFixed(1), height: Math.max(h, 1).toFixed(1) }),
    svg("title", {}, `${span([bin.start, bin.end])}: ${bin.count} units`)));
  });
  if (found.bins.length) {
    chart.append(
      svg("text", { x: 2, y: 192, class: "axis" }, when(found.bins[0].start)),
      svg("text", { x: 998, y: 192, class: "axis", "text-anchor": "end" }, when(found.bins[found.bins.length - 1].end)),
    );
  }
  const list = append ? $("timeline-units") : clear($("timeline-units"));
  for (const placed of found.units) {
    const unit = placed.unit;
    list.append(el("li", {
      class: "timeline-unit", "data-testid": "timeline-unit", "data-id": unit.id, tabindex: 0, role: "button",
      onclick: () => select(unit.id),
      onkeydown: (event) => rowKeys(event, unit.id),
    },
    el("span", { class: "when" }, placed.basis === "span" ? span([placed.start, placed.end]) : `said ${when(placed.start)}`),
    el("span", {}, unit.restatement)));
  }
  const shown = found.offset + found.units.length;
  const more = $("timeline-more");
  more.hidden = shown >= found.in_window;
  more.onclick = () => loadTimeline(state.timelineWindow, shown);
}

// -- wiring ----------------------------------------------------------------------------------
function showTab(name) {
  const timeline = name === "timeline";
  $("search-view").hidden = timeline;
  $("timeline-view").hidden = !timeline;
  $("tab-search").setAttribute("aria-pressed", String(!timeline));
  $("tab-timeline").setAttribute("aria-pressed", String(timeline));
  const details = $("details");
  if (timeline) {
    $("timeline-details-slot").append(details);
    loadTimeline(null);
  } else {
    $("search-view").append(details);
  }
}

function wire() {
  $("key-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const key = $("key").value.trim();
    if (!key) return;
    state.key = key;
    window.localStorage.setItem(KEY_STORAGE, key);
    $("key").value = "";
    if (await loadWho()) {
      status("Key accepted.", "ok");
      const query = new URLSearchParams(window.location.search).get("q");
      if (query && !$("query").value) $("query").value = query;
      if ($("query").value) await runSearch();
      else $("query").focus();
    }
  });
  $("forget-key").addEventListener("click", () => {
    window.localStorage.removeItem(KEY_STORAGE);
    state.key = null;
    state.who = null;
    askKey("Key forgotten. Enter a key to go on.");
  });
  $("search-form").addEventListener("submit", (event) => {
    event.preventDefault();
    showTab("search");
    runSearch();
  });
  $("tab-search").addEventListener("click", () => showTab("search"));
  $("tab-timeline").addEventListener("click", () => showTab("timeline"));
  $("timeline-all").addEventListener("click", () => loadTimeline(null));
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
    if (event.key === "/" && !typing) {
      event.preventDefault();
      $("query").focus();
    }
  });
}

document.addEventListener("DOMContentLoaded", start);

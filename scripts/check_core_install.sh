#!/usr/bin/env bash
# A library install without the benchmark harness: `pip install .` (no extras) into a fresh venv,
# then Memory().add / search work, `ripplemem bench` names the install command, and none of the
# harness's packages (nltk, mem0ai, matplotlib, qdrant-client) is installed.
# Usage: bash scripts/check_core_install.sh   (or: make check-core-install)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t ripplemem-core-XXXXXX)"
trap 'rm -rf "$work"' EXIT
python="${PYTHON:-python3}"

"$python" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install -q --upgrade pip
# constraints only pin versions (the ones the benchmarks were measured with); they add no package
"$work/venv/bin/python" -m pip install -q -c "$repo/constraints.txt" "$repo"

cd "$work"  # away from the checkout: the installed package is the one imported
"$work/venv/bin/python" - <<'PY'
import importlib.metadata as metadata
import importlib.util

import ripplemem
from ripplemem import Memory

harness = ["nltk", "mem0ai", "matplotlib", "qdrant-client", "ripplemem-bench"]
installed = []
for name in harness:
    try:
        installed.append(f"{name}=={metadata.version(name)}")
    except metadata.PackageNotFoundError:
        pass
assert not installed, f"a core install pulled in: {installed}"
assert importlib.util.find_spec("ripplemem.eval") is None, "ripplemem.eval is still shipped"

memory = Memory()  # defaults: SQLite file in .ripplemem/, offline extractor and embedder
added = memory.add(
    [
        {"role": "user", "content": "I adopted a grey cat named Pixel in Porto last spring."},
        {"role": "assistant", "content": "Lovely! How is Pixel settling in?"},
        {"role": "user", "content": "Great, Pixel sleeps on the balcony every afternoon."},
    ],
    user_id="maya",
    session_time="2024-05-20T10:00",
)
recall = memory.search("Where did Maya adopt her cat?", user_id="maya")
memory.close()
top = recall.evidence[0].unit.restatement if recall.evidence else None
assert added.units and top is not None and "Porto" in " ".join(
    e.unit.restatement for e in recall.evidence
), top
print(f"ripplemem {metadata.version('ripplemem')} from {ripplemem.__file__}")
print(f"add: {len(added.units)} units, {added.edges} edges; search top: {top!r}")
print(f"not installed: {', '.join(harness)}; no ripplemem.eval")
PY

set +e
message="$("$work/venv/bin/ripplemem" bench locomo data.json 2>&1)"
code=$?
set -e
echo "ripplemem bench -> exit $code: $message"
[ "$code" -eq 2 ] && grep -q "pip install -e benchmarks" <<<"$message" && ! grep -q Traceback <<<"$message"
echo "core install check: OK"

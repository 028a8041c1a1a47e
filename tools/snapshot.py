"""The build's Pyodide memory snapshot step (tools/build.py calls `write_snapshot`).

The engine worker (engine-worker.js) starts Pyodide from a memory snapshot of an interpreter
that has already started and imported the engine: `node tools/snapshot.mjs` makes it, with the
build's own vendored Pyodide (a snapshot loads only into the Pyodide build that made it).
Without Node, or when Pyodide in Node cannot make one, the build says so and writes none: the
worker then starts Pyodide as before (config.js `engineSnapshot` is null). The same Pyodide and
engine zip make the same bytes, so the same name (tools/snapshot.mjs `fixedWorld`).
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MAKER = os.path.join(HERE, "snapshot.mjs")
TIMEOUT_S = 300
SNAPSHOT_HEX = 10           # the content hash in the name: py/snapshot-<10 hex>.gz


def snapshot_name(data):
    """The build-relative name of a snapshot file whose bytes are `data`:
    "py/snapshot-<first 10 hex of its sha256>.gz" (versioned: cached for good)."""
    return "py/snapshot-%s.gz" % hashlib.sha256(data).hexdigest()[:SNAPSHOT_HEX]


def note(msg):
    print("build: note: " + msg, file=sys.stderr)


def write_snapshot(out, pyodide_dir, host_zip):
    """Make the engine's memory snapshot for the build in `out`: `pyodide_dir` and `host_zip`
    relative to `out` (the vendored Pyodide, the engine's zip). -> its relative name
    (snapshot_name), or None (with a note on stderr) when none could be made."""
    node = shutil.which("node")
    if node is None:
        note("no node: the engine starts without a memory snapshot")
        return None
    tmp = os.path.join(out, "py", "snapshot.tmp")
    try:
        proc = subprocess.run(
            [node, MAKER, os.path.join(out, pyodide_dir), os.path.join(out, host_zip), tmp],
            capture_output=True, text=True, timeout=TIMEOUT_S)
    except (OSError, subprocess.SubprocessError) as e:
        proc = None
        why = str(e)
    if proc is not None:
        why = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
    if proc is None or proc.returncode != 0 or not os.path.isfile(tmp):
        if os.path.exists(tmp):
            os.remove(tmp)
        note("no memory snapshot (%s): the engine starts without one" % why)
        return None
    with open(tmp, "rb") as f:
        data = f.read()
    rel = snapshot_name(data)
    os.replace(tmp, os.path.join(out, rel))
    try:
        info = json.loads(proc.stdout.strip().splitlines()[-1])
        print("build: engine snapshot %s (%.1f MB in memory, %.1f MB gzip; made in %d ms)"
              % (rel, info["bytes"] / 1e6, info["gz"] / 1e6, sum(info["ms"].values())), file=sys.stderr)
    except (ValueError, IndexError, KeyError):
        pass
    return rel

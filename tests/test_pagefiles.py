"""pagefiles.js: the page's Python archive (tools/pyzip.py: a zip of stored entries, gzipped
whole) read back and written into an interpreter's file system, run in node against a fake
Emscripten FS. What the build writes comes back byte for byte, under the working directory;
an archive that is not what the build writes (compressed entries, cut short, hostile paths)
is refused with an error that names the problem, never written halfway outside its folder."""

import base64
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import pyzip  # noqa: E402

# Reads the archive (base64 in argv[2]) with pagefiles.js, writes it into a fake FS whose
# working directory is /home/web_user, prints {files: {path: base64}, made: [dirs]} or
# {error: message}.
HARNESS = """
import { unpack, writeFiles } from %s;
const files = new Map();
const dirs = new Set(["/", "/home", "/home/web_user"]);
const made = [];
const FS = {
  cwd: () => "/home/web_user",
  analyzePath: (p) => ({ exists: dirs.has(p) || files.has(p) }),
  mkdir: (p) => {
    if (dirs.has(p)) throw new Error("EEXIST " + p);
    if (!dirs.has(p.slice(0, p.lastIndexOf("/")) || "/")) throw new Error("ENOENT " + p);
    dirs.add(p); made.push(p);
  },
  writeFile: (p, data) => {
    if (!dirs.has(p.slice(0, p.lastIndexOf("/")))) throw new Error("ENOENT " + p);
    files.set(p, Buffer.from(data).toString("base64"));
  },
};
try {
  writeFiles(FS, await unpack(new Uint8Array(Buffer.from(process.argv[2], "base64"))));
  console.log(JSON.stringify({ files: Object.fromEntries(files), made }));
} catch (e) {
  console.log(JSON.stringify({ error: e.message, files: Object.fromEntries(files) }));
}
"""


def read_back(tmp_path, archive):
    if shutil.which("node") is None:
        pytest.skip("node is missing")
    script = tmp_path / "read.mjs"
    module = "file://" + os.path.join(ROOT, "pagefiles.js")
    script.write_text(HARNESS % json.dumps(module))
    out = subprocess.run(["node", str(script), base64.b64encode(archive).decode()],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


PATHS = ["crisp_core/cards.py", "ui/page/dom/vdom.py", "ui/shared/limits.py"]
BYTECODE = {"ui/page/dom/vdom.py": bytes(range(256)) * 3}


def expected():
    out = {}
    for rel in PATHS:
        if rel in BYTECODE:
            out["/home/web_user/" + rel[:-3] + ".mpy"] = BYTECODE[rel]
        else:
            with open(os.path.join(ROOT, rel), "rb") as f:
                out["/home/web_user/" + rel] = f.read()
    return out


def decoded(result):
    return {path: base64.b64decode(data) for path, data in result["files"].items()}


def test_the_builds_archive_comes_back_byte_for_byte_under_the_working_directory(tmp_path):
    archive, suffix = pyzip.archive("page", PATHS, BYTECODE)     # (what tools/build.py writes)
    assert suffix == ".zip.gz"
    result = read_back(tmp_path, archive)
    assert "error" not in result, result
    assert decoded(result) == expected()
    # each folder made once, parents first
    assert result["made"] == ["/home/web_user/crisp_core", "/home/web_user/ui",
                              "/home/web_user/ui/page", "/home/web_user/ui/page/dom",
                              "/home/web_user/ui/shared"]


def test_a_zip_the_server_already_inflated_reads_the_same(tmp_path):
    # (a server that sends the .gz with Content-Encoding: gzip: the browser undoes it)
    result = read_back(tmp_path, pyzip.make_zip(PATHS, BYTECODE, stored=True))
    assert decoded(result) == expected()


def test_compressed_entries_are_refused_by_name(tmp_path):
    result = read_back(tmp_path, pyzip.gzipped(pyzip.make_zip(PATHS, BYTECODE)))
    assert result["error"] == "page files: crisp_core/cards.py is compressed (method 8)"
    assert result["files"] == {}


@pytest.mark.parametrize("cut", [10, 100, 600, -30, -5])
def test_an_archive_cut_short_is_refused(tmp_path, cut):
    data = pyzip.make_zip(PATHS, BYTECODE, stored=True)
    result = read_back(tmp_path, data[:cut])
    assert result["error"].startswith("page files: "), result


def test_not_a_zip_is_refused(tmp_path):
    assert read_back(tmp_path, b"<!doctype html>not found")["error"] == "page files: not a zip"
    assert read_back(tmp_path, b"")["error"] == "page files: not a zip"


@pytest.mark.parametrize("name", ["../../etc/evil.py", "/etc/evil.py", "ui//x.py", "ui/./x.py"])
def test_a_path_out_of_the_working_directory_is_refused(tmp_path, name):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr(name, b"print('owned')")
    result = read_back(tmp_path, pyzip.gzipped(buf.getvalue()))
    assert result["error"].startswith("page files: refused path"), result
    assert result["files"] == {}

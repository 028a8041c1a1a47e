"""ui/'s folders say where code runs (README "Layout", docs/design.md "Two interpreters"):
ui/page/ on the page (MicroPython, main thread), ui/worker/ only in the engine worker
(Pyodide), ui/shared/ on both. The build's zips follow the folders (tools/build.py
UI_FOLDERS), so an import across them would fail in the browser, not here: this checks it."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ("page", "worker", "shared")
# what a module of each folder may import from ui/ (crisp_core is everyone's)
MAY_IMPORT = {"page": {"page", "shared"}, "worker": {"worker", "shared"}, "shared": {"shared"}}


def ui_imports(path):
    """The ui/ folders (page, worker, shared) the module at `path` imports from, anywhere in
    it (a lazy import inside a function counts too), with the line of each."""
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "ui":
                out.append((parts[1] if len(parts) > 1 else "", node.lineno))
    return out


def test_every_ui_module_sits_in_the_folder_of_where_it_runs():
    loose = [n for n in os.listdir(os.path.join(ROOT, "ui")) if n.endswith(".py")]
    assert loose == [], "ui/ modules outside ui/page, ui/worker, ui/shared: %s" % loose


def folder_modules(folder):
    """The repo-relative paths ('/'-separated) of the .py files under ui/<folder>/, its
    sub-packages' too, sorted."""
    out = []
    for here, dirs, names in os.walk(os.path.join(ROOT, "ui", folder)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.relpath(os.path.join(here, n), ROOT).replace(os.sep, "/")
                for n in names if n.endswith(".py")]
    return sorted(out)


def test_no_module_imports_across_the_folders():
    wrong = []
    for folder in FOLDERS:
        for rel in folder_modules(folder):
            for target, line in ui_imports(os.path.join(ROOT, rel)):
                if target not in MAY_IMPORT[folder]:
                    wrong.append("%s:%d imports ui.%s" % (rel, line, target))
    assert wrong == []


# ui/page/'s rooms by job (docs/design.md "The page's modules and phases"): a new module goes
# into the room of its job; a new room, or a module at the top, is a decision for the docs.
PAGE_ROOMS = {"host", "guest", "net", "client", "screens", "dom", "i18n"}
PAGE_TOP_MAX = 15


def test_the_page_keeps_its_modules_in_rooms_by_job():
    page = os.path.join(ROOT, "ui", "page")
    rooms = {n for n in os.listdir(page) if os.path.isdir(os.path.join(page, n))
             and n != "__pycache__"}
    assert rooms == PAGE_ROOMS
    top = [n for n in os.listdir(page) if n.endswith(".py")]
    assert "main.py" in top and len(top) <= PAGE_TOP_MAX, sorted(top)
    for room in rooms:      # one level of rooms: no sub-package inside a sub-package
        inside = os.listdir(os.path.join(page, room))
        assert [n for n in inside if os.path.isdir(os.path.join(page, room, n))
                and n != "__pycache__"] == [], room


def test_the_zips_take_their_ui_modules_by_folder():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crisp_build",
                                                  os.path.join(ROOT, "tools", "build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ui_py = ["ui/page/screens/render.py", "ui/shared/seal.py", "ui/worker/room.py"]
    assert build.in_folders(ui_py, "page") == ["ui/page/screens/render.py", "ui/shared/seal.py"]
    assert build.in_folders(ui_py, "host") == ["ui/shared/seal.py", "ui/worker/room.py"]

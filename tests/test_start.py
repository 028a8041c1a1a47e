"""start.py, the page's entry script, imports the page's modules a few per task (no one long
task on a phone's CPU): its MODULES must name every module ui/page/main.py imports, each after the
modules it imports itself, ui.page.main last. A module missing from the list would be imported with
the one that needs it (one longer task); one out of order would bring its imports along."""

import ast
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def start_modules():
    tree = ast.parse(open(os.path.join(ROOT, "start.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "MODULES":
            return [e.value for e in node.value.elts]
    raise AssertionError("start.py has no MODULES")


def module_imports(name):
    """The ui/ and crisp_core/ modules `name` imports as it is imported (its top level: an
    import inside a function runs later)."""
    path = os.path.join(ROOT, *name.split(".")) + ".py"
    tree = ast.parse(open(path, encoding="utf-8").read())
    out = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module in ("ui.page", "ui.worker", "ui.shared"):
                out += [node.module + "." + a.name for a in node.names]
            else:
                out.append(node.module)
    return [m for m in out if m.startswith(("ui.", "crisp_core."))]


def test_start_imports_every_module_of_the_page_after_its_own_imports():
    modules = start_modules()
    assert modules[-1] == "ui.page.main"
    assert len(set(modules)) == len(modules)
    for i, name in enumerate(modules):
        for dep in module_imports(name):
            assert dep in modules[:i], "%s imports %s: it must come first" % (name, dep)
    needed = set()
    todo = ["ui.page.main"]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += module_imports(name)
    assert set(modules) == needed


def test_the_profile_module_is_in_test_builds_only():
    import importlib.util

    spec = importlib.util.spec_from_file_location("crisp_build",
                                                  os.path.join(ROOT, "tools", "build.py"))
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    ui_py = ["ui/page/main.py", "ui/page/prof.py", "ui/worker/room.py"]
    assert build.page_files(ui_py, [], test=False) == ["ui/page/main.py"]
    assert build.page_files(ui_py, [], test=True) == ["ui/page/main.py", "ui/page/prof.py"]
